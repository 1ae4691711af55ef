/*
 * vksort CPU backend: a stable OpenMP LSD radix sort over host arrays.
 *
 * Algorithm: one read pass builds the histogram of every digit at once; digits that are
 * equal for every key are skipped; each remaining digit costs one count pass and one scatter pass
 * between the keys array and a scratch array (keys are encoded on the way into the first pass and
 * decoded on the way out of the last, so the caller's array holds ordinary keys before and after).
 * Each thread gets at least 65536 keys (so below 131072 keys one thread sorts); tiny arrays
 * use an insertion sort.
 * Digits are 8 bits below 2^20 keys and 11 bits above (fewer passes; measured faster on the
 * development machine); digit_bits overrides that.
 *
 * Threads: OpenMP conventions; num_threads == 0 uses omp_get_max_threads() (OMP_NUM_THREADS).
 * Scratch: either the caller passes `scratch` of at least vksort_cpu_scratch_size() bytes
 * (any alignment of 64 bytes or more is fastest; 8 is required), or leaves it NULL and the sort
 * allocates it for this call only through `allocator` (or malloc/free when that is NULL).
 * The sort is reentrant: it keeps no global state.
 * Large arrays sort faster in memory backed by huge pages: the internal scratch is advised for
 * transparent huge pages (Linux, MADV_HUGEPAGE); callers passing their own scratch or large key
 * arrays may want to do the same (docs/PERFORMANCE.md: 16 cores, 2^24 pairs,
 * 56-91 ms -> 51.5-54.8).
 */
#ifndef VKSORT_CPU_H
#define VKSORT_CPU_H

#include "vksort/vksort.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialise, then fill what you need. */
typedef struct vksort_cpu_sort_info {
    vksort_key_type key_type;   /* default u32 */
    vksort_flags flags;         /* VKSORT_FLAG_DESCENDING; VKSORT_FLAG_STABLE is implied */
    uint32_t bit_begin;         /* bit range of the encoding; [0, 0) means every bit */
    uint32_t bit_end;
    size_t count;               /* number of keys */
    void *keys;                 /* count keys of key_type, sorted in place */
    uint32_t *values;           /* optional payload, permuted with the keys; may be NULL */
    void *scratch;              /* optional caller scratch (see vksort_cpu_scratch_size) */
    size_t scratch_size;        /* bytes available at scratch */
    int num_threads;            /* 0: OpenMP default */
    uint32_t digit_bits;        /* tuning: 0 automatic (8 below 2^20 keys, else 11), or 8..11 */
    const vksort_allocation_callbacks *allocator; /* optional, for the internal scratch */
} vksort_cpu_sort_info;

/* Bytes of scratch vksort_cpu_sort() needs for `info` (count, key type, values, threads).
 * Returns 0 when the sort needs none (e.g. count < 2). */
size_t vksort_cpu_scratch_size(const vksort_cpu_sort_info *info);

/* Sorts info->keys (and info->values) in place. Errors: VKSORT_ERROR_INVALID_ARGUMENT,
 * VKSORT_ERROR_BIT_RANGE, VKSORT_ERROR_SCRATCH_TOO_SMALL, VKSORT_ERROR_MISALIGNED (a caller's
 * scratch not aligned to 8 bytes), VKSORT_ERROR_OUT_OF_HOST_MEMORY.
 * On error the arrays are unchanged. */
vksort_result vksort_cpu_sort(const vksort_cpu_sort_info *info);

#ifdef __cplusplus
}
#endif

#endif /* VKSORT_CPU_H */
