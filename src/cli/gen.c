/* Key distributions. A splitmix64 stream (own implementation; never rand(), whose sequence
 * differs between C libraries) drives everything, first the helper tables then one draw per key. */
#include "gen.h"

#include "args.h"
#include "err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZIPF_RANKS 4096
#define ZIPF_S 1.1

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform double in [0, 1) with 53 random bits. */
static double rng_unit(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1p-53;
}

static int is_float(vksort_key_type t)
{
    return t == VKSORT_KEY_F32 || t == VKSORT_KEY_F64;
}

static uint64_t width_mask(vksort_key_type t)
{
    return vksort_key_size(t) == 8 ? ~0ull : 0xffffffffull;
}

static uint64_t float_bits(vksort_key_type t, double v)
{
    if (t == VKSORT_KEY_F32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
}

/* The `uniform` distribution: see gen.h. The float grids are exact in their type. */
static uint64_t uniform_key(vksort_key_type t, rng *r)
{
    uint64_t x = rng_next(r);
    switch (t) {
    case VKSORT_KEY_F32: return float_bits(t, (double)(x >> 40) * 0x1p-23 - 1.0);
    case VKSORT_KEY_F64: return float_bits(t, (double)(x >> 11) * 0x1p-52 - 1.0);
    default: return x & width_mask(t);
    }
}

/* Position i of `sorted` (evenly spread, ascending in key order). */
static uint64_t sorted_key(vksort_key_type t, size_t i, size_t count)
{
    if (is_float(t))
        return float_bits(t, -1.0 + 2.0 * (double)i / (double)count);
    uint64_t step = width_mask(t) / (count ? (uint64_t)count : 1u);
    uint64_t enc = ((uint64_t)i * step) & width_mask(t);
    return vksort_key_size(t) == 8 ? vksort_decode_u64_bits(t, enc)
                                   : vksort_decode_u32_bits(t, (uint32_t)enc);
}

static uint64_t normal_key(vksort_key_type t, double z)
{
    if (is_float(t))
        return float_bits(t, z);
    const int w = (int)vksort_key_size(t) * 8;
    const double sd = ldexp(1.0, w / 2 - 4);
    const int is_signed = t == VKSORT_KEY_I32 || t == VKSORT_KEY_I64;
    const double mid = is_signed ? 0.0 : ldexp(1.0, w - 1);
    const double lo = is_signed ? -ldexp(1.0, w - 1) : 0.0;
    const double hi = ldexp(1.0, is_signed ? w - 1 : w); /* exclusive */
    double x = floor(mid + z * sd + 0.5);
    if (x < lo)
        x = lo;
    if (is_signed) {
        int64_t v = x >= hi ? (w == 64 ? INT64_MAX : INT32_MAX) : (int64_t)x;
        return (uint64_t)v & width_mask(t);
    }
    return x >= hi ? width_mask(t) : (uint64_t)x;
}

static void store_key(void *keys, size_t i, size_t key_size, uint64_t bits)
{
    if (key_size == 8) {
        memcpy((unsigned char *)keys + i * 8u, &bits, 8);
    } else {
        uint32_t b = (uint32_t)bits;
        memcpy((unsigned char *)keys + i * 4u, &b, 4);
    }
}

int cli_parse_dist(const char *s, cli_dist *out, char *err, size_t n)
{
    static const struct { const char *name; cli_dist_kind kind; } names[] = {
        {"uniform", CLI_DIST_UNIFORM},   {"bits", CLI_DIST_BITS},
        {"sorted", CLI_DIST_SORTED},     {"reversed", CLI_DIST_REVERSED},
        {"constant", CLI_DIST_CONSTANT}, {"zipf", CLI_DIST_ZIPF},
        {"normal", CLI_DIST_NORMAL}};
    out->few = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        if (strcmp(s, names[i].name) == 0) {
            out->kind = names[i].kind;
            return 0;
        }
    }
    if (strncmp(s, "few:", 4) == 0) {
        uint64_t k = 0;
        if (cli_parse_count(s + 4, "--dist few:K", &k, err, n) != 0)
            return -1;
        if (k < 1 || k > CLI_FEW_MAX)
            return cli_fail(err, n, "--dist few:K needs 1 <= K <= %u, got '%s'", CLI_FEW_MAX, s);
        out->kind = CLI_DIST_FEW;
        out->few = (uint32_t)k;
        return 0;
    }
    return cli_fail(err, n,
                    "unknown distribution '%s' (expected uniform, bits, sorted, reversed, "
                    "constant, few:K, zipf or normal)",
                    s);
}

void cli_dist_format(cli_dist d, char *buf, size_t n)
{
    static const char *const names[] = {"uniform",  "bits", "sorted", "reversed",
                                        "constant", "few",  "zipf",   "normal"};
    if (d.kind == CLI_DIST_FEW)
        snprintf(buf, n, "few:%u", d.few);
    else
        snprintf(buf, n, "%s", names[d.kind]);
}

/* zipf: cumulative distribution over the ranks, then a binary search per key. */
static int fill_zipf(vksort_key_type t, rng *r, void *keys, size_t count, char *err, size_t n)
{
    const size_t ks = vksort_key_size(t);
    double *cdf = malloc(ZIPF_RANKS * sizeof *cdf);
    uint64_t *rank_key = malloc(ZIPF_RANKS * sizeof *rank_key);
    if (!cdf || !rank_key) {
        free(cdf);
        free(rank_key);
        return cli_fail(err, n, "out of memory");
    }
    double sum = 0.0;
    for (int k = 0; k < ZIPF_RANKS; ++k) {
        sum += 1.0 / pow((double)(k + 1), ZIPF_S);
        cdf[k] = sum;
        rank_key[k] = uniform_key(t, r);
    }
    for (size_t i = 0; i < count; ++i) {
        double u = rng_unit(r) * sum;
        size_t lo = 0, hi = ZIPF_RANKS - 1; /* first k with cdf[k] > u */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (cdf[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        store_key(keys, i, ks, rank_key[lo]);
    }
    free(cdf);
    free(rank_key);
    return 0;
}

int cli_generate_keys(vksort_key_type type, cli_dist dist, uint64_t seed, void *keys,
                      size_t count, char *err, size_t n)
{
    const size_t ks = vksort_key_size(type);
    /* Scramble the seed so nearby seeds do not start on overlapping splitmix64 streams. */
    rng r = {seed};
    r.state = rng_next(&r) ^ 0x6a09e667f3bcc909ull;

    switch (dist.kind) {
    case CLI_DIST_UNIFORM:
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, uniform_key(type, &r));
        return 0;
    case CLI_DIST_BITS:
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, rng_next(&r) & width_mask(type));
        return 0;
    case CLI_DIST_SORTED:
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, sorted_key(type, i, count));
        return 0;
    case CLI_DIST_REVERSED:
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, sorted_key(type, count - 1u - i, count));
        return 0;
    case CLI_DIST_CONSTANT: {
        uint64_t v = uniform_key(type, &r);
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, v);
        return 0;
    }
    case CLI_DIST_FEW: {
        uint64_t *table = malloc((size_t)dist.few * sizeof *table);
        if (!table)
            return cli_fail(err, n, "out of memory");
        for (uint32_t k = 0; k < dist.few; ++k)
            table[k] = uniform_key(type, &r);
        for (size_t i = 0; i < count; ++i)
            store_key(keys, i, ks, table[rng_next(&r) % dist.few]);
        free(table);
        return 0;
    }
    case CLI_DIST_ZIPF:
        return fill_zipf(type, &r, keys, count, err, n);
    case CLI_DIST_NORMAL:
        for (size_t i = 0; i < count; i += 2) {
            /* Box-Muller: two independent N(0,1) from two uniforms; 1 - u keeps log() finite. */
            double u1 = 1.0 - rng_unit(&r), u2 = rng_unit(&r);
            double radius = sqrt(-2.0 * log(u1)), angle = 6.283185307179586 * u2;
            store_key(keys, i, ks, normal_key(type, radius * cos(angle)));
            if (i + 1 < count)
                store_key(keys, i + 1, ks, normal_key(type, radius * sin(angle)));
        }
        return 0;
    }
    return cli_fail(err, n, "internal error: unknown distribution");
}

void cli_fill_iota(uint32_t *values, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        values[i] = (uint32_t)i;
}
