/* What the CUDA benchmark programs share (bench/cub_bench.cu, bench/interop_probe.cu): the
 * error message buffer and its printf-style setter, a CUDA-call check, the CUDA device that
 * matches a Vulkan device UUID, the interop measurements' CUDA sorter and importing an exported
 * Vulkan buffer into it (these only with the Vulkan interop kit included first). Each includer gets its own copy (anonymous
 * namespace): include once per translation unit. */
#ifndef VKSORT_BENCH_CUDA_COMMON_CUH
#define VKSORT_BENCH_CUDA_COMMON_CUH

#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace {

char bench_error[768];

__attribute__((format(printf, 1, 2))) int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(bench_error, sizeof bench_error, fmt, ap);
    va_end(ap);
    return -1;
}

/* In a function returning int: a failed CUDA call returns fail(...) with its name and line. */
#define BENCH_CUDA_CHECK(call)                                                             \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess)                                                             \
            return fail("%s failed: %s (%s, %s:%d)", #call, cudaGetErrorString(e_),        \
                        cudaGetErrorName(e_), __FILE__, __LINE__);                         \
    } while (0)

#ifdef VKSORT_CUDA_VK_INTEROP_KIT_H
/* vkik_options::accept_uuid: is there a CUDA device with this UUID? */
int accept_cuda_uuid(void *, const uint8_t uuid[16])
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        return 0;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) == cudaSuccess &&
            memcmp(prop.uuid.bytes, uuid, 16) == 0)
            return 1;
    }
    return 0;
}

/* A CUDA sorter of the interop measurements: f32 keys with a payload, on the CUDA device of the
 * Vulkan device; `stream` NULL for the sorter's own; CUDA-event timing when `timing`. */
int create_interop_sorter(const vkik *vk, uint32_t max_count, void *stream, int timing,
                          vksort_cuda_sorter **out)
{
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    ci.key_type = VKSORT_KEY_F32;
    ci.has_payload = 1;
    ci.max_count = max_count;
    ci.use_device_uuid = 1;
    memcpy(ci.device_uuid, vk->device_uuid, 16);
    ci.stream = stream;
    ci.enable_timing = timing;
    ci.diagnostics = &d;
    if (vksort_cuda_sorter_create(&ci, out) != VKSORT_SUCCESS)
        return fail("sorter: %s", d.message);
    return 0;
}

/* Exports `b` (a dedicated, exportable allocation) and imports it into `sorter`. */
int import_vk_buffer(vkik *vk, vksort_cuda_sorter *sorter, const vkik_buffer &b,
                     vksort_cuda_vk_buffer **out)
{
    int fd = -1;
    if (vkik_buffer_export_fd(vk, &b, &fd) != 0)
        return fail("vulkan: %s", vk->error);
    vksort_cuda_vk_buffer_import_info ii;
    memset(&ii, 0, sizeof ii);
    ii.fd = fd;
    ii.allocation_size = b.allocation_size;
    ii.dedicated = 1;
    ii.size = b.size;
    if (vksort_cuda_import_vk_buffer(sorter, &ii, out) != VKSORT_SUCCESS) {
        close(fd);
        return fail("import buffer: %s", vksort_cuda_sorter_last_message(sorter));
    }
    return 0;
}
#endif

} // namespace

#endif
