#version 450
// The benchmark's check of one sort's result, recorded after every run (bench_data.h): the
// elements [base, base + n) of the keys (and payloads) must be in order (encoded, in the bit
// range), every payload must carry the key generated for its element, equal keys of a stable
// sort must keep their payloads (input indices) ascending, and the results must be the input's
// multiset (two order-independent sums of the keys, or of the payloads, against the same sums
// computed from the generator). Errors and sums are added into the result words; the host
// compares them once, after the last run.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Keys { uint keys[]; };
layout(set = 0, binding = 1, std430) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 2, std430) buffer Result { uint result[]; };

layout(push_constant) uniform Push {
    uint base;       // first element
    uint n;          // elements
    uint seed;       // the keys' generator seed
    uint mode;       // the keys' BENCH_FILL_*
    uint key_words;  // 1 or 2
    uint encoding;   // BENCH_ENC_*
    uint mask_lo;    // the bit range over the encoded key's low and high words
    uint mask_hi;
    uint flags;      // 1: payloads, 2: stable
} pc;

#define BENCH_GLSL
#include "bench_data.h"

// Element i's key, encoded and masked to the bit range: (low, high) words.
uvec2 sort_key(uint lo, uint hi)
{
    if (pc.key_words == 1u)
        return uvec2(bench_encode_top(lo, pc.encoding) & pc.mask_lo, 0u);
    return uvec2(lo & pc.mask_lo, bench_encode_top(hi, pc.encoding) & pc.mask_hi);
}

bool less_key(uvec2 a, uvec2 b)
{
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

void main()
{
    const bool pairs = (pc.flags & 1u) != 0u, stable = (pc.flags & 2u) != 0u;
    const uint kw = pc.key_words;
    const uint salt = bench_salt(pc.seed);
    uint order = 0u, pair = 0u, unstable = 0u, out_a = 0u, in_a = 0u, out_b = 0u, in_b = 0u;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride) {
        uint e = pc.base + i;
        uint lo = keys[e * kw], hi = kw == 2u ? keys[e * kw + 1u] : 0u;
        uvec2 k = sort_key(lo, hi);
        uint v = pairs ? values[e] : 0u;
        if (i > 0u) {
            uint plo = keys[(e - 1u) * kw], phi = kw == 2u ? keys[(e - 1u) * kw + 1u] : 0u;
            uvec2 pk = sort_key(plo, phi);
            if (less_key(k, pk))
                ++order;
            else if (pairs && stable && k == pk && values[e - 1u] >= v)
                ++unstable;
        }
        // Pairs: the key generated for element v (this payload's); keys alone: input
        // element e for the sums.
        uint w_out, w_in;
        if (pairs) {
            uint v_lo = bench_word(salt, v * kw, pc.mode);
            uint v_hi = kw == 2u ? bench_word(salt, v * kw + 1u, pc.mode) : 0u;
            if (v_lo != lo || v_hi != hi)
                ++pair;
            w_out = v;
            w_in = e;
        } else {
            uint in_lo = bench_word(salt, e * kw, pc.mode);
            uint in_hi = kw == 2u ? bench_word(salt, e * kw + 1u, pc.mode) : 0u;
            w_out = bench_key_word(lo, hi);
            w_in = bench_key_word(in_lo, in_hi);
        }
        out_a += bench_mix_a(w_out);
        in_a += bench_mix_a(w_in);
        out_b += bench_mix_b(w_out);
        in_b += bench_mix_b(w_in);
    }
    uint s[7] = uint[7](order, pair, unstable, out_a, in_a, out_b, in_b);
    for (int j = 0; j < 7; ++j) {
        uint total = subgroupAdd(s[j]);
        if (subgroupElect() && total != 0u)
            atomicAdd(result[j], total);
    }
}
