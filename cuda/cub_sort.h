/* The only place CUB's DeviceRadixSort is instantiated: unsigned 32- and 64-bit order keys, with
 * or without a uint32 payload (4 instantiations in all, in cub_sort_32.cu and cub_sort_64.cu so
 * that the two compile in parallel). Every key type reaches CUB through its unsigned encoding. */
#ifndef VKSORT_CUDA_CUB_SORT_H
#define VKSORT_CUDA_CUB_SORT_H

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace vksort_cuda {

/* One CUB DeviceRadixSort call in DoubleBuffer form: keys in keys0 (alternate buffer keys1), and
 * values0/values1 the same for the payload when `pairs` (SortPairs; else SortKeys and the value
 * pointers are ignored). temp == nullptr only queries temp_bytes (the pointers may be null). *out_selector: 0 when the result is in keys0/values0, 1 when in
 * keys1/values1. Stable, ascending, on bits [begin_bit, end_bit). */
cudaError_t cub_sort_u32(void *temp, size_t &temp_bytes, uint32_t *keys0, uint32_t *keys1,
                         bool pairs, uint32_t *values0, uint32_t *values1, int count, int begin_bit,
                         int end_bit, cudaStream_t stream, int *out_selector);
cudaError_t cub_sort_u64(void *temp, size_t &temp_bytes, uint64_t *keys0, uint64_t *keys1,
                         bool pairs, uint32_t *values0, uint32_t *values1, int count, int begin_bit,
                         int end_bit, cudaStream_t stream, int *out_selector);

} // namespace vksort_cuda

#endif
