/* CUB baseline and Vulkan-CUDA interop measurements (see cub_bench.h). */
#include "cub_bench.h"
#include "bench_warmup.h"

#include "vksort/cuda.h"

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime_api.h>

#if defined(CUB_BENCH_WITH_VULKAN)
extern "C" {
#include "vk_interop_kit.h"
}
#include <chrono>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#define CUB_BENCH_API extern "C" __attribute__((visibility("default")))

#include "bench_cuda_common.cuh"
#include "shaders/bench_data.h"

namespace {

/* Fresh input of a run: `words` 32-bit words of keys by vksort-gpu-bench's generator
 * (bench_data.h: the same hash, seeds and distributions), and payloads 0, 1, ... */
__global__ void generate(uint32_t *words, size_t word_count, uint32_t *values, size_t n,
                         uint32_t seed, uint32_t mode)
{
    const uint32_t salt = bench_salt(seed);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < word_count; i += stride) {
        words[i] = bench_word(salt, (uint32_t)i, mode);
        if (values && i < n)
            values[i] = (uint32_t)i;
    }
}

struct key2 {
    uint32_t lo, hi;
};

__device__ __forceinline__ key2 sort_key(uint32_t lo, uint32_t hi, uint32_t kw, uint32_t encoding,
                                         uint32_t mask_lo, uint32_t mask_hi)
{
    if (kw == 1)
        return {bench_encode_top(lo, encoding) & mask_lo, 0u};
    return {lo & mask_lo, bench_encode_top(hi, encoding) & mask_hi};
}

/* One sort's result against its input, as bench/shaders/check_sorted.comp checks vksort's:
 * order in the bit range, each payload's key, stability, and the multiset sums; added into
 * result[BENCH_CHECK_*]. */
__global__ void check(const uint32_t *keys, const uint32_t *values, uint32_t n, uint32_t seed,
                      uint32_t mode, uint32_t kw, uint32_t encoding, uint32_t mask_lo,
                      uint32_t mask_hi, uint32_t *result)
{
    const uint32_t salt = bench_salt(seed);
    uint32_t s[7] = {0, 0, 0, 0, 0, 0, 0};
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += stride) {
        const uint32_t lo = keys[e * kw], hi = kw == 2 ? keys[e * kw + 1] : 0u;
        const key2 k = sort_key(lo, hi, kw, encoding, mask_lo, mask_hi);
        const uint32_t v = values ? values[e] : 0u;
        if (e > 0) {
            const key2 p = sort_key(keys[(e - 1) * kw], kw == 2 ? keys[(e - 1) * kw + 1] : 0u, kw,
                                    encoding, mask_lo, mask_hi);
            if (k.hi < p.hi || (k.hi == p.hi && k.lo < p.lo))
                ++s[BENCH_CHECK_ORDER];
            else if (values && k.hi == p.hi && k.lo == p.lo && values[e - 1] >= v)
                ++s[BENCH_CHECK_STABLE]; /* CUB's sorts are stable */
        }
        uint32_t w_out, w_in;
        if (values) {
            if (bench_word(salt, v * kw, mode) != lo ||
                (kw == 2 && bench_word(salt, v * kw + 1, mode) != hi))
                ++s[BENCH_CHECK_PAIR];
            w_out = v;
            w_in = e;
        } else {
            w_out = bench_key_word(lo, hi);
            w_in = bench_key_word(bench_word(salt, e * kw, mode),
                                  kw == 2 ? bench_word(salt, e * kw + 1, mode) : 0u);
        }
        s[BENCH_CHECK_OUT_A] += bench_mix_a(w_out);
        s[BENCH_CHECK_IN_A] += bench_mix_a(w_in);
        s[BENCH_CHECK_OUT_B] += bench_mix_b(w_out);
        s[BENCH_CHECK_IN_B] += bench_mix_b(w_in);
    }
    using reduce = cub::BlockReduce<uint32_t, 256>;
    __shared__ typename reduce::TempStorage temp;
    for (int j = 0; j < 7; ++j) {
        const uint32_t total = reduce(temp).Sum(s[j]);
        if (threadIdx.x == 0 && total)
            atomicAdd(&result[j], total);
        __syncthreads(); /* temp is reused */
    }
}

unsigned grid_for(size_t n)
{
    size_t blocks = (n + 255) / 256;
    return (unsigned)std::min<size_t>(blocks ? blocks : 1, 4096);
}

template <typename K>
cudaError_t cub_call(void *temp, size_t &bytes, cub::DoubleBuffer<K> &keys,
                     cub::DoubleBuffer<uint32_t> *values, int n, int begin, int end,
                     cudaStream_t stream)
{
    if (values)
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, *values, n, begin, end, stream);
    return cub::DeviceRadixSort::SortKeys(temp, bytes, keys, n, begin, end, stream);
}

double median(std::vector<double> v)
{
    if (v.empty())
        return -1.0;
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct device_buffers {
    void *p[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    ~device_buffers()
    {
        for (void *q : p)
            cudaFree(q);
        if (start)
            cudaEventDestroy(start);
        if (stop)
            cudaEventDestroy(stop);
        if (stream)
            cudaStreamDestroy(stream);
    }
};

/* `sorts` sorts of n elements each (own key/value ranges, one temporary storage, one stream:
 * a frame's sorts one after the other) between two events, `runs` times after the warm-ups
 * (bench_warmup.h); median of the time per sort. Fresh data every run; every sort of every run
 * checked on the device after the events (check), the result read once at the end. */
template <typename K>
int time_kind(bool pairs, size_t n, int begin, int end, int runs, int sorts, uint32_t mode,
              double *median_ms)
{
    device_buffers b;
    const size_t total = n * (size_t)sorts;
    const uint32_t kw = sizeof(K) / 4;
    BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    BENCH_CUDA_CHECK(cudaEventCreate(&b.start));
    BENCH_CUDA_CHECK(cudaEventCreate(&b.stop));
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[0], total * sizeof(K)));
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[1], total * sizeof(K)));
    if (pairs) {
        BENCH_CUDA_CHECK(cudaMalloc(&b.p[2], total * 4));
        BENCH_CUDA_CHECK(cudaMalloc(&b.p[3], total * 4));
    }
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[5], BENCH_CHECK_WORDS * 4));
    uint32_t *d_check = (uint32_t *)b.p[5];
    BENCH_CUDA_CHECK(cudaMemsetAsync(d_check, 0, BENCH_CHECK_WORDS * 4, b.stream));
    std::vector<cub::DoubleBuffer<K>> keys;
    std::vector<cub::DoubleBuffer<uint32_t>> values;
    for (int i = 0; i < sorts; ++i) {
        keys.emplace_back((K *)b.p[0] + i * n, (K *)b.p[1] + i * n);
        values.emplace_back(pairs ? (uint32_t *)b.p[2] + i * n : nullptr,
                            pairs ? (uint32_t *)b.p[3] + i * n : nullptr);
    }
    size_t temp_bytes = 0;
    BENCH_CUDA_CHECK(cub_call<K>(nullptr, temp_bytes, keys[0], pairs ? &values[0] : nullptr, (int)n,
                                 begin, end, b.stream));
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[4], temp_bytes ? temp_bytes : 1));
    /* The check's order: the key bits sorted, in CUB's order (floats: -0.0 ties +0.0). */
    const uint32_t encoding = std::is_same<K, float>::value ? BENCH_ENC_FLOAT_ZERO_TIE : BENCH_ENC_UNSIGNED;
    uint32_t mask_lo, mask_hi;
    bench_range_masks(kw, (uint32_t)begin, (uint32_t)end, &mask_lo, &mask_hi);
    std::vector<uint32_t> seeds((size_t)sorts);
    std::vector<double> times;
    bench_warmup warm;
    bench_warmup_init(&warm);
    bool warmed = false;
    uint32_t seed = 7919u; /* vksort-gpu-bench's first seed */
    auto record_checks = [&]() -> cudaError_t {
        for (int i = 0; i < sorts; ++i) {
            check<<<grid_for(n), 256, 0, b.stream>>>((const uint32_t *)keys[i].Current(),
                                                      pairs ? values[i].Current() : nullptr,
                                                      (uint32_t)n, seeds[(size_t)i], mode, kw,
                                                      encoding, mask_lo, mask_hi, d_check);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    };
    while ((int)times.size() < runs) {
        /* A warm-up enqueues warm.batch rounds (the events around the last), so that the GPU
         * stays busy between the host's waits; a timed run one. Each round's sorts are checked
         * before the next round's input overwrites them; the last round's after its events. */
        const int reps = warmed ? 1 : warm.batch;
        for (int rep = 0; rep < reps; ++rep) {
            /* Fresh data into the current buffers (outside the timed region). */
            for (int i = 0; i < sorts; ++i) {
                seeds[(size_t)i] = seed++;
                generate<<<grid_for(n * kw), 256, 0, b.stream>>>(
                    (uint32_t *)keys[i].Current(), n * kw, pairs ? values[i].Current() : nullptr,
                    n, seeds[(size_t)i], mode);
                BENCH_CUDA_CHECK(cudaGetLastError());
            }
            if (rep == reps - 1)
                BENCH_CUDA_CHECK(cudaEventRecord(b.start, b.stream));
            for (int i = 0; i < sorts; ++i)
                BENCH_CUDA_CHECK(cub_call<K>(b.p[4], temp_bytes, keys[i],
                                             pairs ? &values[i] : nullptr, (int)n, begin, end,
                                             b.stream));
            if (rep < reps - 1)
                BENCH_CUDA_CHECK(record_checks());
        }
        BENCH_CUDA_CHECK(cudaEventRecord(b.stop, b.stream));
        BENCH_CUDA_CHECK(record_checks());
        BENCH_CUDA_CHECK(cudaEventSynchronize(b.stop));
        float ms = 0.0f;
        BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
        if (warmed)
            times.push_back(ms / sorts);
        else
            warmed = bench_warmup_step(&warm, ms, reps, 1);
    }
    uint32_t r[BENCH_CHECK_WORDS];
    BENCH_CUDA_CHECK(cudaMemcpyAsync(r, d_check, sizeof r, cudaMemcpyDeviceToHost, b.stream));
    BENCH_CUDA_CHECK(cudaStreamSynchronize(b.stream));
    char why[160];
    if (bench_check_failed(r, why, sizeof why))
        return fail("CUB result %s (n %zu, %d sorts)", why, n, sorts);
    *median_ms = median(times);
    bench_error[0] = '\0';
    return 0;
}

} // namespace

CUB_BENCH_API const char *cub_bench_kind_name(int kind)
{
    static const char *const names[] = {"u32 keys", "u32 pairs", "f32 pairs", "u64 keys",
                                        "u64 pairs"};
    return kind >= 0 && kind < CUB_BENCH_KIND_COUNT ? names[kind] : "?";
}

CUB_BENCH_API const char *cub_bench_last_error(void) { return bench_error; }

CUB_BENCH_API int cub_bench_available(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return fail("no CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
    if (n <= 0)
        return fail("no CUDA device");
    bench_error[0] = '\0';
    return 0;
}

CUB_BENCH_API int cub_bench_time(int kind, size_t n, int begin_bit, int end_bit, int runs,
                                 int dist, double *median_ms)
{
    return cub_bench_time_frame(kind, n, begin_bit, end_bit, runs, 1, dist, median_ms);
}

CUB_BENCH_API int cub_bench_time_frame(int kind, size_t n, int begin_bit, int end_bit, int runs,
                                       int sorts, int dist, double *median_ms)
{
    if (!median_ms || n == 0 || n > 0x7fffffffu || sorts < 1 || n * (size_t)sorts > (1u << 30))
        return fail("bad arguments (n must be 1 .. 2^31 - 1, 1 .. 2^30 elements in all, "
                    "median_ms not NULL)");
    *median_ms = -1.0;
    if (runs < 20)
        runs = 20;
    const int width = kind == CUB_BENCH_U64_KEYS || kind == CUB_BENCH_U64_PAIRS ? 64 : 32;
    if (end_bit == 0)
        end_bit = width;
    if (begin_bit < 0 || begin_bit >= end_bit || end_bit > width)
        return fail("bad bit range [%d, %d) for %d-bit keys", begin_bit, end_bit, width);
    /* Every generator distribution but uniform words is of 32-bit keys (bench_data.h). */
    const int known = dist == (int)BENCH_FILL_RANDOM ||
                      (width == 32 && (dist == (int)BENCH_FILL_DEPTH ||
                                       (dist >= (int)BENCH_FILL_TOP_SHARE && dist <= (int)BENCH_FILL_TOP_SHARE + 16) ||
                                       (dist >= (int)BENCH_FILL_DISTINCT_LOG2 &&
                                        dist <= (int)(BENCH_FILL_DISTINCT_LOG2 + BENCH_FILL_DISTINCT_MAX_LOG2))));
    if (!known)
        return fail("unknown distribution %d (uniform; depth, top:S or distinct:D for 32-bit keys)", dist);
    /* The generator and the check index 32-bit words in 32 bits. */
    if (n * (size_t)sorts * (size_t)(width / 32) > 0xffffffffu)
        return fail("too many key words for the generator");
    const uint32_t mode = (uint32_t)dist;
    if (kind == CUB_BENCH_F32_PAIRS && (begin_bit != 0 || end_bit != 32))
        return fail("f32 pairs: CUB's float keys are timed on every bit only");
    switch (kind) {
    case CUB_BENCH_U32_KEYS:
        return time_kind<uint32_t>(false, n, begin_bit, end_bit, runs, sorts, mode, median_ms);
    case CUB_BENCH_U32_PAIRS:
        return time_kind<uint32_t>(true, n, begin_bit, end_bit, runs, sorts, mode, median_ms);
    case CUB_BENCH_F32_PAIRS: return time_kind<float>(true, n, 0, 32, runs, sorts, mode, median_ms);
    case CUB_BENCH_U64_KEYS:
        return time_kind<uint64_t>(false, n, begin_bit, end_bit, runs, sorts, mode, median_ms);
    case CUB_BENCH_U64_PAIRS:
        return time_kind<uint64_t>(true, n, begin_bit, end_bit, runs, sorts, mode, median_ms);
    default: return fail("unknown kind %d", kind);
    }
}

#if !defined(CUB_BENCH_WITH_VULKAN)

CUB_BENCH_API int cub_bench_interop(size_t n, int frames, cub_bench_interop_result *out)
{
    (void)n;
    (void)frames;
    (void)out;
    return fail("built without Vulkan (the interop benchmark needs the Vulkan headers and loader)");
}

#else

namespace {

/* Everything one interop benchmark owns; torn down in reverse. */
struct interop_state {
    vkik vk{};
    bool vk_up = false;
    vkik_buffer keys{}, values{}, source{}, consumer{};
    VkSemaphore timeline = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    vksort_cuda_sorter *sorter = nullptr;
    vksort_cuda_vk_buffer *c_keys = nullptr, *c_values = nullptr;
    vksort_cuda_vk_semaphore *c_sem = nullptr;

    ~interop_state()
    {
        if (sorter)
            vksort_cuda_sorter_synchronize(sorter);
        if (vk_up)
            vkDeviceWaitIdle(vk.device);
        vksort_cuda_vk_buffer_destroy(c_keys);
        vksort_cuda_vk_buffer_destroy(c_values);
        vksort_cuda_vk_semaphore_destroy(c_sem);
        vksort_cuda_sorter_destroy(sorter);
        if (!vk_up)
            return;
        vkik_buffer_destroy(&vk, &keys);
        vkik_buffer_destroy(&vk, &values);
        vkik_buffer_destroy(&vk, &source);
        vkik_buffer_destroy(&vk, &consumer);
        if (timeline)
            vkDestroySemaphore(vk.device, timeline, nullptr);
        if (queries)
            vkDestroyQueryPool(vk.device, queries, nullptr);
        vkik_destroy(&vk);
    }
};

int import(interop_state &s, const vkik_buffer &b, vksort_cuda_vk_buffer **out)
{
    return import_vk_buffer(&s.vk, s.sorter, b, out);
}

double now_ms()
{
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

CUB_BENCH_API int cub_bench_interop(size_t n, int frames, cub_bench_interop_result *out)
{
    if (!out || n < 2 || n > (1u << 30))
        return fail("bad arguments (n must be 2 .. 2^30, out not NULL)");
    memset(out, 0, sizeof *out);
    if (frames < 20)
        frames = 20;
    const int warmup = 3, variants = 4;
    interop_state s;
    vkik_options opt;
    memset(&opt, 0, sizeof opt);
    opt.accept_uuid = accept_cuda_uuid;
    opt.quiet = 1;
    if (vkik_create(&s.vk, &opt) != 0)
        return fail("vulkan: %s", s.vk.error);
    s.vk_up = true;
    if (s.vk.timestamp_valid_bits == 0)
        return fail("vulkan: the queue has no timestamps");
    vkik *k = &s.vk;
    const VkDeviceSize bytes = (VkDeviceSize)n * 4;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    /* source: `variants` sets of fresh keys, then the indices; uploaded once through a
     * host-visible staging buffer. */
    vkik_buffer staging{};
    if (vkik_buffer_create(k, bytes, usage, 1, 0, &s.keys) ||
        vkik_buffer_create(k, bytes, usage, 1, 0, &s.values) ||
        vkik_buffer_create(k, bytes * (variants + 1), usage, 0, 0, &s.source) ||
        vkik_buffer_create(k, bytes * 2, usage, 0, 0, &s.consumer) ||
        vkik_buffer_create(k, bytes * (variants + 1), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, 1,
                           &staging) ||
        vkik_timeline_create(k, 0, 1, &s.timeline)) {
        vkik_buffer_destroy(k, &staging);
        return fail("vulkan: %s", k->error);
    }
    {
        float *f = (float *)staging.mapped;
        uint64_t x = 88172645463325252ull;
        for (size_t i = 0; i < n * variants; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f[i] = (float)((double)(x >> 11) / 9007199254740992.0 * 200.0 - 100.0);
        }
        uint32_t *idx = (uint32_t *)(f + n * variants);
        for (size_t i = 0; i < n; ++i)
            idx[i] = (uint32_t)i;
        VkCommandBuffer c = vkik_begin(k);
        VkBufferCopy all = {0, 0, bytes * (variants + 1)};
        vkCmdCopyBuffer(c, staging.buffer, s.source.buffer, 1, &all);
        int rc = vkik_submit(k, c, s.timeline, 0, 0, 1, VK_NULL_HANDLE) ||
                 vkik_wait(k, s.timeline, 1, 10ull * 1000 * 1000 * 1000);
        vkik_reset_commands(k);
        vkik_buffer_destroy(k, &staging);
        if (rc)
            return fail("vulkan upload: %s", k->error);
    }
    VkQueryPoolCreateInfo qci = {};
    qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 4;
    if (vkCreateQueryPool(k->device, &qci, nullptr, &s.queries) != VK_SUCCESS)
        return fail("vkCreateQueryPool failed");

    if (create_interop_sorter(k, (uint32_t)n, nullptr, 1, &s.sorter))
        return -1;
    vksort_cuda_sorter_properties props;
    vksort_cuda_get_sorter_properties(s.sorter, &props);
    snprintf(out->device, sizeof out->device, "%.100s (Vulkan) = CUDA device %d %.100s",
             k->props.deviceName, props.device_index, props.device_name);
    if (import(s, s.keys, &s.c_keys) || import(s, s.values, &s.c_values))
        return -1;
    {
        int fd = -1;
        if (vkik_semaphore_export_fd(k, s.timeline, &fd) != 0)
            return fail("%s", k->error);
        if (vksort_cuda_import_vk_semaphore(s.sorter, fd, &s.c_sem) != VKSORT_SUCCESS) {
            close(fd);
            return fail("import semaphore: %s", vksort_cuda_sorter_last_message(s.sorter));
        }
    }

    const VkBuffer shared[2] = {s.keys.buffer, s.values.buffer};
    const double tick_ms = k->props.limits.timestampPeriod * 1e-6;
    uint64_t value = 1;
    std::vector<double> host_cuda, host_vk, gap_cuda, gap_vk, sort_ms;
    /* Frames alternate: with the CUDA sort, then without (the consumer waits on keygen's
     * value directly), so both see the same clocks and load. */
    for (int frame = 0; frame < 2 * (warmup + frames); ++frame) {
        const bool with_cuda = (frame & 1) == 0;
        const int variant = (frame / 2) % variants;
        const uint64_t w = value + 1, sig = value + 2, done = value + 3;
        value += 3;
        const double t0 = now_ms();
        VkCommandBuffer a = vkik_begin(k);
        if (!a)
            return fail("%s", k->error);
        vkCmdResetQueryPool(a, s.queries, 0, 4);
        vkCmdWriteTimestamp(a, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 0);
        vkik_barrier(a, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        VkBufferCopy kc = {bytes * (VkDeviceSize)variant, 0, bytes};
        vkCmdCopyBuffer(a, s.source.buffer, s.keys.buffer, 1, &kc);
        VkBufferCopy vc = {bytes * (VkDeviceSize)variants, 0, bytes};
        vkCmdCopyBuffer(a, s.source.buffer, s.values.buffer, 1, &vc);
        if (with_cuda)
            vkik_release_to_external(k, a, shared, 2, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                     VK_ACCESS_TRANSFER_WRITE_BIT);
        vkCmdWriteTimestamp(a, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 1);
        if (vkik_submit(k, a, s.timeline, 0, 0, w, VK_NULL_HANDLE))
            return fail("%s", k->error);
        if (with_cuda) {
            vksort_cuda_vk_sort_info si;
            memset(&si, 0, sizeof si);
            si.semaphore = s.c_sem;
            si.wait_value = w;
            si.signal_value = sig;
            si.keys = s.c_keys;
            si.values = s.c_values;
            si.count = (uint32_t)n;
            if (vksort_cuda_sort_vk(s.sorter, &si) != VKSORT_SUCCESS)
                return fail("sort_vk: %s", vksort_cuda_sorter_last_message(s.sorter));
        }
        VkCommandBuffer b = vkik_begin(k);
        if (!b)
            return fail("%s", k->error);
        vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, s.queries, 2);
        if (with_cuda)
            vkik_acquire_from_external(k, b, shared, 2, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                       VK_ACCESS_TRANSFER_READ_BIT);
        else
            vkik_barrier(b, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
        VkBufferCopy c0 = {0, 0, bytes}, c1 = {0, bytes, bytes};
        vkCmdCopyBuffer(b, s.keys.buffer, s.consumer.buffer, 1, &c0);
        vkCmdCopyBuffer(b, s.values.buffer, s.consumer.buffer, 1, &c1);
        vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, s.queries, 3);
        if (vkik_submit(k, b, s.timeline, with_cuda ? sig : w, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        done, VK_NULL_HANDLE))
            return fail("%s", k->error);
        if (vkik_wait(k, s.timeline, done, 10ull * 1000 * 1000 * 1000))
            return fail("%s", k->error);
        const double t1 = now_ms();
        uint64_t ts[4] = {0, 0, 0, 0};
        if (vkGetQueryPoolResults(k->device, s.queries, 0, 4, sizeof ts, ts, sizeof ts[0],
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) !=
            VK_SUCCESS)
            return fail("vkGetQueryPoolResults failed");
        vkik_reset_commands(k);
        if (frame < 2 * warmup)
            continue;
        const double gap = (double)(int64_t)(ts[2] - ts[1]) * tick_ms;
        if (with_cuda) {
            double ms = -1.0;
            if (vksort_cuda_sorter_last_sort_ms(s.sorter, &ms) != VKSORT_SUCCESS)
                return fail("timing: %s", vksort_cuda_sorter_last_message(s.sorter));
            host_cuda.push_back(t1 - t0);
            gap_cuda.push_back(gap);
            sort_ms.push_back(ms);
        } else {
            host_vk.push_back(t1 - t0);
            gap_vk.push_back(gap);
        }
    }
    if (k->messages)
        return fail("%d Vulkan validation messages (see stderr)", k->messages);

    double cub_alone = -1.0;
    if (cub_bench_time(CUB_BENCH_U32_PAIRS, n, 0, 32, frames, (int)BENCH_FILL_RANDOM, &cub_alone) != 0)
        return -1;
    out->n = n;
    out->frames = frames;
    out->frame_host_ms = median(host_cuda);
    out->frame_host_vk_ms = median(host_vk);
    out->gap_ms = median(gap_cuda);
    out->gap_vk_ms = median(gap_vk);
    out->sort_ms = median(sort_ms);
    out->cub_alone_ms = cub_alone;
    out->overhead_us = ((out->gap_ms - out->gap_vk_ms) - cub_alone) * 1000.0;
    out->handoff_us = ((out->gap_ms - out->gap_vk_ms) - out->sort_ms) * 1000.0;
    bench_error[0] = '\0';
    return 0;
}

#endif /* CUB_BENCH_WITH_VULKAN */
