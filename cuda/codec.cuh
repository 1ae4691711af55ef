/* The vksort order-preserving key encodings (the formulas of src/core/keys.c) for the CUDA
 * kernels. Plain C++ too (no __CUDACC__): tests/cuda/test_cuda_codec.cpp checks them on the host
 * against the core library, bit pattern for bit pattern. */
#ifndef VKSORT_CUDA_CODEC_CUH
#define VKSORT_CUDA_CODEC_CUH

#include "vksort/vksort.h"

#include <cstdint>

#if defined(__CUDACC__)
#define VKSORT_HD __host__ __device__ __forceinline__
#else
#define VKSORT_HD inline
#endif

namespace vksort_cuda {

template <typename K> struct codec;

template <> struct codec<uint32_t> {
    static VKSORT_HD uint32_t encode(int type, uint32_t bits)
    {
        if (type == VKSORT_KEY_I32)
            return bits ^ 0x80000000u;
        if (type == VKSORT_KEY_F32)
            return bits ^ ((uint32_t) - (int32_t)(bits >> 31) | 0x80000000u);
        return bits;
    }
    static VKSORT_HD uint32_t decode(int type, uint32_t enc)
    {
        if (type == VKSORT_KEY_I32)
            return enc ^ 0x80000000u;
        if (type == VKSORT_KEY_F32)
            return enc ^ (((enc >> 31) - 1u) | 0x80000000u);
        return enc;
    }
};

template <> struct codec<uint64_t> {
    static VKSORT_HD uint64_t encode(int type, uint64_t bits)
    {
        const uint64_t sign = 0x8000000000000000ull;
        if (type == VKSORT_KEY_I64)
            return bits ^ sign;
        if (type == VKSORT_KEY_F64)
            return bits ^ ((uint64_t) - (int64_t)(bits >> 63) | sign);
        return bits;
    }
    static VKSORT_HD uint64_t decode(int type, uint64_t enc)
    {
        const uint64_t sign = 0x8000000000000000ull;
        if (type == VKSORT_KEY_I64)
            return enc ^ sign;
        if (type == VKSORT_KEY_F64)
            return enc ^ (((enc >> 63) - 1u) | sign);
        return enc;
    }
};

/* The live count of a sort: the host count, or the device count clamped to max_count. */
VKSORT_HD uint32_t live_count(uint32_t host_count, const uint32_t *count_device,
                              uint32_t max_count)
{
    if (!count_device)
        return host_count;
    const uint32_t c = *count_device;
    return c < max_count ? c : max_count;
}

/* Slot i of the buffer CUB sorts: the encoded key (inverted for descending) for i < live, the
 * sentinel (all ones) after it. */
template <typename K>
VKSORT_HD K order_key_for_slot(int type, K key, K invert, bool live)
{
    return live ? (codec<K>::encode(type, key) ^ invert) : ~K(0);
}

/* The key back from its slot in the sorted buffer. */
template <typename K> VKSORT_HD K key_from_order_key(int type, K order_key, K invert)
{
    return codec<K>::decode(type, order_key ^ invert);
}

} // namespace vksort_cuda

#endif
