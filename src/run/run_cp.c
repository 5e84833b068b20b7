/*
 * run_cp.c - context parallelism's attention on this rank: the K/V ring
 * of sim_cp.c with MPI sends and receives between the ranks of the CP
 * group, in the same order and with the same arithmetic (sim_ring.c), so
 * the run equals the simulator bit for bit. Each block leaves for the
 * next rank before the step that uses it here; backward its dK and dV
 * follow it after that step, the last pass returning them to the owner.
 */
#include <string.h>

#include "i18n.h"
#include "core/sim/sim_ring.h"
#include "run/run_exec.h"

#define H	SIM_HIDDEN

/* MPI tags above the pipeline's boundary tags (run_exec.c, < 4096). */
static int
ring_tag(int l, int backward, int step, int dkv, int mb)
{
	return 4096 + (((l * 2 + backward) * SIM_MAX_GPUS + step) * 2 + dkv) *
	    SIM_BATCH + mb;
}

/* The world rank of CP rank ci of this rank's group. */
static int
cp_peer(const struct run_exec *x, int ci)
{
	int c = x->lay.c;

	return sim_rank(&x->lay, x->r - x->r % c + (ci + c) % c, x->s, x->k);
}

static struct sim_tag
tag_of(const struct run_exec *x, enum sim_payload what, int l, int mb,
    int chunk)
{
	int shards = x->lay.d / x->lay.c;
	struct sim_tag t = { what, l + 1, mb, shards > 1 ? x->r / x->lay.c :
	    -1, chunk };

	return t;
}

/* This rank's K and V into the block in hand. */
static void
load_kv(double *hand, const struct sim_saved *sv, size_t n)
{
	memcpy(hand, sv->k, n * sizeof *hand);
	memcpy(hand + n, sv->v, n * sizeof *hand);
}

/* Step st: the K/V block in hand leaves for the next rank, but the last. */
static void
send_kv(struct run_exec *x, int l, int backward, int st, int mb,
    const double *hand, size_t n, const struct sim_tag *tag)
{
	int c = x->lay.c, ci = x->r % c;

	if (st < c - 1)
		run_send(&x->comm, cp_peer(x, ci + 1), hand, 2 * n,
		    ring_tag(l, backward, st, 0, mb), tag);
}

static void
swap(double **a, double **b)
{
	double *t = *a;

	*a = *b;
	*b = t;
}

void
run_cp_fwd_attn(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, struct sim_saved *sv)
{
	const struct sim_shape *sh = &x->sh;
	size_t T = (size_t)sim_shape_tokens(sh), n = T * (size_t)(H / sh->t);
	size_t nh = T * (size_t)(SIM_HEADS / sh->t);
	int c = x->lay.c, ci = x->r % c, owner = ci, st;
	struct sim_tag tag = tag_of(x, SIM_P_KV, l, mb, chunk);
	double *hand, *recv, t0 = run_now(x->proc);

	hand = run_alloc(x, SIM_MEM_ACTS, 2 * n);
	recv = run_alloc(x, SIM_MEM_ACTS, 2 * n);
	sim_fwd_qkv(sh, w, sv);
	sim_ring_fwd_init(sh, x->work, x->work + nh, sv->ctx);
	load_kv(hand, sv, n);
	for (st = 0; st < c; st++) {
		if (st > 0)
			t0 = run_now(x->proc);
		send_kv(x, l, 0, st, mb, hand, n, &tag);
		sim_ring_fwd_step(sh, ci, owner, sv->q, hand, hand + n,
		    x->work, x->work + nh, sv->ctx);
		if (st == c - 1) {
			sim_ring_fwd_finish(sh, x->work, x->work + nh, sv->ctx,
			    sv->p);
			sim_fwd_proj(sh, w, sv, x->part);
		}
		run_cp_computed(x, SIM_FORWARD, l, mb, chunk, t0);
		if (st == c - 1)
			break;
		run_recv(&x->comm, cp_peer(x, ci - 1), recv, 2 * n,
		    ring_tag(l, 0, st, 0, mb), &tag);
		swap(&hand, &recv);
		owner = (owner - 1 + c) % c;
	}
	run_free(x, SIM_MEM_ACTS, &hand, 2 * n);
	run_free(x, SIM_MEM_ACTS, &recv, 2 * n);
}

void
run_cp_bwd_attn(struct run_exec *x, int l, int mb, int chunk,
    const struct sim_lparams *w, const struct sim_lparams *g,
    const struct sim_saved *sv)
{
	const struct sim_shape *sh = &x->sh;
	size_t T = (size_t)sim_shape_tokens(sh), n = T * (size_t)(H / sh->t);
	int c = x->lay.c, ci = x->r % c, owner = ci, st;
	struct sim_tag kv = tag_of(x, SIM_P_KV, l, mb, chunk);
	struct sim_tag dkv = tag_of(x, SIM_P_KV_GRADS, l, mb, chunk);
	double *hand, *recv, t0 = run_now(x->proc);

	hand = run_alloc(x, SIM_MEM_ACTS, 4 * n);
	recv = run_alloc(x, SIM_MEM_ACTS, 4 * n);
	/* work: dctx, dq, then D per row and head (as sim_cp.c) */
	memset(x->work, 0, 2 * n * sizeof *x->work);
	sim_bwd_proj(sh, w, g, sv, x->dwhole, x->work);
	sim_ring_bwd_init(sh, sv->ctx, x->work, x->work + 2 * n);
	load_kv(hand, sv, n);
	for (st = 0; st < c; st++) {
		if (st > 0)
			t0 = run_now(x->proc);
		send_kv(x, l, 1, st, mb, hand, n, &kv);
		sim_ring_bwd_step(sh, ci, owner, sv->q, x->work, sv->p,
		    x->work + 2 * n, hand, hand + n, x->work + n, hand + 2 * n,
		    hand + 3 * n);
		run_cp_computed(x, SIM_BACKWARD, l, mb, chunk, t0);
		run_send(&x->comm, cp_peer(x, ci + 1), hand + 2 * n, 2 * n,
		    ring_tag(l, 1, st, 1, mb), &dkv);
		if (st < c - 1)
			run_recv(&x->comm, cp_peer(x, ci - 1), recv, 2 * n,
			    ring_tag(l, 1, st, 0, mb), &kv);
		run_recv(&x->comm, cp_peer(x, ci - 1), recv + 2 * n, 2 * n,
		    ring_tag(l, 1, st, 1, mb), &dkv);
		swap(&hand, &recv);
		owner = (owner - 1 + c) % c;
	}
	/* This rank's own block's dK, dV are back. */
	t0 = run_now(x->proc);
	sim_bwd_qkv(sh, w, g, sv, x->work + n, hand + 2 * n, hand + 3 * n,
	    x->part);
	run_cp_computed(x, SIM_BACKWARD, l, mb, chunk, t0);
	run_free(x, SIM_MEM_ACTS, &hand, 4 * n);
	run_free(x, SIM_MEM_ACTS, &recv, 4 * n);
}
