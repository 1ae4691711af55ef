/*
 * CUB baseline and Vulkan-CUDA interop measurements for the GPU benchmark program (C-callable;
 * the implementation, bench/cub_bench.cu, is built by cuda/CMakeLists.txt as the shared library
 * target vksort_cub_bench when the CUDA backend is enabled).
 *
 * Not thread-safe (one last-error string for the module). Every function returns 0 on success,
 * or -1 with the reason in cub_bench_last_error().
 */
#ifndef VKSORT_BENCH_CUB_BENCH_H
#define VKSORT_BENCH_CUB_BENCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cub_bench_kind {
    CUB_BENCH_U32_KEYS = 0,   /* SortKeys<uint32_t> */
    CUB_BENCH_U32_PAIRS = 1,  /* SortPairs<uint32_t, uint32_t> */
    /* SortPairs<float, uint32_t>: CUB's own float keys (its order ties -0.0 with +0.0, unlike
     * vksort's totalOrder; the check allows that tie and nothing else). */
    CUB_BENCH_F32_PAIRS = 2,
    CUB_BENCH_U64_KEYS = 3,   /* SortKeys<uint64_t> */
    CUB_BENCH_U64_PAIRS = 4,  /* SortPairs<uint64_t, uint32_t> */
    CUB_BENCH_KIND_COUNT = 5
} cub_bench_kind;

/* "u32 keys", "u32 pairs", "f32 pairs", "u64 keys", "u64 pairs"; "?" for an unknown kind. */
const char *cub_bench_kind_name(int kind);

/* The reason the last call failed ("" after a success). */
const char *cub_bench_last_error(void);

/* 0 when a CUDA device is present; -1 with the reason otherwise. */
int cub_bench_available(void);

/* Median device time (cudaEvents around the CUB call only) of `runs` (at least 20; fewer are
 * raised to 20) sorts of n elements of `kind` on bits [begin_bit, end_bit) (end_bit 0: the key
 * width), DoubleBuffer form, temporary storage allocated once. Warm-ups first, by
 * vksort-gpu-bench's rule (at least 400 ms of GPU work, then until the fastest has settled). Fresh
 * data every run, generated on the device outside the timed region by vksort-gpu-bench's
 * generator (bench/shaders/bench_data.h; dist: BENCH_FILL_RANDOM, or BENCH_FILL_DEPTH for
 * 32-bit keys). Every run's result (warm-ups too) is checked on the device as vksort's are
 * (order in the bit range, each payload's key, stability, the input's multiset); a failure is
 * an error. */
int cub_bench_time(int kind, size_t n, int begin_bit, int end_bit, int runs, int dist,
                   double *median_ms);

/* The same for one frame's `sorts` sorts of n elements each (own ranges, one temporary storage,
 * one stream) between two events: median device time per sort. Every sort of every run is
 * checked. cub_bench_time is this with sorts = 1. */
int cub_bench_time_frame(int kind, size_t n, int begin_bit, int end_bit, int runs, int sorts,
                         int dist, double *median_ms);

/* One frame: Vulkan keygen (a copy of fresh f32 keys and indices into exportable buffers,
 * standing in for a compute pass) -> signal W -> vksort_cuda_sort_vk (waits W, f32 pairs
 * through the vksort encodings and CUB, signals S) -> Vulkan consumer (waits S, reads the sorted
 * keys and indices with a copy). The host waits only at the end of each frame, to time it. */
typedef struct cub_bench_interop_result {
    char device[256];         /* Vulkan / CUDA device */
    size_t n;
    int frames;               /* frames measured (after warm-up) */
    /* Medians over the frames, milliseconds. */
    double frame_host_ms;     /* host: first submit -> consumer done (vkWaitSemaphores) */
    double frame_host_vk_ms;  /* the same frame without the CUDA step (consumer waits on W) */
    double gap_ms;            /* GPU: keygen end -> consumer start (Vulkan timestamps) */
    double gap_vk_ms;         /* the same gap without the CUDA step (submit-to-submit latency) */
    double sort_ms;           /* vksort CUDA sort inside sort_vk (events: encode, CUB, decode) */
    double cub_alone_ms;      /* CUB SortPairs<u32,u32> alone on device pointers, same n */
    /* Per frame, microseconds:
     *   overhead_us     = (gap - gap_vk) - cub_alone: everything the Vulkan->CUDA->Vulkan
     *                     round trip costs beyond CUB itself (semaphore hand-offs both ways,
     *                     encode/decode kernels);
     *   handoff_us      = (gap - gap_vk) - sort: the semaphore hand-offs alone. */
    double overhead_us;
    double handoff_us;
} cub_bench_interop_result;

/* Runs `frames` frames (at least 20) of n keys after 3 warm-up frames. Needs a Vulkan device
 * whose UUID is a CUDA device's, with VK_KHR_external_memory_fd and
 * VK_KHR_external_semaphore_fd (module built with Vulkan: else -1). */
int cub_bench_interop(size_t n, int frames, cub_bench_interop_result *out);

#ifdef __cplusplus
}
#endif

#endif
