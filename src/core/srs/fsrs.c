/*
 * fsrs.c - FSRS-6 parameters and memory formulas.
 *
 * The memory model of FSRS-6 as given in reference/srs.md §1.2-1.3:
 * a power-law forgetting curve R(t, S) with a trainable decay w20, initial
 * stability and difficulty, the difficulty update (linear damping plus mean
 * reversion towards D0(Easy)), and the three stability updates (success,
 * lapse, same day). All in double, without the intermediate rounding of
 * ts-fsrs, so results match py-fsrs 6.3.1 to within 1e-9 and the other
 * references to their published 1e-4. The state machine that uses these
 * lives in fsrs_sched.c, the interval fuzz in fsrs_fuzz.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "i18n.h"
#include "core/srs/fsrs.h"

/* FSRS-6 defaults, identical in py-fsrs, ts-fsrs and fsrs-rs (srs.md §1.2). */
static const double fsrs_default_w[FSRS_N_PARAMS] = {
	0.212, 1.2931, 2.3065, 8.2956,
	6.4133, 0.8334, 3.0194, 0.001,
	1.8722, 0.1666, 0.796,
	1.4835, 0.0614, 0.2629, 1.6483,
	0.6014, 1.8729,
	0.5425, 0.0912, 0.0658,
	0.1542
};

/* Bounds of each weight (py-fsrs LOWER/UPPER_BOUNDS_PARAMETERS, §1.2). */
static const double fsrs_w_lo[FSRS_N_PARAMS] = {
	0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
	0.001, 0.001, 0.001, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1
};
static const double fsrs_w_hi[FSRS_N_PARAMS] = {
	100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
	5.0, 0.25, 0.9, 4.0, 1.0, 6.0, 2.0, 2.0, 0.8, 0.8
};

void
fsrs_params_default(struct fsrs_params *p)
{
	memset(p, 0, sizeof *p);
	memcpy(p->w, fsrs_default_w, sizeof p->w);
	p->desired_retention = 0.9;
	p->learning_steps[0] = 60;
	p->learning_steps[1] = 600;
	p->n_learning_steps = 2;
	p->relearning_steps[0] = 600;
	p->n_relearning_steps = 1;
	p->maximum_interval = 36500;
	p->enable_fuzz = 1;
}

static int
check_weights(const double *w, struct pl_err *err)
{
	int i;

	for (i = 0; i < FSRS_N_PARAMS; i++) {
		/* Written so that NaN fails too. */
		if (!(w[i] >= fsrs_w_lo[i] && w[i] <= fsrs_w_hi[i])) {
			pl_err_set(err, NULL, 0, 0,
			    _("FSRS parameter w%d = %g is outside %g .. %g"),
			    i, w[i], fsrs_w_lo[i], fsrs_w_hi[i]);
			return -1;
		}
	}
	return 0;
}

/*
 * Bring a 17- or 19-value vector to FSRS-6 (fsrs-rs check_and_fill_parameters,
 * ts-fsrs migrateParameters; srs.md §1.2).
 */
static int
migrate_weights(const double *in, size_t n, double *w, struct pl_err *err)
{
	if (n != 17 && n != 19 && n != FSRS_N_PARAMS) {
		pl_err_set(err, NULL, 0, 0,
		    _("FSRS needs 17, 19 or 21 parameters, not %zu"), n);
		return -1;
	}
	memcpy(w, in, n * sizeof *w);
	if (n == 17) {
		w[4] = in[4] + 2.0 * in[5];
		w[5] = log(1.0 + 3.0 * in[5]) / 3.0;
		w[6] = in[6] + 0.5;
		w[17] = 0.0;
		w[18] = 0.0;
	}
	if (n != FSRS_N_PARAMS) {
		w[19] = 0.0;
		w[20] = 0.5;
	}
	return 0;
}

int
fsrs_params_set_weights(struct fsrs_params *p, const double *in, size_t n,
    struct pl_err *err)
{
	double w[FSRS_N_PARAMS];

	if (migrate_weights(in, n, w, err) != 0 || check_weights(w, err) != 0)
		return -1;
	memcpy(p->w, w, sizeof p->w);
	return 0;
}

int
fsrs_params_set_retention(struct fsrs_params *p, double r, struct pl_err *err)
{
	if (!(r >= FSRS_RETENTION_MIN && r <= FSRS_RETENTION_MAX)) {
		pl_err_set(err, NULL, 0, 0,
		    _("desired retention %g is outside %.2f .. %.2f"), r,
		    FSRS_RETENTION_MIN, FSRS_RETENTION_MAX);
		return -1;
	}
	p->desired_retention = r;
	return 0;
}

static int
check_steps(const int64_t *steps, int n, const char *what,
    struct pl_err *err)
{
	int i;

	if (n < 0 || n > FSRS_MAX_STEPS) {
		pl_err_set(err, NULL, 0, 0, _("%s: %d steps, at most %d allowed"),
		    what, n, FSRS_MAX_STEPS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (steps[i] <= 0) {
			pl_err_set(err, NULL, 0, 0,
			    _("%s: step %d is not a positive time"), what, i + 1);
			return -1;
		}
	}
	return 0;
}

int
fsrs_params_check(const struct fsrs_params *p, struct pl_err *err)
{
	struct fsrs_params tmp = *p;

	if (check_weights(p->w, err) != 0 ||
	    fsrs_params_set_retention(&tmp, p->desired_retention, err) != 0 ||
	    check_steps(p->learning_steps, p->n_learning_steps,
	    _("learning steps"), err) != 0 ||
	    check_steps(p->relearning_steps, p->n_relearning_steps,
	    _("relearning steps"), err) != 0)
		return -1;
	if (p->maximum_interval < 1) {
		pl_err_set(err, NULL, 0, 0,
		    _("maximum interval %d must be at least 1 day"),
		    p->maximum_interval);
		return -1;
	}
	return 0;
}

/* FACTOR = 0.9^(1/DECAY) - 1 with DECAY = -w20, so that R(S, S) = 0.9. */
static double
curve_factor(const double *w)
{
	return pow(0.9, 1.0 / -w[20]) - 1.0;
}

static double
clamp(double x, double lo, double hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

double
fsrs_forgetting_curve(const double *w, double t_days, double s)
{
	return pow(1.0 + curve_factor(w) * t_days / s, -w[20]);
}

double
fsrs_raw_interval(const double *w, double s, double r)
{
	return s / curve_factor(w) * (pow(r, 1.0 / -w[20]) - 1.0);
}

int
fsrs_next_interval(const double *w, double s, double r, int max_ivl)
{
	/*
	 * Half up, as C floor(x + 0.5) and ts-fsrs Math.round; py-fsrs rounds
	 * half to even, which differs only on an exact .5 (srs.md §1.3).
	 */
	double ivl = floor(fsrs_raw_interval(w, s, r) + 0.5);

	return (int)clamp(ivl, 1.0, max_ivl);
}

double
fsrs_init_stability(const double *w, enum fsrs_rating g)
{
	return fmax(w[g - 1], FSRS_S_MIN);
}

/* D0(G) = w4 - exp(w5 * (G - 1)) + 1, before the clamp. */
static double
raw_init_difficulty(const double *w, int g)
{
	return w[4] - exp(w[5] * (g - 1)) + 1.0;
}

double
fsrs_init_difficulty(const double *w, enum fsrs_rating g)
{
	return clamp(raw_init_difficulty(w, g), 1.0, 10.0);
}

double
fsrs_next_difficulty(const double *w, double d, enum fsrs_rating g)
{
	double delta = -w[6] * ((int)g - 3);
	double damped = d + delta * (10.0 - d) / 9.0;

	/* Mean reversion towards the unclamped D0(Easy). */
	return clamp(w[7] * raw_init_difficulty(w, FSRS_EASY) +
	    (1.0 - w[7]) * damped, 1.0, 10.0);
}

double
fsrs_recall_stability(const double *w, double d, double s, double r,
    enum fsrs_rating g)
{
	double hard = g == FSRS_HARD ? w[15] : 1.0;
	double easy = g == FSRS_EASY ? w[16] : 1.0;

	return s * (1.0 + exp(w[8]) * (11.0 - d) * pow(s, -w[9]) *
	    (exp((1.0 - r) * w[10]) - 1.0) * hard * easy);
}

double
fsrs_forget_stability(const double *w, double d, double s, double r)
{
	double lt = w[11] * pow(d, -w[12]) * (pow(s + 1.0, w[13]) - 1.0) *
	    exp((1.0 - r) * w[14]);

	return fmin(lt, s / exp(w[17] * w[18]));
}

double
fsrs_short_term_stability(const double *w, double s, enum fsrs_rating g)
{
	double inc = exp(w[17] * ((int)g - 3 + w[18])) * pow(s, -w[19]);

	if (g >= FSRS_HARD)
		inc = fmax(inc, 1.0);
	return s * inc;
}
