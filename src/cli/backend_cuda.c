/* CUDA backend of the CLI (see backend.h for the contract): host arrays are copied to device
 * memory, sorted there by the library's device-pointer API (vksort_cuda_sort_device: CUB behind
 * the vksort encodings) and copied back. The sorter and the device buffers are kept between
 * calls and grown when a larger request comes, so `vksort run` times the sort, not the set-up.
 * The device time reported is the sort's own (CUDA events around it, no transfers).
 *
 * Without the CUDA backend in the build (VKSORT_WITH_CUDA undefined) or without a CUDA device,
 * it reports itself unavailable with the reason. */
#include "backend.h"

#include "err.h"

#include <stdio.h>
#include <string.h>

#ifndef VKSORT_WITH_CUDA

static const char cuda_why[] =
    "not built in this binary (configure with the CUDA toolkit and -DVKSORT_CUDA=AUTO or ON)";

int cli_backend_cuda_available(char *why, size_t n)
{
    snprintf(why, n, "%s", cuda_why);
    return CLI_BACKEND_UNAVAILABLE;
}

int cli_backend_cuda_device_count(void)
{
    return 0;
}

int cli_backend_cuda_sort(const cli_sort_request *req, char *err, size_t n)
{
    (void)req;
    cli_fail(err, n, "backend 'cuda' not available: %s", cuda_why);
    return VKSORT_ERROR_BACKEND_UNAVAILABLE;
}

void cli_backend_cuda_release(void)
{
}

#else

#include "vksort/cuda.h"

#include <cuda_runtime_api.h>

#include <limits.h>

static struct {
    int probed;          /* available() ran once */
    int available;
    char why[512];
    vksort_cuda_sorter *sorter;
    vksort_key_type key_type;
    int payload;
    int device;
    uint32_t max_count;
    void *d_keys;        /* max_count keys */
    uint32_t *d_values;  /* max_count values, when payload */
} cuda_cli;

int cli_backend_cuda_available(char *why, size_t n)
{
    if (!cuda_cli.probed) {
        cuda_cli.probed = 1;
        vksort_cuda_diagnostics d;
        memset(&d, 0, sizeof d);
        int count = 0;
        if (vksort_cuda_get_device_count(&count, &d) != VKSORT_SUCCESS) {
            snprintf(cuda_cli.why, sizeof cuda_cli.why, "built in, but %.200s", d.message);
        } else {
            struct cudaDeviceProp prop;
            cudaError_t e = cudaGetDeviceProperties(&prop, 0);
            if (e != cudaSuccess)
                snprintf(cuda_cli.why, sizeof cuda_cli.why,
                         "built in, but cudaGetDeviceProperties failed: %s",
                         cudaGetErrorString(e));
            else {
                cuda_cli.available = 1;
                snprintf(cuda_cli.why, sizeof cuda_cli.why,
                         "CUB DeviceRadixSort on %.200s, sm_%d%d%s", prop.name, prop.major,
                         prop.minor, count > 1 ? ", more devices with --device" : "");
            }
        }
    }
    snprintf(why, n, "%s", cuda_cli.why);
    return cuda_cli.available ? CLI_BACKEND_AVAILABLE : CLI_BACKEND_UNAVAILABLE;
}

int cli_backend_cuda_device_count(void)
{
    int count = 0;
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    return vksort_cuda_get_device_count(&count, &d) == VKSORT_SUCCESS ? count : 0;
}

static void drop_buffers(void)
{
    cudaFree(cuda_cli.d_keys);
    cudaFree(cuda_cli.d_values);
    cuda_cli.d_keys = NULL;
    cuda_cli.d_values = NULL;
}

void cli_backend_cuda_release(void)
{
    vksort_cuda_sorter_destroy(cuda_cli.sorter);
    cuda_cli.sorter = NULL;
    drop_buffers();
    cuda_cli.max_count = 0;
}

static int cuda_call(cudaError_t e, const char *what, char *err, size_t n)
{
    if (e == cudaSuccess)
        return 0;
    cli_fail(err, n, "cuda: %s failed: %s", what, cudaGetErrorString(e));
    return VKSORT_ERROR_CUDA;
}

/* A sorter and device buffers that fit the request (kept while they do). */
static int prepare(const cli_sort_request *req, uint32_t count, char *err, size_t n)
{
    const int payload = req->values != NULL;
    if (cuda_cli.sorter && cuda_cli.key_type == req->key_type && cuda_cli.payload == payload &&
        cuda_cli.device == req->device && cuda_cli.max_count >= count)
        return 0;
    cli_backend_cuda_release();
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    ci.key_type = req->key_type;
    ci.has_payload = (uint32_t)payload;
    ci.max_count = count ? count : 1;
    ci.device_index = req->device;
    ci.enable_timing = 1;
    ci.diagnostics = &d;
    vksort_result r = vksort_cuda_sorter_create(&ci, &cuda_cli.sorter);
    if (r != VKSORT_SUCCESS) {
        cli_fail(err, n, "cuda: %s", d.message[0] ? d.message : vksort_result_string(r));
        return r;
    }
    cuda_cli.key_type = req->key_type;
    cuda_cli.payload = payload;
    cuda_cli.device = req->device;
    cuda_cli.max_count = ci.max_count;
    int rc = cuda_call(cudaSetDevice(req->device), "cudaSetDevice", err, n);
    const size_t ks = vksort_key_size(req->key_type);
    if (!rc)
        rc = cuda_call(cudaMalloc(&cuda_cli.d_keys, (size_t)ci.max_count * ks),
                       "cudaMalloc (keys)", err, n);
    if (!rc && payload)
        rc = cuda_call(cudaMalloc((void **)&cuda_cli.d_values, (size_t)ci.max_count * 4u),
                       "cudaMalloc (values)", err, n);
    if (rc)
        cli_backend_cuda_release();
    return rc;
}

int cli_backend_cuda_sort(const cli_sort_request *req, char *err, size_t n)
{
    char why[512];
    if (cli_backend_cuda_available(why, sizeof why) != CLI_BACKEND_AVAILABLE) {
        cli_fail(err, n, "backend 'cuda' not available: %s", why);
        return VKSORT_ERROR_BACKEND_UNAVAILABLE;
    }
    if (req->algo != CLI_ALGO_AUTO) {
        cli_fail(err, n, "algo '%s' applies to the vulkan backend, not to 'cuda'",
                 cli_algo_name(req->algo));
        return VKSORT_ERROR_UNSUPPORTED;
    }
    if (req->out_device_ms)
        *req->out_device_ms = -1.0;
    if (req->count > (size_t)INT_MAX) {
        cli_fail(err, n, "cuda: %zu keys is above what one CUB sort takes (2^31 - 1)",
                 req->count);
        return VKSORT_ERROR_COUNT_TOO_LARGE;
    }
    const uint32_t count = (uint32_t)req->count;
    if (count < 2) {
        if (req->out_device_ms)
            *req->out_device_ms = 0.0;
        return 0; /* nothing can move; no device work */
    }
    int rc = prepare(req, count, err, n);
    if (rc)
        return rc;
    const size_t kbytes = (size_t)count * vksort_key_size(req->key_type);
    /* cudaMemcpy from pageable memory may return before the DMA lands: synchronize the device
     * before the sort, which runs on the sorter's own (non-blocking) stream. */
    if ((rc = cuda_call(cudaMemcpy(cuda_cli.d_keys, req->keys, kbytes, cudaMemcpyHostToDevice),
                        "cudaMemcpy (keys to the device)", err, n)) ||
        (req->values &&
         (rc = cuda_call(cudaMemcpy(cuda_cli.d_values, req->values, (size_t)count * 4u,
                                    cudaMemcpyHostToDevice),
                         "cudaMemcpy (values to the device)", err, n))) ||
        (rc = cuda_call(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err, n)))
        return rc;

    vksort_cuda_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = cuda_cli.d_keys;
    si.values = req->values ? cuda_cli.d_values : NULL;
    si.count = count;
    si.flags = req->flags;
    si.bit_begin = req->bit_begin;
    si.bit_end = req->bit_end;
    vksort_result r = vksort_cuda_sort_device(cuda_cli.sorter, &si);
    if (r == VKSORT_SUCCESS)
        r = vksort_cuda_sorter_synchronize(cuda_cli.sorter);
    if (r != VKSORT_SUCCESS) {
        cli_fail(err, n, "cuda sort failed: %s", vksort_cuda_sorter_last_message(cuda_cli.sorter));
        return r;
    }
    double ms = -1.0;
    if (req->out_device_ms && vksort_cuda_sorter_last_sort_ms(cuda_cli.sorter, &ms) ==
                                  VKSORT_SUCCESS)
        *req->out_device_ms = ms;
    if ((rc = cuda_call(cudaMemcpy(req->keys, cuda_cli.d_keys, kbytes, cudaMemcpyDeviceToHost),
                        "cudaMemcpy (keys from the device)", err, n)) ||
        (req->values &&
         (rc = cuda_call(cudaMemcpy(req->values, cuda_cli.d_values, (size_t)count * 4u,
                                    cudaMemcpyDeviceToHost),
                         "cudaMemcpy (values from the device)", err, n))))
        return rc;
    return 0;
}

#endif /* VKSORT_WITH_CUDA */
