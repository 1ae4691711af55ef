/* CUB baseline and Vulkan-CUDA interop measurements (see cub_bench.h). */
#include "cub_bench.h"
#include "bench_warmup.h"

#include "vksort/cuda.h"

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
#include <vector>

#define CUB_BENCH_API extern "C" __attribute__((visibility("default")))

#include "bench_cuda_common.cuh"

namespace {

__device__ __forceinline__ uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Fresh keys for a run: 32 or 64 random bits, or a finite float in [-1000, 1000). */
template <typename K> __device__ K make_key(uint64_t r);
template <> __device__ uint32_t make_key<uint32_t>(uint64_t r) { return (uint32_t)r; }
template <> __device__ uint64_t make_key<uint64_t>(uint64_t r) { return r; }
template <> __device__ float make_key<float>(uint64_t r)
{
    return ((float)(uint32_t)(r >> 40) / 16777216.0f) * 2000.0f - 1000.0f;
}

template <typename K>
__global__ void generate(K *keys, uint32_t *values, size_t n, uint64_t seed)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        keys[i] = make_key<K>(mix(seed ^ (i * 0x2545f4914f6cdd1dull)));
        if (values)
            values[i] = (uint32_t)i;
    }
}

template <typename K> __device__ bool in_order(K a, K b, int begin, int end)
{
    const int width = end - begin;
    const K mask = width >= (int)(sizeof(K) * 8) ? ~K(0) : (K)((K(1) << width) - 1u);
    return ((a >> begin) & mask) <= ((b >> begin) & mask);
}
template <> __device__ bool in_order<float>(float a, float b, int, int) { return a <= b; }

template <typename K>
__global__ void count_inversions(const K *keys, size_t n, int begin, int end,
                                 unsigned long long *out)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned long long bad = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i + 1 < n; i += stride)
        bad += !in_order<K>(keys[i], keys[i + 1], begin, end);
    if (bad)
        atomicAdd(out, bad);
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
    void *p[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
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
 * (bench_warmup.h); median of the time per sort. Fresh data every run; every sort of the last
 * run checked. */
template <typename K>
int time_kind(bool pairs, size_t n, int begin, int end, int runs, int sorts, double *median_ms)
{
    device_buffers b;
    const size_t total = n * (size_t)sorts;
    BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    BENCH_CUDA_CHECK(cudaEventCreate(&b.start));
    BENCH_CUDA_CHECK(cudaEventCreate(&b.stop));
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[0], total * sizeof(K)));
    BENCH_CUDA_CHECK(cudaMalloc(&b.p[1], total * sizeof(K)));
    if (pairs) {
        BENCH_CUDA_CHECK(cudaMalloc(&b.p[2], total * 4));
        BENCH_CUDA_CHECK(cudaMalloc(&b.p[3], total * 4));
    }
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
    std::vector<double> times;
    bench_warmup warm;
    bench_warmup_init(&warm);
    bool warmed = false;
    uint64_t seed = 0x1234567ull;
    while ((int)times.size() < runs) {
        /* A warm-up enqueues warm.batch rounds (the events around the last), so that the GPU
         * stays busy between the host's waits; a timed run one. */
        const int reps = warmed ? 1 : warm.batch;
        for (int rep = 0; rep < reps; ++rep) {
            /* Fresh data into the current buffers (outside the timed region). */
            for (int i = 0; i < sorts; ++i) {
                generate<K><<<grid_for(n), 256, 0, b.stream>>>(
                    keys[i].Current(), pairs ? values[i].Current() : nullptr, n, seed);
                seed += 7919u;
                BENCH_CUDA_CHECK(cudaGetLastError());
            }
            if (rep == reps - 1)
                BENCH_CUDA_CHECK(cudaEventRecord(b.start, b.stream));
            for (int i = 0; i < sorts; ++i)
                BENCH_CUDA_CHECK(cub_call<K>(b.p[4], temp_bytes, keys[i],
                                             pairs ? &values[i] : nullptr, (int)n, begin, end,
                                             b.stream));
        }
        BENCH_CUDA_CHECK(cudaEventRecord(b.stop, b.stream));
        BENCH_CUDA_CHECK(cudaEventSynchronize(b.stop));
        float ms = 0.0f;
        BENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, b.start, b.stop));
        if (warmed)
            times.push_back(ms / sorts);
        else
            warmed = bench_warmup_step(&warm, ms, reps, 1);
    }
    /* Every result of the last run is sorted. */
    unsigned long long *d_bad = nullptr, bad = 0;
    BENCH_CUDA_CHECK(cudaMalloc(&d_bad, sizeof *d_bad));
    cudaError_t e = cudaMemsetAsync(d_bad, 0, sizeof *d_bad, b.stream);
    for (int i = 0; i < sorts && e == cudaSuccess; ++i) {
        count_inversions<K><<<grid_for(n), 256, 0, b.stream>>>(keys[i].Current(), n, begin, end,
                                                              d_bad);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost, b.stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(b.stream);
    cudaFree(d_bad);
    BENCH_CUDA_CHECK(e);
    if (bad)
        return fail("CUB result not sorted: %llu inversions (n %zu, %d sorts)", bad, n, sorts);
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
                                 double *median_ms)
{
    return cub_bench_time_frame(kind, n, begin_bit, end_bit, runs, 1, median_ms);
}

CUB_BENCH_API int cub_bench_time_frame(int kind, size_t n, int begin_bit, int end_bit, int runs,
                                       int sorts, double *median_ms)
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
    if (kind == CUB_BENCH_F32_PAIRS && (begin_bit != 0 || end_bit != 32))
        return fail("f32 pairs: CUB's float keys are timed on every bit only");
    switch (kind) {
    case CUB_BENCH_U32_KEYS:
        return time_kind<uint32_t>(false, n, begin_bit, end_bit, runs, sorts, median_ms);
    case CUB_BENCH_U32_PAIRS:
        return time_kind<uint32_t>(true, n, begin_bit, end_bit, runs, sorts, median_ms);
    case CUB_BENCH_F32_PAIRS: return time_kind<float>(true, n, 0, 32, runs, sorts, median_ms);
    case CUB_BENCH_U64_KEYS:
        return time_kind<uint64_t>(false, n, begin_bit, end_bit, runs, sorts, median_ms);
    case CUB_BENCH_U64_PAIRS:
        return time_kind<uint64_t>(true, n, begin_bit, end_bit, runs, sorts, median_ms);
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
    if (cub_bench_time(CUB_BENCH_U32_PAIRS, n, 0, 32, frames, &cub_alone) != 0)
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
