/* Test data generators and the simple reference sort every backend is checked against. */
#ifndef VKSORT_TEST_DATA_H
#define VKSORT_TEST_DATA_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>

typedef enum test_dist {
    DIST_UNIFORM,     /* every bit random */
    DIST_SORTED,
    DIST_REVERSED,
    DIST_CONSTANT,
    DIST_FEW_UNIQUE,  /* 5 distinct values */
    DIST_LOW_BYTE,    /* only the low byte of the encoding varies */
    DIST_FLAG_BIT,    /* one bit varies (bit 13 of the encoding) */
    DIST_SPECIALS,    /* floats: +-NaN with payload bits, +-0, +-inf, denormals; ints: extremes */
    DIST_COUNT,       /* the distributions above, which tests rotate through */
    /* Targeted ones, outside the rotations: */
    DIST_BYTES_0_2,   /* only bytes 0 and 2 of the encoding vary (a constant digit between two) */
    DIST_TOP_HEAVY,   /* random, but an eighth of the keys have a zero top byte and byte 1 */
    /* random, but 15/16 of the keys share one top byte and 5/8 one byte below it: both digit
     * positions skewed (most keys one digit value), as the top digits of f32 depths in a
     * narrow range are */
    DIST_SKEWED_TOP,
    /* random, but 1/40 of the keys have a top byte of 0-3: one crowded range of the top 16 bits
     * (the hybrid path's split chunk: at 70000 keys its chunks of 1024 top-16 values, four top
     * bytes, hold ~1100 keys, the first ~2800, past its 2560-key tile, while the plan's estimate
     * from the top two digits' largest counts stays within its limit) */
    DIST_CROWDED_CHUNK,
    /* random, but byte 2 of the encoding equals byte 3: 256 values of the top 16 bits whose
     * bytes are each uniform (the hybrid path's stable chunk sort: its chunks fit, but each
     * top-16 value's keys share one or two digit groups of the chunk sort) */
    DIST_DIAGONAL_TOP,
    /* random, but the low 16 bits of the encoding are the base's (only the high half varies) */
    DIST_HIGH_HALF,
    /* n/8 (n/64) distinct random values (at least one), each about 8 (64) times: keys with many
     * duplicates, as an engine's state or material keys (the hybrid path's chunk sort: every
     * digit group of its rank walk about 9 (65) long, under (over) RADIX_HYBRID_RANK_WORK and its
     * _PARTITIONED form, so the walk (the stable radix sort) takes them) */
    DIST_REPEATED_8,
    /* random, but 1/1600 of the keys have the base's top 16 bits: one crowded value of the top
     * 16 bits (the hybrid path's fallback: at 2^22 keys its ~2700 keys outgrow the 2560-key
     * chunk tile while the plan's estimate stays within its limit) */
    DIST_CROWDED_BUCKET,
    /* random, but 1/600 of the keys have their top 10 bits zero: 64 crowded values of the top
     * 16 bits (the hybrid path's split in four: at 2^21 keys its chunk of 64 values holds ~5500
     * keys, halves still over its 2560-key tile, quarters not) */
    DIST_CROWDED_64,
    DIST_REPEATED_64, /* (with DIST_REPEATED_8 above) */
    /* as DIST_DIAGONAL_TOP, but byte 2 is byte 3 with its low bit cleared: top-16 values come in
     * pairs 256 apart whose low bytes are equal (the stable chunk sort where a chunk of 512 or
     * more top-16 values holds buckets that differ only in the high bits of their chunk-relative
     * number: a sort that dropped those bits would merge them) */
    DIST_PAIRED_TOP
} test_dist;

const char *test_dist_name(test_dist d);

/* splitmix64: tiny, good enough and reproducible everywhere. */
uint64_t test_rng_next(uint64_t *state);

/* Fills n keys (key_size 4 or 8 bytes each) with the distribution. */
void test_fill_keys(vksort_key_type type, test_dist dist, void *keys, size_t n, uint64_t seed);

/* Stable merge sort of (keys, values) on the encoded keys restricted to [bit_begin, bit_end),
 * ascending or descending. The obviously-correct reference: compare, merge, nothing clever.
 * values may be NULL. Returns 0 on allocation failure. */
int test_reference_sort(vksort_key_type type, int descending, uint32_t bit_begin,
                        uint32_t bit_end, void *keys, uint32_t *values, size_t n);

/* First index where the arrays differ, or (size_t)-1 when equal. */
size_t test_first_difference(const void *a, const void *b, size_t n, size_t elem_size);

#endif
