/*
 * mesh.c - ranks, coordinates, groups and their placement on nodes, for
 * any number of axes (mesh.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/mesh/mesh.h"

/* Axes sorted by nest: the default order, innermost first. */
static void
default_order(enum mesh_axis *o)
{
	int i, j;

	for (i = 0; i < MESH_N_AXES; i++)
		for (j = 0; j < MESH_N_AXES; j++)
			if (mesh_axis((enum mesh_axis)j)->nest == i)
				o[i] = (enum mesh_axis)j;
}

static void nth_order(int k, enum mesh_axis *out);

/* Every order, made once: the engine asks for one per evaluation. */
static const enum mesh_axis *
order_of(int k)
{
	static enum mesh_axis all[MESH_N_ORDERS][MESH_N_AXES];
	static int made;
	int i;

	if (!made) {
		for (i = 0; i < MESH_N_ORDERS; i++)
			nth_order(i, all[i]);
		made = 1;
	}
	return all[k >= 0 && k < MESH_N_ORDERS ? k : 0];
}

void
mesh_init(struct mesh *m, int gpus_per_node)
{
	int a;

	for (a = 0; a < MESH_N_AXES; a++)
		m->degree[a] = 1;
	memcpy(m->order, order_of(0), sizeof m->order);
	m->gpus_per_node = gpus_per_node > 0 ? gpus_per_node : 1;
}

/*
 * Permutation number k of the axes in lexicographic order of their nests
 * (the factorial number system): 0 is the default order.
 */
static void
nth_order(int k, enum mesh_axis *out)
{
	enum mesh_axis pool[MESH_N_AXES];
	int n = MESH_N_AXES, fact = 1, i, j, pick;

	default_order(pool);
	for (i = 2; i < n; i++)
		fact *= i;
	if (k < 0 || k >= MESH_N_ORDERS)
		k = 0;
	for (i = 0; i < MESH_N_AXES; i++) {
		pick = k / fact;
		k %= fact;
		out[i] = pool[pick];
		for (j = pick; j < n - 1; j++)
			pool[j] = pool[j + 1];
		n--;
		if (n > 1)
			fact /= n;
	}
}

void
mesh_set_order(struct mesh *m, int order)
{
	memcpy(m->order, order_of(order), sizeof m->order);
}

/* "tp-pp-dp" for each order, made once. */
static char order_text[MESH_N_ORDERS][MESH_N_AXES * 8];
static const char *order_list[MESH_N_ORDERS + 1];

const char *const *
mesh_order_names(void)
{
	enum mesh_axis o[MESH_N_AXES];
	int k, i;
	size_t used;

	if (order_list[0] != NULL)
		return order_list;
	for (k = 0; k < MESH_N_ORDERS; k++) {
		nth_order(k, o);
		used = 0;
		for (i = 0; i < MESH_N_AXES; i++)
			used += (size_t)snprintf(order_text[k] + used,
			    sizeof order_text[k] - used, "%s%s", i ? "-" : "",
			    mesh_axis(o[i])->key);
		order_list[k] = order_text[k];
	}
	return order_list;
}

const char *
mesh_order_name(int order)
{
	return mesh_order_names()[order >= 0 && order < MESH_N_ORDERS ?
	    order : 0];
}

static int
order_exact(const char *s, int *order)
{
	const char *const *names = mesh_order_names();
	int k;

	for (k = 0; s != NULL && k < MESH_N_ORDERS; k++)
		if (strcmp(s, names[k]) == 0) {
			*order = k;
			return 0;
		}
	return -1;
}

/*
 * A name that leaves optional axes out ("pp-tp-dp", written before CP
 * was an axis): each goes just outside the axis that precedes it in the
 * default order (CP outside TP), or innermost if none does.
 */
static int
order_completed(const char *s, int *order)
{
	enum mesh_axis given[MESH_N_AXES], def[MESH_N_AXES], a;
	char key[16], full[MESH_N_AXES * 8];
	const char *p = s;
	int n = 0, i, j, k, have;
	size_t len, used = 0;

	while (*p != '\0') {
		len = strcspn(p, "-");
		if (len == 0 || len >= sizeof key || n == MESH_N_AXES)
			return -1;
		memcpy(key, p, len);
		key[len] = '\0';
		if (mesh_axis_parse(key, &a) != 0)
			return -1;
		for (i = 0; i < n; i++)
			if (given[i] == a)
				return -1;
		given[n++] = a;
		p += len;
		if (*p == '-' && *++p == '\0')
			return -1;
	}
	default_order(def);
	for (i = 0; i < MESH_N_AXES; i++) {
		for (j = 0, have = 0; j < n; j++)
			have |= given[j] == def[i];
		if (have)
			continue;
		if (!mesh_axis(def[i])->optional)	/* only CP may be left out */
			return -1;
		for (k = 0; i > 0 && k < n && given[k] != def[i - 1]; k++)
			;
		k = i > 0 && k < n ? k + 1 : 0;
		memmove(given + k + 1, given + k, (size_t)(n - k) *
		    sizeof given[0]);
		given[k] = def[i];
		n++;
	}
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(full + used, sizeof full - used,
		    "%s%s", i ? "-" : "", mesh_axis(given[i])->key);
	return order_exact(full, order);
}

const char *
mesh_order_short(int order, const int *degree, char *buf, size_t size)
{
	const char *name = mesh_order_name(order), *p = name;
	char key[16];
	enum mesh_axis a;
	size_t len, used = 0;

	if (size == 0)
		return buf;
	buf[0] = '\0';
	while (*p != '\0') {
		len = strcspn(p, "-");
		if (len < sizeof key) {
			memcpy(key, p, len);
			key[len] = '\0';
			if (mesh_axis_parse(key, &a) == 0 &&
			    !(mesh_axis(a)->optional && degree[a] <= 1) &&
			    used < size)
				used += (size_t)snprintf(buf + used, size - used,
				    "%s%s", used ? "-" : "", key);
		}
		p += len;
		if (*p == '-')
			p++;
	}
	return buf;
}

int
mesh_order_canonical(int order, const int *degree)
{
	char buf[MESH_N_AXES * 8];
	int back;

	mesh_order_short(order, degree, buf, sizeof buf);
	return mesh_order_parse(buf, &back) == 0 && back == order;
}

int
mesh_order_parse(const char *s, int *order)
{
	if (s == NULL)
		return -1;
	return order_exact(s, order) == 0 ? 0 : order_completed(s, order);
}

long
mesh_product(const int *degree)
{
	long n = 1;
	int a;

	for (a = 0; a < MESH_N_AXES; a++) {
		if (degree[a] < 1 || n > MESH_MAX_RANKS / degree[a])
			return 0;
		n *= degree[a];
	}
	return n;
}

long
mesh_size(const struct mesh *m)
{
	return mesh_product(m->degree);
}

static long
stride_in(const enum mesh_axis *order, const int *degree, enum mesh_axis a)
{
	long s = 1;
	int i;

	for (i = 0; i < MESH_N_AXES && order[i] != a; i++)
		s *= degree[order[i]];
	return s;
}

long
mesh_stride(const struct mesh *m, enum mesh_axis a)
{
	return stride_in(m->order, m->degree, a);
}

long
mesh_order_stride(int order, const int *degree, enum mesh_axis a)
{
	return stride_in(order_of(order), degree, a);
}

void
mesh_coords(const struct mesh *m, long rank, int coord[MESH_N_AXES])
{
	int i;

	for (i = 0; i < MESH_N_AXES; i++) {
		enum mesh_axis a = m->order[i];
		int d = m->degree[a] > 0 ? m->degree[a] : 1;

		coord[a] = (int)(rank % d);
		rank /= d;
	}
}

long
mesh_rank(const struct mesh *m, const int coord[MESH_N_AXES])
{
	long rank = 0;
	int i;

	for (i = MESH_N_AXES - 1; i >= 0; i--) {
		enum mesh_axis a = m->order[i];

		rank = rank * m->degree[a] + coord[a];
	}
	return rank;
}

int
mesh_group(const struct mesh *m, enum mesh_axis a, long rank, long *members)
{
	long first = mesh_group_id(m, a, rank), stride = mesh_stride(m, a);
	int i;

	for (i = 0; i < m->degree[a]; i++)
		members[i] = first + i * stride;
	return m->degree[a];
}

long
mesh_group_id(const struct mesh *m, enum mesh_axis a, long rank)
{
	int coord[MESH_N_AXES];

	mesh_coords(m, rank, coord);
	return rank - coord[a] * mesh_stride(m, a);
}

/*
 * With g GPUs per node a group of n ranks `stride` apart has
 * k = min(n, g / stride) ranks in each node it touches (k = 1 once
 * stride >= g), and spans ceil(n / k) nodes.
 */
/* How many blocks of `size` GPUs n ranks `stride` apart touch. */
static int
span_blocks(long n, long stride, long size)
{
	long k = stride >= size ? 1 : size / stride;

	if (k > n)
		k = n;
	if (k < 1)
		k = 1;
	return (int)((n + k - 1) / k);
}

void
mesh_span_place(int n, long stride, int gpus_per_node, int domain_gpus,
    struct mesh_span *g)
{
	long k;

	g->n = n > 0 ? n : 1;
	if (stride < 1)
		stride = 1;
	k = stride >= gpus_per_node ? 1 : gpus_per_node / stride;
	if (k > g->n)
		k = g->n;
	if (k < 1)
		k = 1;
	g->per_node = (int)k;
	g->nodes = (int)((g->n + k - 1) / k);
	g->domains = domain_gpus > gpus_per_node ? span_blocks(g->n, stride,
	    domain_gpus) : g->nodes;
}

void
mesh_span_of(const struct mesh *m, enum mesh_axis a, struct mesh_span *g)
{
	mesh_span_place(m->degree[a], mesh_stride(m, a), m->gpus_per_node, 0,
	    g);
}

const char *
mesh_labels_text(char *buf, size_t size)
{
	static char labels[MESH_N_AXES * 16];	/* made once: notes ask often */
	size_t used = 0, n;
	int a;

	if (labels[0] == '\0')
		for (a = 0; a < MESH_N_AXES && used < sizeof labels; a++)
			used += (size_t)snprintf(labels + used,
			    sizeof labels - used, "%s%s", a ? " x " : "",
			    mesh_axis((enum mesh_axis)a)->label);
	if (size == 0)
		return buf;
	n = strlen(labels);
	if (n >= size)
		n = size - 1;
	memcpy(buf, labels, n);
	buf[n] = '\0';
	return buf;
}

const char *
mesh_degrees_text(const struct mesh *m, char *buf, size_t size)
{
	size_t used = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MESH_N_AXES && used < size; a++)
		used += (size_t)snprintf(buf + used, size - used, "%s%d",
		    a ? " x " : "", m->degree[a]);
	return buf;
}

/* An optional axis (CP) left out of a layout's text while it is 1. */
static int
skipped(int a, int degree)
{
	return mesh_axis((enum mesh_axis)a)->optional && degree <= 1;
}

const char *
mesh_layout_text(const struct mesh *m, char *buf, size_t size)
{
	size_t used = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MESH_N_AXES && used < size; a++)
		if (!skipped(a, m->degree[a]))
			used += (size_t)snprintf(buf + used, size - used,
			    "%s%s %d", used ? " x " : "",
			    mesh_axis((enum mesh_axis)a)->label, m->degree[a]);
	return buf;
}

const char *
mesh_keys_text(const int *degree, char *buf, size_t size)
{
	size_t used = 0;
	int a;

	buf[0] = '\0';
	for (a = 0; a < MESH_N_AXES && used < size; a++)
		if (!skipped(a, degree[a]))
			used += (size_t)snprintf(buf + used, size - used,
			    "%s%s %d", used ? " x " : "",
			    mesh_axis((enum mesh_axis)a)->key, degree[a]);
	return buf;
}
