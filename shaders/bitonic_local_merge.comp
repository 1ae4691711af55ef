#version 450
// Bitonic local merge: the stages of merge level pc.level whose strides fit in a tile (all of
// them below TILE), after the global merge passes did the larger ones. The first chunk reads
// global memory directly, the contiguous tail writes it directly. The last merge level (the
// array's padded size) decodes the keys back to raw keys.
#extension GL_GOOGLE_include_directive : require
#include "bitonic_tile.glsl"

void main()
{
    uint n = element_count();
    uint base = workgroup_index() * TILE;
    if (base >= n || pc.level > ceil_log2(max(n, 2u)))
        return;
    uint limit = min(n - base, TILE);
    uint t = gl_LocalInvocationID.x;
    uint log_tile = uint(findMSB(TILE));

    // First chunk: index bits [log_tile - ORBIT_LOG, log_tile), from global memory.
    uint b_lo = log_tile - ORBIT_LOG;
    uint pos[ORBIT];
    uint valid = chunk_positions(t, b_lo, false, limit, pos);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if (((valid >> s) & 1u) != 0u) {
            rk[s] = keys[base + pos[s]];
#if HAS_VALUE
            rv[s] = values[base + pos[s]];
#endif
#if STABLE
            ri[s] = indices[base + pos[s]];
#endif
        } else {
            slot_clear(s);
        }
    }
    orbit_merge(false, valid);
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s)
        slot_to_shared(s, pos[s]);
    barrier();

    // Remaining chunks, then the contiguous tail straight to global memory.
    if (b_lo > ORBIT_LOG)
        chunk_rounds(b_lo - 1u, false, limit);
    contiguous_from_shared(t);
    uint cvalid = contiguous_valid(t, limit);
    orbit_merge(false, cvalid);

    bool last_pass = pc.level == ceil_log2(n);
    uint first = base + t * ORBIT;
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if (((cvalid >> s) & 1u) != 0u) {
            keys[first + s] = last_pass ? from_order_key(rk[s]) : rk[s];
#if HAS_VALUE
            values[first + s] = rv[s];
#endif
#if STABLE
            if (!last_pass)
                indices[first + s] = ri[s];
#endif
        }
    }
}
