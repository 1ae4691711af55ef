#version 450
// Bitonic global merge: GLOBAL_LOG consecutive stages of merge level pc.level whose strides do
// not fit in a tile, in one pass over the array. Invocation t holds the orbit of index bits
// [bit_hi - GLOBAL_LOG + 1, bit_hi] in registers (the first stage is the level's flip when
// VKSORT_PUSH_FLIP is set). Stages reaching below the tile are repeated by the local merge
// that follows, harmlessly.
#extension GL_GOOGLE_include_directive : require
#define ORBIT_LOG VKSORT_BITONIC_GLOBAL_LOG
#include "bitonic_common.glsl"

layout(local_size_x = VKSORT_BITONIC_GLOBAL_WORKGROUP) in;

void main()
{
    uint n = element_count();
    if (n < 2u || pc.level > ceil_log2(n))
        return;
    uint t = workgroup_index() * VKSORT_BITONIC_GLOBAL_WORKGROUP + gl_LocalInvocationID.x;
    uint b_lo = pc.bit_hi + 1u - ORBIT_LOG;
    uint base = orbit_base(t, b_lo);
    if (base >= n)
        return;
    bool flip = (pc.flags & VKSORT_PUSH_FLIP) != 0u;

    uint pos[ORBIT];
    uint valid = 0u;
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        pos[s] = orbit_position(base, b_lo, s, flip);
        if (pos[s] < n) {
            valid |= 1u << s;
            rk[s] = keys[pos[s]];
#if HAS_VALUE
            rv[s] = values[pos[s]];
#endif
#if STABLE
            ri[s] = indices[pos[s]];
#endif
        } else { // past the count: never compared with effect nor stored, but defined
#if KEY64
            rk[s] = uvec2(0u);
#else
            rk[s] = 0u;
#endif
#if HAS_VALUE
            rv[s] = 0u;
#endif
#if STABLE
            ri[s] = 0u;
#endif
        }
    }
    orbit_merge(flip, valid);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if (pos[s] < n) {
            keys[pos[s]] = rk[s];
#if HAS_VALUE
            values[pos[s]] = rv[s];
#endif
#if STABLE
            indices[pos[s]] = ri[s];
#endif
        }
    }
}
