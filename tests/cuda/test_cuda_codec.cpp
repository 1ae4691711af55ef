/*
 * Host-side checks of the CUDA backend's design, runnable without a GPU:
 *  - the kernels' encodings (cuda/codec.cuh, compiled here as plain C++) equal the core
 *    library's, bit pattern for bit pattern, and decode(encode(x)) == x;
 *  - the pipeline the backend runs (slots = encoded keys ^ invert, sentinels after the live
 *    count, a stable sort on bits [begin, end) as CUB does it, decode of the live prefix) gives
 *    the bytes of vksort_cpu_sort(), with the caller's buffer past the live count untouched,
 *    also when real keys equal the sentinel.
 * The GPU itself is tested by test_cuda_sort and test_cuda_vk_interop.
 */
#include "codec.cuh"

extern "C" {
#include "support/test_data.h"
#include "vksort/cpu.h"
}

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

static int failures = 0, checks = 0;

#define EXPECT(cond)                                                                        \
    do {                                                                                    \
        ++checks;                                                                           \
        if (!(cond)) {                                                                      \
            ++failures;                                                                     \
            std::fprintf(stderr, "%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                   \
    } while (0)

static void test_codec_matches_core()
{
    uint64_t state = 12345;
    const int types[] = {VKSORT_KEY_U32, VKSORT_KEY_I32, VKSORT_KEY_F32,
                         VKSORT_KEY_U64, VKSORT_KEY_I64, VKSORT_KEY_F64};
    for (int t : types) {
        const vksort_key_type kt = (vksort_key_type)t;
        long bad = 0;
        for (int i = 0; i < 1 << 20; ++i) {
            uint64_t r = test_rng_next(&state);
            if (i < 64)
                r = (i & 1 ? ~0ull : 0ull) ^ (1ull << (i / 2)); /* one or all-but-one bits */
            if (vksort_key_size(kt) == 4) {
                const uint32_t b = (uint32_t)r;
                const uint32_t e = vksort_cuda::codec<uint32_t>::encode(t, b);
                bad += e != vksort_encode_u32_bits(kt, b);
                bad += vksort_cuda::codec<uint32_t>::decode(t, e) != b;
                bad += vksort_cuda::codec<uint32_t>::decode(t, b) != vksort_decode_u32_bits(kt, b);
            } else {
                const uint64_t e = vksort_cuda::codec<uint64_t>::encode(t, r);
                bad += e != vksort_encode_u64_bits(kt, r);
                bad += vksort_cuda::codec<uint64_t>::decode(t, e) != r;
                bad += vksort_cuda::codec<uint64_t>::decode(t, r) != vksort_decode_u64_bits(kt, r);
            }
        }
        if (bad)
            std::fprintf(stderr, "codec %s: %ld mismatches\n", vksort_key_type_name(kt), bad);
        EXPECT(bad == 0);
    }
}

/* The backend's pipeline with a stable sort standing in for CUB. */
template <typename K>
static void emulate(int type, bool descending, uint32_t begin, uint32_t end, K *keys,
                    uint32_t *values, uint32_t host_count, const uint32_t *count_device,
                    uint32_t max_count)
{
    const bool indirect = count_device != nullptr;
    const uint32_t total = indirect ? max_count : host_count;
    const uint32_t n = vksort_cuda::live_count(host_count, count_device, max_count);
    const K invert = descending ? ~K(0) : K(0);
    std::vector<K> slots(total);
    std::vector<uint32_t> vals(total);
    for (uint32_t i = 0; i < total; ++i) {
        slots[i] = vksort_cuda::order_key_for_slot<K>(type, i < n ? keys[i] : K(0), invert, i < n);
        vals[i] = i < n && values ? values[i] : 0u;
    }
    const unsigned width = end - begin;
    const K mask = width == sizeof(K) * 8 ? ~K(0) : (K)((K(1) << width) - 1u);
    std::vector<uint32_t> idx(total);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) {
        return ((slots[a] >> begin) & mask) < ((slots[b] >> begin) & mask);
    });
    for (uint32_t i = 0; i < n; ++i) {
        keys[i] = vksort_cuda::key_from_order_key<K>(type, slots[idx[i]], invert);
        if (values)
            values[i] = vals[idx[i]];
        EXPECT(idx[i] < n); /* no sentinel inside the live prefix */
    }
}

template <typename K>
static bool check_case(vksort_key_type type, test_dist dist, uint32_t n, uint32_t buffer,
                       bool indirect, uint32_t device_count, bool descending, uint32_t begin,
                       uint32_t end, uint64_t seed)
{
    std::vector<K> keys(buffer + 1), expect(buffer + 1);
    std::vector<uint32_t> values(buffer + 1), expect_values(buffer + 1);
    test_fill_keys(type, dist, keys.data(), buffer, seed);
    for (uint32_t i = 0; i < buffer; ++i)
        values[i] = i * 7u + 1u;
    expect = keys;
    expect_values = values;
    vksort_cpu_sort_info ci;
    std::memset(&ci, 0, sizeof ci);
    ci.key_type = type;
    ci.flags = descending ? VKSORT_FLAG_DESCENDING : 0;
    ci.bit_begin = begin;
    ci.bit_end = end;
    ci.count = n;
    ci.keys = expect.data();
    ci.values = expect_values.data();
    if (vksort_cpu_sort(&ci) != VKSORT_SUCCESS)
        return false;
    uint32_t b = 0, e = 0;
    vksort_resolve_bit_range(type, begin, end, &b, &e);
    emulate<K>((int)type, descending, b, e, keys.data(), values.data(), indirect ? 0 : n,
               indirect ? &device_count : nullptr, indirect ? buffer : n);
    const bool same = std::memcmp(keys.data(), expect.data(), (size_t)buffer * sizeof(K)) == 0 &&
                      std::memcmp(values.data(), expect_values.data(), (size_t)buffer * 4) == 0;
    if (!same)
        std::fprintf(stderr, "MISMATCH %s %s n=%u buffer=%u indirect=%d desc=%d bits=[%u,%u)\n",
                     vksort_key_type_name(type), test_dist_name(dist), n, buffer, (int)indirect,
                     (int)descending, begin, end);
    return same;
}

static void test_pipeline()
{
    const uint32_t sizes[] = {0, 1, 2, 3, 17, 256, 1000, 4097};
    for (int t = 0; t < VKSORT_KEY_TYPE_COUNT; ++t) {
        const vksort_key_type kt = (vksort_key_type)t;
        const uint32_t width = vksort_key_size(kt) * 8u;
        const uint32_t ranges[][2] = {{0, 0}, {0, 16}, {8, 24}, {3, width - 5}, {width - 1, width}};
        for (int d = 0; d < DIST_COUNT; ++d)
            for (uint32_t n : sizes)
                for (int desc = 0; desc < 2; ++desc)
                    for (const auto &r : ranges)
                        for (int indirect = 0; indirect < 2; ++indirect) {
                            /* indirect: a buffer of n + 37 with the count n, or a count above
                             * the buffer (clamped) when n is 0 */
                            const uint32_t buffer = indirect ? n + 37 : n;
                            const uint32_t dc = indirect && n == 0 ? 0xffffffffu : n;
                            const uint32_t live = indirect && n == 0 ? buffer : n;
                            const uint64_t seed = (uint64_t)t * 1000 + (uint64_t)d * 100 + n;
                            const bool ok =
                                vksort_key_size(kt) == 4
                                    ? check_case<uint32_t>(kt, (test_dist)d, live, buffer,
                                                           indirect, dc, desc, r[0], r[1], seed)
                                    : check_case<uint64_t>(kt, (test_dist)d, live, buffer,
                                                           indirect, dc, desc, r[0], r[1], seed);
                            EXPECT(ok);
                        }
    }
}

/* Real keys equal to the sentinel come before the padding and keep their order. */
static void test_sentinel_ties()
{
    for (int desc = 0; desc < 2; ++desc) {
        const uint32_t n = 100, buffer = 160, count = n;
        std::vector<uint32_t> keys(buffer), values(buffer);
        for (uint32_t i = 0; i < buffer; ++i) {
            keys[i] = desc ? 0u : 0xffffffffu;
            values[i] = i;
        }
        std::vector<uint32_t> tail(keys.begin() + n, keys.end());
        emulate<uint32_t>(VKSORT_KEY_U32, desc != 0, 0, 32, keys.data(), values.data(), 0, &count,
                          buffer);
        for (uint32_t i = 0; i < n; ++i)
            EXPECT(values[i] == i);
        EXPECT(std::equal(tail.begin(), tail.end(), keys.begin() + n));
    }
}

int main()
{
    test_codec_matches_core();
    test_pipeline();
    test_sentinel_ties();
    std::printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
