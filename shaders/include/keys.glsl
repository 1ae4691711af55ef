// Order-preserving key encodings, identical to vksort_encode_u32_bits / vksort_encode_u64_bits
// (src/core/keys.c): unsigned as is; signed: flip the sign bit; float: negative -> flip every
// bit, else flip the sign bit. 64-bit keys are uvec2 (x = low word, y = high word), so no
// shaderInt64 is needed.
#ifndef VKSORT_KEYS_GLSL
#define VKSORT_KEYS_GLSL

const uint VKSORT_SIGN32 = 0x80000000u;

uint vksort_encode32(uint type, uint bits)
{
    if (type == VKSORT_SHADER_KEY_I32)
        return bits ^ VKSORT_SIGN32;
    if (type == VKSORT_SHADER_KEY_F32)
        return (bits & VKSORT_SIGN32) != 0u ? ~bits : bits ^ VKSORT_SIGN32;
    return bits;
}

uint vksort_decode32(uint type, uint enc)
{
    if (type == VKSORT_SHADER_KEY_I32)
        return enc ^ VKSORT_SIGN32;
    if (type == VKSORT_SHADER_KEY_F32)
        return (enc & VKSORT_SIGN32) != 0u ? enc ^ VKSORT_SIGN32 : ~enc;
    return enc;
}

uvec2 vksort_encode64(uint type, uvec2 bits)
{
    if (type == VKSORT_SHADER_KEY_I64)
        return uvec2(bits.x, bits.y ^ VKSORT_SIGN32);
    if (type == VKSORT_SHADER_KEY_F64)
        return (bits.y & VKSORT_SIGN32) != 0u ? ~bits : uvec2(bits.x, bits.y ^ VKSORT_SIGN32);
    return bits;
}

uvec2 vksort_decode64(uint type, uvec2 enc)
{
    if (type == VKSORT_SHADER_KEY_I64)
        return uvec2(enc.x, enc.y ^ VKSORT_SIGN32);
    if (type == VKSORT_SHADER_KEY_F64)
        return (enc.y & VKSORT_SIGN32) != 0u ? uvec2(enc.x, enc.y ^ VKSORT_SIGN32) : ~enc;
    return enc;
}

#endif
