/* Test-data generation: key distributions over every key type, from a seeded PRNG so the same
 * (type, distribution, seed, count) always gives the same bytes.
 *
 * Distributions ("key order" is the order vksort sorts in, IEEE totalOrder for floats):
 *   uniform   integers: every bit of the key uniformly random. Floats: uniform in [-1, 1) on a
 *             grid of 2^-23 (f32) or 2^-52 (f64); no NaN, inf or -0.0 (use `bits` for those).
 *   bits      every bit pattern equally likely, for every type (floats include NaNs, infs,
 *             denormals and -0.0).
 *   sorted    ascending in key order, evenly spread: integers over the whole encoded range,
 *             floats over [-1, 1). Does not depend on the seed.
 *   reversed  `sorted` back to front (descending). Does not depend on the seed.
 *   constant  one `uniform` value repeated.
 *   few:K     each key one of K values drawn from `uniform` (at most K distinct).
 *   zipf      ranks 1..4096 with P(rank r) ~ 1/r^1.1, each rank mapped to a `uniform` key.
 *   normal    Box-Muller. Floats: N(0, 1). Integers: rounded N(mid, (2^(w/2)/16)^2) clamped to
 *             the type, mid = 0 for signed, 2^(w-1) for unsigned (w = key width in bits).
 * zipf and normal call libm (pow, log, cos), so their bytes can differ between C libraries; the
 * others are exact integer/IEEE arithmetic. */
#ifndef VKSORT_CLI_GEN_H
#define VKSORT_CLI_GEN_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>

typedef enum cli_dist_kind {
    CLI_DIST_UNIFORM,
    CLI_DIST_BITS,
    CLI_DIST_SORTED,
    CLI_DIST_REVERSED,
    CLI_DIST_CONSTANT,
    CLI_DIST_FEW,
    CLI_DIST_ZIPF,
    CLI_DIST_NORMAL
} cli_dist_kind;

#define CLI_FEW_MAX (1u << 24)

typedef struct cli_dist {
    cli_dist_kind kind;
    uint32_t few;  /* K of few:K, 1..CLI_FEW_MAX */
} cli_dist;

/* "uniform", "bits", "sorted", "reversed", "constant", "few:K", "zipf", "normal". */
int cli_parse_dist(const char *s, cli_dist *out, char *err, size_t n);
/* The distribution's name as accepted by cli_parse_dist ("few:5"). */
void cli_dist_format(cli_dist d, char *buf, size_t n);

/* Fills count keys of type at `keys` (count * key size bytes). Fails only when a helper table
 * cannot be allocated. */
int cli_generate_keys(vksort_key_type type, cli_dist dist, uint64_t seed, void *keys,
                      size_t count, char *err, size_t n);

/* values[i] = i. */
void cli_fill_iota(uint32_t *values, size_t count);

#endif
