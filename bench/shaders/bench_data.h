/*
 * The benchmark's data, one definition for both of its GPU languages: the input generator
 * (fill_random.comp; cub_bench.cu's generate) and the result check (check_sorted.comp;
 * cub_bench.cu's check), so that vksort and CUB sort the same distributions and are checked
 * the same way. GLSL defines BENCH_GLSL before including; CUDA and C (the result words'
 * indices) include it as they are.
 *
 * Input: 32-bit words from a hash of the word's index and the run's seed. A key of two words
 * (64-bit) is words 2j (low) and 2j + 1 (high); payloads are each element's index, so a sorted
 * pair (key, v) must hold the key generated for element v.
 */
#ifndef VKSORT_BENCH_DATA_H
#define VKSORT_BENCH_DATA_H

#ifdef BENCH_GLSL
#define BENCH_U32 uint
#define BENCH_FN
#define BENCH_PRECISE precise
#define BENCH_FMA(a, b, c) fma(a, b, c)
#define BENCH_TO_FLOAT(x) float(x)
#define BENCH_FLOAT_BITS(x) floatBitsToUint(x)
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
#ifdef __CUDACC__
#define BENCH_FN __host__ __device__ inline
#else
#define BENCH_FN static inline
#endif
#define BENCH_U32 uint32_t
#define BENCH_PRECISE
#define BENCH_FMA(a, b, c) fmaf(a, b, c)
#define BENCH_TO_FLOAT(x) ((float)(x))
#define BENCH_FLOAT_BITS(x) bench_float_bits(x)
BENCH_FN uint32_t bench_float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
#endif

/* Key distributions (gpu_fill_mode, cub_bench's dist). */
#define BENCH_FILL_RANDOM 0u /* uniform random words */
#define BENCH_FILL_INDEX 1u  /* each word's own index (the payloads) */
#define BENCH_FILL_DEPTH 2u  /* f32 bits of depths uniform in [1, 100) */
/* BENCH_FILL_TOP_SHARE + s (s from 0 to 16): uniform random words, but s sixteenths of them
 * (and 1/256 of the rest) have the top byte 0x80 - a top digit as skewed as asked. */
#define BENCH_FILL_TOP_SHARE 16u
/* BENCH_FILL_DISTINCT_LOG2 + d (d from 0 to 30): 2^d distinct random words, each drawn about
 * equally often - keys with many duplicates (engine state keys, material ids). */
#define BENCH_FILL_DISTINCT_LOG2 64u
#define BENCH_FILL_DISTINCT_MAX_LOG2 30u

/* Integer hash: xorshift-multiply rounds (the "lowbias32" constants), uniform output bits for
 * consecutive inputs. */
BENCH_FN BENCH_U32 bench_hash32(BENCH_U32 x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* A run's salt: every word of the run is hashed with it. */
BENCH_FN BENCH_U32 bench_salt(BENCH_U32 seed)
{
    return bench_hash32(seed * 0x9e3779b9u + 1u);
}

/* Word i of a run. Depths: uniform in [1, 100) from the hash's top 24 bits, as float bits (few
 * values of the high bits, exponents 127..133: the keys' top digit has four values); one fused
 * multiply-add, so that the generator and the check compute the same bits. */
BENCH_FN BENCH_U32 bench_word(BENCH_U32 salt, BENCH_U32 i, BENCH_U32 mode)
{
    BENCH_U32 r = bench_hash32(i ^ salt);
    if (mode == BENCH_FILL_INDEX)
        return i;
    if (mode == BENCH_FILL_DEPTH) {
        BENCH_PRECISE float depth = BENCH_FMA(99.0f, BENCH_TO_FLOAT(r >> 8u) * (1.0f / 16777216.0f), 1.0f);
        return BENCH_FLOAT_BITS(depth);
    }
    if (mode >= BENCH_FILL_DISTINCT_LOG2)
        return bench_hash32((r & ((1u << (mode - BENCH_FILL_DISTINCT_LOG2)) - 1u)) ^ (salt * 0x85ebca6bu));
    if (mode >= BENCH_FILL_TOP_SHARE && (bench_hash32(r ^ 0x5bd1e995u) & 15u) < mode - BENCH_FILL_TOP_SHARE)
        return (r & 0x00ffffffu) | 0x80000000u;
    return r;
}

/* The check's two order-independent sums: a multiset of words (the keys of a keys-only sort,
 * the payloads of a pairs sort) summed through two different mixes, against the same sums over
 * the input; wrapping 32-bit sums. */
BENCH_FN BENCH_U32 bench_mix_a(BENCH_U32 x)
{
    return bench_hash32(x ^ 0xa511e9b3u);
}
BENCH_FN BENCH_U32 bench_mix_b(BENCH_U32 x)
{
    return bench_hash32(x * 0x2c1b3c6du + 0x297a2d39u);
}
/* One key (one or two words) as a word of the sums. */
BENCH_FN BENCH_U32 bench_key_word(BENCH_U32 lo, BENCH_U32 hi)
{
    return lo ^ bench_hash32(hi + 0x68e31da4u);
}

/* A key's bits in sort order (vksort's encoding: unsigned as is, signed with the sign bit
 * flipped, floats with every bit flipped when negative, else the sign bit), applied to its
 * top word. */
#define BENCH_ENC_UNSIGNED 0u
#define BENCH_ENC_SIGNED 1u
#define BENCH_ENC_FLOAT 2u
#define BENCH_ENC_FLOAT_ZERO_TIE 3u /* CUB's float order: -0.0 sorts as +0.0 */
BENCH_FN BENCH_U32 bench_encode_top(BENCH_U32 top, BENCH_U32 encoding)
{
    if (encoding == BENCH_ENC_FLOAT_ZERO_TIE && top == 0x80000000u)
        top = 0u;
    if (encoding == BENCH_ENC_SIGNED)
        return top ^ 0x80000000u;
    if (encoding == BENCH_ENC_FLOAT || encoding == BENCH_ENC_FLOAT_ZERO_TIE)
        return (top & 0x80000000u) != 0u ? ~top : top | 0x80000000u;
    return top;
}

/* The check's result words (accumulated over every check of a timed configuration): errors of
 * each kind, then the two sums of the results and of the inputs. */
#define BENCH_CHECK_ORDER 0     /* neighbours out of order (encoded, in the bit range) */
#define BENCH_CHECK_PAIR 1      /* a payload whose key is not the one generated for it */
#define BENCH_CHECK_STABLE 2    /* equal keys whose payloads (input indices) are not ascending */
#define BENCH_CHECK_OUT_A 3
#define BENCH_CHECK_IN_A 4
#define BENCH_CHECK_OUT_B 5
#define BENCH_CHECK_IN_B 6
#define BENCH_CHECK_WORDS 8

#ifndef BENCH_GLSL
/* Host side, one copy for vksort-gpu-bench and cub_bench.cu. */
#include <stdio.h>
#ifdef __CUDACC__
#define BENCH_HOST_FN inline
#else
#define BENCH_HOST_FN static inline
#endif

/* The masks of bits [lo, hi) ([0, 0) or hi 0: from lo to the top) of a key of key_words words,
 * over its low and high words. */
BENCH_HOST_FN void bench_range_masks(uint32_t key_words, uint32_t lo, uint32_t hi,
                                     uint32_t *mask_lo, uint32_t *mask_hi)
{
    const uint32_t width = key_words * 32u;
    if (hi == 0 || hi > width)
        hi = width;
    const uint64_t mask = ((hi - lo) >= 64 ? ~0ull : ((1ull << (hi - lo)) - 1u)) << lo;
    *mask_lo = (uint32_t)mask;
    *mask_hi = (uint32_t)(mask >> 32);
}

/* Whether the result words r[BENCH_CHECK_WORDS] tell of any failed check: 1 with what failed
 * in why (n bytes), else 0. */
BENCH_HOST_FN int bench_check_failed(const uint32_t *r, char *why, size_t n)
{
    const int sums_differ =
        r[BENCH_CHECK_OUT_A] != r[BENCH_CHECK_IN_A] || r[BENCH_CHECK_OUT_B] != r[BENCH_CHECK_IN_B];
    if (!r[BENCH_CHECK_ORDER] && !r[BENCH_CHECK_PAIR] && !r[BENCH_CHECK_STABLE] && !sums_differ)
        return 0;
    snprintf(why, n,
             "check failed: %u out of order, %u payloads with another key, %u unstable, "
             "multiset sums %s",
             (unsigned)r[BENCH_CHECK_ORDER], (unsigned)r[BENCH_CHECK_PAIR],
             (unsigned)r[BENCH_CHECK_STABLE], sums_differ ? "differ" : "equal");
    return 1;
}
#endif

#endif
