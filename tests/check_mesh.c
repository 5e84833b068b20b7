/*
 * check_mesh.c - the parallel layout (core/mesh): ranks and coordinates
 * round trip, groups hold the ranks that share every other coordinate,
 * group placement on nodes, the rank orders, the axis table, and the
 * search grid and engine groups unchanged from before the mesh (the
 * formulas the engine and the simulator used then are kept below as the
 * oracle).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine/costmodel.h"
#include "core/engine/costmodel_int.h"
#include "core/mesh/mesh.h"

#define MAX_RANKS	4096

/* ---- the formulas of before the mesh (commit 7e79eb2) ---- */

/* costmodel_net.c: axes innermost first, one row per rank order. */
enum old_axis { OLD_TP, OLD_PP, OLD_DP };
static const enum old_axis old_orders[][3] = {
	{ OLD_TP, OLD_PP, OLD_DP }, { OLD_TP, OLD_DP, OLD_PP },
	{ OLD_PP, OLD_TP, OLD_DP }, { OLD_PP, OLD_DP, OLD_TP },
	{ OLD_DP, OLD_TP, OLD_PP }, { OLD_DP, OLD_PP, OLD_TP },
};
static const char *const old_order_names[] = { "tp-pp-dp", "tp-dp-pp",
	"pp-tp-dp", "pp-dp-tp", "dp-tp-pp", "dp-pp-tp" };
#define OLD_ORDERS	6
static int	new_order(int old);

static int
old_size(int dp, int tp, int pp, enum old_axis a)
{
	return a == OLD_TP ? tp : a == OLD_PP ? pp : dp;
}

static void
old_group_of(int dp, int tp, int pp, int order, int gpn, enum old_axis axis,
    struct mesh_span *g)
{
	const enum old_axis *o = old_orders[order];
	long stride = 1, k;
	int i, n = old_size(dp, tp, pp, axis);

	for (i = 0; i < 3 && o[i] != axis; i++)
		stride *= old_size(dp, tp, pp, o[i]);
	g->n = n > 0 ? n : 1;
	k = stride >= gpn ? 1 : gpn / stride;
	if (k > g->n)
		k = g->n;
	if (k < 1)
		k = 1;
	g->per_node = (int)k;
	g->nodes = (int)((g->n + k - 1) / k);
}

/* layout_grid.c: TP powers of two, PP every divisor, DP the rest. */
struct old_grid {
	int	gpus, tp_cap, layers, tp, pp, dp;
};

static int
old_grid_next(struct old_grid *g)
{
	while (g->tp <= g->tp_cap && g->tp <= g->gpus &&
	    g->gpus % g->tp == 0) {
		while (++g->pp <= g->gpus / g->tp && g->pp <= g->layers) {
			if ((g->gpus / g->tp) % g->pp == 0) {
				g->dp = g->gpus / (g->tp * g->pp);
				return 1;
			}
		}
		g->tp *= 2;
		g->pp = 0;
	}
	return 0;
}

/* sim_exec.c and run_exec.c: rank (r*p + s)*t + k. */
static int
old_sim_rank(int p, int t, int r, int s, int k)
{
	return (r * p + s) * t + k;
}

/* ---- helpers ---- */

static void
mesh_of(struct mesh *m, int dp, int tp, int pp, int order, int gpn)
{
	mesh_init(m, gpn);
	m->degree[MESH_DP] = dp;
	m->degree[MESH_TP] = tp;
	m->degree[MESH_PP] = pp;
	mesh_set_order(m, new_order(order));
}

/*
 * The order an old (three-axis) order name means now: CP, of degree 1
 * in these tests, just outside TP (mesh_order_parse).
 */
static int
new_order(int old)
{
	int o = -1;

	ck_assert_int_eq(mesh_order_parse(old_order_names[old], &o), 0);
	return o;
}

static enum mesh_axis
new_axis(enum old_axis a)
{
	return a == OLD_TP ? MESH_TP : a == OLD_PP ? MESH_PP : MESH_DP;
}

/*
 * Every rank: coordinates in range, back to the same rank, each rank met
 * once; every group (checked from its first member): its members share
 * every other coordinate and run 0.. along the axis. Returns the number
 * of violations (plain comparisons: Check's asserts are too slow for
 * millions of them).
 */
static long
check_layout(const struct mesh *m)
{
	static unsigned char seen[MAX_RANKS];
	long n = mesh_size(m), r, members[MAX_RANKS], bad = 0;
	int c[MESH_N_AXES], c2[MESH_N_AXES], a, b, i, k;

	if (n < 1 || n > MAX_RANKS)
		return 1;
	memset(seen, 0, (size_t)n);
	for (r = 0; r < n; r++) {
		mesh_coords(m, r, c);
		for (a = 0; a < MESH_N_AXES; a++)
			bad += c[a] < 0 || c[a] >= m->degree[a];
		bad += mesh_rank(m, c) != r;
		seen[r]++;
		for (a = 0; a < MESH_N_AXES; a++) {
			bad += mesh_group_id(m, (enum mesh_axis)a, r) !=
			    r - (long)c[a] * mesh_stride(m, (enum mesh_axis)a);
			if (c[a] != 0)
				continue;
			k = mesh_group(m, (enum mesh_axis)a, r, members);
			bad += k != m->degree[a] || members[0] != r;
			for (i = 0; i < k; i++) {
				mesh_coords(m, members[i], c2);
				bad += c2[a] != i;
				for (b = 0; b < MESH_N_AXES; b++)
					bad += b != a && c2[b] != c[b];
			}
		}
	}
	for (r = 0; r < n; r++)
		bad += seen[r] != 1;
	return bad;
}

/* ---- tests ---- */

/*
 * Every layout of up to 4,096 ranks whose degrees are the sizes the
 * playground and the search step through (1, 2, 3, 4, 6, 8, 12, ...),
 * and every layout at all up to 64 ranks, under every rank order.
 */
START_TEST(round_trip_every_layout)
{
	static const int nice[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
	    96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096 };
	const int n = sizeof nice / sizeof nice[0];
	struct mesh m;
	int i, j, k, o, dp, tp, pp, layouts = 0;
	long bad = 0;

	for (o = 0; o < OLD_ORDERS; o++) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				for (k = 0; k < n; k++) {
					long sz = (long)nice[i] * nice[j] *
					    nice[k];

					if (sz > MAX_RANKS)
						continue;
					mesh_of(&m, nice[i], nice[j], nice[k],
					    o, 8);
					bad += check_layout(&m);
					layouts++;
				}
		for (dp = 1; dp <= 64; dp++)
			for (tp = 1; dp * tp <= 64; tp++)
				for (pp = 1; dp * tp * pp <= 64; pp++) {
					mesh_of(&m, dp, tp, pp, o, 8);
					bad += check_layout(&m);
					layouts++;
				}
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_gt(layouts, 6 * 1000);
}
END_TEST

/*
 * Every layout at all of up to 4,096 ranks (every dp x tp x pp, about
 * 142,000 of them, under every order): the round trip and each group's
 * first member on 17 ranks spread over each; every rank and every group
 * member when there are at most 256 ranks.
 */
START_TEST(round_trip_sampled_every_layout)
{
	struct mesh m;
	long n, r, members[MAX_RANKS], bad = 0, layouts = 0;
	int o, dp, tp, pp, k, a, i, c[MESH_N_AXES], c2[MESH_N_AXES];

	for (o = 0; o < OLD_ORDERS; o++)
		for (dp = 1; dp <= MAX_RANKS; dp++)
			for (tp = 1; dp * tp <= MAX_RANKS; tp++)
				for (pp = 1; dp * tp * pp <= MAX_RANKS; pp++) {
		mesh_of(&m, dp, tp, pp, o, 8);
		n = mesh_size(&m);
		bad += n != (long)dp * tp * pp;
		layouts++;
		for (k = 0; k <= (n <= 256 ? n - 1 : 16); k++) {
			r = n <= 256 ? k : k == 16 ? n - 1 : k * n / 16;
			mesh_coords(&m, r, c);
			bad += mesh_rank(&m, c) != r;
			for (a = 0; a < MESH_N_AXES; a++) {
				bad += c[a] < 0 || c[a] >= m.degree[a];
				/* The group's first member: the same place
				 * on every other axis, 0 on this one. */
				mesh_coords(&m, mesh_group_id(&m,
				    (enum mesh_axis)a, r), c2);
				bad += c2[a] != 0;
				c2[a] = c[a];
				bad += memcmp(c, c2, sizeof c) != 0;
				if (n > 256)
					continue;
				mesh_group(&m, (enum mesh_axis)a, r, members);
				for (i = 0; i < m.degree[a]; i++) {
					mesh_coords(&m, members[i], c2);
					bad += c2[a] != i;
					c2[a] = c[a];
					bad += memcmp(c, c2, sizeof c) != 0;
				}
			}
		}
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_gt(layouts, 6 * 140000);
}
END_TEST

/* The simulator's and the MPI run's numbering: TP innermost, then PP. */
START_TEST(default_order_is_the_simulators)
{
	struct mesh m;
	int r, s, k, c[MESH_N_AXES];

	mesh_of(&m, 2, 2, 2, 0, 8);
	for (r = 0; r < 2; r++)
		for (s = 0; s < 2; s++)
			for (k = 0; k < 2; k++) {
				c[MESH_DP] = r;
				c[MESH_PP] = s;
				c[MESH_TP] = k;
				c[MESH_CP] = 0;
				ck_assert_int_eq(mesh_rank(&m, c),
				    old_sim_rank(2, 2, r, s, k));
			}
	mesh_of(&m, 1, 4, 1, 0, 8);
	ck_assert_int_eq(mesh_stride(&m, MESH_TP), 1);
	mesh_of(&m, 2, 1, 4, 0, 8);
	ck_assert_int_eq(mesh_stride(&m, MESH_DP), 4);
}
END_TEST

/* With CP: every layout of degrees 1 to 4 on the four axes, under each
 * of the 24 orders. */
START_TEST(four_axes_every_order)
{
	struct mesh m;
	int o, d[MESH_N_AXES], layouts = 0;
	long bad = 0;

	for (o = 0; o < MESH_N_ORDERS; o++)
		for (d[0] = 1; d[0] <= 4; d[0]++)
			for (d[1] = 1; d[1] <= 4; d[1]++)
				for (d[2] = 1; d[2] <= 4; d[2]++)
					for (d[3] = 1; d[3] <= 4; d[3]++) {
		mesh_init(&m, 8);
		memcpy(m.degree, d, sizeof d);
		mesh_set_order(&m, o);
		bad += mesh_size(&m) != (long)d[0] * d[1] * d[2] * d[3];
		bad += check_layout(&m);
		layouts++;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(layouts, 24 * 256);
}
END_TEST

START_TEST(orders_named_as_before)
{
	int o, back;

	char name[32], *p;

	/* every old name still parses, to the same order with CP (1 in
	 * old layouts) just outside TP */
	for (o = 0; o < OLD_ORDERS; o++) {
		ck_assert_int_eq(mesh_order_parse(old_order_names[o], &back), 0);
		snprintf(name, sizeof name, "%s", mesh_order_name(back));
		p = strstr(name, "tp-cp");
		ck_assert_ptr_nonnull(p);
		memmove(p + 2, p + 5, strlen(p + 5) + 1);
		ck_assert_str_eq(name, old_order_names[o]);
	}
	for (o = 0; o < MESH_N_ORDERS; o++) {
		ck_assert_int_eq(mesh_order_parse(mesh_order_name(o), &back), 0);
		ck_assert_int_eq(back, o);
	}
	ck_assert_str_eq(mesh_order_name(0), "tp-cp-pp-dp");
	ck_assert_ptr_null(mesh_order_names()[MESH_N_ORDERS]);
	ck_assert_int_eq(mesh_order_parse("tp-tp-dp", &back), -1);
	ck_assert_int_eq(mesh_order_parse("tp-pp", &back), -1);
	ck_assert_int_eq(mesh_order_parse("tp-pp-", &back), -1);
	ck_assert_int_eq(mesh_order_parse("ep-tp", &back), -1);
	ck_assert_int_eq(mesh_order_parse(NULL, &back), -1);
}
END_TEST

/*
 * Placement counted rank by rank: where the stride divides the GPUs per
 * node or is a multiple of it, the span is what the ranks' nodes say.
 */
START_TEST(span_counts_nodes)
{
	static const int gpns[] = { 1, 2, 4, 8, 16 };
	long members[MAX_RANKS];
	struct mesh m;
	struct mesh_span sp;
	int g, o, a, dp, tp, pp, i;

	for (g = 0; g < 5; g++)
		for (o = 0; o < OLD_ORDERS; o++)
			for (dp = 1; dp <= 16; dp *= 2)
				for (tp = 1; tp <= 16; tp *= 2)
					for (pp = 1; pp <= 8; pp *= 2)
						for (a = 0; a < MESH_N_AXES; a++) {
		int gpn = gpns[g], nodes = 0, most = 0, cnt = 0;
		long last = -1;

		mesh_of(&m, dp, tp, pp, o, gpn);
		if (mesh_size(&m) % gpn != 0)
			continue;
		mesh_span_of(&m, (enum mesh_axis)a, &sp);
		mesh_group(&m, (enum mesh_axis)a, 0, members);
		for (i = 0; i < m.degree[a]; i++) {
			long node = members[i] / gpn;

			if (node != last) {
				nodes++;
				cnt = 0;
				last = node;
			}
			if (++cnt > most)
				most = cnt;
		}
		ck_assert_int_eq(sp.n, m.degree[a]);
		ck_assert_int_eq(sp.nodes, nodes);
		ck_assert_int_eq(sp.per_node, most);
	}
}
END_TEST

/*
 * The search grid and the engine's groups for every candidate of the
 * published-layout tests (tests/check_search.c: Llama 3 405B on 8,192
 * and 16,384 GPUs, GPT-3 on 384 to 1,536, MT-NLG on 2,520, BLOOM on
 * 384; 8 GPUs a node), under every rank order, as before the mesh.
 */
START_TEST(grid_and_groups_as_before)
{
	static const struct { int gpus, layers; } runs[] = {
		{ 8192, 126 }, { 16384, 126 }, { 384, 96 }, { 768, 96 },
		{ 1536, 96 }, { 2520, 105 }, { 384, 70 },
		{ 16, 4 }, { 12, 12 }, { 7, 8 }, { 64, 80 },
	};
	struct cm_config c;
	struct cm_grid g;
	struct old_grid old;
	struct mesh_span a, b;
	int i, o, x, candidates = 0;

	for (i = 0; i < (int)(sizeof runs / sizeof runs[0]); i++) {
		memset(&c, 0, sizeof c);
		c.gpus = runs[i].gpus;
		c.gpus_per_node = 8;
		c.model.layers = runs[i].layers;
		memset(&old, 0, sizeof old);
		old.gpus = c.gpus;
		old.tp_cap = 8 * c.gpus_per_node;
		old.layers = c.model.layers;
		old.tp = 1;
		cm_grid_start(&g, &c);
		for (;;) {
			int more = cm_grid_next(&g);

			ck_assert_int_eq(more, old_grid_next(&old));
			if (!more)
				break;
			cm_grid_apply(&g, &c);
			ck_assert_int_eq(c.tp, old.tp);
			ck_assert_int_eq(c.pp, old.pp);
			ck_assert_int_eq(c.dp, old.dp);
			ck_assert(cm_grid_is(&g, &c));
			candidates++;
			for (o = 0; o < OLD_ORDERS; o++)
				for (x = 0; x < 3; x++) {
					c.rank_order = new_order(o);
					cm_group_of(&c, new_axis((enum old_axis)x),
					    &a);
					old_group_of(c.dp, c.tp, c.pp, o, 8,
					    (enum old_axis)x, &b);
					ck_assert_int_eq(a.n, b.n);
					ck_assert_int_eq(a.per_node, b.per_node);
					ck_assert_int_eq(a.nodes, b.nodes);
				}
		}
	}
	ck_assert_int_gt(candidates, 100);
}
END_TEST

/* The rows: keys parse back, the default order nests TP in PP in DP,
 * exactly one axis takes the rest, and the engine reads each degree. */
START_TEST(axis_table)
{
	struct cm_config c;
	enum mesh_axis back;
	struct mesh m;
	int a, rest = 0, nests = 0;
	char buf[64];

	memset(&c, 0, sizeof c);
	c.dp = 4;
	c.tp = 8;
	c.pp = 2;
	c.gpus_per_node = 8;
	for (a = 0; a < MESH_N_AXES; a++) {
		const struct mesh_axis_info *x = mesh_axis((enum mesh_axis)a);

		ck_assert_int_eq(x->axis, a);
		ck_assert_int_eq(mesh_axis_parse(x->key, &back), 0);
		ck_assert_int_eq(back, a);
		ck_assert_ptr_nonnull(cm_key_find(x->key));
		ck_assert_ptr_nonnull(x->help);
		ck_assert_ptr_nonnull(x->priced);
		ck_assert_ptr_nonnull(x->framework);
		rest += x->step == MESH_STEP_REST;
		nests |= 1 << x->nest;
		cm_set_degree(&c, (enum mesh_axis)a, 3 + a);
		ck_assert_int_eq(cm_degree(&c, (enum mesh_axis)a), 3 + a);
	}
	ck_assert_int_eq(rest, 1);
	ck_assert_int_eq(nests, (1 << MESH_N_AXES) - 1);
	ck_assert_int_eq(mesh_axis_parse("ep", &back), -1);
	ck_assert_int_eq(c.dp * c.tp * c.pp * c.cp, cm_layout_gpus(&c));
	cm_mesh(&c, &m);
	ck_assert_str_eq(mesh_labels_text(buf, sizeof buf),
	    "DP x TP x PP x CP");
	ck_assert_str_eq(mesh_degrees_text(&m, buf, sizeof buf),
	    "3 x 4 x 5 x 6");
	ck_assert_str_eq(mesh_layout_text(&m, buf, sizeof buf),
	    "DP 3 x TP 4 x PP 5 x CP 6");
	/* an optional axis at 1 is left out of a layout's text */
	m.degree[MESH_CP] = 1;
	ck_assert_str_eq(mesh_layout_text(&m, buf, sizeof buf),
	    "DP 3 x TP 4 x PP 5");
	m.degree[MESH_TP] = 1 << 20;
	m.degree[MESH_PP] = 1 << 20;
	ck_assert_int_eq(mesh_size(&m), 0);
}
END_TEST

static Suite *
mesh_suite(void)
{
	Suite *s = suite_create("mesh");
	TCase *tc = tcase_create("mesh");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, round_trip_every_layout);
	tcase_add_test(tc, round_trip_sampled_every_layout);
	tcase_add_test(tc, default_order_is_the_simulators);
	tcase_add_test(tc, orders_named_as_before);
	tcase_add_test(tc, span_counts_nodes);
	tcase_add_test(tc, grid_and_groups_as_before);
	tcase_add_test(tc, axis_table);
	tcase_add_test(tc, four_axes_every_order);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(mesh_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
