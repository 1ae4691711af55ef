#include "cub_sort_impl.cuh"

cudaError_t vksort_cuda::cub_sort_u32(void *temp, size_t &temp_bytes, uint32_t *keys0,
                                      uint32_t *keys1, bool pairs, uint32_t *values0,
                                      uint32_t *values1,
                                      int count, int begin_bit, int end_bit, cudaStream_t stream,
                                      int *out_selector)
{
    return cub_sort_impl<uint32_t>(temp, temp_bytes, keys0, keys1, pairs, values0, values1, count,
                                   begin_bit, end_bit, stream, out_selector);
}
