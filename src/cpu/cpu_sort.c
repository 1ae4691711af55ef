/* CPU backend: argument checks, scratch layout and dispatch to the radix sort per key width. */
#define _DEFAULT_SOURCE /* madvise */
#include "vksort/cpu.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define MAX_DIGITS 8u
/* Below this many keys an insertion sort beats the radix set-up. */
#define INSERTION_SORT_MAX 48u
/* Each thread should own at least this many keys, or threading costs more than it gains. */
#define MIN_KEYS_PER_THREAD 65536u
#define SCRATCH_ALIGN 64u
/* Digit width: 8 bits (256 buckets) for small arrays; 11 bits (2048 buckets, a third fewer
 * passes over 32-bit keys) from this count on, where measured faster (docs/PERFORMANCE.md). */
#define WIDE_DIGIT_MIN_KEYS (1u << 20)
#define MAX_DIGIT_BITS 11u
#define MAX_BUCKETS (1u << MAX_DIGIT_BITS)
/* Per-thread write-combining buffers per bucket: a line of keys, a line of values, a start. */
#define WC_BYTES_PER_BUCKET (64u * 2u + sizeof(size_t))
/* Chunks shorter than this scatter directly (the buffers would not fill). */
#define WC_MIN_KEYS 16384u

/* The key encoding as XOR masks (see radix_impl.h encode/decode):
 * negative_flip is XOR-ed when the sign bit is set (floats: every bit), sign_flip always
 * (signed and float: the sign bit), order_flip always (descending: every bit). */
typedef struct key_masks {
    uint64_t negative_flip;
    uint64_t sign_flip;
    uint64_t order_flip;
} key_masks;

typedef struct sort_job {
    void *keys;
    void *tmp_keys;
    uint32_t *values;
    uint32_t *tmp_values;
    size_t count;
    int threads;
    int encode_in_place;
    key_masks masks;
    unsigned digit_count;
    size_t buckets;
    unsigned digit_shift[MAX_DIGITS];
    uint64_t digit_mask[MAX_DIGITS];
    size_t *counters;
    size_t *range_totals; /* per thread, RANGE_TOTAL_STRIDE apart (no false sharing) */
    unsigned char *wc_buffers;
} sort_job;

#define RANGE_TOTAL_STRIDE 8u /* size_t words: one cache line per thread */

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Copies whole write-combining lines to their destination with non-temporal stores where the
 * destination is 16-byte aligned (the scattered lines are not read again before the next pass,
 * so caching them only evicts useful data and costs a read-for-ownership). The lines live in
 * the scratch, which a caller may align to 8 bytes only: unaligned loads. */
static inline void copy_bytes_streaming(void *dst, const void *src, size_t bytes)
{
#if defined(__SSE2__)
    if (((uintptr_t)dst & 15u) == 0 && (bytes & 15u) == 0) {
        for (size_t i = 0; i < bytes; i += 16)
            _mm_stream_si128((__m128i *)(void *)((char *)dst + i),
                             _mm_loadu_si128((const __m128i *)(const void *)((const char *)src + i)));
        return;
    }
#endif
    memcpy(dst, src, bytes);
}
static inline void store_fence(void)
{
#if defined(__SSE2__)
    _mm_sfence();
#endif
}
static inline void copy_line_streaming(void *dst, const void *src) { copy_bytes_streaming(dst, src, 64); }

#define RADIX_KEY uint32_t
#define RADIX_NAME(x) x##_32
#include "radix_impl.h"
#undef RADIX_KEY
#undef RADIX_NAME

#define RADIX_KEY uint64_t
#define RADIX_NAME(x) x##_64
#include "radix_impl.h"
#undef RADIX_KEY
#undef RADIX_NAME

static int resolve_threads(const vksort_cpu_sort_info *info)
{
    int threads = info->num_threads > 0 ? info->num_threads : omp_get_max_threads();
    size_t useful = info->count / MIN_KEYS_PER_THREAD;
    if (useful < 1)
        useful = 1;
    if ((size_t)threads > useful)
        threads = (int)useful;
    return threads < 1 ? 1 : threads;
}

static unsigned digit_bits_for(const vksort_cpu_sort_info *info)
{
    if (info->digit_bits)
        return info->digit_bits;
    return info->count >= WIDE_DIGIT_MIN_KEYS ? MAX_DIGIT_BITS : 8u;
}

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* Internal scratch: large blocks are 2 MiB aligned and advised for transparent huge pages. The
 * scatter writes to thousands of destinations at once; with 4 KiB pages nearly every flushed line
 * misses the TLB (16 cores of the GPU machine, u32 pairs 2^24: 66-87 ms with 4 KiB pages, 52-55
 * ms with huge pages; docs/PERFORMANCE.md). */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)
static void *allocate_scratch(size_t bytes)
{
    if (bytes < 2 * HUGE_PAGE_BYTES)
        return malloc(bytes);
    size_t rounded = align_up(bytes, HUGE_PAGE_BYTES);
    void *p = aligned_alloc(HUGE_PAGE_BYTES, rounded);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p)
        madvise(p, rounded, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    return p;
}

typedef struct scratch_layout {
    size_t keys_offset, values_offset, counters_offset, totals_offset, wc_offset, total;
} scratch_layout;

static scratch_layout layout_for(const vksort_cpu_sort_info *info, int threads)
{
    scratch_layout l = {0, 0, 0, 0, 0, 0};
    size_t n = info->count;
    if (n <= INSERTION_SORT_MAX)
        return l;
    size_t key_size = vksort_key_size(info->key_type);
    l.keys_offset = 0;
    l.values_offset = align_up(n * key_size, SCRATCH_ALIGN);
    l.counters_offset = l.values_offset + (info->values ? align_up(n * 4u, SCRATCH_ALIGN) : 0);
    const unsigned bits = digit_bits_for(info);
    size_t buckets = (size_t)1u << bits;
    size_t digits = (key_size * 8u + bits - 1u) / bits;
    size_t per_thread = (digits + 1u) * buckets * sizeof(size_t);
    l.totals_offset = align_up(l.counters_offset + (size_t)threads * per_thread, SCRATCH_ALIGN);
    l.wc_offset = l.totals_offset +
                  align_up((size_t)threads * RANGE_TOTAL_STRIDE * sizeof(size_t), SCRATCH_ALIGN);
    l.total = l.wc_offset + (size_t)threads * buckets * WC_BYTES_PER_BUCKET;
    return l;
}

static int info_is_valid(const vksort_cpu_sort_info *info)
{
    if (!info || vksort_key_size(info->key_type) == 0 || (info->flags & ~VKSORT_FLAGS_ALL))
        return 0;
    if (info->count > 0 && !info->keys)
        return 0;
    if (info->num_threads < 0)
        return 0;
    if (info->digit_bits && (info->digit_bits < 8u || info->digit_bits > MAX_DIGIT_BITS))
        return 0;
    if (info->allocator && (!info->allocator->allocate || !info->allocator->free))
        return 0;
    return 1;
}

size_t vksort_cpu_scratch_size(const vksort_cpu_sort_info *info)
{
    if (!info_is_valid(info))
        return 0;
    return layout_for(info, resolve_threads(info)).total;
}

static key_masks masks_for(vksort_key_type type, int descending)
{
    key_masks m = {0, 0, 0};
    uint32_t width = vksort_key_size(type) * 8u;
    uint64_t all = width == 64 ? ~0ull : 0xffffffffull;
    uint64_t sign = 1ull << (width - 1u);
    if (type == VKSORT_KEY_I32 || type == VKSORT_KEY_I64)
        m.sign_flip = sign;
    if (type == VKSORT_KEY_F32 || type == VKSORT_KEY_F64) {
        m.sign_flip = sign;
        m.negative_flip = all;
    }
    if (descending)
        m.order_flip = all;
    return m;
}

vksort_result vksort_cpu_sort(const vksort_cpu_sort_info *info)
{
    if (!info_is_valid(info))
        return VKSORT_ERROR_INVALID_ARGUMENT;
    uint32_t bit_begin, bit_end;
    vksort_result r = vksort_resolve_bit_range(info->key_type, info->bit_begin, info->bit_end,
                                               &bit_begin, &bit_end);
    if (r != VKSORT_SUCCESS)
        return r;
    if (info->count < 2)
        return VKSORT_SUCCESS;

    const int wide = vksort_key_size(info->key_type) == 8;
    key_masks masks = masks_for(info->key_type, (info->flags & VKSORT_FLAG_DESCENDING) != 0);

    if (info->count <= INSERTION_SORT_MAX) {
        uint64_t width_mask = (bit_end - bit_begin) == 64 ? ~0ull
                                                          : ((1ull << (bit_end - bit_begin)) - 1u);
        uint64_t order_mask = width_mask << bit_begin;
        if (wide)
            insertion_sort_64(info->keys, info->values, info->count, order_mask, &masks);
        else
            insertion_sort_32(info->keys, info->values, info->count, (uint32_t)order_mask,
                              &masks);
        return VKSORT_SUCCESS;
    }

    const int threads = resolve_threads(info);
    scratch_layout layout = layout_for(info, threads);
    unsigned char *scratch = info->scratch;
    int owned = 0;
    if (scratch) {
        if (info->scratch_size < layout.total)
            return VKSORT_ERROR_SCRATCH_TOO_SMALL;
        if ((uintptr_t)scratch % 8u != 0)
            return VKSORT_ERROR_MISALIGNED;
    } else {
        scratch = info->allocator
                      ? info->allocator->allocate(info->allocator->user_data, layout.total,
                                                  SCRATCH_ALIGN)
                      : allocate_scratch(layout.total);
        if (!scratch)
            return VKSORT_ERROR_OUT_OF_HOST_MEMORY;
        owned = 1;
    }

    sort_job job;
    memset(&job, 0, sizeof job);
    job.keys = info->keys;
    job.values = info->values;
    job.tmp_keys = scratch + layout.keys_offset;
    job.tmp_values = info->values ? (uint32_t *)(void *)(scratch + layout.values_offset) : NULL;
    job.counters = (size_t *)(void *)(scratch + layout.counters_offset);
    job.range_totals = (size_t *)(void *)(scratch + layout.totals_offset);
    job.wc_buffers = scratch + layout.wc_offset;
    job.count = info->count;
    job.threads = threads;
    job.masks = masks;
    job.encode_in_place = (masks.negative_flip | masks.sign_flip | masks.order_flip) != 0;
    const uint32_t digit_bits = digit_bits_for(info);
    job.buckets = (size_t)1u << digit_bits;
    for (uint32_t shift = bit_begin; shift < bit_end; shift += digit_bits) {
        uint32_t width = bit_end - shift < digit_bits ? bit_end - shift : digit_bits;
        job.digit_shift[job.digit_count] = shift;
        job.digit_mask[job.digit_count] = (1ull << width) - 1u;
        job.digit_count++;
    }

    if (wide)
        radix_sort_64(&job);
    else
        radix_sort_32(&job);
    store_fence(); /* order the non-temporal stores before the caller reads the result */

    if (owned) {
        if (info->allocator)
            info->allocator->free(info->allocator->user_data, scratch);
        else
            free(scratch);
    }
    return VKSORT_SUCCESS;
}
