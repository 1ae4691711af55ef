#version 450
// Onesweep scatter pass for one digit (one dispatch per digit pass): partitions are taken in
// order from an atomic ticket and each runs radix_onesweep_partition (radix_onesweep_tile.glsl).
#extension GL_GOOGLE_include_directive : require
#include "radix_onesweep_tile.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint p = pc.pass_index;
    uint n = state[RADIX_S_COUNT];
    uint tiles = state[RADIX_S_TILES];
    uint parity = state[RADIX_S_PARITY + p];
    if (t == 0u)
        s_broadcast = atomicAdd(state[RADIX_S_TICKET + p], 1u);
    barrier();
    uint part = s_broadcast;
    if (part >= tiles)
        return;
    bool stall_first = (pc.flags & RADIX_FLAG_STALL_FIRST) != 0u;
    radix_onesweep_partition(p, parity, part, n, tiles, stall_first, false);

    if (stall_first) {
        barrier();
        if (t == 0u && part != 0u)
            atomicAdd(state[RADIX_S_DONE + p], 1u);
    }
}
