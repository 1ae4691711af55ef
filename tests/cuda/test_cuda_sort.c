/*
 * CUDA backend on device pointers, byte for byte against vksort_cpu_sort(): key types x
 * distributions x sizes x ascending/descending x bit ranges x payload; indirect counts (0, 1,
 * mid, max, above max: clamped) with the caller's buffer past the count untouched, sentinel ties
 * (real keys equal to the all-ones order key); several sorts enqueued back to back; a stream
 * given by the caller; device choice by UUID; timing; allocation callbacks; the error paths.
 *
 * Without a CUDA device it checks what needs none (argument errors, "backend unavailable") and
 * exits with CTest's skip code after "SKIP: no CUDA device (<reason>)".
 */
#include "cuda_test_skip.h"
#include "support/test_data.h"
#include "support/test_main.h"
#include "vksort/cpu.h"
#include "vksort/cuda.h"

#include <cuda_runtime_api.h>

#include <fcntl.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bit_range { uint32_t begin, end; } bit_range;

/* Per (key type, payload) sorter, reused across cases: reuse is part of what is tested. */
#define SMALL_MAX (1u << 13)
#define LARGE_MAX (4u << 20)
static vksort_cuda_sorter *small_sorters[VKSORT_KEY_TYPE_COUNT][2];

static int cuda_ok(cudaError_t err, const char *what)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(err));
        test_failures_++;
        return 0;
    }
    return 1;
}

static vksort_cuda_sorter *make_sorter(vksort_key_type type, int payload, uint32_t max_count)
{
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    ci.key_type = type;
    ci.has_payload = (uint32_t)payload;
    ci.max_count = max_count;
    ci.diagnostics = &d;
    vksort_cuda_sorter *s = NULL;
    vksort_result r = vksort_cuda_sorter_create(&ci, &s);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "sorter create (%s, payload %d, max %u) failed: %s: %s\n",
                vksort_key_type_name(type), payload, max_count, vksort_result_string(r),
                d.message);
        test_failures_++;
        return NULL;
    }
    return s;
}

static int cpu_expect(vksort_key_type type, int descending, bit_range bits, void *keys,
                      uint32_t *values, size_t n)
{
    vksort_cpu_sort_info info;
    memset(&info, 0, sizeof info);
    info.key_type = type;
    info.flags = descending ? VKSORT_FLAG_DESCENDING : 0;
    info.bit_begin = bits.begin;
    info.bit_end = bits.end;
    info.count = n;
    info.keys = keys;
    info.values = values;
    return vksort_cpu_sort(&info) == VKSORT_SUCCESS;
}

/* One sort of n keys through `s` (host count, or an indirect count of `device_count` over a
 * buffer of `buffer_n` keys), checked against the CPU sort of the live prefix and, for the
 * indirect form, the untouched tail. */
static int check_sort(vksort_cuda_sorter *s, vksort_key_type type, test_dist dist, size_t n,
                      int descending, bit_range bits, int with_values, uint64_t seed,
                      int indirect, uint32_t device_count, size_t buffer_n)
{
    const size_t ks = vksort_key_size(type);
    const size_t total = indirect ? buffer_n : n;
    const size_t live = n;
    unsigned char *keys = malloc(total * ks + 8), *expect = malloc(total * ks + 8);
    uint32_t *values = malloc(total * 4 + 4), *expect_values = malloc(total * 4 + 4);
    void *d_keys = NULL, *d_values = NULL, *d_count = NULL;
    int ok = keys && expect && values && expect_values;
    if (!ok) {
        fprintf(stderr, "out of host memory\n");
        goto done;
    }
    test_fill_keys(type, dist, keys, total, seed);
    for (size_t i = 0; i < total; ++i)
        values[i] = (uint32_t)(i * 2654435761u);
    memcpy(expect, keys, total * ks);
    memcpy(expect_values, values, total * 4);
    ok = cpu_expect(type, descending, bits, expect, with_values ? expect_values : NULL, live);
    CHECK(ok);

    ok = ok && cuda_ok(cudaMalloc(&d_keys, total * ks + 8), "cudaMalloc keys") &&
         cuda_ok(cudaMalloc(&d_values, total * 4 + 4), "cudaMalloc values") &&
         cuda_ok(cudaMalloc(&d_count, 4), "cudaMalloc count") &&
         cuda_ok(cudaMemcpy(d_keys, keys, total * ks, cudaMemcpyHostToDevice), "upload") &&
         cuda_ok(cudaMemcpy(d_values, values, total * 4, cudaMemcpyHostToDevice), "upload") &&
         cuda_ok(cudaMemcpy(d_count, &device_count, 4, cudaMemcpyHostToDevice), "upload") &&
         cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    if (!ok)
        goto done;

    vksort_cuda_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = d_keys;
    si.values = with_values ? d_values : NULL;
    si.count = indirect ? 0 : (uint32_t)n;
    si.count_device = indirect ? d_count : NULL;
    si.flags = (descending ? VKSORT_FLAG_DESCENDING : 0) | VKSORT_FLAG_STABLE;
    si.bit_begin = bits.begin;
    si.bit_end = bits.end;
    vksort_result r = vksort_cuda_sort_device(s, &si);
    if (r == VKSORT_SUCCESS)
        r = vksort_cuda_sorter_synchronize(s);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "cuda sort failed: %s: %s\n", vksort_result_string(r),
                vksort_cuda_sorter_last_message(s));
        ok = 0;
        test_failures_++;
        goto done;
    }
    ok = cuda_ok(cudaMemcpy(keys, d_keys, total * ks, cudaMemcpyDeviceToHost), "download") &&
         cuda_ok(cudaMemcpy(values, d_values, total * 4, cudaMemcpyDeviceToHost), "download");
    if (!ok)
        goto done;
    /* The whole buffer: the live prefix sorted, the rest (tail, or the untouched payload when
     * the sorter has none) as it was. */
    size_t dk = test_first_difference(keys, expect, total, ks);
    size_t dv = test_first_difference(values, expect_values, total, 4);
    if (dk != (size_t)-1 || dv != (size_t)-1) {
        fprintf(stderr,
                "MISMATCH type=%s dist=%s n=%zu buffer=%zu indirect=%d desc=%d bits=[%u,%u) "
                "values=%d: first key diff %lld, first value diff %lld\n",
                vksort_key_type_name(type), test_dist_name(dist), n, total, indirect,
                descending, bits.begin, bits.end, with_values, (long long)dk, (long long)dv);
        ok = 0;
    }
done:
    cudaFree(d_keys);
    cudaFree(d_values);
    cudaFree(d_count);
    free(keys);
    free(expect);
    free(values);
    free(expect_values);
    return ok;
}

/* VKSORT_TEST_CUDA_QUICK=1 (used under compute-sanitizer): fewer distributions, no large sizes.
 * =2 (racecheck, which runs CUB's shared-memory kernels very slowly): also only uniform keys,
 * five sizes and two bit ranges in the small matrix. */
static int quick;

static void test_matrix_small(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024,
                                   1025, 4095, 4096, 4097, SMALL_MAX};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        const uint32_t width = vksort_key_size((vksort_key_type)t) * 8u;
        const bit_range ranges[] = {{0, 0}, {0, 16}, {8, 24}, {3, width - 5}, {width - 1, width}};
        for (int d = 0; d < DIST_COUNT; ++d)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
                for (int desc = 0; desc < 2; ++desc)
                    for (size_t b = 0; b < sizeof ranges / sizeof ranges[0]; ++b) {
                        if (quick && (d != DIST_UNIFORM && d != DIST_SPECIALS &&
                                      d != DIST_FEW_UNIQUE))
                            continue;
                        if (quick >= 2 && (d != DIST_UNIFORM || (b != 0 && b != 3) ||
                                           (sizes[si] != 0 && sizes[si] != 33 &&
                                            sizes[si] != 1025 && sizes[si] != 4097 &&
                                            sizes[si] != SMALL_MAX)))
                            continue;
                        const int payload = (int)((si + b + (size_t)d) & 1u);
                        vksort_cuda_sorter *s = small_sorters[t][payload];
                        if (!s)
                            continue;
                        CHECK(check_sort(s, (vksort_key_type)t, (test_dist)d, sizes[si], desc,
                                         ranges[b], payload, si * 131 + b * 7 + (size_t)d, 0,
                                         0, 0));
                    }
    }
}

static void test_matrix_large(void)
{
    static const size_t sizes[] = {(1u << 16) - 1, (1u << 16) + 1, (1u << 20) - 1,
                                   (1u << 20) + 1, 3000017, LARGE_MAX};
    static const test_dist dists[] = {DIST_UNIFORM, DIST_SPECIALS, DIST_FEW_UNIQUE,
                                      DIST_LOW_BYTE};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        vksort_cuda_sorter *s = make_sorter((vksort_key_type)t, 1, LARGE_MAX);
        vksort_cuda_sorter *sk = make_sorter((vksort_key_type)t, 0, LARGE_MAX);
        if (!s || !sk) {
            vksort_cuda_sorter_destroy(s);
            vksort_cuda_sorter_destroy(sk);
            continue;
        }
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
            for (size_t d = 0; d < sizeof dists / sizeof dists[0]; ++d) {
                if (sizes[si] > (1u << 20) + 1 && d > 1)
                    continue; /* the biggest sizes get two distributions */
                const int desc = (int)((si + d) & 1u);
                const bit_range full = {0, 0}, part = {4, 21};
                CHECK(check_sort(s, (vksort_key_type)t, dists[d], sizes[si], desc, full, 1,
                                 si + d, 0, 0, 0));
                CHECK(check_sort(sk, (vksort_key_type)t, dists[d], sizes[si], !desc,
                                 d == 0 ? part : full, 0, si + d + 99, 0, 0, 0));
            }
        vksort_cuda_sorter_destroy(s);
        vksort_cuda_sorter_destroy(sk);
    }
}

static void test_indirect(void)
{
    const uint32_t max_count = 100003;
    const uint32_t counts[] = {0, 1, 2, 777, 50001, max_count - 1, max_count, max_count + 1,
                               0xffffffffu};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        const uint32_t width = vksort_key_size((vksort_key_type)t) * 8u;
        for (int payload = 0; payload < 2; ++payload) {
            vksort_cuda_sorter *s = make_sorter((vksort_key_type)t, payload, max_count);
            if (!s)
                continue;
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
                for (int desc = 0; desc < 2; ++desc) {
                    const size_t live = counts[c] < max_count ? counts[c] : max_count;
                    const bit_range bits = (c & 1u) ? (bit_range){0, 0}
                                                    : (bit_range){2, width - 3};
                    const test_dist dist = (c + (size_t)desc) % 3 == 0   ? DIST_SPECIALS
                                           : (c + (size_t)desc) % 3 == 1 ? DIST_UNIFORM
                                                                         : DIST_FEW_UNIQUE;
                    /* The buffer is max_count + 64 keys: past max_count must stay too. */
                    CHECK(check_sort(s, (vksort_key_type)t, dist, live, desc, bits, payload,
                                     c * 17 + (size_t)desc, 1, counts[c], max_count + 64));
                }
            vksort_cuda_sorter_destroy(s);
        }
    }
}

/* Real keys whose order key equals the sentinel (all ones after the descending inversion): they
 * must keep their input order and come before the padding, with an indirect count. */
static void test_sentinel_ties(void)
{
    const uint32_t max_count = 5000, n = 3001;
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        const int wide = vksort_key_size((vksort_key_type)t) == 8;
        vksort_cuda_sorter *s = make_sorter((vksort_key_type)t, 1, max_count);
        if (!s)
            continue;
        for (int desc = 0; desc < 2; ++desc) {
            /* The key whose encoding is all ones (ascending) or zero (descending), mixed with a
             * few others. */
            const uint64_t enc_max = desc ? 0 : ~0ull;
            const size_t ks = wide ? 8 : 4;
            unsigned char *host = malloc((size_t)max_count * ks);
            uint32_t *vals = malloc((size_t)max_count * 4);
            void *d_keys = NULL, *d_vals = NULL, *d_count = NULL;
            if (!host || !vals) {
                free(host);
                free(vals);
                test_failures_++;
                continue;
            }
            for (uint32_t i = 0; i < max_count; ++i) {
                uint64_t enc = (i % 7 == 3) ? (uint64_t)i * 977u : enc_max;
                if (wide) {
                    uint64_t b = vksort_decode_u64_bits((vksort_key_type)t, enc);
                    memcpy(host + (size_t)i * 8, &b, 8);
                } else {
                    uint32_t b = vksort_decode_u32_bits((vksort_key_type)t, (uint32_t)enc);
                    memcpy(host + (size_t)i * 4, &b, 4);
                }
                vals[i] = i;
            }
            uint32_t count = n;
            vksort_cuda_sort_info si;
            memset(&si, 0, sizeof si);
            int ok = cuda_ok(cudaMalloc(&d_keys, (size_t)max_count * ks), "cudaMalloc") &&
                     cuda_ok(cudaMalloc(&d_vals, (size_t)max_count * 4), "cudaMalloc") &&
                     cuda_ok(cudaMalloc(&d_count, 4), "cudaMalloc") &&
                     cuda_ok(cudaMemcpy(d_keys, host, (size_t)max_count * ks,
                                        cudaMemcpyHostToDevice), "upload") &&
                     cuda_ok(cudaMemcpy(d_vals, vals, (size_t)max_count * 4,
                                        cudaMemcpyHostToDevice), "upload") &&
                     cuda_ok(cudaMemcpy(d_count, &count, 4, cudaMemcpyHostToDevice), "upload") &&
                     cuda_ok(cudaDeviceSynchronize(), "sync");
            if (ok) {
                si.keys = d_keys;
                si.values = d_vals;
                si.count_device = d_count;
                si.flags = desc ? VKSORT_FLAG_DESCENDING : 0;
                CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_SUCCESS);
                CHECK_EQ(vksort_cuda_sorter_synchronize(s), VKSORT_SUCCESS);
                uint32_t *got = malloc((size_t)n * 4);
                if (got && cuda_ok(cudaMemcpy(got, d_vals, (size_t)n * 4, cudaMemcpyDeviceToHost),
                                   "download")) {
                    /* The extreme keys are last, in input order, and none is a padding slot. */
                    uint32_t extremes = 0;
                    for (uint32_t i = 0; i < n; ++i)
                        extremes += (i % 7 != 3);
                    uint32_t expect_next = 0, bad = 0;
                    for (uint32_t i = n - extremes; i < n; ++i) {
                        while (expect_next % 7 == 3)
                            ++expect_next;
                        bad += got[i] != expect_next++;
                    }
                    if (bad)
                        fprintf(stderr, "sentinel ties: type %s desc %d: %u payloads out of "
                                        "place\n", vksort_key_type_name((vksort_key_type)t),
                                desc, bad);
                    CHECK_EQ(bad, 0);
                }
                free(got);
            }
            cudaFree(d_keys);
            cudaFree(d_vals);
            cudaFree(d_count);
            free(host);
            free(vals);
        }
        vksort_cuda_sorter_destroy(s);
    }
}

/* Several sorts enqueued back to back on one sorter (different buffers), one synchronize. */
static void test_back_to_back(void)
{
    enum { ROUNDS = 4, N = 200000 };
    vksort_cuda_sorter *s = make_sorter(VKSORT_KEY_F32, 1, N);
    if (!s)
        return;
    float *host[ROUNDS], *expect[ROUNDS];
    uint32_t *vhost[ROUNDS], *vexpect[ROUNDS];
    void *dk[ROUNDS], *dv[ROUNDS];
    int ok = 1;
    for (int r = 0; r < ROUNDS; ++r) {
        host[r] = malloc(N * 4);
        expect[r] = malloc(N * 4);
        vhost[r] = malloc(N * 4);
        vexpect[r] = malloc(N * 4);
        dk[r] = dv[r] = NULL;
        if (!host[r] || !expect[r] || !vhost[r] || !vexpect[r]) {
            ok = 0;
            continue;
        }
        test_fill_keys(VKSORT_KEY_F32, r & 1 ? DIST_SPECIALS : DIST_UNIFORM, host[r], N,
                       (uint64_t)r + 500);
        for (uint32_t i = 0; i < N; ++i)
            vhost[r][i] = vexpect[r][i] = i;
        memcpy(expect[r], host[r], N * 4);
        ok = ok && cpu_expect(VKSORT_KEY_F32, r & 2, (bit_range){0, 0}, expect[r], vexpect[r], N);
        ok = ok && cuda_ok(cudaMalloc(&dk[r], N * 4), "cudaMalloc") &&
             cuda_ok(cudaMalloc(&dv[r], N * 4), "cudaMalloc") &&
             cuda_ok(cudaMemcpy(dk[r], host[r], N * 4, cudaMemcpyHostToDevice), "upload") &&
             cuda_ok(cudaMemcpy(dv[r], vhost[r], N * 4, cudaMemcpyHostToDevice), "upload");
    }
    ok = ok && cuda_ok(cudaDeviceSynchronize(), "sync");
    for (int r = 0; ok && r < ROUNDS; ++r) {
        vksort_cuda_sort_info si;
        memset(&si, 0, sizeof si);
        si.keys = dk[r];
        si.values = dv[r];
        si.count = N;
        si.flags = (r & 2) ? VKSORT_FLAG_DESCENDING : 0;
        CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_SUCCESS);
    }
    if (ok)
        CHECK_EQ(vksort_cuda_sorter_synchronize(s), VKSORT_SUCCESS);
    for (int r = 0; ok && r < ROUNDS; ++r) {
        CHECK(cuda_ok(cudaMemcpy(host[r], dk[r], N * 4, cudaMemcpyDeviceToHost), "download"));
        CHECK(cuda_ok(cudaMemcpy(vhost[r], dv[r], N * 4, cudaMemcpyDeviceToHost), "download"));
        CHECK(memcmp(host[r], expect[r], N * 4) == 0);
        CHECK(memcmp(vhost[r], vexpect[r], N * 4) == 0);
    }
    CHECK(ok);
    for (int r = 0; r < ROUNDS; ++r) {
        cudaFree(dk[r]);
        cudaFree(dv[r]);
        free(host[r]);
        free(expect[r]);
        free(vhost[r]);
        free(vexpect[r]);
    }
    vksort_cuda_sorter_destroy(s);
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

/* A caller's stream, choice by UUID, timing, allocation callbacks, properties. */
static void test_options(void)
{
    cudaStream_t stream = NULL;
    if (!cuda_ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"))
        return;
    struct cudaDeviceProp prop;
    if (!cuda_ok(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) {
        cudaStreamDestroy(stream);
        return;
    }
    vksort_allocation_callbacks cb = {NULL, counting_alloc, counting_free};
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    ci.key_type = VKSORT_KEY_I64;
    ci.has_payload = 1;
    ci.max_count = 70000;
    ci.stream = stream;
    ci.use_device_uuid = 1;
    memcpy(ci.device_uuid, prop.uuid.bytes, 16);
    ci.enable_timing = 1;
    ci.allocator = &cb;
    vksort_cuda_sorter *s = NULL;
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_SUCCESS);
    if (!s) {
        cudaStreamDestroy(stream);
        return;
    }
    CHECK(allocations >= 1);
    vksort_cuda_sorter_properties p;
    vksort_cuda_get_sorter_properties(s, &p);
    CHECK_EQ(p.device_index, 0);
    CHECK(memcmp(p.device_uuid, prop.uuid.bytes, 16) == 0);
    CHECK(p.stream == (void *)stream);
    CHECK(p.scratch_bytes >= (uint64_t)70000 * (8 + 8 + 4 + 4));
    CHECK(p.cub_temp_bytes > 0);
    printf("device %d: %s, scratch %llu bytes for 70000 i64 pairs (CUB temp %llu)\n",
           p.device_index, p.device_name, (unsigned long long)p.scratch_bytes,
           (unsigned long long)p.cub_temp_bytes);

    double ms = -1.0;
    CHECK_EQ(vksort_cuda_sorter_last_sort_ms(s, &ms), VKSORT_ERROR_UNSUPPORTED); /* none yet */
    CHECK(check_sort(s, VKSORT_KEY_I64, DIST_UNIFORM, 70000, 1, (bit_range){0, 0}, 1, 3, 0, 0,
                     0));
    CHECK_EQ(vksort_cuda_sorter_last_sort_ms(s, &ms), VKSORT_SUCCESS);
    CHECK(ms > 0.0);
    vksort_cuda_sorter_destroy(s);
    CHECK_EQ(allocations, frees);
    cudaStreamDestroy(stream);

    /* A UUID no device has. */
    memset(ci.device_uuid, 0xA5, 16);
    ci.stream = NULL;
    ci.allocator = NULL;
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    ci.diagnostics = &d;
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_BACKEND_UNAVAILABLE);
    CHECK(s == NULL);
    CHECK(strstr(d.message, "UUID") != NULL);
    /* A device index past the last device. */
    ci.use_device_uuid = 0;
    ci.device_index = 4096;
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_INVALID_ARGUMENT);
}

/* Argument errors on a live sorter: nothing is enqueued, the message says why. */
static void test_errors(void)
{
    vksort_cuda_sorter *s = make_sorter(VKSORT_KEY_U64, 1, 1000);
    if (!s)
        return;
    void *dk = NULL;
    uint32_t *dv = NULL;
    if (!cuda_ok(cudaMalloc(&dk, 8 * 1024), "cudaMalloc") ||
        !cuda_ok(cudaMalloc((void **)&dv, 4 * 1024), "cudaMalloc")) {
        vksort_cuda_sorter_destroy(s);
        return;
    }
    vksort_cuda_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = dk;
    si.values = dv;
    si.count = 1001;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_COUNT_TOO_LARGE);
    CHECK(strstr(vksort_cuda_sorter_last_message(s), "max_count") != NULL);
    si.count = 10;
    si.bit_begin = 40;
    si.bit_end = 30;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_BIT_RANGE);
    si.bit_begin = 0;
    si.bit_end = 65;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_BIT_RANGE);
    si.bit_end = 0;
    si.flags = 1u << 7;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_INVALID_ARGUMENT);
    si.flags = 0;
    si.values = NULL;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_INVALID_ARGUMENT);
    si.values = dv;
    si.keys = (char *)dk + 4;
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_MISALIGNED);
    si.keys = dk;
    si.count_device = (const uint32_t *)((const char *)dv + 2);
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_ERROR_MISALIGNED);
    si.count_device = NULL;
    CHECK_EQ(vksort_cuda_sort_device(s, NULL), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(vksort_cuda_sort_device(NULL, &si), VKSORT_ERROR_INVALID_ARGUMENT);
    /* A valid call clears the message. */
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_SUCCESS);
    CHECK(vksort_cuda_sorter_last_message(s)[0] == '\0');
    CHECK_EQ(vksort_cuda_sorter_synchronize(s), VKSORT_SUCCESS);
    double ms;
    CHECK_EQ(vksort_cuda_sorter_last_sort_ms(s, &ms), VKSORT_ERROR_UNSUPPORTED); /* no timing */
    /* A failed CUDA call (importing something that is not exported memory) leaves neither the
     * runtime's last error for the next sort, on this sorter or another, nor the caller's fd
     * closed. */
    vksort_cuda_sorter *other = make_sorter(VKSORT_KEY_U32, 0, 1000);
    int fd = open("/dev/null", O_RDONLY);
    CHECK(fd >= 0);
    if (fd >= 0) {
        vksort_cuda_vk_buffer_import_info ii;
        memset(&ii, 0, sizeof ii);
        ii.fd = fd;
        ii.allocation_size = 1u << 16;
        ii.size = 1u << 16;
        vksort_cuda_vk_buffer *b = NULL;
        CHECK(vksort_cuda_import_vk_buffer(s, &ii, &b) != VKSORT_SUCCESS);
        CHECK(b == NULL);
        CHECK(fcntl(fd, F_GETFD) != -1); /* still open: still the caller's */
        close(fd);
    }
    CHECK_EQ(vksort_cuda_sort_device(s, &si), VKSORT_SUCCESS);
    CHECK_EQ(vksort_cuda_sorter_synchronize(s), VKSORT_SUCCESS);
    if (other) {
        vksort_cuda_sort_info so;
        memset(&so, 0, sizeof so);
        so.keys = dk;
        so.count = 100;
        CHECK_EQ(vksort_cuda_sort_device(other, &so), VKSORT_SUCCESS);
        CHECK_EQ(vksort_cuda_sorter_synchronize(other), VKSORT_SUCCESS);
        vksort_cuda_sorter_destroy(other);
    }
    cudaFree(dk);
    cudaFree(dv);
    vksort_cuda_sorter_destroy(s);
}

/* What holds with or without a device. */
static void test_no_device_needed(int have_device)
{
    vksort_cuda_sorter *s = (vksort_cuda_sorter *)&s; /* must be reset to NULL */
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    CHECK_EQ(vksort_cuda_sorter_create(NULL, &s), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK(s == NULL);
    CHECK_EQ(vksort_cuda_sorter_create(&ci, NULL), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_INVALID_ARGUMENT); /* max 0 */
    ci.max_count = 10;
    ci.key_type = (vksort_key_type)17;
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_INVALID_ARGUMENT);
    ci.key_type = VKSORT_KEY_F64;
    ci.max_count = 0x80000000u;
    CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_INVALID_ARGUMENT);
    int count = -1;
    CHECK_EQ(vksort_cuda_get_device_count(NULL, NULL), VKSORT_ERROR_INVALID_ARGUMENT);
    if (!have_device) {
        ci.max_count = 10;
        vksort_cuda_diagnostics d;
        memset(&d, 0, sizeof d);
        ci.diagnostics = &d;
        CHECK_EQ(vksort_cuda_sorter_create(&ci, &s), VKSORT_ERROR_BACKEND_UNAVAILABLE);
        CHECK(s == NULL);
        CHECK(strncmp(d.message, "no CUDA device", 14) == 0);
        CHECK_EQ(vksort_cuda_get_device_count(&count, NULL), VKSORT_ERROR_BACKEND_UNAVAILABLE);
        CHECK_EQ(count, 0);
    }
    uint32_t n = 0;
    const char *const *exts = vksort_cuda_vk_required_device_extensions(&n);
    CHECK_EQ(n, 2);
    CHECK(exts && strcmp(exts[0], "VK_KHR_external_memory_fd") == 0);
    /* NULL handles are ignored or rejected, never dereferenced. */
    vksort_cuda_sorter_destroy(NULL);
    vksort_cuda_vk_buffer_destroy(NULL);
    vksort_cuda_vk_semaphore_destroy(NULL);
    CHECK_EQ(vksort_cuda_sorter_synchronize(NULL), VKSORT_ERROR_INVALID_ARGUMENT);
    CHECK_EQ(vksort_cuda_sort_vk(NULL, NULL), VKSORT_ERROR_INVALID_ARGUMENT);
}

int main(void)
{
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    int devices = 0;
    const int have_device = vksort_cuda_get_device_count(&devices, &d) == VKSORT_SUCCESS;
    test_no_device_needed(have_device);
    if (!have_device) {
        if (test_failures_)
            return test_summary();
        return cuda_test_skip(d.message);
    }
    const char *q = getenv("VKSORT_TEST_CUDA_QUICK");
    quick = q && *q && strcmp(q, "0") != 0 ? (atoi(q) >= 2 ? 2 : 1) : 0;
    if (quick)
        printf("quick mode (VKSORT_TEST_CUDA_QUICK=%d): %s, no sizes above 2^13\n", quick,
               quick >= 2 ? "uniform keys, 5 sizes, 2 bit ranges" : "3 distributions");
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t)
        for (int p = 0; p < 2; ++p)
            small_sorters[t][p] = make_sorter((vksort_key_type)t, p, SMALL_MAX);
    RUN(test_errors);
    RUN(test_options);
    RUN(test_matrix_small);
    RUN(test_indirect);
    RUN(test_sentinel_ties);
    RUN(test_back_to_back);
    if (!quick)
        RUN(test_matrix_large);
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t)
        for (int p = 0; p < 2; ++p)
            vksort_cuda_sorter_destroy(small_sorters[t][p]);
    return test_summary();
}
