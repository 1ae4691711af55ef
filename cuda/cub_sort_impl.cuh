/* Body shared by cub_sort_32.cu and cub_sort_64.cu (see cub_sort.h). */
#ifndef VKSORT_CUDA_CUB_SORT_IMPL_CUH
#define VKSORT_CUDA_CUB_SORT_IMPL_CUH

#include "cub_sort.h"

#include <cub/device/device_radix_sort.cuh>

namespace vksort_cuda {

template <typename K>
static cudaError_t cub_sort_impl(void *temp, size_t &temp_bytes, K *keys0, K *keys1,
                                 bool pairs, uint32_t *values0, uint32_t *values1, int count, int begin_bit,
                                 int end_bit, cudaStream_t stream, int *out_selector)
{
    cub::DoubleBuffer<K> keys(keys0, keys1);
    cudaError_t err;
    if (pairs) {
        cub::DoubleBuffer<uint32_t> values(values0, values1);
        err = cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, values, count, begin_bit,
                                              end_bit, stream);
    } else {
        err = cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, count, begin_bit, end_bit,
                                             stream);
    }
    /* The key and value double buffers flip together, so one selector says where both are. */
    if (out_selector)
        *out_selector = keys.selector;
    return err;
}

} // namespace vksort_cuda

#endif
