#version 450
// Histogram pass: one read of the keys builds the histogram of every digit position at once
// (shared-memory counters per workgroup, then one global atomic per non-zero bin). Its
// workgroups also clear look-back region 0 for the first Onesweep pass (RADIX_FLAG_CLEAR_LOOKBACK).
// Workgroup g handles elements [g * chunk, (g + 1) * chunk) of the caller's keys, chunk =
// state[RADIX_S_HIST_CHUNK] (radix_prepare.comp sizes it so that there are at most
// RADIX_HIST_MAX_GROUPS workgroups; a multiple of RADIX_HIST_ALIGN, so every chunk starts on a
// 16-byte boundary of the binding).
// Keys are read 16 bytes per invocation (4 u32 / 2 u64 keys) where the binding is 16-byte
// aligned (RADIX_FLAG_KEYS_VEC4); the last < 4 keys of a chunk, and every key otherwise, one
// at a time.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#include "radix_common.glsl"

layout(local_size_x_id = 0) in;
#define WG gl_WorkGroupSize.x

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA4 { uvec4 keys_a4[]; };
layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) buffer Hist { uint hist[]; };
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) writeonly buffer Lookback { uint lookback[]; };

#if KEY64
#define VEC_KEYS 2u
#else
#define VEC_KEYS 4u
#endif

shared uint s_hist[RADIX_MAX_PASSES * RADIX_DIGITS];

uint key_digit(KEY_T ok, uint p)
{
#if KEY64
    return radix_digit64(ok, radix_pass_shift(p));
#else
    return radix_digit32(ok, radix_pass_shift(p));
#endif
}

// lanes: valid lanes of the subgroup (computed in uniform control flow by the caller).
void count_digit(uint slot, bool valid, uint lanes)
{
    // Runs of equal digits across a subgroup (constant or sorted data) cost one shared atomic
    // instead of S colliding ones.
    if (subgroupAllEqual(valid ? slot : 0xffffffffu)) {
        if (valid && subgroupElect())
            atomicAdd(s_hist[slot], lanes);
    } else if (valid) {
        atomicAdd(s_hist[slot], 1u);
    }
}

// The VEC_KEYS consecutive digits d of each valid lane (in uniform control flow). When every
// valid lane holds one digit value, one atomic for the subgroup (constant or sorted data);
// else each lane adds its runs of equal digits (up to VEC_KEYS atomics).
void count_vec(uint offset, uint d[VEC_KEYS], bool valid, uint lanes)
{
    bool same = true;
    [[unroll]] for (uint j = 1u; j < VEC_KEYS; ++j)
        same = same && d[j] == d[0];
    // Valid lanes are a prefix of the subgroup, so the first lane is valid whenever any is.
    uint first = subgroupBroadcastFirst(d[0]);
    if (subgroupAll(!valid || (same && d[0] == first))) {
        if (lanes != 0u && subgroupElect())
            atomicAdd(s_hist[offset + first], lanes * VEC_KEYS);
    } else if (valid) {
        uint run = 1u;
        [[unroll]] for (uint j = 1u; j < VEC_KEYS; ++j) {
            if (d[j] != d[j - 1u]) {
                atomicAdd(s_hist[offset + d[j - 1u]], run);
                run = 1u;
            } else {
                ++run;
            }
        }
        atomicAdd(s_hist[offset + d[VEC_KEYS - 1u]], run);
    }
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint n = state[RADIX_S_COUNT];
    uint group = radix_group_index();
    uint digits = pc.digit_count;
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG)
        s_hist[i] = 0u;
    barrier();

    uint chunk = state[RADIX_S_HIST_CHUNK];
    uint begin = min(group * chunk, n);
    uint end = min(begin + chunk, n);
    // Keys [begin, vec_end) in 16-byte loads, [vec_end, end) one at a time.
    uint vec_end = (pc.flags & RADIX_FLAG_KEYS_VEC4) != 0u
                       ? begin + (end - begin) / VEC_KEYS * VEC_KEYS : begin;
    // Uniform trip counts so the subgroup votes see every lane.
    for (uint base = begin; base < vec_end; base += WG * VEC_KEYS) {
        uint i = base + t * VEC_KEYS;
        bool valid = i < vec_end;
        uvec4 v = valid ? keys_a4[i / VEC_KEYS] : uvec4(0u);
        KEY_T ok[VEC_KEYS];
#if KEY64
        ok[0] = radix_order_key(v.xy);
        ok[1] = radix_order_key(v.zw);
#else
        [[unroll]] for (uint j = 0u; j < VEC_KEYS; ++j)
            ok[j] = radix_order_key(v[j]);
#endif
        uint lanes = subgroupBallotBitCount(subgroupBallot(valid));
        for (uint p = 0u; p < digits; ++p) {
            uint d[VEC_KEYS];
            [[unroll]] for (uint j = 0u; j < VEC_KEYS; ++j)
                d[j] = key_digit(ok[j], p);
            count_vec(p * RADIX_DIGITS, d, valid, lanes);
        }
    }
    for (uint base = vec_end; base < end; base += WG) {
        uint i = base + t;
        bool valid = i < end;
        KEY_T ok = radix_order_key(valid ? keys_a[i] : KEY_T(0u));
        uint lanes = subgroupBallotBitCount(subgroupBallot(valid));
        for (uint p = 0u; p < digits; ++p)
            count_digit(p * RADIX_DIGITS + key_digit(ok, p), valid, lanes);
    }
    barrier();
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG) {
        uint c = s_hist[i];
        if (c != 0u)
            atomicAdd(hist[i], c);
    }

    // Clear look-back region 0 (rows of the first active Onesweep pass), spread over groups.
    if ((pc.flags & RADIX_FLAG_CLEAR_LOOKBACK) != 0u) {
        uint words = state[RADIX_S_TILES] * RADIX_DIGITS;
        uint groups = state[RADIX_S_HIST_GROUPS];
        uint per = (words + groups - 1u) / groups;
        uint lo = group * per;
        uint hi = min(lo + per, words);
        for (uint i = lo + t; i < hi; i += WG)
            lookback[i] = 0u;
    }
}
