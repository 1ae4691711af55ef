#version 450
// Bitonic global merge: GLOBAL_LOG consecutive stages of merge level pc.level whose strides do
// not fit in a tile, in one pass over the array. Invocation t holds the orbit of index bits
// [bit_hi - GLOBAL_LOG + 1, bit_hi] in registers (the first stage is the level's flip when
// VKSORT_PUSH_FLIP is set). Stages reaching below the tile are repeated by the local merge
// that follows, harmlessly. Consecutive invocations touch consecutive elements in every slot
// (b_lo >= log2(tile) - GLOBAL_LOG + 1 >= 5), so each slot's load and store is coalesced.
#extension GL_GOOGLE_include_directive : require
#include "bitonic_common.glsl"
#define ORBIT_LOG VKSORT_BITONIC_GLOBAL_LOG
#include "bitonic_orbit.glsl"

layout(local_size_x = VKSORT_BITONIC_GLOBAL_WORKGROUP) in;

void main()
{
    uint n = element_count();
    if (n < 2u || pc.level > ceil_log2(n))
        return;
    uint t = workgroup_index() * VKSORT_BITONIC_GLOBAL_WORKGROUP + gl_LocalInvocationID.x;
    uint b_lo = pc.bit_hi + 1u - ORBIT_LOG;
    uint base = OF(orbit_base)(t, b_lo);
    if (base >= n) // every position of the orbit is >= base
        return;
    bool flip = (pc.flags & VKSORT_PUSH_FLIP) != 0u;
    uint mir = flip ? (1u << b_lo) - 1u : 0u;

    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        uint p = OF(window_pos)(base, b_lo, mir, s);
        if (p < n)
            OF(load_global)(s, p, false);
        else
            OF(set_sentinel)(s);
    }
    OF(merge)(flip);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        uint p = OF(window_pos)(base, b_lo, mir, s);
        if (p < n)
            OF(store_global)(s, p, false);
    }
}
