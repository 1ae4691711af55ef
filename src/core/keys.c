/* Key types, bit ranges and the order-preserving key encodings. */
#include "vksort/vksort.h"

#include <string.h>

static const char *const key_type_names[VKSORT_KEY_TYPE_COUNT] = {"u32", "i32", "f32",
                                                                  "u64", "i64", "f64"};

uint32_t vksort_key_size(vksort_key_type type)
{
    switch (type) {
    case VKSORT_KEY_U32: case VKSORT_KEY_I32: case VKSORT_KEY_F32: return 4;
    case VKSORT_KEY_U64: case VKSORT_KEY_I64: case VKSORT_KEY_F64: return 8;
    default: return 0;
    }
}

const char *vksort_key_type_name(vksort_key_type type)
{
    if ((unsigned)type >= VKSORT_KEY_TYPE_COUNT)
        return NULL;
    return key_type_names[type];
}

vksort_result vksort_key_type_from_name(const char *name, vksort_key_type *out_type)
{
    if (!name || !out_type)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    for (int i = 0; i < VKSORT_KEY_TYPE_COUNT; ++i) {
        if (strcmp(name, key_type_names[i]) == 0) {
            *out_type = (vksort_key_type)i;
            return VKSORT_SUCCESS;
        }
    }
    return VKSORT_ERROR_INVALID_ARGUMENT;
}

vksort_result vksort_resolve_bit_range(vksort_key_type type, uint32_t bit_begin, uint32_t bit_end,
                                       uint32_t *out_begin, uint32_t *out_end)
{
    uint32_t width = vksort_key_size(type) * 8u;
    if (width == 0 || !out_begin || !out_end)
        return VKSORT_ERROR_INVALID_ARGUMENT;
    if (bit_end == 0)
        bit_end = width;
    if (bit_begin >= bit_end || bit_end > width)
        return VKSORT_ERROR_BIT_RANGE;
    *out_begin = bit_begin;
    *out_end = bit_end;
    return VKSORT_SUCCESS;
}

/* Signed: flip the sign bit. Float: negative -> flip every bit, else flip the sign bit. */
uint32_t vksort_encode_u32_bits(vksort_key_type type, uint32_t bits)
{
    switch (type) {
    case VKSORT_KEY_I32: return bits ^ 0x80000000u;
    case VKSORT_KEY_F32: return bits ^ ((uint32_t)-(int32_t)(bits >> 31) | 0x80000000u);
    default: return bits;
    }
}

uint32_t vksort_decode_u32_bits(vksort_key_type type, uint32_t encoded)
{
    switch (type) {
    case VKSORT_KEY_I32: return encoded ^ 0x80000000u;
    /* An encoded float with the top bit clear was negative (all bits were flipped). */
    case VKSORT_KEY_F32: return encoded ^ (((encoded >> 31) - 1u) | 0x80000000u);
    default: return encoded;
    }
}

uint64_t vksort_encode_u64_bits(vksort_key_type type, uint64_t bits)
{
    const uint64_t sign = 0x8000000000000000ull;
    switch (type) {
    case VKSORT_KEY_I64: return bits ^ sign;
    case VKSORT_KEY_F64: return bits ^ ((uint64_t)-(int64_t)(bits >> 63) | sign);
    default: return bits;
    }
}

uint64_t vksort_decode_u64_bits(vksort_key_type type, uint64_t encoded)
{
    const uint64_t sign = 0x8000000000000000ull;
    switch (type) {
    case VKSORT_KEY_I64: return encoded ^ sign;
    case VKSORT_KEY_F64: return encoded ^ (((encoded >> 63) - 1u) | sign);
    default: return encoded;
    }
}
