#version 450
// Bitonic local sort: each workgroup sorts one tile of TILE elements (the last tile may be
// partial) completely on chip. Reads raw keys, writes order keys for the merge passes that
// follow, or raw keys when the whole array fits in one tile (then this is the only pass). With
// USE_INDICES (stable, several tiles) it also writes each element's input position.
#extension GL_GOOGLE_include_directive : require
#include "bitonic_tile.glsl"

void main()
{
    uint n = element_count();
    uint base = workgroup_index() * TILE;
    if (base >= n)
        return;
    uint limit = min(n - base, TILE);
    uint t = gl_LocalInvocationID.x;
    uint first = base + t * ORBIT;
    uint valid = contiguous_valid(t, limit);

    // Levels 1 .. ORBIT_LOG on ORBIT contiguous elements, straight from global memory.
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if (((valid >> s) & 1u) != 0u) {
            rk[s] = to_order_key(keys[first + s]);
#if HAS_VALUE
            rv[s] = values[first + s];
#endif
#if STABLE
            ri[s] = first + s;
#endif
        } else {
            slot_clear(s);
        }
    }
    orbit_sort(valid);

    // Levels above: chunk rounds, then the contiguous tail of each level.
    uint log_tile = uint(findMSB(TILE));
    for (uint lk = ORBIT_LOG + 1u; lk <= log_tile; ++lk) {
        contiguous_to_shared(t);
        barrier();
        chunk_rounds(lk - 1u, true, limit);
        // Each invocation reads back only its own contiguous elements, so the next level may
        // write them without another barrier.
        contiguous_from_shared(t);
        orbit_merge(false, valid);
    }

    bool last_pass = n <= TILE;
    [[unroll]] for (uint s = 0u; s < ORBIT; ++s) {
        if (((valid >> s) & 1u) != 0u) {
            keys[first + s] = last_pass ? from_order_key(rk[s]) : rk[s];
#if HAS_VALUE
            values[first + s] = rv[s];
#endif
#if USE_INDICES
            if (!last_pass)
                indices[first + s] = ri[s];
#endif
        }
    }
}
