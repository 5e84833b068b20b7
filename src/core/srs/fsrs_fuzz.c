/*
 * fsrs_fuzz.c - interval fuzz, reproducible per card and review.
 *
 * Review intervals are spread a little so that cards learnt together do not
 * stay due together. The ranges are those shared by py-fsrs, ts-fsrs and
 * Anki (reference/srs.md §1.5); the draw within a range is Anki's
 * with_review_fuzz. The fuzz factor is not taken from a global generator:
 * like Anki, it is a pure function of the card id and its review count
 * (here splitmix64), so undoing an answer and giving it again, or rebuilding
 * a card from its log, produces the same interval.
 */
#include <math.h>
#include <stdint.h>

#include "core/srs/fsrs.h"

/* splitmix64 (Steele, Lea, Flood 2014): one step of the output function. */
static uint64_t
splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

double
fsrs_fuzz_factor(int64_t id, int reps)
{
	uint64_t seed = (uint64_t)id + (uint64_t)(int64_t)reps;

	/* The top 53 bits give a double uniform in [0, 1). */
	return (double)(splitmix64(seed) >> 11) * 0x1.0p-53;
}

/*
 * delta = 1 + 0.15 over 2.5..7 days + 0.10 over 7..20 + 0.05 beyond 20;
 * no fuzz below 2.5 days.
 */
static double
fuzz_delta(double ivl)
{
	if (ivl < 2.5)
		return 0.0;
	return 1.0 + 0.15 * fmax(fmin(ivl, 7.0) - 2.5, 0.0) +
	    0.10 * fmax(fmin(ivl, 20.0) - 7.0, 0.0) +
	    0.05 * fmax(ivl - 20.0, 0.0);
}

static int
clampi(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

void
fsrs_fuzz_bounds(double ivl, int min, int max, int *lo, int *hi)
{
	double delta;

	/* Anki constrained_fuzz_bounds; Rust round() is half away from 0. */
	if (min > max)
		min = max;
	ivl = fmin(fmax(ivl, min), max);
	delta = fuzz_delta(ivl);
	*lo = clampi((int)round(ivl - delta), min, max);
	*hi = clampi((int)round(ivl + delta), min, max);
	if (*hi == *lo && *hi > 2 && *hi < max)
		*hi = *lo + 1;
}

int
fsrs_fuzz_interval(double ivl, int min, int max, double f)
{
	int lo, hi;

	if (f < 0.0) {
		if (min > max)
			min = max;
		return (int)fmin(fmax(floor(ivl + 0.5), min), max);
	}
	fsrs_fuzz_bounds(ivl, min, max, &lo, &hi);
	return (int)floor(lo + f * (1 + hi - lo));
}
