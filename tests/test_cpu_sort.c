/* Property tests of the CPU radix sort against the stable reference merge sort:
 * key types x distributions x sizes x ascending/descending x bit ranges x payload on/off,
 * payload = input index (proves stability), plus the error paths of the API. */
#include "support/test_data.h"
#include "support/test_main.h"
#include "vksort/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bit_range { uint32_t begin, end; } bit_range;

/* Digit width forced on the sorts of check_case (0: the automatic choice). */
static uint32_t forced_digit_bits;

static int check_case(vksort_key_type type, test_dist dist, size_t n, int descending,
                      bit_range bits, int with_values, int threads, uint64_t seed)
{
    const size_t ks = vksort_key_size(type);
    void *keys = malloc(n * ks + 8), *expect = malloc(n * ks + 8);
    uint32_t *values = with_values ? malloc(n * 4 + 4) : NULL;
    uint32_t *expect_values = with_values ? malloc(n * 4 + 4) : NULL;
    int ok = 1;
    test_fill_keys(type, dist, keys, n, seed);
    memcpy(expect, keys, n * ks);
    if (with_values) {
        for (size_t i = 0; i < n; ++i)
            values[i] = expect_values[i] = (uint32_t)i;
    }
    CHECK(test_reference_sort(type, descending, bits.begin, bits.end, expect, expect_values, n));

    vksort_cpu_sort_info info = {0};
    info.key_type = type;
    info.flags = descending ? VKSORT_FLAG_DESCENDING : 0;
    info.bit_begin = bits.begin;
    info.bit_end = bits.end;
    info.count = n;
    info.keys = keys;
    info.values = values;
    info.num_threads = threads;
    info.digit_bits = forced_digit_bits;
    vksort_result r = vksort_cpu_sort(&info);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "sort failed: %s\n", vksort_result_string(r));
        ok = 0;
    }
    size_t dk = test_first_difference(keys, expect, n, ks);
    size_t dv = with_values ? test_first_difference(values, expect_values, n, 4) : (size_t)-1;
    if (ok && (dk != (size_t)-1 || dv != (size_t)-1)) {
        fprintf(stderr,
                "MISMATCH type=%s dist=%s n=%zu desc=%d bits=[%u,%u) values=%d threads=%d: "
                "first key diff %lld, first value diff %lld\n",
                vksort_key_type_name(type), test_dist_name(dist), n, descending, bits.begin,
                bits.end, with_values, threads, (long long)dk, (long long)dv);
        ok = 0;
    }
    free(keys); free(expect); free(values); free(expect_values);
    return ok;
}

static void test_matrix_small(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 31, 47, 48, 49, 50, 63, 64, 65, 255, 256, 257,
                                   1000, 1023, 1024, 1025, 4097};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        uint32_t width = vksort_key_size((vksort_key_type)t) * 8u;
        bit_range ranges[] = {{0, 0}, {0, 16}, {8, 24}, {3, width - 5}, {width - 1, width}};
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
                for (int desc = 0; desc < 2; ++desc)
                    for (size_t b = 0; b < sizeof ranges / sizeof ranges[0]; ++b)
                        CHECK(check_case((vksort_key_type)t, (test_dist)d, sizes[s], desc,
                                         ranges[b], (int)((s + b) & 1u) ^ desc, 0,
                                         s * 31 + b));
    }
}

static void test_matrix_large(void)
{
    /* Sizes where the threaded path runs (>= 2 * 65536 keys), odd thread counts included. */
    static const size_t sizes[] = {131071, 131072, 131073, 262145, 1u << 20, 3000017};
    static const test_dist dists[] = {DIST_UNIFORM, DIST_FEW_UNIQUE, DIST_SPECIALS,
                                      DIST_LOW_BYTE, DIST_REVERSED};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; ++d) {
                if (sizes[s] > (1u << 20) && d > 1)
                    continue; /* keep the suite quick: the big size gets two distributions */
                int desc = (int)((s + d) & 1u);
                int threads = (int)(1 + (s + d + (size_t)t) % 4u); /* 1..4, odd counts too */
                bit_range full = {0, 0}, part = {4, 21};
                CHECK(check_case((vksort_key_type)t, dists[d], sizes[s], desc, full, 1, threads,
                                 s + d));
                if (d == 0)
                    CHECK(check_case((vksort_key_type)t, dists[d], sizes[s], !desc, part,
                                     (int)(s & 1u), 0, s + 99));
            }
}

/* Both digit widths on both sides of the automatic switch (2^20 keys). */
static void test_digit_widths(void)
{
    const uint32_t widths[] = {8, 9, 11};
    for (size_t w = 0; w < 3; ++w) {
        forced_digit_bits = widths[w];
        bit_range full = {0, 0}, part = {5, 45};
        CHECK(check_case(VKSORT_KEY_F32, DIST_UNIFORM, 200003, 0, full, 1, 3, 70 + w));
        CHECK(check_case(VKSORT_KEY_I64, DIST_SPECIALS, (1u << 20) + 5, 1, part, 1, 2, 80 + w));
        CHECK(check_case(VKSORT_KEY_U32, DIST_LOW_BYTE, 5000, 1, full, 0, 0, 90 + w));
    }
    forced_digit_bits = 0;
}

static size_t allocations, frees;
static void *counting_alloc(void *user, size_t size, size_t alignment)
{
    (void)user;
    allocations++;
    return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
static void counting_free(void *user, void *p)
{
    (void)user;
    frees++;
    free(p);
}

static void test_scratch_and_allocator(void)
{
    const size_t n = 200000;
    uint32_t *keys = malloc(n * 4), *values = malloc(n * 4), *expect = malloc(n * 4);
    test_fill_keys(VKSORT_KEY_F32, DIST_UNIFORM, keys, n, 7);
    memcpy(expect, keys, n * 4);
    for (size_t i = 0; i < n; ++i)
        values[i] = (uint32_t)i;
    CHECK(test_reference_sort(VKSORT_KEY_F32, 0, 0, 0, expect, NULL, n));

    vksort_cpu_sort_info info = {0};
    info.key_type = VKSORT_KEY_F32;
    info.count = n;
    info.keys = keys;
    info.values = values;
    info.num_threads = 2;
    size_t need = vksort_cpu_scratch_size(&info);
    CHECK(need >= n * 8);

    /* Too small: error, arrays untouched. */
    uint32_t *before = malloc(n * 4);
    memcpy(before, keys, n * 4);
    void *scratch = malloc(need);
    info.scratch = scratch;
    info.scratch_size = need - 1;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_SCRATCH_TOO_SMALL);
    CHECK(memcmp(before, keys, n * 4) == 0);

    /* Caller scratch: no allocation through the callbacks. */
    vksort_allocation_callbacks cb = {NULL, counting_alloc, counting_free};
    info.allocator = &cb;
    info.scratch_size = need;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_SUCCESS);
    CHECK_EQ(allocations, 0);
    CHECK(memcmp(expect, keys, n * 4) == 0);

    /* Internal scratch through the callbacks: one allocation, one free. */
    memcpy(keys, before, n * 4);
    info.scratch = NULL;
    info.scratch_size = 0;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_SUCCESS);
    CHECK_EQ(allocations, 1);
    CHECK_EQ(frees, 1);
    CHECK(memcmp(expect, keys, n * 4) == 0);

    /* Caller scratch aligned to 8 bytes but not 16 (what the header allows): the write-combining
     * lines inside it are then not 16-byte aligned either. Two threads' worth of keys. */
    unsigned char *raw = aligned_alloc(64, need + 64);
    memcpy(keys, before, n * 4);
    for (size_t i = 0; i < n; ++i)
        values[i] = (uint32_t)i;
    info.allocator = NULL;
    info.scratch = raw + 8;
    info.scratch_size = need;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_SUCCESS);
    CHECK(memcmp(expect, keys, n * 4) == 0);
    /* Below 8: refused, arrays untouched. */
    memcpy(keys, before, n * 4);
    info.scratch = raw + 4;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_MISALIGNED);
    CHECK(memcmp(before, keys, n * 4) == 0);
    free(raw);
    free(before); free(scratch); free(keys); free(values); free(expect);
}

static void test_errors(void)
{
    uint32_t keys[4] = {3, 1, 2, 0};
    vksort_cpu_sort_info info = {0};
    info.count = 4;
    info.keys = keys;
    CHECK_EQ(vksort_cpu_sort(NULL), VKSORT_ERROR_INVALID_ARGUMENT);
    info.key_type = (vksort_key_type)17;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.key_type = VKSORT_KEY_U32;
    info.flags = 1u << 7;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.flags = 0;
    info.bit_begin = 8;
    info.bit_end = 8;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_BIT_RANGE);
    info.bit_begin = 0;
    info.bit_end = 33;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_BIT_RANGE);
    info.bit_end = 0;
    info.keys = NULL;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.keys = keys;
    info.num_threads = -1;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.num_threads = 0;
    info.digit_bits = 12;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.digit_bits = 7;
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_ERROR_INVALID_ARGUMENT);
    info.digit_bits = 0;
    CHECK(keys[0] == 3 && keys[3] == 0); /* nothing touched by the failed calls */
    CHECK_EQ(vksort_cpu_sort(&info), VKSORT_SUCCESS);
    CHECK(keys[0] == 0 && keys[1] == 1 && keys[2] == 2 && keys[3] == 3);
    CHECK(strcmp(vksort_result_string(VKSORT_ERROR_BIT_RANGE), "success") != 0);
    CHECK(strcmp(vksort_result_string((vksort_result)-999), "unknown vksort result code") == 0);
    /* The render graph's codes are vksort_result members too: named, not "unknown". */
    CHECK(strcmp(vksort_result_string(VKSORT_ERROR_GRAPH_CYCLE), "the pass dependencies form a cycle") == 0);
    CHECK(strcmp(vksort_result_string(VKSORT_ERROR_GRAPH_NOT_READY), "results not available yet") == 0);
}

static void test_encodings(void)
{
    /* totalOrder: -NaN < -inf < -1 < -0 < +0 < denormal < 1 < inf < NaN */
    const uint32_t ordered[] = {0xffc00000u, 0xff800000u, 0xbf800000u, 0x80000000u,
                                0x00000000u, 0x00000001u, 0x3f800000u, 0x7f800000u,
                                0x7fc00000u};
    for (size_t i = 0; i + 1 < sizeof ordered / sizeof ordered[0]; ++i)
        CHECK(vksort_encode_u32_bits(VKSORT_KEY_F32, ordered[i]) <
              vksort_encode_u32_bits(VKSORT_KEY_F32, ordered[i + 1]));
    uint64_t state = 5;
    for (int i = 0; i < 100000; ++i) {
        uint64_t r = test_rng_next(&state);
        for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
            CHECK_EQ(vksort_decode_u32_bits((vksort_key_type)t,
                                            vksort_encode_u32_bits((vksort_key_type)t, (uint32_t)r)),
                     (uint32_t)r);
            CHECK_EQ(vksort_decode_u64_bits((vksort_key_type)t,
                                            vksort_encode_u64_bits((vksort_key_type)t, r)),
                     r);
        }
    }
    CHECK(vksort_encode_u32_bits(VKSORT_KEY_I32, 0xffffffffu) <
          vksort_encode_u32_bits(VKSORT_KEY_I32, 0));
    CHECK(vksort_encode_u64_bits(VKSORT_KEY_F64, 0xbff0000000000000ull) <
          vksort_encode_u64_bits(VKSORT_KEY_F64, 0x8000000000000000ull));
    vksort_key_type kt;
    CHECK_EQ(vksort_key_type_from_name("f64", &kt), VKSORT_SUCCESS);
    CHECK_EQ(kt, VKSORT_KEY_F64);
    CHECK_EQ(vksort_key_type_from_name("float", &kt), VKSORT_ERROR_INVALID_ARGUMENT);
}

int main(void)
{
    RUN(test_encodings);
    RUN(test_errors);
    RUN(test_scratch_and_allocator);
    RUN(test_matrix_small);
    RUN(test_matrix_large);
    RUN(test_digit_widths);
    return test_summary();
}
