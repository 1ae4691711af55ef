/*
 * vksort CUDA backend: the C ABI of include/vksort/cuda.h over CUB (cub_sort.h), the encode /
 * decode kernels that give CUB's unsigned radix sort the vksort semantics, and the Vulkan
 * interop (external memory, timeline semaphores).
 *
 * A sort, all enqueued on the sorter's stream:
 *   encode   keys (+ payload) of the caller -> scratch A as order keys (inverted for descending);
 *            with an indirect count, slots [count, max_count) of A get the all-ones sentinel
 *   CUB      DeviceRadixSort on (A, B) double buffers, bits [begin, end), ascending, stable
 *   decode   the current buffer -> the caller's keys (+ payload), the first count slots only
 * Host counts with an identity encoding (u32/u64 ascending) skip the encode: CUB sorts the
 * caller's buffer with scratch B as the alternate, and the decode is a copy back only when the
 * result ended in B.
 */
#include "vksort/cuda.h"

#include "codec.cuh"
#include "cub_sort.h"

#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <cerrno>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include <unistd.h> /* dup, close: imported fds */

#if defined(__GNUC__)
#define VKSORT_API extern "C" __attribute__((visibility("default")))
#define VKSORT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VKSORT_API extern "C"
#define VKSORT_PRINTF(a, b)
#endif

namespace {

constexpr uint32_t max_supported_count = INT_MAX; /* CUB's item count is an int here */
constexpr size_t scratch_alignment = 256;
constexpr int block_size = 256;

/* ---- host memory ---------------------------------------------------------------------------- */

struct host_allocator {
    vksort_allocation_callbacks cb;
    bool custom;

    void *allocate(size_t size) const
    {
        return custom ? cb.allocate(cb.user_data, size, alignof(std::max_align_t)) : malloc(size);
    }
    void release(void *p) const
    {
        if (!p)
            return;
        if (custom)
            cb.free(cb.user_data, p);
        else
            free(p);
    }
};

host_allocator make_allocator(const vksort_allocation_callbacks *cb)
{
    host_allocator a{};
    if (cb && cb->allocate && cb->free) {
        a.cb = *cb;
        a.custom = true;
    }
    return a;
}

/* Makes `device` current for the scope and restores the caller's current device after. */
class device_scope {
public:
    explicit device_scope(int device)
    {
        if (cudaGetDevice(&previous_) != cudaSuccess)
            previous_ = -1;
        if (previous_ != device)
            err_ = cudaSetDevice(device);
    }
    ~device_scope()
    {
        int now = -1;
        if (previous_ >= 0 && cudaGetDevice(&now) == cudaSuccess && now != previous_)
            cudaSetDevice(previous_);
    }
    device_scope(const device_scope &) = delete;
    device_scope &operator=(const device_scope &) = delete;
    cudaError_t error() const { return err_; }

private:
    int previous_ = -1;
    cudaError_t err_ = cudaSuccess;
};

/* NVTX ranges in the sorter's own domain ("vksort"); free when no tool is attached. */
class nvtx_range {
public:
    nvtx_range(nvtxDomainHandle_t domain, const char *name, uint32_t argb) : domain_(domain)
    {
        nvtxEventAttributes_t a;
        memset(&a, 0, sizeof a);
        a.version = NVTX_VERSION;
        a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
        a.colorType = NVTX_COLOR_ARGB;
        a.color = argb;
        a.messageType = NVTX_MESSAGE_TYPE_ASCII;
        a.message.ascii = name;
        nvtxDomainRangePushEx(domain_, &a);
    }
    ~nvtx_range() { nvtxDomainRangePop(domain_); }
    nvtx_range(const nvtx_range &) = delete;
    nvtx_range &operator=(const nvtx_range &) = delete;

private:
    nvtxDomainHandle_t domain_;
};

constexpr uint32_t nvtx_sort = 0xff3b82f6u, nvtx_stage = 0xff10b981u, nvtx_sync = 0xfff59e0bu;

/* out[i] = encode(in[i]) ^ invert for i < count; the sentinel (all ones: after every real key,
 * and after real all-ones keys too since it comes later in input order and CUB is stable) for
 * count <= i < total. The payload is copied alongside (0 in sentinel slots). */
template <typename K>
__global__ void __launch_bounds__(block_size)
    encode_kernel(const K *__restrict__ keys_in, const uint32_t *__restrict__ values_in,
                  K *__restrict__ keys_out, uint32_t *__restrict__ values_out,
                  uint32_t host_count, const uint32_t *__restrict__ count_device,
                  uint32_t max_count, uint32_t total, int type, K invert)
{
    const uint32_t n = vksort_cuda::live_count(host_count, count_device, max_count);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const bool live = i < n;
        keys_out[i] = vksort_cuda::order_key_for_slot<K>(type, live ? keys_in[i] : K(0), invert,
                                                         live);
        if (values_out)
            values_out[i] = live ? values_in[i] : 0u;
    }
}

/* keys_out[i] = decode(keys_in[i] ^ invert) for i < count (in place when the pointers match). */
template <typename K>
__global__ void __launch_bounds__(block_size)
    decode_kernel(const K *keys_in, const uint32_t *values_in, K *keys_out,
                  uint32_t *values_out, uint32_t host_count,
                  const uint32_t *__restrict__ count_device, uint32_t max_count, int type,
                  K invert)
{
    const uint32_t n = vksort_cuda::live_count(host_count, count_device, max_count);
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        keys_out[i] = vksort_cuda::key_from_order_key<K>(type, keys_in[i], invert);
        if (values_out && values_out != values_in)
            values_out[i] = values_in[i];
    }
}

size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

/* Local so that this shared library needs nothing from the core library. */
uint32_t key_bytes(vksort_key_type type)
{
    return type == VKSORT_KEY_U64 || type == VKSORT_KEY_I64 || type == VKSORT_KEY_F64 ? 8u : 4u;
}

bool aligned(const void *p, size_t a) { return ((uintptr_t)p % a) == 0; }

} // namespace

/* ---- objects -------------------------------------------------------------------------------- */

struct vksort_cuda_sorter {
    host_allocator alloc;
    int device;
    int sm_count;
    uint8_t uuid[16];
    char device_name[256];
    cudaStream_t stream;
    bool own_stream;
    vksort_key_type key_type;
    uint32_t key_size;
    bool has_payload;
    uint32_t max_count;

    void *scratch;           /* one allocation: keys A, keys B, values A, values B, CUB temp */
    size_t scratch_bytes;
    void *keys_a, *keys_b;
    uint32_t *values_a, *values_b;
    void *temp;
    size_t temp_bytes;

    bool timing;
    bool timed_once;
    cudaEvent_t ev_start, ev_end;

    nvtxDomainHandle_t nvtx;

    int last_cuda_error;
    char message[256];
};

struct vksort_cuda_vk_buffer {
    host_allocator alloc;
    int device;
    cudaExternalMemory_t memory;
    void *pointer;
    uint64_t size;
};

struct vksort_cuda_vk_semaphore {
    host_allocator alloc;
    int device;
    cudaExternalSemaphore_t semaphore;
};

namespace {

VKSORT_PRINTF(3, 4)
vksort_result fail(vksort_cuda_sorter *s, vksort_result r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
    s->last_cuda_error = 0;
    return r;
}

vksort_result fail_cuda(vksort_cuda_sorter *s, cudaError_t err, const char *what)
{
    /* The runtime keeps the error as the thread's last one: cleared here, or the next sort on
     * any sorter of this thread (CUB reads the last error) would fail with it. Sticky errors
     * (a broken context) stay, as they must. */
    (void)cudaGetLastError();
    snprintf(s->message, sizeof s->message, "%s failed: %s (%s)", what, cudaGetErrorString(err),
             cudaGetErrorName(err));
    s->last_cuda_error = (int)err;
    return VKSORT_ERROR_CUDA;
}

void succeed(vksort_cuda_sorter *s)
{
    s->message[0] = '\0';
    s->last_cuda_error = 0;
}

VKSORT_PRINTF(4, 5)
vksort_result diag(vksort_cuda_diagnostics *d, vksort_result r, cudaError_t err, const char *fmt,
                   ...)
{
    if (d) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->message, sizeof d->message, fmt, ap);
        va_end(ap);
        d->cuda_error = (int)err;
    }
    return r;
}

unsigned grid_for(const vksort_cuda_sorter *s, size_t n)
{
    size_t blocks = (n + block_size - 1) / block_size;
    size_t cap = (size_t)s->sm_count * 16u; /* grid-stride loops past that */
    if (blocks > cap)
        blocks = cap;
    return (unsigned)(blocks ? blocks : 1);
}

cudaError_t cub_sort(const vksort_cuda_sorter *s, void *temp, size_t &temp_bytes, void *k0,
                     void *k1, uint32_t *v0, uint32_t *v1, uint32_t n, uint32_t begin,
                     uint32_t end, int *selector)
{
    const bool pairs = s->has_payload;
    if (s->key_size == 4)
        return vksort_cuda::cub_sort_u32(temp, temp_bytes, (uint32_t *)k0, (uint32_t *)k1, pairs,
                                         v0, v1, (int)n, (int)begin, (int)end, s->stream,
                                         selector);
    return vksort_cuda::cub_sort_u64(temp, temp_bytes, (uint64_t *)k0, (uint64_t *)k1, pairs, v0,
                                     v1, (int)n, (int)begin, (int)end, s->stream, selector);
}

/* Everything between the semaphore wait and signal: encode, CUB, decode. Arguments checked. */
template <typename K>
vksort_result enqueue_sort_typed(vksort_cuda_sorter *s, K *keys, uint32_t *values,
                                 uint32_t count, const uint32_t *count_device, bool descending,
                                 uint32_t begin, uint32_t end)
{
    const bool indirect = count_device != nullptr;
    const uint32_t total = indirect ? s->max_count : count;
    if (!indirect && count < 2)
        return VKSORT_SUCCESS; /* nothing can move */
    const K invert = descending ? ~K(0) : K(0);
    const int type = (int)s->key_type;
    const bool identity = !indirect && !descending &&
                          (s->key_type == VKSORT_KEY_U32 || s->key_type == VKSORT_KEY_U64);
    uint32_t *vals = s->has_payload ? values : nullptr;

    /* The buffers CUB runs on: (A, B) in scratch, or (caller, B) for the identity encoding. */
    K *k0 = identity ? keys : (K *)s->keys_a;
    uint32_t *v0 = vals ? (identity ? vals : s->values_a) : nullptr;
    uint32_t *v1 = vals ? s->values_b : nullptr;
    cudaError_t err;

    if (!identity) {
        nvtx_range r(s->nvtx, "vksort encode", nvtx_stage);
        encode_kernel<K><<<grid_for(s, total), block_size, 0, s->stream>>>(
            keys, vals, k0, v0, count, count_device, s->max_count, total, type, invert);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return fail_cuda(s, err, "encode kernel launch");
    }

    size_t need = 0;
    if ((err = cub_sort(s, nullptr, need, k0, s->keys_b, v0, v1, total, begin, end, nullptr)) !=
        cudaSuccess)
        return fail_cuda(s, err, "cub::DeviceRadixSort temporary storage query");
    if (need > s->temp_bytes)
        return fail(s, VKSORT_ERROR_CUDA,
                    "CUB asks for %zu bytes of temporary storage, the sorter holds %zu", need,
                    s->temp_bytes);
    int selector = 0;
    {
        nvtx_range r(s->nvtx, vals ? "vksort cub::DeviceRadixSort::SortPairs"
                                   : "vksort cub::DeviceRadixSort::SortKeys",
                     nvtx_stage);
        size_t bytes = s->temp_bytes;
        if ((err = cub_sort(s, s->temp, bytes, k0, s->keys_b, v0, v1, total, begin, end,
                            &selector)) != cudaSuccess)
            return fail_cuda(s, err, "cub::DeviceRadixSort");
    }
    K *sorted_keys = selector ? (K *)s->keys_b : k0;
    uint32_t *sorted_values = selector ? v1 : v0;
    if (identity && sorted_keys == keys)
        return VKSORT_SUCCESS; /* already in the caller's buffers */
    {
        nvtx_range r(s->nvtx, "vksort decode", nvtx_stage);
        decode_kernel<K><<<grid_for(s, total), block_size, 0, s->stream>>>(
            sorted_keys, sorted_values, keys, vals, count, count_device, s->max_count, type,
            invert);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return fail_cuda(s, err, "decode kernel launch");
    }
    return VKSORT_SUCCESS;
}

vksort_result enqueue_sort(vksort_cuda_sorter *s, void *keys, uint32_t *values, uint32_t count,
                           const uint32_t *count_device, bool descending, uint32_t begin,
                           uint32_t end)
{
    if (s->key_size == 4)
        return enqueue_sort_typed<uint32_t>(s, (uint32_t *)keys, values, count, count_device,
                                            descending, begin, end);
    return enqueue_sort_typed<uint64_t>(s, (uint64_t *)keys, values, count, count_device,
                                        descending, begin, end);
}

/* The checks shared by both sort entry points. */
vksort_result check_common(vksort_cuda_sorter *s, vksort_flags flags, uint32_t bit_begin,
                           uint32_t bit_end, bool indirect, uint32_t count, uint32_t *out_begin,
                           uint32_t *out_end)
{
    if (flags & ~(vksort_flags)VKSORT_FLAGS_ALL)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "unknown flags 0x%x",
                    (unsigned)(flags & ~(vksort_flags)VKSORT_FLAGS_ALL));
    const uint32_t width = s->key_size * 8u;
    if (bit_end == 0)
        bit_end = width;
    if (bit_begin >= bit_end || bit_end > width)
        return fail(s, VKSORT_ERROR_BIT_RANGE,
                    "bit range [%u, %u) is empty, reversed or past the %u-bit key", bit_begin,
                    bit_end, width);
    if (!indirect && count > s->max_count)
        return fail(s, VKSORT_ERROR_COUNT_TOO_LARGE, "count %u is above the sorter's max_count %u",
                    count, s->max_count);
    *out_begin = bit_begin;
    *out_end = bit_end;
    return VKSORT_SUCCESS;
}

/* Timing events and the enqueue itself, shared by both entry points. */
vksort_result timed_enqueue(vksort_cuda_sorter *s, void *keys, uint32_t *values, uint32_t count,
                            const uint32_t *count_device, bool descending, uint32_t begin,
                            uint32_t end)
{
    cudaError_t err;
    /* A failed sort must not pair this start with an earlier sort's end
     * (vksort_cuda_sorter_last_sort_ms would report a negative time). */
    s->timed_once = false;
    if (s->timing && (err = cudaEventRecord(s->ev_start, s->stream)) != cudaSuccess)
        return fail_cuda(s, err, "cudaEventRecord");
    vksort_result r = enqueue_sort(s, keys, values, count, count_device, descending, begin, end);
    if (r != VKSORT_SUCCESS)
        return r;
    if (s->timing) {
        if ((err = cudaEventRecord(s->ev_end, s->stream)) != cudaSuccess)
            return fail_cuda(s, err, "cudaEventRecord");
        s->timed_once = true;
    }
    return VKSORT_SUCCESS;
}

void destroy_sorter_resources(vksort_cuda_sorter *s)
{
    if (s->stream)
        cudaStreamSynchronize(s->stream);
    if (s->scratch)
        cudaFree(s->scratch);
    if (s->ev_start)
        cudaEventDestroy(s->ev_start);
    if (s->ev_end)
        cudaEventDestroy(s->ev_end);
    if (s->own_stream && s->stream)
        cudaStreamDestroy(s->stream);
    if (s->nvtx)
        nvtxDomainDestroy(s->nvtx);
}

} // namespace

/* ---- availability --------------------------------------------------------------------------- */

VKSORT_API vksort_result vksort_cuda_get_device_count(int *out_count,
                                                      vksort_cuda_diagnostics *diagnostics)
{
    if (!out_count)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    *out_count = 0;
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* clear the sticky-free error state */
        return diag(diagnostics, VKSORT_ERROR_BACKEND_UNAVAILABLE, err,
                    "no CUDA device (cudaGetDeviceCount: %s)", cudaGetErrorString(err));
    }
    if (n <= 0)
        return diag(diagnostics, VKSORT_ERROR_BACKEND_UNAVAILABLE, cudaSuccess,
                    "no CUDA device (cudaGetDeviceCount found none)");
    *out_count = n;
    if (diagnostics) {
        diagnostics->cuda_error = 0;
        diagnostics->message[0] = '\0';
    }
    return VKSORT_SUCCESS;
}

/* ---- sorter --------------------------------------------------------------------------------- */

VKSORT_API vksort_result vksort_cuda_sorter_create(const vksort_cuda_sorter_create_info *info,
                                                   vksort_cuda_sorter **out_sorter)
{
    if (out_sorter)
        *out_sorter = nullptr;
    if (!info || !out_sorter)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    vksort_cuda_diagnostics *d = info->diagnostics;
    if ((unsigned)info->key_type >= VKSORT_KEY_TYPE_COUNT)
        return diag(d, VKSORT_ERROR_INVALID_ARGUMENT, cudaSuccess, "unknown key type %d",
                    (int)info->key_type);
    if (info->max_count == 0 || info->max_count > max_supported_count)
        return diag(d, VKSORT_ERROR_INVALID_ARGUMENT, cudaSuccess,
                    "max_count %u is outside 1 .. 2^31 - 1", info->max_count);
    if (info->allocator && (!info->allocator->allocate || !info->allocator->free))
        return diag(d, VKSORT_ERROR_INVALID_ARGUMENT, cudaSuccess,
                    "allocation callbacks need both allocate and free");

    int device_count = 0;
    vksort_result r = vksort_cuda_get_device_count(&device_count, d);
    if (r != VKSORT_SUCCESS)
        return r;

    int device = -1;
    cudaDeviceProp prop;
    cudaError_t err;
    if (info->use_device_uuid) {
        for (int i = 0; i < device_count && device < 0; ++i) {
            if ((err = cudaGetDeviceProperties(&prop, i)) != cudaSuccess)
                return diag(d, VKSORT_ERROR_CUDA, err, "cudaGetDeviceProperties(%d): %s", i,
                            cudaGetErrorString(err));
            if (memcmp(prop.uuid.bytes, info->device_uuid, 16) == 0)
                device = i;
        }
        if (device < 0)
            return diag(d, VKSORT_ERROR_BACKEND_UNAVAILABLE, cudaSuccess,
                        "no CUDA device has the given UUID (%d devices checked): the Vulkan "
                        "device is not a CUDA device of this process",
                        device_count);
    } else {
        if (info->device_index < 0 || info->device_index >= device_count)
            return diag(d, VKSORT_ERROR_INVALID_ARGUMENT, cudaSuccess,
                        "device_index %d is not a CUDA device (this process sees %d)",
                        info->device_index, device_count);
        device = info->device_index;
        if ((err = cudaGetDeviceProperties(&prop, device)) != cudaSuccess)
            return diag(d, VKSORT_ERROR_CUDA, err, "cudaGetDeviceProperties(%d): %s", device,
                        cudaGetErrorString(err));
    }

    host_allocator alloc = make_allocator(info->allocator);
    void *mem = alloc.allocate(sizeof(vksort_cuda_sorter));
    if (!mem)
        return diag(d, VKSORT_ERROR_OUT_OF_HOST_MEMORY, cudaSuccess,
                    "out of host memory for the sorter");
    vksort_cuda_sorter *s = new (mem) vksort_cuda_sorter;
    memset(s, 0, sizeof *s);
    s->alloc = alloc;
    s->device = device;
    s->sm_count = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
    memcpy(s->uuid, prop.uuid.bytes, 16);
    snprintf(s->device_name, sizeof s->device_name, "%s", prop.name);
    s->key_type = info->key_type;
    s->key_size = key_bytes(info->key_type);
    s->has_payload = info->has_payload != 0;
    s->max_count = info->max_count;
    s->timing = info->enable_timing != 0;
    s->nvtx = nvtxDomainCreateA("vksort");

    auto bail = [&](vksort_result res, cudaError_t e, const char *what) {
        (void)cudaGetLastError(); /* not the next call's error (see fail_cuda) */
        diag(d, res, e, "%s failed: %s", what, cudaGetErrorString(e));
        destroy_sorter_resources(s);
        s->~vksort_cuda_sorter();
        alloc.release(s);
        return res;
    };

    device_scope scope(device);
    if (scope.error() != cudaSuccess)
        return bail(VKSORT_ERROR_CUDA, scope.error(), "cudaSetDevice");
    if (info->stream) {
        s->stream = (cudaStream_t)info->stream;
    } else {
        if ((err = cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking)) != cudaSuccess)
            return bail(VKSORT_ERROR_CUDA, err, "cudaStreamCreateWithFlags");
        s->own_stream = true;
    }
    if (s->timing) {
        if ((err = cudaEventCreate(&s->ev_start)) != cudaSuccess ||
            (err = cudaEventCreate(&s->ev_end)) != cudaSuccess)
            return bail(VKSORT_ERROR_CUDA, err, "cudaEventCreate");
    }

    /* CUB's temporary storage for the largest sort on every bit (the most passes). */
    const size_t kbytes = align_up((size_t)s->max_count * s->key_size, scratch_alignment);
    const size_t vbytes =
        s->has_payload ? align_up((size_t)s->max_count * 4u, scratch_alignment) : 0;
    size_t temp_bytes = 0;
    if ((err = cub_sort(s, nullptr, temp_bytes, nullptr, nullptr, nullptr, nullptr, s->max_count,
                        0, s->key_size * 8u, nullptr)) != cudaSuccess)
        return bail(VKSORT_ERROR_CUDA, err, "cub::DeviceRadixSort temporary storage query");
    s->temp_bytes = align_up(temp_bytes ? temp_bytes : 1, scratch_alignment);
    s->scratch_bytes = 2 * kbytes + 2 * vbytes + s->temp_bytes;
    if ((err = cudaMalloc(&s->scratch, s->scratch_bytes)) != cudaSuccess) {
        s->scratch = nullptr;
        (void)cudaGetLastError();
        return bail(VKSORT_ERROR_CUDA, err, "cudaMalloc of the scratch memory");
    }
    char *p = (char *)s->scratch;
    s->keys_a = p;
    s->keys_b = p + kbytes;
    if (s->has_payload) {
        s->values_a = (uint32_t *)(p + 2 * kbytes);
        s->values_b = (uint32_t *)(p + 2 * kbytes + vbytes);
    }
    s->temp = p + 2 * kbytes + 2 * vbytes;

    if (d) {
        d->cuda_error = 0;
        d->message[0] = '\0';
    }
    succeed(s);
    *out_sorter = s;
    return VKSORT_SUCCESS;
}

VKSORT_API void vksort_cuda_sorter_destroy(vksort_cuda_sorter *sorter)
{
    if (!sorter)
        return;
    host_allocator alloc = sorter->alloc;
    {
        device_scope scope(sorter->device);
        destroy_sorter_resources(sorter);
    }
    sorter->~vksort_cuda_sorter();
    alloc.release(sorter);
}

VKSORT_API void vksort_cuda_get_sorter_properties(const vksort_cuda_sorter *s,
                                                  vksort_cuda_sorter_properties *out)
{
    if (!s || !out)
        return;
    memset(out, 0, sizeof *out);
    out->key_type = s->key_type;
    out->has_payload = s->has_payload ? 1u : 0u;
    out->max_count = s->max_count;
    out->device_index = s->device;
    memcpy(out->device_uuid, s->uuid, 16);
    snprintf(out->device_name, sizeof out->device_name, "%s", s->device_name);
    out->stream = (void *)s->stream;
    out->scratch_bytes = s->scratch_bytes;
    out->cub_temp_bytes = s->temp_bytes;
}

VKSORT_API const char *vksort_cuda_sorter_last_message(const vksort_cuda_sorter *s)
{
    return s ? s->message : "no sorter";
}

VKSORT_API int vksort_cuda_sorter_last_cuda_error(const vksort_cuda_sorter *s)
{
    return s ? s->last_cuda_error : 0;
}

VKSORT_API vksort_result vksort_cuda_sorter_synchronize(vksort_cuda_sorter *s)
{
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    nvtx_range range(s->nvtx, "vksort host wait (synchronize)", nvtx_sync);
    device_scope scope(s->device);
    cudaError_t err = cudaStreamSynchronize(s->stream);
    if (err != cudaSuccess)
        return fail_cuda(s, err, "cudaStreamSynchronize");
    succeed(s);
    return VKSORT_SUCCESS;
}

VKSORT_API vksort_result vksort_cuda_sorter_last_sort_ms(vksort_cuda_sorter *s, double *out_ms)
{
    if (!s || !out_ms)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!s->timing)
        return fail(s, VKSORT_ERROR_UNSUPPORTED, "the sorter was created without enable_timing");
    if (!s->timed_once)
        return fail(s, VKSORT_ERROR_UNSUPPORTED, "no sort has been timed yet");
    device_scope scope(s->device);
    cudaError_t err = cudaEventSynchronize(s->ev_end);
    if (err != cudaSuccess)
        return fail_cuda(s, err, "cudaEventSynchronize");
    float ms = 0.0f;
    if ((err = cudaEventElapsedTime(&ms, s->ev_start, s->ev_end)) != cudaSuccess)
        return fail_cuda(s, err, "cudaEventElapsedTime");
    *out_ms = ms;
    succeed(s);
    return VKSORT_SUCCESS;
}

/* ---- device-pointer sort -------------------------------------------------------------------- */

VKSORT_API vksort_result vksort_cuda_sort_device(vksort_cuda_sorter *s,
                                                 const vksort_cuda_sort_info *info)
{
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "sort info is NULL");
    if (!info->keys)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "keys is NULL");
    if (s->has_payload && !info->values)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT,
                    "the sorter has a payload but values is NULL");
    if (!aligned(info->keys, s->key_size))
        return fail(s, VKSORT_ERROR_MISALIGNED, "keys pointer %p is not %u-byte aligned",
                    info->keys, s->key_size);
    if (s->has_payload && !aligned(info->values, 4))
        return fail(s, VKSORT_ERROR_MISALIGNED, "values pointer is not 4-byte aligned");
    if (info->count_device && !aligned(info->count_device, 4))
        return fail(s, VKSORT_ERROR_MISALIGNED, "count_device pointer is not 4-byte aligned");
    uint32_t begin = 0, end = 0;
    vksort_result r = check_common(s, info->flags, info->bit_begin, info->bit_end,
                                   info->count_device != nullptr, info->count, &begin, &end);
    if (r != VKSORT_SUCCESS)
        return r;

    nvtx_range range(s->nvtx, "vksort_cuda_sort_device", nvtx_sort);
    device_scope scope(s->device);
    if (scope.error() != cudaSuccess)
        return fail_cuda(s, scope.error(), "cudaSetDevice");
    r = timed_enqueue(s, info->keys, info->values, info->count, info->count_device,
                      (info->flags & VKSORT_FLAG_DESCENDING) != 0, begin, end);
    if (r == VKSORT_SUCCESS)
        succeed(s);
    return r;
}

/* ---- Vulkan interop ------------------------------------------------------------------------- */

VKSORT_API const char *const *vksort_cuda_vk_required_device_extensions(uint32_t *out_count)
{
    static const char *const extensions[] = {"VK_KHR_external_memory_fd",
                                             "VK_KHR_external_semaphore_fd"};
    if (out_count)
        *out_count = (uint32_t)(sizeof extensions / sizeof extensions[0]);
    return extensions;
}

VKSORT_API vksort_result vksort_cuda_import_vk_buffer(vksort_cuda_sorter *s,
                                                      const vksort_cuda_vk_buffer_import_info *info,
                                                      vksort_cuda_vk_buffer **out_buffer)
{
    if (out_buffer)
        *out_buffer = nullptr;
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info || !out_buffer)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "import info or out_buffer is NULL");
    if (info->fd < 0)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "fd %d is not a file descriptor", info->fd);
    if (info->allocation_size == 0 || info->size == 0)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "allocation_size and size must be > 0");
    if (info->offset > info->allocation_size || info->size > info->allocation_size - info->offset)
        return fail(s, VKSORT_ERROR_BUFFER_TOO_SMALL,
                    "range [%llu, +%llu) is outside the %llu-byte allocation",
                    (unsigned long long)info->offset, (unsigned long long)info->size,
                    (unsigned long long)info->allocation_size);

    nvtx_range range(s->nvtx, "vksort import Vulkan buffer", nvtx_sync);
    void *mem = s->alloc.allocate(sizeof(vksort_cuda_vk_buffer));
    if (!mem)
        return fail(s, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    vksort_cuda_vk_buffer *b = new (mem) vksort_cuda_vk_buffer;
    memset(b, 0, sizeof *b);
    b->alloc = s->alloc;
    b->device = s->device;
    b->size = info->size;

    device_scope scope(s->device);
    /* CUDA takes the fd it imports and closes it when the memory is destroyed, also when the
     * mapping below fails: it imports a duplicate, so that the caller's fd is still the
     * caller's on any failure (cuda.h), and is closed only once everything succeeded. */
    const int fd = dup(info->fd);
    if (fd < 0) {
        b->~vksort_cuda_vk_buffer();
        s->alloc.release(b);
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "fd %d cannot be duplicated: %s", info->fd,
                    strerror(errno));
    }
    cudaExternalMemoryHandleDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
    desc.handle.fd = fd;
    desc.size = info->allocation_size;
    desc.flags = info->dedicated ? cudaExternalMemoryDedicated : 0u;
    cudaError_t err = cudaImportExternalMemory(&b->memory, &desc);
    if (err != cudaSuccess) {
        close(fd); /* not imported: still ours */
        b->~vksort_cuda_vk_buffer();
        s->alloc.release(b);
        return fail_cuda(s, err, "cudaImportExternalMemory");
    }
    cudaExternalMemoryBufferDesc bdesc;
    memset(&bdesc, 0, sizeof bdesc);
    bdesc.offset = info->offset;
    bdesc.size = info->size;
    err = cudaExternalMemoryGetMappedBuffer(&b->pointer, b->memory, &bdesc);
    if (err != cudaSuccess) {
        cudaDestroyExternalMemory(b->memory); /* closes the duplicate */
        b->~vksort_cuda_vk_buffer();
        s->alloc.release(b);
        fail_cuda(s, err, "cudaExternalMemoryGetMappedBuffer");
        return VKSORT_ERROR_CUDA;
    }
    close(info->fd); /* success: the caller's fd is consumed, as for a direct import */
    *out_buffer = b;
    succeed(s);
    return VKSORT_SUCCESS;
}

VKSORT_API void *vksort_cuda_vk_buffer_device_pointer(const vksort_cuda_vk_buffer *b)
{
    return b ? b->pointer : nullptr;
}

VKSORT_API uint64_t vksort_cuda_vk_buffer_size(const vksort_cuda_vk_buffer *b)
{
    return b ? b->size : 0;
}

VKSORT_API void vksort_cuda_vk_buffer_destroy(vksort_cuda_vk_buffer *b)
{
    if (!b)
        return;
    {
        device_scope scope(b->device);
        if (b->pointer)
            cudaFree(b->pointer);
        if (b->memory)
            cudaDestroyExternalMemory(b->memory);
    }
    host_allocator alloc = b->alloc;
    b->~vksort_cuda_vk_buffer();
    alloc.release(b);
}

VKSORT_API vksort_result vksort_cuda_import_vk_semaphore(vksort_cuda_sorter *s, int fd,
                                                         vksort_cuda_vk_semaphore **out)
{
    if (out)
        *out = nullptr;
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!out)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "out_semaphore is NULL");
    if (fd < 0)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "fd %d is not a file descriptor", fd);
    void *mem = s->alloc.allocate(sizeof(vksort_cuda_vk_semaphore));
    if (!mem)
        return fail(s, VKSORT_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    vksort_cuda_vk_semaphore *sem = new (mem) vksort_cuda_vk_semaphore;
    memset(sem, 0, sizeof *sem);
    sem->alloc = s->alloc;
    sem->device = s->device;

    device_scope scope(s->device);
    cudaExternalSemaphoreHandleDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    desc.handle.fd = fd;
    cudaError_t err = cudaImportExternalSemaphore(&sem->semaphore, &desc);
    if (err != cudaSuccess) {
        sem->~vksort_cuda_vk_semaphore();
        s->alloc.release(sem);
        return fail_cuda(s, err, "cudaImportExternalSemaphore");
    }
    *out = sem;
    succeed(s);
    return VKSORT_SUCCESS;
}

VKSORT_API void vksort_cuda_vk_semaphore_destroy(vksort_cuda_vk_semaphore *sem)
{
    if (!sem)
        return;
    {
        device_scope scope(sem->device);
        if (sem->semaphore)
            cudaDestroyExternalSemaphore(sem->semaphore);
    }
    host_allocator alloc = sem->alloc;
    sem->~vksort_cuda_vk_semaphore();
    alloc.release(sem);
}

namespace {

/* Checks that [offset, offset + bytes) lies in the mapped range and is `align`-aligned. */
vksort_result check_range(vksort_cuda_sorter *s, const char *what,
                          const vksort_cuda_vk_buffer *b, uint64_t offset, uint64_t bytes,
                          uint32_t align)
{
    if (b->device != s->device)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT,
                    "%s buffer was imported on CUDA device %d, the sorter runs on %d", what,
                    b->device, s->device);
    if (offset % align != 0)
        return fail(s, VKSORT_ERROR_MISALIGNED, "%s offset %llu is not a multiple of %u", what,
                    (unsigned long long)offset, align);
    if (offset > b->size || bytes > b->size - offset)
        return fail(s, VKSORT_ERROR_BUFFER_TOO_SMALL,
                    "%s range [%llu, +%llu) is outside the %llu-byte imported range", what,
                    (unsigned long long)offset, (unsigned long long)bytes,
                    (unsigned long long)b->size);
    return VKSORT_SUCCESS;
}

} // namespace

VKSORT_API vksort_result vksort_cuda_sort_vk(vksort_cuda_sorter *s,
                                             const vksort_cuda_vk_sort_info *info)
{
    if (!s)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (!info)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "sort info is NULL");
    if (!info->semaphore)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "semaphore is NULL");
    if (info->semaphore->device != s->device)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT,
                    "the semaphore was imported on CUDA device %d, the sorter runs on %d",
                    info->semaphore->device, s->device);
    if (info->signal_value <= info->wait_value)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT,
                    "signal_value %llu must be above wait_value %llu",
                    (unsigned long long)info->signal_value,
                    (unsigned long long)info->wait_value);
    if (!info->keys)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT, "keys buffer is NULL");
    if (s->has_payload && !info->values)
        return fail(s, VKSORT_ERROR_INVALID_ARGUMENT,
                    "the sorter has a payload but the values buffer is NULL");
    const bool indirect = info->count_buffer != nullptr;
    uint32_t begin = 0, end = 0;
    vksort_result r = check_common(s, info->flags, info->bit_begin, info->bit_end, indirect,
                                   info->count, &begin, &end);
    if (r != VKSORT_SUCCESS)
        return r;
    const uint64_t n = indirect ? s->max_count : info->count;
    if ((r = check_range(s, "keys", info->keys, info->keys_offset, n * s->key_size,
                         s->key_size)) != VKSORT_SUCCESS)
        return r;
    if (s->has_payload &&
        (r = check_range(s, "values", info->values, info->values_offset, n * 4u, 4u)) !=
            VKSORT_SUCCESS)
        return r;
    if (indirect && (r = check_range(s, "count", info->count_buffer, info->count_offset, 4u,
                                     4u)) != VKSORT_SUCCESS)
        return r;

    void *keys = (char *)info->keys->pointer + info->keys_offset;
    uint32_t *values =
        s->has_payload ? (uint32_t *)((char *)info->values->pointer + info->values_offset)
                       : nullptr;
    const uint32_t *count_device =
        indirect ? (const uint32_t *)((const char *)info->count_buffer->pointer +
                                      info->count_offset)
                 : nullptr;
    /* The offsets were checked; the mapped pointers too (an import at an odd offset maps an
     * odd pointer, and misaligned kernel accesses end the CUDA context). */
    if (!aligned(keys, s->key_size) || (values && !aligned(values, 4)) ||
        (count_device && !aligned(count_device, 4)))
        return fail(s, VKSORT_ERROR_MISALIGNED,
                    "the keys, values or count address is not aligned to its element size (an "
                    "imported buffer's offset must keep it so)");

    nvtx_range range(s->nvtx, "vksort_cuda_sort_vk", nvtx_sort);
    device_scope scope(s->device);
    if (scope.error() != cudaSuccess)
        return fail_cuda(s, scope.error(), "cudaSetDevice");

    cudaExternalSemaphore_t sem = info->semaphore->semaphore;
    cudaExternalSemaphoreWaitParams wait;
    memset(&wait, 0, sizeof wait);
    wait.params.fence.value = info->wait_value;
    cudaError_t err;
    {
        nvtx_range w(s->nvtx, "vksort wait on the Vulkan timeline", nvtx_sync);
        if ((err = cudaWaitExternalSemaphoresAsync(&sem, &wait, 1, s->stream)) != cudaSuccess)
            return fail_cuda(s, err, "cudaWaitExternalSemaphoresAsync");
    }
    r = timed_enqueue(s, keys, values, info->count, count_device,
                      (info->flags & VKSORT_FLAG_DESCENDING) != 0, begin, end);

    /* Signal even after a failed launch, so that the Vulkan side never waits forever. */
    cudaExternalSemaphoreSignalParams signal;
    memset(&signal, 0, sizeof signal);
    signal.params.fence.value = info->signal_value;
    {
        nvtx_range g(s->nvtx, "vksort signal the Vulkan timeline", nvtx_sync);
        err = cudaSignalExternalSemaphoresAsync(&sem, &signal, 1, s->stream);
    }
    if (r != VKSORT_SUCCESS)
        return r;
    if (err != cudaSuccess)
        return fail_cuda(s, err, "cudaSignalExternalSemaphoresAsync");
    succeed(s);
    return VKSORT_SUCCESS;
}
