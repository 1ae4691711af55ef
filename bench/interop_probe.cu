/*
 * vksort-interop-probe: where does the Vulkan -> CUDA -> Vulkan hand-off of
 * bench/cub_bench.cu's cub_bench_interop spend its time (issue #7: ~235 us per frame beyond CUB)?
 *
 * Every variant runs `frames` frames (default 200, at least 100; 5 warm-up frames first) and
 * prints medians (and p10 / p90) in microseconds. The host waits for the end of every frame, as
 * the benchmark does; nothing else waits on the host unless the variant says so.
 *
 * Clocks. Three clocks appear:
 *   - Vulkan timestamps (vkCmdWriteTimestamp; ticks * timestampPeriod = ns),
 *   - CUDA %globaltimer (ns), written by a one-thread "mark" kernel at points of a CUDA stream,
 *   - the host's CLOCK_MONOTONIC.
 * Both GPU clocks are mapped onto the host clock at start-up: the GPU writes its clock into
 * host-visible memory (Vulkan: a timestamp copied with vkCmdCopyQueryPoolResults; CUDA: the mark
 * kernel on mapped pinned memory) and the host spins until it sees the value; offset = host time
 * seen - GPU time, minimum over 40 tries (so each offset is late by the fastest GPU -> host
 * visibility, ~1-3 us). Columns marked "@" are such mapped times, relative to the host time at
 * the start of the frame (t = 0: just before the first command buffer is recorded). Gaps between
 * two Vulkan timestamps (gap A->B) need no mapping.
 *
 * Run with --help for the options; see the table's legend for the variants.
 */
#include "vksort/cuda.h"

#include <cuda_runtime_api.h>

extern "C" {
#include "vk_interop_kit.h"
}

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench_cuda_common.cuh"

namespace {

/* ---- errors (fail, BENCH_CUDA_CHECK: bench_cuda_common.cuh) ------------------------------------- */

#define VK(call)                                                                            \
    do {                                                                                    \
        VkResult r_ = (call);                                                               \
        if (r_ != VK_SUCCESS)                                                               \
            return fail("%s failed (VkResult %d, line %d)", #call, (int)r_, __LINE__);      \
    } while (0)

/* ---- host clock ------------------------------------------------------------------------------- */

double now_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void spin_us(double us)
{
    const double end = now_ns() + us * 1000.0;
    while (now_ns() < end) {
    }
}

/* ---- kernels ---------------------------------------------------------------------------------- */

__device__ __forceinline__ unsigned long long global_timer()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void mark_kernel(unsigned long long *slot) { *slot = global_timer(); }

__global__ void mark_mapped_kernel(volatile unsigned long long *slot)
{
    *slot = global_timer();
    __threadfence_system();
}

/* ---- statistics ------------------------------------------------------------------------------- */

struct series {
    std::string name;
    std::vector<double> v;
};

struct table_row {
    std::string variant, metric;
    double med, p10, p90;
    size_t count;
};

std::vector<table_row> g_rows;

double quantile(std::vector<double> v, double q)
{
    if (v.empty())
        return NAN;
    std::sort(v.begin(), v.end());
    const double pos = q * (double)(v.size() - 1);
    const size_t i = (size_t)pos;
    const double f = pos - (double)i;
    return i + 1 < v.size() ? v[i] * (1.0 - f) + v[i + 1] * f : v[i];
}

struct recorder {
    std::vector<series> s;
    void add(const char *name, double us)
    {
        for (series &x : s)
            if (x.name == name) {
                x.v.push_back(us);
                return;
            }
        s.push_back({name, {us}});
    }
    double median(const char *name) const
    {
        for (const series &x : s)
            if (x.name == name)
                return quantile(x.v, 0.5);
        return NAN;
    }
    void emit(const char *variant) const
    {
        for (const series &x : s)
            g_rows.push_back({variant, x.name, quantile(x.v, 0.5), quantile(x.v, 0.1),
                              quantile(x.v, 0.9), x.v.size()});
    }
};

void print_row(const table_row &r)
{
    printf("  %-44s %10.1f %10.1f %10.1f %6zu\n", r.metric.c_str(), r.med, r.p10, r.p90, r.count);
}

/* ---- the probe's objects ---------------------------------------------------------------------- */

enum cuda_mode {
    C_NONE,        /* no CUDA: the consumer waits on keygen's value directly */
    C_SORT_VK,     /* vksort_cuda_sort_vk (exactly what the benchmark does) */
    C_SORT_MARKED, /* wait, mark, vksort_cuda_sort_device, mark, signal, mark (same work) */
    C_NOOP,        /* wait, signal: no kernel */
    C_NOOP_MARKED, /* wait, mark, signal, mark */
    C_GRAPH,       /* a CUDA graph captured from vksort_cuda_sort_vk, values updated per frame */
    C_HOST_WAIT,   /* host waits keygen, sort_device, cudaStreamSynchronize, consumer (no sems) */
};

enum sem_mode { S_ONE_TIMELINE, S_TWO_TIMELINES, S_BINARY };
enum order_mode { O_ACB, O_CAB, O_ABC }; /* A keygen submit, C CUDA enqueue, B consumer submit */

struct probe {
    vkik vk{};
    bool vk_up = false;
    size_t n = 65536;
    int frames = 200;
    VkDeviceSize bytes = 0;
    vkik_buffer keys{}, values{}, source{}, consumer{}, hostbuf{};
    VkSemaphore tl = VK_NULL_HANDLE, tl2 = VK_NULL_HANDLE, bin1 = VK_NULL_HANDLE,
                bin2 = VK_NULL_HANDLE;
    uint64_t v_tl = 0, v_tl2 = 0;
    VkQueryPool qp = VK_NULL_HANDLE;
    double tick_ns = 1.0;
    uint64_t ts_mask = ~0ull;

    vksort_cuda_sorter *sorter = nullptr;  /* own non-blocking stream, timing on (as the bench) */
    vksort_cuda_sorter *gsorter = nullptr; /* on gstream, timing off (graph capture) */
    cudaStream_t sorter_stream = nullptr;
    cudaStream_t gstream = nullptr, s_nb = nullptr, s_blk = nullptr;
    vksort_cuda_vk_buffer *c_keys = nullptr, *c_values = nullptr;
    vksort_cuda_vk_semaphore *c_tl = nullptr;
    cudaExternalSemaphore_t x_tl = nullptr, x_tl2 = nullptr, x_bin1 = nullptr, x_bin2 = nullptr;
    unsigned long long *d_marks = nullptr; /* device: 4 marks */
    unsigned long long *h_mapped = nullptr, *d_mapped = nullptr;
    cudaEvent_t ev = nullptr;

    /* host_ns = gpu_ns + off; long double: the GPU clocks count ns since 1970 (2^60), beyond a
     * double's exact range. */
    long double off_vk = 0.0L, off_gt = 0.0L;
    bool cal_vk = false, cal_gt = false;

    ~probe()
    {
        if (sorter)
            vksort_cuda_sorter_synchronize(sorter);
        if (gsorter)
            vksort_cuda_sorter_synchronize(gsorter);
        cudaDeviceSynchronize();
        if (vk_up)
            vkDeviceWaitIdle(vk.device);
        vksort_cuda_vk_buffer_destroy(c_keys);
        vksort_cuda_vk_buffer_destroy(c_values);
        vksort_cuda_vk_semaphore_destroy(c_tl);
        vksort_cuda_sorter_destroy(sorter);
        vksort_cuda_sorter_destroy(gsorter);
        for (cudaExternalSemaphore_t x : {x_tl, x_tl2, x_bin1, x_bin2})
            if (x)
                cudaDestroyExternalSemaphore(x);
        for (cudaStream_t st : {gstream, s_nb, s_blk})
            if (st)
                cudaStreamDestroy(st);
        if (ev)
            cudaEventDestroy(ev);
        if (d_marks)
            cudaFree(d_marks);
        if (h_mapped)
            cudaFreeHost(h_mapped);
        if (!vk_up)
            return;
        vkik_buffer_destroy(&vk, &keys);
        vkik_buffer_destroy(&vk, &values);
        vkik_buffer_destroy(&vk, &source);
        vkik_buffer_destroy(&vk, &consumer);
        vkik_buffer_destroy(&vk, &hostbuf);
        for (VkSemaphore sem : {tl, tl2, bin1, bin2})
            if (sem)
                vkDestroySemaphore(vk.device, sem, nullptr);
        if (qp)
            vkDestroyQueryPool(vk.device, qp, nullptr);
        vkik_destroy(&vk);
    }
};

int vkfail(probe &p) { return fail("vulkan: %s", p.vk.error); }

/* An exportable binary semaphore (OPAQUE_FD). */
int binary_create(probe &p, VkSemaphore *out)
{
    VkExportSemaphoreCreateInfo ex = {};
    ex.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
    ex.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkSemaphoreCreateInfo ci = {};
    ci.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    ci.pNext = &ex;
    VK(vkCreateSemaphore(p.vk.device, &ci, nullptr, out));
    return 0;
}

int import_raw(probe &p, VkSemaphore sem, bool timeline, cudaExternalSemaphore_t *out)
{
    int fd = -1;
    if (vkik_semaphore_export_fd(&p.vk, sem, &fd) != 0)
        return vkfail(p);
    cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = timeline ? cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
                      : cudaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = fd;
    cudaError_t e = cudaImportExternalSemaphore(out, &d);
    if (e != cudaSuccess) {
        close(fd);
        *out = nullptr;
        return fail("cudaImportExternalSemaphore(%s) failed: %s", timeline ? "timeline" : "binary",
                    cudaGetErrorString(e));
    }
    return 0;
}

int import_buffer(probe &p, const vkik_buffer &b, vksort_cuda_vk_buffer **out)
{
    return import_vk_buffer(&p.vk, p.sorter, b, out);
}

/* ---- Vulkan helpers ----------------------------------------------------------------------------- */

/* Ends and submits: one optional wait (value ignored for binary semaphores), one optional signal. */
int submit(probe &p, VkCommandBuffer cmd, VkSemaphore wsem, uint64_t wval,
           VkPipelineStageFlags wstage, VkSemaphore ssem, uint64_t sval)
{
    VK(vkEndCommandBuffer(cmd));
    VkTimelineSemaphoreSubmitInfo ts = {};
    ts.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    ts.waitSemaphoreValueCount = wsem ? 1u : 0u;
    ts.pWaitSemaphoreValues = &wval;
    ts.signalSemaphoreValueCount = ssem ? 1u : 0u;
    ts.pSignalSemaphoreValues = &sval;
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.pNext = &ts;
    si.waitSemaphoreCount = wsem ? 1u : 0u;
    si.pWaitSemaphores = &wsem;
    si.pWaitDstStageMask = &wstage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    si.signalSemaphoreCount = ssem ? 1u : 0u;
    si.pSignalSemaphores = &ssem;
    VK(vkQueueSubmit(p.vk.queue, 1, &si, VK_NULL_HANDLE));
    return 0;
}

int host_wait(probe &p, VkSemaphore sem, uint64_t value)
{
    if (vkik_wait(&p.vk, sem, value, 5ull * 1000 * 1000 * 1000) != 0)
        return vkfail(p);
    return 0;
}

int read_queries(probe &p, uint64_t ts[4])
{
    VK(vkGetQueryPoolResults(p.vk.device, p.qp, 0, 4, 4 * sizeof(uint64_t), ts, sizeof(uint64_t),
                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    return 0;
}

double ticks_us(probe &p, uint64_t a, uint64_t b) /* b - a */
{
    return (double)(int64_t)((b - a) & p.ts_mask) * p.tick_ns * 1e-3;
}

/* Vulkan timestamp -> host ns (valid when cal_vk). */
double vk_host(probe &p, uint64_t t)
{
    return (double)((long double)t * (long double)p.tick_ns + p.off_vk);
}
double gt_host(probe &p, unsigned long long t) { return (double)((long double)t + p.off_gt); }

/* ---- clock calibration ------------------------------------------------------------------------ */

int calibrate(probe &p)
{
    long double best = 1e300L;
    for (int i = 0; i < 40; ++i) {
        *(volatile unsigned long long *)p.h_mapped = 0;
        mark_mapped_kernel<<<1, 1, 0, p.s_nb>>>(p.d_mapped);
        BENCH_CUDA_CHECK(cudaGetLastError());
        const double t0 = now_ns();
        double seen = 0.0;
        unsigned long long g = 0;
        while ((g = *(volatile unsigned long long *)p.h_mapped) == 0) {
            if (now_ns() - t0 > 1e9)
                return fail("calibration: the mark kernel never wrote host memory");
        }
        seen = now_ns();
        BENCH_CUDA_CHECK(cudaStreamSynchronize(p.s_nb));
        best = std::min(best, (long double)seen - (long double)g);
    }
    p.off_gt = best;
    p.cal_gt = true;

    best = 1e300L;
    volatile uint64_t *hv = (volatile uint64_t *)p.hostbuf.mapped;
    for (int i = 0; i < 40; ++i) {
        hv[0] = 0;
        VkCommandBuffer c = vkik_begin(&p.vk);
        if (!c)
            return vkfail(p);
        vkCmdResetQueryPool(c, p.qp, 4, 1);
        vkCmdWriteTimestamp(c, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, p.qp, 4);
        vkCmdCopyQueryPoolResults(c, p.qp, 4, 1, p.hostbuf.buffer, 0, 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        vkik_barrier(c, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        const uint64_t done = ++p.v_tl;
        if (submit(p, c, VK_NULL_HANDLE, 0, 0, p.tl, done))
            return -1;
        const double t0 = now_ns();
        uint64_t t = 0;
        while ((t = hv[0]) == 0) {
            if (now_ns() - t0 > 1e9)
                return fail("calibration: the Vulkan timestamp copy never reached host memory");
        }
        const double seen = now_ns();
        if (host_wait(p, p.tl, done))
            return -1;
        vkik_reset_commands(&p.vk);
        best = std::min(best, (long double)seen - (long double)t * (long double)p.tick_ns);
    }
    p.off_vk = best;
    p.cal_vk = true;
    return 0;
}

/* ---- set-up ----------------------------------------------------------------------------------- */

int setup(probe &p)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0)
        return fail("no CUDA device (cudaGetDeviceCount: %s, %d devices)", cudaGetErrorString(e),
                    count);
    vkik_options opt;
    memset(&opt, 0, sizeof opt);
    opt.accept_uuid = accept_cuda_uuid;
    opt.quiet = 1;
    if (vkik_create(&p.vk, &opt) != 0)
        return fail("vulkan: %s", p.vk.error);
    p.vk_up = true;
    vkik *k = &p.vk;
    if (k->timestamp_valid_bits == 0)
        return fail("vulkan: the queue has no timestamps");
    p.tick_ns = k->props.limits.timestampPeriod;
    p.ts_mask = k->timestamp_valid_bits >= 64 ? ~0ull : ((1ull << k->timestamp_valid_bits) - 1);
    p.bytes = (VkDeviceSize)p.n * 4;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkik_buffer_create(k, p.bytes, usage, 1, 0, &p.keys) ||
        vkik_buffer_create(k, p.bytes, usage, 1, 0, &p.values) ||
        vkik_buffer_create(k, p.bytes * 2, usage, 0, 0, &p.source) ||
        vkik_buffer_create(k, p.bytes * 2, usage, 0, 0, &p.consumer) ||
        vkik_buffer_create(k, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0, 1, &p.hostbuf) ||
        vkik_timeline_create(k, 0, 1, &p.tl) || vkik_timeline_create(k, 0, 1, &p.tl2))
        return vkfail(p);
    if (binary_create(p, &p.bin1) || binary_create(p, &p.bin2))
        return -1;
    {
        /* Source: random floats in [-100, 100) then the indices 0..n-1 (uploaded once). */
        vkik_buffer staging{};
        if (vkik_buffer_create(k, p.bytes * 2, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, 1, &staging))
            return vkfail(p);
        float *f = (float *)staging.mapped;
        uint64_t x = 88172645463325252ull;
        for (size_t i = 0; i < p.n; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            f[i] = (float)((double)(x >> 11) / 9007199254740992.0 * 200.0 - 100.0);
        }
        uint32_t *idx = (uint32_t *)(f + p.n);
        for (size_t i = 0; i < p.n; ++i)
            idx[i] = (uint32_t)i;
        VkCommandBuffer c = vkik_begin(k);
        if (!c) {
            vkik_buffer_destroy(k, &staging);
            return vkfail(p);
        }
        VkBufferCopy all = {0, 0, p.bytes * 2};
        vkCmdCopyBuffer(c, staging.buffer, p.source.buffer, 1, &all);
        const uint64_t done = ++p.v_tl;
        int rc = submit(p, c, VK_NULL_HANDLE, 0, 0, p.tl, done) || host_wait(p, p.tl, done);
        vkik_reset_commands(k);
        vkik_buffer_destroy(k, &staging);
        if (rc)
            return -1;
    }
    VkQueryPoolCreateInfo qci = {};
    qci.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 8;
    VK(vkCreateQueryPool(k->device, &qci, nullptr, &p.qp));

    if (create_interop_sorter(k, (uint32_t)p.n, nullptr, 1, &p.sorter))
        return -1;
    vksort_cuda_sorter_properties props;
    vksort_cuda_get_sorter_properties(p.sorter, &props);
    p.sorter_stream = (cudaStream_t)props.stream;
    BENCH_CUDA_CHECK(cudaSetDevice(props.device_index));
    printf("device: %s (Vulkan %u.%u.%u, validation %s) = CUDA device %d %s\n",
           k->props.deviceName, VK_API_VERSION_MAJOR(k->props.apiVersion),
           VK_API_VERSION_MINOR(k->props.apiVersion), VK_API_VERSION_PATCH(k->props.apiVersion),
           !k->validation ? "off" : k->sync_validation ? "on + sync" : "on", props.device_index,
           props.device_name);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("CUDA driver %d, runtime %d; n = %zu f32 pairs; timestampPeriod %.3f ns\n", drv, rt,
           p.n, p.tick_ns);

    BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&p.gstream, cudaStreamNonBlocking));
    BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&p.s_nb, cudaStreamNonBlocking));
    BENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&p.s_blk, cudaStreamDefault));
    if (create_interop_sorter(k, (uint32_t)p.n, (void *)p.gstream, 0, &p.gsorter))
        return -1;
    if (import_buffer(p, p.keys, &p.c_keys) || import_buffer(p, p.values, &p.c_values))
        return -1;
    {
        int fd = -1;
        if (vkik_semaphore_export_fd(k, p.tl, &fd) != 0)
            return vkfail(p);
        if (vksort_cuda_import_vk_semaphore(p.sorter, fd, &p.c_tl) != VKSORT_SUCCESS) {
            close(fd);
            return fail("import semaphore: %s", vksort_cuda_sorter_last_message(p.sorter));
        }
    }
    if (import_raw(p, p.tl, true, &p.x_tl) || import_raw(p, p.tl2, true, &p.x_tl2))
        return -1;
    if (import_raw(p, p.bin1, false, &p.x_bin1) || import_raw(p, p.bin2, false, &p.x_bin2)) {
        printf("note: binary semaphores not importable (%s): binary variants skipped\n", bench_error);
        p.x_bin1 = p.x_bin2 = nullptr;
    }
    BENCH_CUDA_CHECK(cudaMalloc(&p.d_marks, 8 * sizeof(unsigned long long)));
    BENCH_CUDA_CHECK(cudaHostAlloc(&p.h_mapped, 64, cudaHostAllocMapped));
    BENCH_CUDA_CHECK(cudaHostGetDevicePointer((void **)&p.d_mapped, p.h_mapped, 0));
    BENCH_CUDA_CHECK(cudaEventCreateWithFlags(&p.ev, cudaEventDisableTiming));
    if (calibrate(p))
        return -1;
    printf("clock offsets (host - GPU): Vulkan timestamps %.1f us, CUDA %%globaltimer %.1f us; "
           "difference %.1f us (%s)\n",
           (double)(p.off_vk * 1e-3L), (double)(p.off_gt * 1e-3L),
           (double)((p.off_vk - p.off_gt) * 1e-3L),
           fabsl(p.off_vk - p.off_gt) < 20e3L ? "looks like one GPU clock"
                                                : "different clocks: '@' columns still comparable");
    return 0;
}

/* ---- CUDA pieces -------------------------------------------------------------------------------- */

/* A wait or a signal of one imported semaphore at `value` on stream st (the two calls take the
 * same arguments with their own parameter struct). */
template <typename Params, typename Call>
int semaphore_op(Call call, cudaExternalSemaphore_t x, uint64_t value, cudaStream_t st)
{
    Params prm;
    memset(&prm, 0, sizeof prm);
    prm.params.fence.value = value;
    BENCH_CUDA_CHECK(call(&x, &prm, 1, st));
    return 0;
}

int cuda_wait(cudaExternalSemaphore_t x, uint64_t value, cudaStream_t st)
{
    return semaphore_op<cudaExternalSemaphoreWaitParams>(cudaWaitExternalSemaphoresAsync, x, value, st);
}

int cuda_signal(cudaExternalSemaphore_t x, uint64_t value, cudaStream_t st)
{
    return semaphore_op<cudaExternalSemaphoreSignalParams>(cudaSignalExternalSemaphoresAsync, x, value, st);
}

int mark(probe &p, int slot, cudaStream_t st)
{
    mark_kernel<<<1, 1, 0, st>>>(p.d_marks + slot);
    BENCH_CUDA_CHECK(cudaGetLastError());
    return 0;
}

int read_marks(probe &p, unsigned long long out[4])
{
    BENCH_CUDA_CHECK(cudaDeviceSynchronize()); /* the marks' streams are non-blocking */
    BENCH_CUDA_CHECK(cudaMemcpy(out, p.d_marks, 4 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    return 0;
}

struct graph_state {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    cudaGraphNode_t wait_node = nullptr, signal_node = nullptr;
    cudaExternalSemaphore_t wait_sem = nullptr, signal_sem = nullptr;
    ~graph_state()
    {
        cudaDeviceSynchronize();
        if (exec)
            cudaGraphExecDestroy(exec);
        if (graph)
            cudaGraphDestroy(graph);
    }
};

int sort_info(probe &p, uint64_t w, uint64_t sig, vksort_cuda_vk_sort_info *si)
{
    memset(si, 0, sizeof *si);
    si->semaphore = p.c_tl;
    si->wait_value = w;
    si->signal_value = sig;
    si->keys = p.c_keys;
    si->values = p.c_values;
    si->count = (uint32_t)p.n;
    return 0;
}

int graph_build(probe &p, graph_state &g)
{
    vksort_cuda_vk_sort_info si;
    sort_info(p, 1, 2, &si);
    BENCH_CUDA_CHECK(cudaStreamBeginCapture(p.gstream, cudaStreamCaptureModeThreadLocal));
    vksort_result r = vksort_cuda_sort_vk(p.gsorter, &si);
    cudaError_t e = cudaStreamEndCapture(p.gstream, &g.graph);
    if (r != VKSORT_SUCCESS)
        return fail("capture of vksort_cuda_sort_vk: %s",
                    vksort_cuda_sorter_last_message(p.gsorter));
    BENCH_CUDA_CHECK(e);
    size_t count = 0;
    BENCH_CUDA_CHECK(cudaGraphGetNodes(g.graph, nullptr, &count));
    std::vector<cudaGraphNode_t> nodes(count);
    BENCH_CUDA_CHECK(cudaGraphGetNodes(g.graph, nodes.data(), &count));
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType t;
        BENCH_CUDA_CHECK(cudaGraphNodeGetType(node, &t));
        if (t == cudaGraphNodeTypeExtSemaphoreWait) {
            cudaExternalSemaphoreWaitNodeParams wp;
            BENCH_CUDA_CHECK(cudaGraphExternalSemaphoresWaitNodeGetParams(node, &wp));
            g.wait_node = node;
            g.wait_sem = wp.extSemArray[0];
        } else if (t == cudaGraphNodeTypeExtSemaphoreSignal) {
            cudaExternalSemaphoreSignalNodeParams sp;
            BENCH_CUDA_CHECK(cudaGraphExternalSemaphoresSignalNodeGetParams(node, &sp));
            g.signal_node = node;
            g.signal_sem = sp.extSemArray[0];
        }
    }
    if (!g.wait_node || !g.signal_node)
        return fail("the captured graph (%zu nodes) has no external semaphore wait/signal node",
                    count);
    BENCH_CUDA_CHECK(cudaGraphInstantiate(&g.exec, g.graph, 0));
    printf("graph: %zu nodes captured from vksort_cuda_sort_vk\n", count);
    return 0;
}

int graph_launch(probe &p, graph_state &g, uint64_t w, uint64_t sig)
{
    cudaExternalSemaphoreWaitParams wpar;
    memset(&wpar, 0, sizeof wpar);
    wpar.params.fence.value = w;
    cudaExternalSemaphoreWaitNodeParams wp;
    wp.extSemArray = &g.wait_sem;
    wp.paramsArray = &wpar;
    wp.numExtSems = 1;
    BENCH_CUDA_CHECK(cudaGraphExecExternalSemaphoresWaitNodeSetParams(g.exec, g.wait_node, &wp));
    cudaExternalSemaphoreSignalParams spar;
    memset(&spar, 0, sizeof spar);
    spar.params.fence.value = sig;
    cudaExternalSemaphoreSignalNodeParams sp;
    sp.extSemArray = &g.signal_sem;
    sp.paramsArray = &spar;
    sp.numExtSems = 1;
    BENCH_CUDA_CHECK(cudaGraphExecExternalSemaphoresSignalNodeSetParams(g.exec, g.signal_node, &sp));
    BENCH_CUDA_CHECK(cudaGraphLaunch(g.exec, p.gstream));
    return 0;
}

/* ---- the frame -------------------------------------------------------------------------------- */

struct frame_cfg {
    const char *name;
    cuda_mode cuda;
    sem_mode sems;
    order_mode order;
    bool copies;              /* today's copies + ownership transfers (else timestamps only) */
    VkPipelineStageFlags b_stage;
    cudaStream_t stream;      /* for the NOOP modes */
    bool alternate_vk_only;   /* alternate with C_NONE frames (as the benchmark) */
};

int run_frames(probe &p, const frame_cfg &cfg, graph_state *g, recorder &rec, recorder *vk_rec)
{
    vkik *k = &p.vk;
    const VkBuffer shared[2] = {p.keys.buffer, p.values.buffer};
    const int warmup = 5;
    const int per = cfg.alternate_vk_only ? 2 : 1;
    for (int frame = 0; frame < per * (warmup + p.frames); ++frame) {
        const bool vk_only = cfg.alternate_vk_only && (frame & 1);
        const cuda_mode cm = vk_only ? C_NONE : cfg.cuda;
        const bool xfer = cfg.copies && cm != C_NONE;
        /* Values and semaphores of this frame. */
        VkSemaphore a_sem = p.tl, b_sem = p.tl;
        uint64_t w = 0, sig = 0, done = 0;
        cudaExternalSemaphore_t xw = p.x_tl, xs = p.x_tl;
        switch (cfg.sems) {
        case S_ONE_TIMELINE:
            w = p.v_tl + 1;
            sig = p.v_tl + 2;
            done = p.v_tl + 3;
            p.v_tl += 3;
            break;
        case S_TWO_TIMELINES:
            w = ++p.v_tl;
            sig = ++p.v_tl2;
            done = ++p.v_tl;
            b_sem = p.tl2;
            xs = p.x_tl2;
            break;
        case S_BINARY:
            a_sem = p.bin1;
            b_sem = p.bin2;
            xw = p.x_bin1;
            xs = p.x_bin2;
            w = sig = 0;
            done = ++p.v_tl;
            break;
        }
        if (cm == C_NONE) {
            b_sem = a_sem;
            sig = w;
        }
        if (cm == C_HOST_WAIT)
            a_sem = p.tl; /* the host waits on A's timeline value */
        if (cm == C_HOST_WAIT && cfg.sems == S_BINARY)
            return fail("host-wait frames use a timeline");
        if (cm == C_HOST_WAIT && cfg.sems != S_ONE_TIMELINE)
            return fail("host-wait frames use one timeline");

        double h[8] = {0};
        const double t0 = now_ns();
        auto do_a = [&]() -> int {
            VkCommandBuffer a = vkik_begin(k);
            if (!a)
                return vkfail(p);
            vkCmdResetQueryPool(a, p.qp, 0, 4);
            vkCmdWriteTimestamp(a, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, p.qp, 0);
            if (cfg.copies) {
                vkik_barrier(a, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
                VkBufferCopy kc = {0, 0, p.bytes}, vc = {p.bytes, 0, p.bytes};
                vkCmdCopyBuffer(a, p.source.buffer, p.keys.buffer, 1, &kc);
                vkCmdCopyBuffer(a, p.source.buffer, p.values.buffer, 1, &vc);
                if (xfer)
                    vkik_release_to_external(k, a, shared, 2, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                             VK_ACCESS_TRANSFER_WRITE_BIT);
            }
            vkCmdWriteTimestamp(a, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.qp, 1);
            h[0] = now_ns();
            if (submit(p, a, VK_NULL_HANDLE, 0, 0, a_sem, w))
                return -1;
            h[1] = now_ns();
            return 0;
        };
        auto do_b = [&]() -> int {
            VkCommandBuffer b = vkik_begin(k);
            if (!b)
                return vkfail(p);
            vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, p.qp, 2);
            if (cfg.copies) {
                if (xfer)
                    vkik_acquire_from_external(k, b, shared, 2, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                               VK_ACCESS_TRANSFER_READ_BIT);
                else
                    vkik_barrier(b, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
                VkBufferCopy c0 = {0, 0, p.bytes}, c1 = {0, p.bytes, p.bytes};
                vkCmdCopyBuffer(b, p.keys.buffer, p.consumer.buffer, 1, &c0);
                vkCmdCopyBuffer(b, p.values.buffer, p.consumer.buffer, 1, &c1);
            }
            vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.qp, 3);
            h[4] = now_ns();
            const bool waits = cm != C_HOST_WAIT;
            if (submit(p, b, waits ? b_sem : VK_NULL_HANDLE, sig, cfg.b_stage, p.tl, done))
                return -1;
            h[5] = now_ns();
            return 0;
        };
        auto do_c = [&]() -> int {
            h[2] = now_ns();
            switch (cm) {
            case C_NONE:
                break;
            case C_SORT_VK: {
                vksort_cuda_vk_sort_info si;
                sort_info(p, w, sig, &si);
                if (vksort_cuda_sort_vk(p.sorter, &si) != VKSORT_SUCCESS)
                    return fail("sort_vk: %s", vksort_cuda_sorter_last_message(p.sorter));
                break;
            }
            case C_SORT_MARKED: {
                vksort_cuda_sort_info di;
                memset(&di, 0, sizeof di);
                di.keys = vksort_cuda_vk_buffer_device_pointer(p.c_keys);
                di.values = (uint32_t *)vksort_cuda_vk_buffer_device_pointer(p.c_values);
                di.count = (uint32_t)p.n;
                if (cuda_wait(xw, w, p.sorter_stream) || mark(p, 0, p.sorter_stream))
                    return -1;
                if (vksort_cuda_sort_device(p.sorter, &di) != VKSORT_SUCCESS)
                    return fail("sort_device: %s", vksort_cuda_sorter_last_message(p.sorter));
                if (mark(p, 1, p.sorter_stream) || cuda_signal(xs, sig, p.sorter_stream) ||
                    mark(p, 2, p.sorter_stream))
                    return -1;
                break;
            }
            case C_NOOP:
                if (cuda_wait(xw, w, cfg.stream) || cuda_signal(xs, sig, cfg.stream))
                    return -1;
                break;
            case C_NOOP_MARKED:
                if (cuda_wait(xw, w, cfg.stream) || mark(p, 0, cfg.stream) ||
                    cuda_signal(xs, sig, cfg.stream) || mark(p, 2, cfg.stream))
                    return -1;
                break;
            case C_GRAPH:
                if (graph_launch(p, *g, w, sig))
                    return -1;
                break;
            case C_HOST_WAIT: {
                if (host_wait(p, p.tl, w))
                    return -1;
                vksort_cuda_sort_info di;
                memset(&di, 0, sizeof di);
                di.keys = vksort_cuda_vk_buffer_device_pointer(p.c_keys);
                di.values = (uint32_t *)vksort_cuda_vk_buffer_device_pointer(p.c_values);
                di.count = (uint32_t)p.n;
                if (mark(p, 0, p.sorter_stream))
                    return -1;
                if (vksort_cuda_sort_device(p.sorter, &di) != VKSORT_SUCCESS)
                    return fail("sort_device: %s", vksort_cuda_sorter_last_message(p.sorter));
                if (mark(p, 1, p.sorter_stream))
                    return -1;
                BENCH_CUDA_CHECK(cudaStreamSynchronize(p.sorter_stream));
                break;
            }
            }
            h[3] = now_ns();
            return 0;
        };
        int rc = 0;
        const order_mode ord = cm == C_HOST_WAIT || cm == C_NONE ? O_ACB : cfg.order;
        switch (ord) {
        case O_ACB: rc = do_a() || do_c() || do_b(); break;
        case O_CAB: rc = do_c() || do_a() || do_b(); break;
        case O_ABC: rc = do_a() || do_b() || do_c(); break;
        }
        if (rc)
            return -1;
        if (host_wait(p, p.tl, done))
            return -1;
        h[6] = now_ns();
        uint64_t ts[4];
        if (read_queries(p, ts))
            return -1;
        vkik_reset_commands(k);
        unsigned long long m[4] = {0, 0, 0, 0};
        const bool marked = cm == C_SORT_MARKED || cm == C_NOOP_MARKED || cm == C_HOST_WAIT;
        if (marked && read_marks(p, m))
            return -1;
        double sort_us = -1.0;
        if (cm == C_SORT_VK || cm == C_SORT_MARKED || cm == C_HOST_WAIT) {
            double ms = -1.0;
            if (vksort_cuda_sorter_last_sort_ms(p.sorter, &ms) != VKSORT_SUCCESS)
                return fail("timing: %s", vksort_cuda_sorter_last_message(p.sorter));
            sort_us = ms * 1000.0;
        }
        if (frame < per * warmup)
            continue;
        recorder &r = vk_only && vk_rec ? *vk_rec : rec;
        r.add("GPU gap A end -> B start (Vulkan ts)", ticks_us(p, ts[1], ts[2]));
        r.add("GPU A start -> B end (Vulkan ts)", ticks_us(p, ts[0], ts[3]));
        if (sort_us >= 0)
            r.add("CUDA sort (sorter events)", sort_us);
        auto rel = [&](double host_ns) { return (host_ns - t0) * 1e-3; };
        r.add("host: A submitted (returns)", rel(h[1]));
        if (cm != C_NONE)
            r.add("host: CUDA enqueue call took", (h[3] - h[2]) * 1e-3);
        r.add("host: B record+submit took", (h[5] - h[4]) * 1e-3);
        r.add("host: B submitted (returns)", rel(h[5]));
        r.add("host: done seen (vkWaitSemaphores)", rel(h[6]));
        if (p.cal_vk) {
            r.add("@ A end", rel(vk_host(p, ts[1])));
            r.add("@ B start", rel(vk_host(p, ts[2])));
        }
        if (marked && p.cal_gt) {
            r.add("@ CUDA mark after wait", rel(gt_host(p, m[0])));
            if (cm != C_NOOP_MARKED)
                r.add("@ CUDA mark after sort", rel(gt_host(p, m[1])));
            if (cm != C_HOST_WAIT)
                r.add("@ CUDA mark after signal", rel(gt_host(p, m[2])));
            if (p.cal_vk) {
                r.add("= A end -> CUDA after-wait mark", (gt_host(p, m[0]) - vk_host(p, ts[1])) * 1e-3);
                if (cm == C_SORT_MARKED) {
                    r.add("= CUDA after-wait mark -> after-sort mark", (double)(m[1] - m[0]) * 1e-3);
                    r.add("= CUDA after-sort mark -> after-signal mark",
                          (double)(m[2] - m[1]) * 1e-3);
                }
                if (cm != C_HOST_WAIT)
                    r.add("= CUDA after-signal mark -> B start",
                          (vk_host(p, ts[2]) - gt_host(p, m[2])) * 1e-3);
                else
                    r.add("= CUDA after-sort mark -> B start",
                          (vk_host(p, ts[2]) - gt_host(p, m[1])) * 1e-3);
            }
        }
    }
    if (k->messages)
        printf("note: %d Vulkan validation messages so far (see stderr)\n", k->messages);
    return 0;
}

/* ---- one-sided latencies ------------------------------------------------------------------------ */

/* Host vkSignalSemaphore -> CUDA: the stream waits value v, then marks and records an event;
 * the host signals after the stream is surely blocked and polls the event. with_wait = false:
 * the same without the wait (launch + poll reference). */
int host_to_cuda(probe &p, bool with_wait, cudaStream_t st, recorder &r)
{
    for (int i = 0; i < 5 + p.frames; ++i) {
        const uint64_t v = ++p.v_tl;
        double t_sig = 0;
        if (with_wait) {
            if (cuda_wait(p.x_tl, v, st) || mark(p, 0, st))
                return -1;
            BENCH_CUDA_CHECK(cudaEventRecord(p.ev, st));
            spin_us(300);
            VkSemaphoreSignalInfo si = {};
            si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
            si.semaphore = p.tl;
            si.value = v;
            t_sig = now_ns();
            VK(vkSignalSemaphore(p.vk.device, &si));
        } else {
            VkSemaphoreSignalInfo si = {};
            si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
            si.semaphore = p.tl;
            si.value = v;
            VK(vkSignalSemaphore(p.vk.device, &si));
            spin_us(50);
            t_sig = now_ns();
            if (mark(p, 0, st))
                return -1;
            BENCH_CUDA_CHECK(cudaEventRecord(p.ev, st));
        }
        const double t1 = now_ns();
        cudaError_t e;
        while ((e = cudaEventQuery(p.ev)) == cudaErrorNotReady) {
            if (now_ns() - t1 > 5e9)
                return fail("host -> CUDA: the event never completed");
        }
        BENCH_CUDA_CHECK(e);
        const double t2 = now_ns();
        unsigned long long m[4];
        if (read_marks(p, m))
            return -1;
        if (i < 5)
            continue;
        r.add(with_wait ? "host: vkSignalSemaphore call took" : "host: mark launch+record took",
              (t1 - t_sig) * 1e-3);
        r.add("host: event seen complete (cudaEventQuery)", (t2 - t_sig) * 1e-3);
        if (p.cal_gt)
            r.add("@ CUDA mark (after the wait)", (gt_host(p, m[0]) - t_sig) * 1e-3);
    }
    return 0;
}

/* Host vkSignalSemaphore -> Vulkan queue wait (reference for the CUDA one above). */
int host_to_vk(probe &p, recorder &r)
{
    for (int i = 0; i < 5 + p.frames; ++i) {
        const uint64_t v = ++p.v_tl, done = ++p.v_tl;
        VkCommandBuffer b = vkik_begin(&p.vk);
        if (!b)
            return vkfail(p);
        vkCmdResetQueryPool(b, p.qp, 0, 4);
        vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, p.qp, 2);
        vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.qp, 3);
        if (submit(p, b, p.tl, v, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, p.tl, done))
            return -1;
        spin_us(300);
        VkSemaphoreSignalInfo si = {};
        si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
        si.semaphore = p.tl;
        si.value = v;
        const double t_sig = now_ns();
        VK(vkSignalSemaphore(p.vk.device, &si));
        if (host_wait(p, p.tl, done))
            return -1;
        const double t2 = now_ns();
        uint64_t ts[4];
        VK(vkGetQueryPoolResults(p.vk.device, p.qp, 2, 2, 2 * sizeof(uint64_t), ts + 2,
                                 sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        vkik_reset_commands(&p.vk);
        if (i < 5)
            continue;
        r.add("host: done seen (vkWaitSemaphores)", (t2 - t_sig) * 1e-3);
        if (p.cal_vk)
            r.add("@ B start", (vk_host(p, ts[2]) - t_sig) * 1e-3);
    }
    return 0;
}

/* CUDA signal (no CUDA wait) -> Vulkan queue wait.
 *   b_first: B is submitted first (its wait has no signal anywhere yet), 300 us later the host
 *            enqueues mark + signal on the stream;
 *   else:    mark + signal enqueued first, B submitted right after (today's order);
 *   settled: signal enqueued, the host waits for the stream, then B is submitted. */
enum d_order { D_B_FIRST, D_SIGNAL_FIRST, D_SETTLED };

int cuda_to_vk(probe &p, d_order order, VkSemaphore sem, cudaExternalSemaphore_t x, uint64_t *ctr,
               recorder &r)
{
    for (int i = 0; i < 5 + p.frames; ++i) {
        const uint64_t v = ++*ctr;
        const uint64_t done = ++p.v_tl;
        double t_enq = 0, t_b = 0;
        auto sub_b = [&]() -> int {
            VkCommandBuffer b = vkik_begin(&p.vk);
            if (!b)
                return vkfail(p);
            vkCmdResetQueryPool(b, p.qp, 0, 4);
            vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, p.qp, 2);
            vkCmdWriteTimestamp(b, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, p.qp, 3);
            t_b = now_ns();
            return submit(p, b, sem, v, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, p.tl, done);
        };
        auto sig = [&]() -> int {
            t_enq = now_ns();
            return mark(p, 0, p.s_nb) || cuda_signal(x, v, p.s_nb);
        };
        int rc = 0;
        switch (order) {
        case D_B_FIRST:
            rc = sub_b();
            if (!rc) {
                spin_us(300);
                rc = sig();
            }
            break;
        case D_SIGNAL_FIRST: rc = sig() || sub_b(); break;
        case D_SETTLED:
            rc = sig();
            if (!rc && cudaStreamSynchronize(p.s_nb) != cudaSuccess)
                rc = fail("cudaStreamSynchronize failed");
            if (!rc)
                rc = sub_b();
            break;
        }
        if (rc)
            return -1;
        if (host_wait(p, p.tl, done))
            return -1;
        const double t2 = now_ns();
        uint64_t ts[4];
        VK(vkGetQueryPoolResults(p.vk.device, p.qp, 2, 2, 2 * sizeof(uint64_t), ts + 2,
                                 sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        vkik_reset_commands(&p.vk);
        unsigned long long m[4];
        if (read_marks(p, m))
            return -1;
        if (i < 5)
            continue;
        const double t_ref = order == D_SETTLED ? t_b : t_enq;
        r.add(order == D_SETTLED ? "host: done seen, from B submit" : "host: done seen, from CUDA enqueue",
              (t2 - t_ref) * 1e-3);
        if (p.cal_vk)
            r.add(order == D_SETTLED ? "@ B start, from B submit" : "@ B start, from CUDA enqueue",
                  (vk_host(p, ts[2]) - t_ref) * 1e-3);
        if (p.cal_vk && p.cal_gt)
            r.add("= CUDA mark (before signal) -> B start",
                  (vk_host(p, ts[2]) - gt_host(p, m[0])) * 1e-3);
        if (order == D_SIGNAL_FIRST && p.cal_vk)
            r.add("= B submit returned -> B start", (vk_host(p, ts[2]) - t_b) * 1e-3);
    }
    return 0;
}

/* ---- driver ----------------------------------------------------------------------------------- */

struct legend_entry {
    const char *key, *text;
};

const legend_entry legend[] = {
    {"a0", "today's frame (copies, ownership transfers, vksort_cuda_sort_vk), alternating with "
           "a Vulkan-only frame (a0-vk): extra = gap(a0) - gap(a0-vk)"},
    {"a1", "a0 with marks: wait, mark, sort_device, mark, signal, mark (same work as sort_vk)"},
    {"a2", "a0, order C,A,B: sort_vk enqueued before keygen's submit"},
    {"a3", "a0, order A,B,C: consumer submitted before sort_vk is enqueued"},
    {"a4", "a0 with a CUDA graph (captured sort_vk; wait/signal values set per frame)"},
    {"a5", "a0 with one timeline per direction (V->C tl, C->V tl2), via marks"},
    {"a6", "host waits keygen, sorts, cudaStreamSynchronize, then submits the consumer (no "
           "semaphores between the APIs)"},
    {"b0", "tiny A (timestamps) -> CUDA wait+signal (no kernel, non-blocking stream) -> tiny B"},
    {"b1", "b0 with a mark after the wait and after the signal"},
    {"b2", "b0 on a blocking stream (cudaStreamDefault flags)"},
    {"b3", "b0 on the legacy default stream (stream 0)"},
    {"b4", "b0 with two timelines (one per direction)"},
    {"b5", "b1 with exported binary semaphores (OPAQUE_FD, cudaExternalSemaphoreHandleTypeOpaqueFd)"},
    {"b6", "b0, order A,B,C"},
    {"b-vk", "reference for b*: tiny A -> tiny B waiting on A's value, no CUDA"},
    {"c0", "host vkSignalSemaphore -> CUDA stream waiting on it (mark + event; host polls)"},
    {"c1", "reference: mark + event with no wait (launch -> event seen)"},
    {"c2", "host vkSignalSemaphore -> Vulkan submit waiting on it (reference)"},
    {"d0", "CUDA signal, no CUDA wait -> Vulkan B submitted 300 us before (wait-before-signal)"},
    {"d1", "CUDA signal enqueued, then B submitted right away (today's order)"},
    {"d2", "CUDA signal complete (host synced), then B submitted (no pending wait)"},
    {"d3", "d0 on the second timeline (only CUDA ever signals it from the GPU)"},
};

void usage()
{
    printf("usage: vksort-interop-probe [--n N] [--frames F] [--only LIST]\n"
           "  --n N        keys (f32 pairs) of the sort variants (default 65536)\n"
           "  --frames F   measured frames per variant (default 200, at least 100)\n"
           "  --only LIST  comma-separated variant keys (default: all), e.g. a0,b0,b1\n"
           "Environment: VKSORT_TEST_VK_NO_VALIDATION=1 disables the validation layer (on by\n"
           "default when installed, as in the benchmark).\n");
}

bool wanted(const char *only, const char *key)
{
    if (!only || !*only)
        return true;
    std::string list = std::string(",") + only + ",";
    return list.find(std::string(",") + key + ",") != std::string::npos;
}

void report(const char *key)
{
    const char *text = "";
    for (const legend_entry &e : legend)
        if (strcmp(e.key, key) == 0)
            text = e.text;
    printf("\n[%s] %s\n", key, text);
    printf("  %-44s %10s %10s %10s %6s\n", "metric (us)", "median", "p10", "p90", "count");
}

} // namespace

int main(int argc, char **argv)
{
    setvbuf(stdout, nullptr, _IOLBF, 0);
    probe p;
    const char *only = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) {
            p.n = strtoull(argv[++i], nullptr, 0);
        } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            p.frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        } else {
            usage();
            return 2;
        }
    }
    if (p.n < 2 || p.n > (1u << 28)) {
        fprintf(stderr, "interop-probe: --n must be 2 .. 2^28\n");
        return 2;
    }
    if (p.frames < 100)
        p.frames = 100;
    if (setup(p)) {
        fprintf(stderr, "interop-probe: setup failed: %s\n", bench_error);
        return 1;
    }
    printf("legend: '@' = GPU time mapped to the host clock, us after the frame's first host "
           "call; '=' = difference of two mapped GPU times (per frame); 'host:' = host clock; '=>' = "
           "difference of medians (p10/p90/count not applicable)\n");

    int failures = 0;
    /* Each variant: run, print its rows, or print the failure and go on. */
    auto variant = [&](const char *key, auto &&fn) {
        if (!wanted(only, key))
            return;
        report(key);
        g_rows.clear();
        if (fn() != 0) {
            printf("  FAILED: %s\n", bench_error);
            ++failures;
            /* Unblock anything left waiting: the host signals both timelines far ahead. */
            for (VkSemaphore sem : {p.tl, p.tl2}) {
                uint64_t &ctr = sem == p.tl ? p.v_tl : p.v_tl2;
                ctr += 1000;
                VkSemaphoreSignalInfo si = {};
                si.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
                si.semaphore = sem;
                si.value = ctr;
                vkSignalSemaphore(p.vk.device, &si);
            }
            cudaDeviceSynchronize();
            (void)cudaGetLastError();
            vkQueueWaitIdle(p.vk.queue);
            vkik_reset_commands(&p.vk);
            return;
        }
        for (const table_row &r : g_rows)
            print_row(r);
    };

    const VkPipelineStageFlags xfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    const VkPipelineStageFlags all = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    double gap_vk_ref = NAN;
    variant("a0", [&]() {
        recorder r, rv;
        frame_cfg c = {"a0", C_SORT_VK, S_ONE_TIMELINE, O_ACB, true, xfer, nullptr, true};
        if (run_frames(p, c, nullptr, r, &rv))
            return -1;
        gap_vk_ref = rv.median("GPU gap A end -> B start (Vulkan ts)");
        const double gap = r.median("GPU gap A end -> B start (Vulkan ts)");
        const double sort = r.median("CUDA sort (sorter events)");
        r.emit("a0");
        for (series &s : rv.s)
            s.name = "a0-vk " + s.name;
        rv.emit("a0");
        g_rows.push_back({"a0", "=> extra gap (a0 - a0-vk)", gap - gap_vk_ref, 0, 0, 0});
        g_rows.push_back({"a0", "=> extra gap - CUDA sort (hand-offs)", gap - gap_vk_ref - sort, 0,
                          0, 0});
        return 0;
    });
    auto sort_variant = [&](const char *key, cuda_mode cm, sem_mode sm, order_mode om,
                            graph_state *g) {
        variant(key, [&]() {
            recorder r;
            frame_cfg c = {key, cm, sm, om, true, xfer, nullptr, false};
            if (run_frames(p, c, g, r, nullptr))
                return -1;
            r.emit(key);
            if (!std::isnan(gap_vk_ref))
                g_rows.push_back({key, "=> gap - a0-vk gap",
                                  r.median("GPU gap A end -> B start (Vulkan ts)") - gap_vk_ref, 0,
                                  0, 0});
            return 0;
        });
    };
    sort_variant("a1", C_SORT_MARKED, S_ONE_TIMELINE, O_ACB, nullptr);
    sort_variant("a2", C_SORT_VK, S_ONE_TIMELINE, O_CAB, nullptr);
    sort_variant("a3", C_SORT_VK, S_ONE_TIMELINE, O_ABC, nullptr);
    if (wanted(only, "a4")) {
        graph_state g;
        if (graph_build(p, g) != 0) {
            report("a4");
            printf("  FAILED: %s\n", bench_error);
            ++failures;
            (void)cudaGetLastError();
        } else {
            sort_variant("a4", C_GRAPH, S_ONE_TIMELINE, O_ACB, &g);
        }
    }
    sort_variant("a5", C_SORT_MARKED, S_TWO_TIMELINES, O_ACB, nullptr);
    sort_variant("a6", C_HOST_WAIT, S_ONE_TIMELINE, O_ACB, nullptr);

    auto noop_variant = [&](const char *key, cuda_mode cm, sem_mode sm, order_mode om,
                            cudaStream_t st) {
        variant(key, [&]() {
            recorder r;
            frame_cfg c = {key, cm, sm, om, false, all, st, false};
            if (run_frames(p, c, nullptr, r, nullptr))
                return -1;
            r.emit(key);
            return 0;
        });
    };
    noop_variant("b0", C_NOOP, S_ONE_TIMELINE, O_ACB, p.s_nb);
    noop_variant("b1", C_NOOP_MARKED, S_ONE_TIMELINE, O_ACB, p.s_nb);
    noop_variant("b2", C_NOOP, S_ONE_TIMELINE, O_ACB, p.s_blk);
    noop_variant("b3", C_NOOP, S_ONE_TIMELINE, O_ACB, (cudaStream_t)0);
    noop_variant("b4", C_NOOP, S_TWO_TIMELINES, O_ACB, p.s_nb);
    noop_variant("b6", C_NOOP, S_ONE_TIMELINE, O_ABC, p.s_nb);
    /* The reference without CUDA, on tiny submits. */
    variant("b-vk", [&]() {
        recorder r;
        frame_cfg c = {"b-vk", C_NONE, S_ONE_TIMELINE, O_ACB, false, all, nullptr, false};
        if (run_frames(p, c, nullptr, r, nullptr))
            return -1;
        r.emit("b-vk");
        return 0;
    });

    /* Single hand-offs: each measures one function into a recorder. */
    auto single_variant = [&](const char *key, auto &&measure) {
        variant(key, [&]() {
            recorder r;
            if (measure(r))
                return -1;
            r.emit(key);
            return 0;
        });
    };
    single_variant("c0", [&](recorder &r) { return host_to_cuda(p, true, p.s_nb, r); });
    single_variant("c1", [&](recorder &r) { return host_to_cuda(p, false, p.s_nb, r); });
    single_variant("c2", [&](recorder &r) { return host_to_vk(p, r); });
    single_variant("d0", [&](recorder &r) {
        return cuda_to_vk(p, D_B_FIRST, p.tl, p.x_tl, &p.v_tl, r);
    });
    single_variant("d1", [&](recorder &r) {
        return cuda_to_vk(p, D_SIGNAL_FIRST, p.tl, p.x_tl, &p.v_tl, r);
    });
    single_variant("d2", [&](recorder &r) {
        return cuda_to_vk(p, D_SETTLED, p.tl, p.x_tl, &p.v_tl, r);
    });
    single_variant("d3", [&](recorder &r) {
        return cuda_to_vk(p, D_B_FIRST, p.tl2, p.x_tl2, &p.v_tl2, r);
    });

    /* Last: a binary wait that never resolves cannot be unblocked from the host. */
    if (p.x_bin1 && p.x_bin2)
        noop_variant("b5", C_NOOP_MARKED, S_BINARY, O_ACB, p.s_nb);

    printf("\n%s: %d variant(s) failed\n", failures ? "interop-probe" : "interop-probe done",
           failures);
    if (p.vk.messages)
        printf("note: %d Vulkan validation messages in total (see stderr)\n", p.vk.messages);
    return failures ? 1 : 0;
}
