/*
 * check_player.c - the animation player's model: the clock, stepping from
 * event to event, what is active at a time t, the transfers in flight and
 * their ring steps, the bytes per link, the memory at t, the Gantt rows
 * and the transfer lane, what each device holds, and the settings a
 * learner turns.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim/player.h"
#include "core/sim/sim_knob.h"

/* A player for mode on gpus devices with schedule, m and v (0: default). */
static void
open_player(struct player *p, enum sim_mode mode, int gpus,
    enum pipe_schedule sk, int m, int v)
{
	struct sim_config cfg;
	struct pl_err err;

	sim_config_default(&cfg, mode, gpus);
	cfg.schedule = sk;
	if (m > 0)
		cfg.microbatches = m;
	if (v > 0)
		cfg.vstages = v;
	ck_assert_msg(player_init(p, &cfg, &err) == 0, "init: %s", err.msg);
}

static double
mid(const struct sim_event *e)
{
	return 0.5 * (e->start + e->end);
}

START_TEST(step_event_to_event)
{
	const struct sim_timeline *tl;
	struct player p;
	double first = INFINITY, prev;
	size_t i, n = 0, back = 0;

	open_player(&p, SIM_PP, 4, PIPE_GPIPE, 8, 0);
	tl = &p.res.tl;
	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind != SIM_IDLE && tl->ev[i].start > 0 &&
		    tl->ev[i].start < first)
			first = tl->ev[i].start;
	p.playing = 1;
	ck_assert_int_eq(player_step(&p, 1), 1);
	ck_assert_int_eq(p.playing, 0);
	ck_assert(fabs(p.now - first) < 1e-15);
	/* Forward through every stop: strictly increasing, ends at the end. */
	prev = p.now;
	while (player_step(&p, 1)) {
		ck_assert(p.now > prev);
		prev = p.now;
		n++;
	}
	ck_assert(n > 10);
	ck_assert(p.now == p.res.step_time);
	ck_assert_int_eq(player_step(&p, 1), 0);
	/* Back to the start, stopping at the same events. */
	while (player_step(&p, -1))
		back++;
	ck_assert(p.now == 0.0);
	ck_assert_uint_eq(back, n + 1);
	player_free(&p);
}
END_TEST

START_TEST(clock_and_speed)
{
	struct player p;
	double end;
	int i;

	open_player(&p, SIM_PP, 4, PIPE_1F1B, 8, 0);
	end = p.res.step_time;
	ck_assert_int_eq(player_advance(&p, 1.0), 0);	/* paused */
	player_toggle(&p);
	ck_assert_int_eq(p.playing, 1);
	ck_assert(player_speed_factor(&p) == 1.0);
	ck_assert_int_eq(player_advance(&p, PLAYER_BASE_SECONDS / 4), 1);
	ck_assert(fabs(p.now - end / 4) < 1e-12 * end);
	ck_assert(player_speed_change(&p, 1) == 2.0);
	player_advance(&p, PLAYER_BASE_SECONDS / 8);
	ck_assert(fabs(p.now - end / 2) < 1e-12 * end);
	for (i = 0; i < 10; i++)
		player_speed_change(&p, 1);
	ck_assert(player_speed_factor(&p) == 8.0);
	for (i = 0; i < 10; i++)
		player_speed_change(&p, -1);
	ck_assert(player_speed_factor(&p) == 0.125);
	/* Past the end: stops there and pauses; Space starts over. */
	player_advance(&p, 1e6);
	ck_assert(p.now == end);
	ck_assert_int_eq(p.playing, 0);
	player_toggle(&p);
	ck_assert(p.now == 0.0 && p.playing == 1);
	player_step(&p, 1);
	player_restart(&p);
	ck_assert(p.now == 0.0 && p.playing == 1);
	ck_assert_int_eq(player_cursor_col(&p, 50, 0.0), 0);
	p.now = end;
	ck_assert_int_eq(player_cursor_col(&p, 50, 0.0), 49);
	p.now = end / 2;
	ck_assert_int_eq(player_cursor_col(&p, 50, 0.0), 25);
	/* On a time axis twice as long the cursor is half as far. */
	ck_assert_int_eq(player_cursor_col(&p, 50, 2 * end), 12);
	player_free(&p);
}
END_TEST

/* Every compute event is what its device is busy with in its middle. */
START_TEST(active_at_t)
{
	static const enum sim_mode modes[] = {
		SIM_SINGLE, SIM_DP, SIM_TP, SIM_PP, SIM_FSDP, SIM_3D, SIM_CP
	};
	const struct sim_event *e, *b;
	struct player p;
	size_t i;

	open_player(&p, modes[_i], modes[_i] == SIM_3D ? 8 :
	    modes[_i] == SIM_SINGLE ? 1 : 4, PIPE_1F1B, 0, 0);
	for (i = 0; i < p.res.tl.n_ev; i++) {
		e = &p.res.tl.ev[i];
		b = player_busy(&p, e->device, mid(e));
		if (sim_kind_is_compute(e->kind) || e->kind == SIM_OPTIMIZER)
			ck_assert_ptr_eq(b, e);
		else if (e->kind == SIM_IDLE && e->end - e->start > 1e-12)
			ck_assert_ptr_null(b);	/* not rounding slivers */
	}
	player_free(&p);
}
END_TEST

START_TEST(pipeline_idle_and_sends)
{
	const struct sim_timeline *tl;
	struct player_flow f[8];
	struct player p;
	size_t i, n;
	int acts = 0, grads = 0;

	open_player(&p, SIM_PP, 4, PIPE_GPIPE, 1, 0);
	tl = &p.res.tl;
	for (i = 0; i < tl->n_ev; i++) {
		const struct sim_event *e = &tl->ev[i];

		if (e->kind == SIM_FORWARD && e->device == 0) {
			/* Stage 0 computes layer 1; the others wait. */
			ck_assert_int_eq(e->layer, 1);
			ck_assert_ptr_null(player_busy(&p, 1, mid(e)));
			ck_assert_ptr_null(player_busy(&p, 3, mid(e)));
		}
		if (e->kind != SIM_SEND)
			continue;
		n = player_flows(&p, mid(e), f, 8);
		ck_assert_uint_eq(n, 1);
		ck_assert_int_eq(f[0].from, e->device);
		ck_assert_int_eq(f[0].to, e->peer);
		ck_assert_uint_eq(f[0].bytes, e->bytes);
		ck_assert(fabs(f[0].progress - 0.5) < 1e-9);
		ck_assert(player_link_active(&p, mid(e), e->device, e->peer));
		ck_assert(!player_link_active(&p, mid(e), e->peer, e->device));
		/* Forward sends go down the pipeline, gradients come back. */
		if (f[0].what == SIM_P_ACTS) {
			ck_assert_int_eq(e->peer, e->device + 1);
			acts++;
		} else {
			ck_assert_int_eq(f[0].what, SIM_P_ACT_GRADS);
			ck_assert_int_eq(e->peer, e->device - 1);
			grads++;
		}
	}
	ck_assert_int_eq(acts, 3);
	ck_assert_int_eq(grads, 3);
	player_free(&p);
}
END_TEST

/* A DP bucket is one flow over the whole ring, shown step by step. */
START_TEST(collective_flow)
{
	const struct sim_timeline *tl;
	const struct sim_event *ar = NULL;
	struct player_flow f[8];
	struct player p;
	size_t i, n, sum = 0;
	double t, span;
	int d;

	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	tl = &p.res.tl;
	for (i = 0; i < tl->n_ev && ar == NULL; i++)
		if (tl->ev[i].kind == SIM_ALL_REDUCE)
			ar = &tl->ev[i];
	ck_assert_ptr_nonnull(ar);
	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].collective == ar->collective &&
		    tl->ev[i].kind == SIM_ALL_REDUCE)
			sum += tl->ev[i].bytes;
	/* In its first ring step: reduce-scatter, member d sends d-1. */
	span = ar->end - ar->start;
	t = ar->start + span / 12;
	n = player_flows(&p, t, f, 8);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(f[0].kind, SIM_ALL_REDUCE);
	ck_assert_int_eq(f[0].what, SIM_P_WEIGHT_GRADS);
	ck_assert_int_eq(f[0].layer, 4);
	ck_assert_int_eq(f[0].overlap, 1);
	ck_assert_uint_eq(f[0].members, 0xFu);
	ck_assert_int_eq(f[0].from, -1);
	ck_assert_uint_eq(f[0].bytes, sum);
	ck_assert_int_eq(f[0].phase, SIM_REDUCE_SCATTER);
	ck_assert_int_eq(f[0].step, 0);
	ck_assert_int_eq(f[0].steps, 6);
	for (d = 0; d < 4; d++)
		ck_assert_int_eq(f[0].sends[d], (d + 3) % 4);
	/* Its last step: all-gather step 2, member d sends d-2. */
	n = player_flows(&p, ar->end - span / 12, f, 8);
	ck_assert_int_eq(f[0].phase, SIM_ALL_GATHER);
	ck_assert_int_eq(f[0].step, 5);
	for (d = 0; d < 4; d++)
		ck_assert_int_eq(f[0].sends[d], (d + 2) % 4);
	/* Ring: 0->1->2->3->0. */
	ck_assert(player_link_active(&p, t, 0, 1));
	ck_assert(player_link_active(&p, t, 3, 0));
	ck_assert(!player_link_active(&p, t, 1, 0));
	/* It runs beside compute: device 0 is computing L3's backward. */
	ck_assert_ptr_nonnull(player_busy(&p, 0, t));
	ck_assert_int_eq(player_busy(&p, 0, t)->kind, SIM_BACKWARD);
	ck_assert_int_eq(player_busy(&p, 0, t)->layer, 3);
	player_free(&p);
}
END_TEST

/* 3d: the TP all-reduces of the two replicas are two flows. */
START_TEST(collective_groups_3d)
{
	const struct sim_timeline *tl;
	struct player_flow f[16];
	struct player p;
	size_t i, n, j;

	open_player(&p, SIM_3D, 8, PIPE_1F1B, 0, 0);
	tl = &p.res.tl;
	for (i = 0; i < tl->n_ev; i++)
		if (tl->ev[i].kind == SIM_ALL_REDUCE &&
		    tl->ev[i].microbatch >= 0)
			break;
	ck_assert(i < tl->n_ev);
	n = player_flows(&p, mid(&tl->ev[i]), f, 16);
	for (j = 0; j < n; j++)
		if (f[j].kind == SIM_ALL_REDUCE)
			ck_assert_msg(f[j].members == 0x03u ||
			    f[j].members == 0x30u || f[j].members == 0x0Cu ||
			    f[j].members == 0xC0u, "group %#x", f[j].members);
	ck_assert(player_link_active(&p, mid(&tl->ev[i]), 0, 1));
	ck_assert(player_link_active(&p, mid(&tl->ev[i]), 1, 0));
	player_free(&p);
}
END_TEST

/* cp: the player's figures of what CP saves, a quarter on 4 GPUs. */
START_TEST(cp_activation_savings)
{
	struct player p;

	open_player(&p, SIM_CP, 4, PIPE_1F1B, 0, 0);
	ck_assert_uint_gt(p.acts_peak, 0);
	ck_assert_uint_eq(p.acts_peak * 4, p.acts_single);
	player_free(&p);
	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	ck_assert_uint_eq(p.acts_single, 0);
	player_free(&p);
}
END_TEST

/* At the end every link has carried its total; the totals sum to the run. */
START_TEST(link_bytes_sum)
{
	static const enum sim_mode modes[] = {
		SIM_SINGLE, SIM_DP, SIM_TP, SIM_PP, SIM_FSDP, SIM_3D, SIM_CP
	};
	const struct player_link *l;
	struct player p;
	double sum = 0, half = 0;
	size_t i, tot = 0;

	open_player(&p, modes[_i], modes[_i] == SIM_3D ? 8 :
	    modes[_i] == SIM_SINGLE ? 1 : 4, PIPE_1F1B, 0, 0);
	l = player_links_at(&p, 0.0);
	for (i = 0; i < p.n_links; i++)
		ck_assert(l[i].bytes == 0.0);
	l = player_links_at(&p, p.res.step_time / 2);
	for (i = 0; i < p.n_links; i++) {
		ck_assert(l[i].bytes <= (double)l[i].total);
		half += l[i].bytes;
	}
	l = player_links_at(&p, p.res.step_time);
	for (i = 0; i < p.n_links; i++) {
		ck_assert(l[i].a < l[i].b);
		ck_assert(fabs(l[i].bytes - (double)l[i].total) < 1e-6);
		sum += l[i].bytes;
		tot += l[i].total;
	}
	ck_assert_uint_eq(tot, p.res.bytes_moved);
	ck_assert(fabs(sum - (double)p.res.bytes_moved) < 1e-6);
	ck_assert(half <= sum);
	if (modes[_i] == SIM_SINGLE)
		ck_assert_uint_eq(p.n_links, 0);
	else
		ck_assert(p.n_links > 0 && tot > 0);
	player_free(&p);
}
END_TEST

START_TEST(gantt_marks_bubble)
{
	struct player_cell c[64];
	struct player p;
	double col;
	int d, i, bubbles = 0;

	open_player(&p, SIM_PP, 4, PIPE_GPIPE, 1, 0);
	col = p.res.step_time / 64;
	for (d = 0; d < 4; d++) {
		player_gantt_row(&p, d, 64, 0.0, c);
		for (i = 0; i < 64; i++) {
			const struct sim_event *e = player_busy(&p, d,
			    (i + 0.5) * col);

			if (c[i].kind == PLAYER_CELL_BUBBLE) {
				ck_assert_ptr_null(e);
				bubbles++;
				continue;
			}
			ck_assert_ptr_nonnull(e);
			ck_assert_int_eq(c[i].kind, e->kind == SIM_FORWARD ?
			    PLAYER_CELL_FORWARD : e->kind == SIM_BACKWARD ?
			    PLAYER_CELL_BACKWARD : PLAYER_CELL_OPTIMIZER);
		}
	}
	/* No microbatching: most of the grid is bubble. */
	ck_assert_msg(bubbles > 64 * 4 / 2, "bubble cells %d", bubbles);
	player_gantt_row(&p, 0, 64, 0.0, c);
	ck_assert_int_eq(c[0].kind, PLAYER_CELL_FORWARD);
	ck_assert_int_eq(c[0].label, 0);
	player_gantt_row(&p, 3, 64, 0.0, c);
	ck_assert_int_eq(c[0].kind, PLAYER_CELL_BUBBLE);
	/* The optimizer step ends the row, a few ms of the step. */
	{
		struct player_cell wide[2000];

		player_gantt_row(&p, 0, 2000, 0.0, wide);
		ck_assert_int_eq(wide[1999].kind, PLAYER_CELL_OPTIMIZER);
		player_gantt_row(&p, 3, 2000, 0.0, wide);
		ck_assert_int_eq(wide[1900].kind, PLAYER_CELL_BUBBLE);
	}
	player_free(&p);
}
END_TEST

/* Collectives show in the row, compute wins where both cover a column. */
START_TEST(gantt_collectives)
{
	struct player_cell c[200];
	struct player p;
	int i, ar = 0, fw = 0;

	open_player(&p, SIM_TP, 4, PIPE_1F1B, 0, 0);
	player_gantt_row(&p, 2, 200, 0.0, c);
	for (i = 0; i < 200; i++) {
		ar += c[i].kind == PLAYER_CELL_ALL_REDUCE;
		fw += c[i].kind == PLAYER_CELL_FORWARD;
	}
	ck_assert(ar > 0 && fw > 0);
	player_free(&p);
}
END_TEST

START_TEST(memory_at_t)
{
	const struct sim_timeline *tl;
	size_t k[SIM_NMEM], best = 0, m, i;
	struct player p;

	open_player(&p, SIM_PP, 4, PIPE_GPIPE, 8, 0);
	tl = &p.res.tl;
	/* At each sample's time: the last sample of device 0 at that time. */
	for (i = 0; i < tl->n_mem; i++) {
		size_t j, sum = 0;
		int kk;

		if (tl->mem[i].device != 0)
			continue;
		for (j = i + 1; j < tl->n_mem && tl->mem[j].t == tl->mem[i].t; j++)
			;
		while (tl->mem[j - 1].device != 0)
			j--;
		for (kk = 0; kk < SIM_NMEM; kk++)
			sum += tl->mem[j - 1].bytes[kk];
		m = player_mem(&p, 0, tl->mem[i].t, k);
		ck_assert_uint_eq(m, sum);
		if (m > best)
			best = m;
	}
	ck_assert_uint_le(best, sim_timeline_peak(tl, 0));
	ck_assert(p.peak >= best && best > 0);
	m = player_mem(&p, 0, p.res.step_time, k);
	ck_assert_uint_eq(m, k[0] + k[1] + k[2] + k[3] + k[4]);
	ck_assert(k[SIM_MEM_OPTIM] > 0);	/* Adam state at the end */
	ck_assert(k[SIM_MEM_PARAMS] > 0);
	/* GPipe: stage 0 holds the most activations after all forwards. */
	ck_assert(player_mem(&p, 0, p.res.step_time / 2, NULL) >
	    player_mem(&p, 0, 0.0, NULL));
	player_free(&p);
}
END_TEST

START_TEST(holds)
{
	struct player p;
	char b[64];

	open_player(&p, SIM_PP, 4, PIPE_1F1B, 8, 0);
	ck_assert_str_eq(player_holds(&p, 2, 0, 0, b, sizeof b), "L3");
	ck_assert_str_eq(player_holds(&p, 2, 1, 0, b, sizeof b), "stage 2");
	player_free(&p);
	open_player(&p, SIM_PP, 2, PIPE_INTERLEAVED, 4, 2);
	ck_assert_str_eq(player_holds(&p, 0, 0, 0, b, sizeof b), "L1 L3");
	ck_assert_str_eq(player_holds(&p, 1, 0, 0, b, sizeof b), "L2 L4");
	player_free(&p);
	/* TP 4: one head and a quarter of the MLP columns each. */
	open_player(&p, SIM_TP, 4, PIPE_1F1B, 0, 0);
	ck_assert_str_eq(player_holds(&p, 1, 0, 0, b, sizeof b),
	    "L1-L4 head 1");
	ck_assert_str_eq(player_holds(&p, 1, 1, 0, b, sizeof b),
	    "ffn cols 16-31");
	player_free(&p);
	open_player(&p, SIM_3D, 8, PIPE_1F1B, 0, 0);
	/* Device 5: replica 1, stage 0, TP rank 1. */
	ck_assert_str_eq(player_holds(&p, 5, 0, 0, b, sizeof b),
	    "L1 L2 heads 2-3");
	ck_assert_str_eq(player_holds(&p, 5, 1, 0, b, sizeof b),
	    "stage 0 seqs 8-15");
	ck_assert_str_eq(player_holds(&p, 5, 0, 1, b, sizeof b), "L1 L2");
	ck_assert_str_eq(player_holds(&p, 5, 1, 1, b, sizeof b), "q8-15");
	player_free(&p);
	/* Every DP replica and ZeRO-3 shard has its own slice of the batch. */
	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	ck_assert_str_eq(player_holds(&p, 2, 0, 0, b, sizeof b),
	    "L1-L4 full copy");
	ck_assert_str_eq(player_holds(&p, 2, 1, 0, b, sizeof b), "seqs 8-11");
	ck_assert_str_eq(player_holds(&p, 3, 1, 1, b, sizeof b), "q12-15");
	player_free(&p);
	open_player(&p, SIM_FSDP, 4, PIPE_1F1B, 0, 0);
	ck_assert_str_eq(player_holds(&p, 1, 0, 0, b, sizeof b),
	    "1/4 of L1-L4");
	ck_assert_str_eq(player_holds(&p, 1, 1, 0, b, sizeof b), "seqs 4-7");
	player_free(&p);
}
END_TEST

/* One naming for lessons, player and trace: G0.., stage 0.., L1-L4. */
START_TEST(names_and_places)
{
	struct sim_place pl;
	struct player p;
	char b[32];

	ck_assert_str_eq(sim_device_name(0, b, sizeof b), "G0");
	ck_assert_str_eq(sim_device_name(12, b, sizeof b), "G12");
	ck_assert_str_eq(sim_layers_text(0xf, b, sizeof b), "L1-L4");
	ck_assert_str_eq(sim_layers_text(0x5, b, sizeof b), "L1 L3");
	ck_assert_str_eq(sim_layers_text(0x6, b, sizeof b), "L2 L3");
	ck_assert_str_eq(sim_layers_text(0, b, sizeof b), "");
	open_player(&p, SIM_3D, 8, PIPE_1F1B, 0, 0);
	sim_device_place(&p.res, 5, &pl);
	ck_assert_int_eq(pl.replica, 1);
	ck_assert_int_eq(pl.stage, 0);
	ck_assert_int_eq(pl.tp_rank, 1);
	ck_assert_uint_eq(pl.layers, 0x3);
	sim_device_place(&p.res, 2, &pl);
	ck_assert_int_eq(pl.stage, 1);
	ck_assert_uint_eq(pl.layers, 0xc);
	player_free(&p);
	open_player(&p, SIM_PP, 4, PIPE_GPIPE, 8, 0);
	sim_device_place(&p.res, 0, &pl);
	ck_assert_int_eq(pl.stage, 0);
	ck_assert_uint_eq(pl.layers, 0x1);
	player_free(&p);
}
END_TEST

/* DP replicas work on different slices: different labels in the rows. */
START_TEST(labels_per_replica)
{
	struct player_cell c[80];
	struct player p;
	int d, i, fw;

	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	for (d = 0; d < 4; d++) {
		player_gantt_row(&p, d, 80, 0.0, c);
		for (fw = 0, i = 0; i < 80; i++)
			if (c[i].kind == PLAYER_CELL_FORWARD) {
				ck_assert_int_eq(c[i].label, d);
				fw++;
			}
		ck_assert_int_gt(fw, 5);
	}
	player_free(&p);
	/* 3d: replica 1's micro-batches follow replica 0's 8. */
	open_player(&p, SIM_3D, 8, PIPE_1F1B, 0, 0);
	player_gantt_row(&p, 4, 80, 0.0, c);
	for (i = 0; i < 80; i++)
		if (c[i].kind == PLAYER_CELL_FORWARD)
			ck_assert_int_ge(c[i].label, 8);
	player_free(&p);
}
END_TEST

/* Interleaved: a device's two chunks of one micro-batch differ. */
START_TEST(interleaved_chunks)
{
	struct player_cell c[200];
	struct player p;
	int i, seen[2] = { 0, 0 };

	open_player(&p, SIM_PP, 2, PIPE_INTERLEAVED, 4, 2);
	player_gantt_row(&p, 0, 200, 0.0, c);
	for (i = 0; i < 200; i++)
		if (c[i].kind == PLAYER_CELL_FORWARD && c[i].label == 0) {
			ck_assert(c[i].chunk == 0 || c[i].chunk == 1);
			seen[c[i].chunk] = 1;
		}
	ck_assert(seen[0] && seen[1]);
	player_free(&p);
}
END_TEST

/*
 * DP with overlap: after the last backward each device waits for the last
 * bucket's all-reduce. That wait is outside the compute window, so the
 * bubble figure is 0; the row draws it as waiting, never as bubble.
 */
START_TEST(gantt_wait_not_bubble)
{
	struct player_cell c[400];
	struct player p;
	double col, lo, hi, t;
	int d, i, wait = 0;

	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	ck_assert_double_eq(p.res.bubble, 0.0);
	ck_assert(sim_timeline_compute_window(&p.res.tl, &lo, &hi));
	col = p.res.step_time / 400;
	for (d = 0; d < 4; d++) {
		player_gantt_row(&p, d, 400, 0.0, c);
		for (i = 0; i < 400; i++) {
			t = (i + 0.5) * col;
			ck_assert_msg(c[i].kind != PLAYER_CELL_BUBBLE,
			    "dev %d col %d (t %g, window %g..%g) drawn as "
			    "bubble", d, i, t, lo, hi);
			if (c[i].kind == PLAYER_CELL_WAIT) {
				ck_assert_ptr_null(player_busy(&p, d, t));
				ck_assert(t > hi || t < lo);
				wait++;
			}
		}
	}
	ck_assert_int_gt(wait, 0);
	player_free(&p);
}
END_TEST

/* DP's buckets show in the transfer lane while backward still runs. */
START_TEST(transfer_lane)
{
	struct player_cell c[400], g[400];
	struct player p;
	int i, marks = 0, during = 0, runs = 0;

	open_player(&p, SIM_DP, 4, PIPE_1F1B, 0, 0);
	ck_assert_int_gt(player_transfer_row(&p, 400, 0.0, c), 0);
	player_gantt_row(&p, 0, 400, 0.0, g);
	for (i = 0; i < 400; i++) {
		if (c[i].kind == PLAYER_CELL_BUBBLE)
			continue;
		ck_assert_int_eq(c[i].kind, PLAYER_CELL_ALL_REDUCE);
		marks++;
		during += g[i].kind == PLAYER_CELL_BACKWARD;
		runs += i == 0 || c[i - 1].kind == PLAYER_CELL_BUBBLE;
	}
	ck_assert_int_eq(runs, 4);	/* one bucket per layer */
	ck_assert_int_gt(during, 0);
	ck_assert_int_lt(marks, 400 / 5);
	player_free(&p);
	/* Without overlap nothing runs beside compute. */
	{
		struct sim_config cfg;
		struct pl_err err;

		sim_config_default(&cfg, SIM_DP, 4);
		cfg.overlap = 0;
		ck_assert_int_eq(player_init(&p, &cfg, &err), 0);
		ck_assert_int_eq(player_transfer_row(&p, 400, 0.0, c), 0);
		player_free(&p);
	}
}
END_TEST

/* ZeRO-3's gathered layers show as their own kind of memory. */
START_TEST(gather_buffer_memory)
{
	const struct sim_timeline *tl;
	size_t k[SIM_NMEM], most = 0, i;
	struct player p;

	open_player(&p, SIM_FSDP, 4, PIPE_1F1B, 0, 0);
	tl = &p.res.tl;
	for (i = 0; i < tl->n_mem; i++) {
		player_mem(&p, 1, tl->mem[i].t, k);
		if (k[SIM_MEM_GATHER] > most)
			most = k[SIM_MEM_GATHER];
	}
	ck_assert_uint_ge(most, 2 * SIM_LAYER_PARAMS * 8);
	player_mem(&p, 1, p.res.step_time, k);
	ck_assert_uint_eq(k[SIM_MEM_GATHER], 0);
	player_free(&p);
}
END_TEST

START_TEST(knobs)
{
	struct sim_config cfg, other;
	struct player p;
	struct pl_err err;

	sim_config_default(&cfg, SIM_TP, 4);
	/* TP over 3 devices does not divide 4 heads: 4 goes down to 2. */
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_GPUS, -1, 16), 1);
	ck_assert_int_eq(cfg.gpus, 2);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_GPUS, 1, 16), 1);
	ck_assert_int_eq(cfg.gpus, 4);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_GPUS, 1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SP, 1, 16), 1);
	ck_assert_int_eq(cfg.seq_parallel, 1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 0);
	/* Micro-batches step to the next that divides the batch. */
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_MICROBATCHES, 1, 16),
	    1);
	ck_assert_int_eq(cfg.microbatches, 2);
	sim_config_default(&cfg, SIM_PP, 4);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SP, 1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 1);
	/* 4 stages x 2 chunks do not divide 4 layers: skip to ZB-H1, then
	 * DualPipe; the toy does not run DualPipeV: round to GPipe. */
	ck_assert_int_eq(cfg.schedule, PIPE_ZB_H1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_DUALPIPE);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_GPIPE);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_GPUS, -1, 16), 1);
	ck_assert_int_eq(cfg.gpus, 2);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, -1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_DUALPIPE);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, -1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_ZB_H1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, -1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_INTERLEAVED);
	ck_assert_int_eq(cfg.vstages, 2);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_MODE, 1, 16), 1);
	ck_assert_int_eq(cfg.mode, SIM_FSDP);
	ck_assert_int_eq(cfg.gpus, 4);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_MODE, -1, 16), 1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_MODE, -1, 16), 1);
	ck_assert_int_eq(cfg.mode, SIM_TP);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_COMPUTE_ONLY, 1, 16),
	    1);
	ck_assert_int_eq(cfg.compute_only, 1);
	/* GPipe against 1F1B; DP with against without overlap. */
	sim_config_default(&cfg, SIM_PP, 4);
	cfg.schedule = PIPE_GPIPE;
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_eq(other.schedule, PIPE_1F1B);
	ck_assert(!sim_config_same(&cfg, &other));
	sim_config_default(&cfg, SIM_DP, 4);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_eq(other.overlap, 0);
	sim_config_default(&cfg, SIM_SINGLE, 1);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), -1);
	/* A config the simulator refuses leaves an empty, freeable player. */
	sim_config_default(&cfg, SIM_3D, 4);
	ck_assert_int_eq(player_init(&p, &cfg, &err), -1);
	player_free(&p);
}
END_TEST

/*
 * cp's TP knob steps over what does not fit (TP 3 of 8 GPUs), the
 * compare puts TP 2 against none on the same GPUs, or overlap where TP
 * would leave no ring; TP innermost, G0 and G1 hold CP rank 0's chunks.
 */
START_TEST(cp_tp_knob_and_compare)
{
	struct sim_config cfg, other;
	struct player p;
	struct pl_err err;
	char buf[64];

	sim_config_default(&cfg, SIM_DP, 4);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, 1, 16), 0);
	sim_config_default(&cfg, SIM_CP, 8);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, -1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, 1, 16), 1);
	ck_assert_int_eq(cfg.tp, 2);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_TP, buf, sizeof buf),
	    "TP 2");
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, 1, 16), 1);
	ck_assert_int_eq(cfg.tp, 4);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, 1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_TP, -1, 16), 1);
	ck_assert_int_eq(cfg.tp, 2);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_eq(other.mode, SIM_CP);
	ck_assert_int_le(other.tp, 1);
	ck_assert_int_eq(other.overlap, cfg.overlap);
	ck_assert(!sim_config_same(&cfg, &other));
	ck_assert_int_eq(sim_config_compare(&other, &cfg), 0);
	ck_assert_int_eq(cfg.tp, 2);
	ck_assert_int_eq(player_init(&p, &cfg, &err), 0);
	ck_assert_int_eq(p.res.tp, 2);
	ck_assert_int_eq(p.res.cp, 4);
	ck_assert_str_eq(player_holds(&p, 1, 1, 0, buf, sizeof buf),
	    "positions 0 and 7");
	ck_assert_str_eq(player_holds(&p, 2, 1, 0, buf, sizeof buf),
	    "positions 1 and 6");
	ck_assert_str_eq(player_holds(&p, 3, 2, 0, buf, sizeof buf),
	    "L1-L4 heads 2-3");
	player_free(&p);
	/* 2 GPUs: TP 2 would leave one CP rank, so overlap is compared */
	sim_config_default(&cfg, SIM_CP, 2);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_le(other.tp, 1);
	ck_assert_int_eq(other.overlap, !cfg.overlap);
}
END_TEST

/* ep: a dispatch in flight says which expert its tokens are for; the
 * knobs step EP and skew the router; x compares the router even and
 * skewed, the skewed run the slower. */
START_TEST(ep_flows_knobs_compare)
{
	struct sim_config cfg, other;
	struct player_flow fl[PLAYER_MAX_FLOWS];
	const struct sim_event *e = NULL;
	struct player p, q;
	struct pl_err err;
	char buf[64];
	size_t i, n;
	int found = 0;

	sim_config_default(&cfg, SIM_EP, 4);
	ck_assert_int_eq(player_init(&p, &cfg, &err), 0);
	for (i = 0; i < p.res.tl.n_ev && e == NULL; i++)
		if (p.res.tl.ev[i].kind == SIM_SEND &&
		    p.res.tl.ev[i].what == SIM_P_DISPATCH)
			e = &p.res.tl.ev[i];
	ck_assert_ptr_nonnull(e);
	n = player_flows(&p, mid(e), fl, PLAYER_MAX_FLOWS);
	for (i = 0; i < n; i++)
		if (fl[i].what == SIM_P_DISPATCH && fl[i].from == e->device &&
		    fl[i].to == e->peer && fl[i].expert == e->expert) {
			ck_assert_int_eq(fl[i].tokens, e->tokens);
			ck_assert_int_eq(fl[i].expert / 2, fl[i].to);
			found = 1;
		}
	ck_assert(found);
	ck_assert(player_link_active(&p, mid(e), e->device, e->peer));
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_EP, buf, sizeof buf),
	    "EP 4");
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_EP, -1, 16), 1);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_EP, buf, sizeof buf),
	    "EP 2");
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_EP, 1, 16), 1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_EP, 1, 16), 0);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_ROUTER, buf,
	    sizeof buf), "router even");
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_gt(other.moe.router_bias, 0);
	ck_assert(!sim_config_same(&cfg, &other));
	ck_assert_int_eq(player_init(&q, &other, &err), 0);
	ck_assert_double_gt(q.res.step_time, p.res.step_time);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_ROUTER, 1, 16), 1);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_ROUTER, buf,
	    sizeof buf), "router skewed");
	ck_assert(sim_config_same(&cfg, &other));
	/* d: EP inside 2 pipeline stages, the schedule knob then shown */
	ck_assert_int_eq(sim_knob_applies(&cfg, SIM_KNOB_SCHEDULE), 0);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_PP, 1, 16), 1);
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_PP, buf, sizeof buf),
	    "PP 2");
	ck_assert_str_eq(sim_knob_value(&cfg, SIM_KNOB_EP, buf, sizeof buf),
	    "EP 2");
	ck_assert_int_eq(sim_knob_applies(&cfg, SIM_KNOB_SCHEDULE), 1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 1);
	/* one micro-batch: no interleaving; ZB-H1, compared with 1F1B */
	ck_assert_int_eq(cfg.schedule, PIPE_ZB_H1);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_eq(other.schedule, PIPE_1F1B);
	/* 4 micro-batches let DualPipe run: EP x PP under DualPipe,
	 * compared with 1F1B, is the faster of the two */
	while (cfg.microbatches < 4)
		ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_MICROBATCHES,
		    1, 16), 1);
	ck_assert_int_eq(sim_config_turn(&cfg, SIM_KNOB_SCHEDULE, 1, 16), 1);
	ck_assert_int_eq(cfg.schedule, PIPE_DUALPIPE);
	ck_assert_int_eq(sim_config_compare(&cfg, &other), 0);
	ck_assert_int_eq(other.schedule, PIPE_1F1B);
	player_free(&p);
	player_free(&q);
	ck_assert_int_eq(player_init(&p, &cfg, &err), 0);
	ck_assert_int_eq(player_init(&q, &other, &err), 0);
	ck_assert_double_lt(p.res.step_time, q.res.step_time);
	ck_assert_double_lt(p.res.max_grad_error, 1e-9);
	/* another mode has neither knob */
	sim_config_default(&other, SIM_DP, 4);
	ck_assert_int_eq(sim_config_turn(&other, SIM_KNOB_EP, 1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&other, SIM_KNOB_ROUTER, 1, 16), 0);
	ck_assert_int_eq(sim_config_turn(&other, SIM_KNOB_PP, 1, 16), 0);
	player_free(&p);
	player_free(&q);
}
END_TEST

START_TEST(knobs_by_mode)
{
	/* The settings line shows a knob only where the mode has it:
	 * rows single, dp, tp, pp, fsdp, 3d, cp, ep; columns g m s v p o c t. */
	static const int want[SIM_NMODES][8] = {
		{ 0, 1, 0, 0, 0, 0, 0, 0 },
		{ 1, 1, 0, 0, 0, 1, 1, 0 },
		{ 1, 1, 0, 0, 1, 0, 1, 0 },
		{ 1, 1, 1, 0, 0, 0, 1, 0 },
		{ 1, 1, 0, 0, 0, 1, 1, 0 },
		{ 0, 1, 1, 0, 1, 1, 1, 0 },
		{ 1, 1, 0, 0, 0, 1, 1, 1 },
		{ 1, 1, 0, 0, 0, 1, 1, 0 },
	};
	static const enum sim_knob k[8] = { SIM_KNOB_GPUS,
	    SIM_KNOB_MICROBATCHES, SIM_KNOB_SCHEDULE, SIM_KNOB_VSTAGES,
	    SIM_KNOB_SP, SIM_KNOB_OVERLAP, SIM_KNOB_COMPUTE_ONLY,
	    SIM_KNOB_TP };
	struct sim_config cfg, t;
	int m, i, up, down;

	for (m = 0; m < SIM_NMODES; m++) {
		sim_config_default(&cfg, (enum sim_mode)m,
		    sim_mode_default_gpus((enum sim_mode)m));
		for (i = 0; i < 8; i++) {
			ck_assert_msg(sim_knob_applies(&cfg, k[i]) ==
			    want[m][i], "mode %d knob %d", m, i);
			if (!want[m][i] || k[i] == SIM_KNOB_GPUS)
				continue;
			/* a knob shown can be turned one way or the other */
			t = cfg;
			up = sim_config_turn(&t, k[i], 1, 16);
			t = cfg;
			down = sim_config_turn(&t, k[i], -1, 16);
			ck_assert_msg(up || down, "mode %d knob %d is stuck",
			    m, i);
		}
	}
	/* interleaved brings the virtual stages */
	sim_config_default(&cfg, SIM_PP, 2);
	cfg.schedule = PIPE_INTERLEAVED;
	cfg.vstages = 2;
	ck_assert_int_eq(sim_knob_applies(&cfg, SIM_KNOB_VSTAGES), 1);
	ck_assert_int_eq(sim_knob_applies(&cfg, SIM_KNOB_MODE), 1);
}
END_TEST

static Suite *
player_suite(void)
{
	Suite *s = suite_create("player");
	TCase *tc;

	tc = tcase_create("playback");
	tcase_add_test(tc, step_event_to_event);
	tcase_add_test(tc, clock_and_speed);
	tcase_add_test(tc, knobs);
	tcase_add_test(tc, knobs_by_mode);
	tcase_add_test(tc, ep_flows_knobs_compare);
	tcase_add_test(tc, cp_tp_knob_and_compare);
	suite_add_tcase(s, tc);
	tc = tcase_create("at time t");
	tcase_add_loop_test(tc, active_at_t, 0, 7);
	tcase_add_test(tc, pipeline_idle_and_sends);
	tcase_add_test(tc, collective_flow);
	tcase_add_test(tc, collective_groups_3d);
	tcase_add_loop_test(tc, link_bytes_sum, 0, 7);
	tcase_add_test(tc, cp_activation_savings);
	tcase_add_test(tc, memory_at_t);
	tcase_add_test(tc, gather_buffer_memory);
	tcase_add_test(tc, holds);
	tcase_add_test(tc, names_and_places);
	suite_add_tcase(s, tc);
	tc = tcase_create("gantt");
	tcase_add_test(tc, gantt_marks_bubble);
	tcase_add_test(tc, gantt_collectives);
	tcase_add_test(tc, labels_per_replica);
	tcase_add_test(tc, interleaved_chunks);
	tcase_add_test(tc, transfer_lane);
	tcase_add_test(tc, gantt_wait_not_bubble);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(player_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
