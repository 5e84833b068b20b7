/*
 * sim_ep_check.c - the rules of the MoE variant and of ep mode: the
 * experts fit the toy's MLP, top-k is at most E, EP divides the experts
 * and the DP ranks of a stage, and the modes the variant runs in (the
 * experts are columns of the MLP, so TP and CP, which split those or
 * the sequence inside attention only, are left to the dense model).
 */
#include "i18n.h"
#include "core/sim/sim_modes.h"

static int
check_variant(const struct sim_config *cfg, struct pl_err *err)
{
	const struct sim_moe *m = &cfg->moe;

	if (m->experts < 0 || m->experts > SIM_MOE_MAX_EXPERTS) {
		pl_err_set(err, NULL, 0, 0, _("moe must be between 1 and %d "
		    "experts, not %d"), SIM_MOE_MAX_EXPERTS, m->experts);
		return -1;
	}
	if (m->experts == 0) {
		if (m->top_k > 0 || m->shared || m->router_bias > 0) {
			pl_err_set(err, NULL, 0, 0, "%s", _("top_k, "
			    "shared_expert and router_bias need the MoE "
			    "variant: give moe (the experts) or mode ep"));
			return -1;
		}
		return 0;
	}
	if (m->top_k < 1 || m->top_k > m->experts) {
		pl_err_set(err, NULL, 0, 0, _("top-k %d is more than the %d "
		    "experts"), m->top_k, m->experts);
		return -1;
	}
	if (m->router_bias < 0 || m->router_bias > SIM_MOE_MAX_BIAS) {
		pl_err_set(err, NULL, 0, 0, _("router_bias must be between 0 "
		    "and %d, not %d"), SIM_MOE_MAX_BIAS, m->router_bias);
		return -1;
	}
	if (cfg->mode == SIM_TP || cfg->mode == SIM_3D || cfg->mode == SIM_CP) {
		pl_err_set(err, NULL, 0, 0, _("the MoE variant runs in single, "
		    "dp, pp, fsdp and ep, not %s"), sim_mode_name(cfg->mode));
		return -1;
	}
	return 0;
}

int
sim_check_moe(const struct sim_config *cfg, struct pl_err *err)
{
	int p = cfg->pp > 1 ? cfg->pp : 1, d, e;

	if (check_variant(cfg, err) != 0)
		return -1;
	if (cfg->mode != SIM_EP) {
		if (cfg->ep > 1 || cfg->pp > 1) {
			pl_err_set(err, NULL, 0, 0, "%s", _("ep and pp set "
			    "the layout of mode ep: use --mode ep"));
			return -1;
		}
		return 0;
	}
	if (cfg->moe.experts == 0) {
		pl_err_set(err, NULL, 0, 0, "%s", _("mode ep needs the MoE "
		    "variant (moe, the experts)"));
		return -1;
	}
	if (cfg->gpus % p != 0 || SIM_LAYERS % p != 0) {
		pl_err_set(err, NULL, 0, 0, _("pp %d must divide the %d GPUs "
		    "and the model's %d layers"), p, cfg->gpus, SIM_LAYERS);
		return -1;
	}
	d = cfg->gpus / p;
	e = cfg->ep > 0 ? cfg->ep : d;
	if (cfg->moe.experts % e != 0) {
		pl_err_set(err, NULL, 0, 0, _("ep %d does not divide the %d "
		    "experts"), e, cfg->moe.experts);
		return -1;
	}
	if (d % e != 0) {
		pl_err_set(err, NULL, 0, 0, _("ep %d does not divide the %d DP "
		    "ranks of a stage (EP ranks are taken from them)"), e, d);
		return -1;
	}
	return 0;
}
