/*
 * costmodel_explain.c - the plain-word reasons attached to a result: does
 * it fit and by how much, what dominates the step (compute, exposed
 * communication, the bubble), and which choices cost time.
 */
#include <stdarg.h>
#include <stdio.h>

#include "i18n.h"
#include "core/engine/costmodel.h"

static void
add(struct cm_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_reasons >= CM_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->reasons[r->n_reasons++], CM_REASON_LEN, fmt, ap);
	va_end(ap);
}

static void
explain_memory(struct cm_result *r)
{
	if (r->fits)
		add(r, _("fits: %.1f GB of %.1f GB usable per GPU (%.1f GB "
		    "spare)"), r->mem_total / 1e9, r->mem_usable / 1e9,
		    (r->mem_usable - r->mem_total) / 1e9);
	else
		add(r, _("does not fit: needs %.1f GB per GPU, %.1f GB usable "
		    "(%.1f GB over)"), r->mem_total / 1e9, r->mem_usable / 1e9,
		    (r->mem_total - r->mem_usable) / 1e9);
}

static void
explain_dominant(struct cm_result *r)
{
	const double part[] = { r->t_compute, r->t_tp, r->t_pp,
	    r->t_dp_exposed, r->t_bubble, r->t_optimizer };
	const char *name[] = { N_("compute"), N_("TP communication"),
	    N_("PP communication"), N_("exposed DP communication"),
	    N_("the pipeline bubble"), N_("the optimizer step") };
	size_t i, best = 0;

	for (i = 1; i < sizeof part / sizeof part[0]; i++)
		if (part[i] > part[best])
			best = i;
	add(r, _("%s dominates: %.0f%% of the %.3f s step"), _(name[best]),
	    100 * part[best] / r->t_step, r->t_step);
}

void
cm_explain(struct cm_result *r)
{
	const struct cm_config *c = &r->cfg;

	r->n_reasons = 0;
	explain_memory(r);
	explain_dominant(r);
	if (r->tp_inter)
		add(r, _("the TP group of %d spans nodes: its all-reduces run "
		    "at %.0f GB/s instead of NVLink"), c->tp, c->inter_bw / 1e9);
	if (c->pp > 1 && r->microbatches < c->pp)
		add(r, _("only %ld micro-batches for %d stages: the pipeline "
		    "never fills"), r->microbatches, c->pp);
	else if (r->bubble_fraction > 0.05)
		add(r, _("the bubble idles %.0f%% of the step: (p-1)/(v m+p-1) "
		    "with p=%d, m=%ld, v=%d"), 100 * r->bubble_fraction, c->pp,
		    r->microbatches, c->virtual_stages);
	if (r->t_dp_exposed > 0.05 * r->t_step)
		add(r, _("%.0f ms of DP gradient reduction is not hidden "
		    "behind the backward pass"), 1e3 * r->t_dp_exposed);
	if (r->t_tp > 0.15 * r->t_step && !r->tp_inter)
		add(r, _("TP all-reduces take %.0f%% of the step"),
		    100 * r->t_tp / r->t_step);
}
