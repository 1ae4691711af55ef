#version 450
// Histogram pass: one read of the keys builds the histogram of every digit position at once
// (shared-memory counters per workgroup, then one global atomic per non-zero bin). Its
// workgroups also clear look-back region 0 for the first Onesweep pass (RADIX_FLAG_CLEAR_LOOKBACK).
// Workgroup g handles elements [g * pc.aux, (g + 1) * pc.aux) of the caller's keys.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#include "radix_common.glsl"

layout(local_size_x_id = 0) in;
#define WG gl_WorkGroupSize.x

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) buffer Hist { uint hist[]; };
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) writeonly buffer Lookback { uint lookback[]; };

shared uint s_hist[RADIX_MAX_PASSES * RADIX_DIGITS];

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

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint n = state[RADIX_S_COUNT];
    uint group = radix_group_index();
    uint digits = pc.digit_count;
    for (uint i = t; i < digits * RADIX_DIGITS; i += WG)
        s_hist[i] = 0u;
    barrier();

    uint chunk = pc.aux;
    uint begin = group * chunk;
    uint end = min(begin + chunk, n);
    // Uniform trip count so the subgroup votes see every lane.
    for (uint base = begin; base < end; base += WG) {
        uint i = base + t;
        bool valid = i < end;
        KEY_T k = valid ? keys_a[i] : KEY_T(0u);
        KEY_T ok = radix_order_key(k);
        uint lanes = subgroupBallotBitCount(subgroupBallot(valid));
        for (uint p = 0u; p < digits; ++p) {
#if KEY64
            uint d = radix_digit64(ok, radix_pass_shift(p));
#else
            uint d = radix_digit32(ok, radix_pass_shift(p));
#endif
            count_digit(p * RADIX_DIGITS + d, valid, lanes);
        }
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
