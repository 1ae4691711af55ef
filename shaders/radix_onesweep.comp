#version 450
// Onesweep scatter pass for one digit (one dispatch per digit pass): partitions are taken in
// order from an atomic ticket and each runs radix_onesweep_partition (radix_onesweep_tile.glsl).
// A workgroup runs partitions until the tickets run out (the dispatch may have fewer workgroups
// than tiles: pc.onesweep_groups, radix_plan.glsl), taking the next ticket during the current
// partition's scatter, after its look-back: it never holds a ticket it is not about to run, so
// a look-back only ever waits on partitions that running workgroups are working on.
#extension GL_GOOGLE_include_directive : require
#include "radix_onesweep_tile.glsl"

// Whether the skew-proof ranking's code is compiled in (the sorter's radix_skew_ranking): its
// presence alone slows the default path (docs/perf-notes.md, fiftieth to fifty-second sessions),
// so sorters created without the choice leave it out.
layout(constant_id = 15) const bool SKEW_PATH = true;
// The hybrid recording's last slot (RADIX_HYBRID_COPY_SLOT, odd: its A binding holds the scratch
// half, its B the caller's buffers): where the plan says RADIX_SLOT_COPY it copies A to B, the
// copy pass that the recording then leaves out. Only that slot's pipeline has the test: at the
// top of the hot slots' pass it cost the H100 1.8 % (fifty-third session).
layout(constant_id = 16) const bool COPY_SLOT = false;

void copy_slot(uint n)
{
    uint begin = radix_group_index() * RADIX_COPY_PER_GROUP;
    uint end = min(begin + RADIX_COPY_PER_GROUP, n);
    for (uint i = begin + gl_LocalInvocationID.x; i < end; i += WG) {
        keys_b[i] = keys_a[i];
#if HAS_VALUE
        values_b[i] = values_a[i];
#endif
    }
}

void main()
{
    uint t = gl_LocalInvocationID.x;
    // The slot's digit (radix_interface.h): the bindings are this slot's, A its source.
    uint p = state[RADIX_S_SLOT_DIGIT + pc.pass_index];
    if (COPY_SLOT && p == RADIX_SLOT_COPY) {
        copy_slot(state[RADIX_S_COUNT]);
        return;
    }
    // Skew-proof ranking where the plan found one digit in most keys (radix_plan.glsl).
    // Not in the look-back fallback's modules (the code took their u32 keys pass from 80 to 118
    // registers on the H100).
    // In a slot past the active digits p is RADIX_SLOT_NONE(k) = 31 + 4k, so the shift below
    // may be 32 or more and `skew` undefined: it is read only for a tile, and such a slot's
    // ticket (RADIX_DEAD_TICKET) is past every tile.
    bool skew = SKEW_PATH && LOOKBACK_FALLBACK == 0 && (pc.flags & RADIX_FLAG_SKEW) != 0u &&
                ((state[RADIX_S_SKEW] >> p) & 1u) != 0u;
    uint n = state[RADIX_S_COUNT];
    uint tiles = state[RADIX_S_TILES];
    uint parity = pc.pass_index & 1u;
    if (t == 0u)
        s_broadcast = atomicAdd(state[RADIX_S_TICKET + p], 1u);
    barrier();
    uint part = s_broadcast;
    barrier(); // s_broadcast is written again below
    bool stall_first = STALL_EMULATION && (pc.flags & RADIX_FLAG_STALL_FIRST) != 0u;
    // Without pc.onesweep_groups, a workgroup per tile runs just that tile. With it, at most
    // twice a workgroup's share of the tiles (lavapipe's loop limiter, see
    // radix_onesweep_fused.comp): the workgroups that stop there leave the rest to the others
    // (groups * max_taken >= 2 * tiles). (Looping by default - a finished workgroup taking the
    // next tile before the dispatch's last workgroups start - gave wrong sorts on lavapipe
    // with two worker threads: its loop limiter counts a workgroup's iterations over all of
    // its tiles.)
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    uint max_taken = pc.onesweep_groups != 0u ? 2u * ((tiles + groups - 1u) / groups) : 1u;
    for (uint taken = 1u; part < tiles; ++taken) {
        bool fetch = taken < max_taken;
        uint next = radix_onesweep_partition(p, 0u, parity, part, n, tiles, stall_first, fetch,
                                             RADIX_S_TICKET + p, 0u, skew);
        if (stall_first) {
            barrier();
            if (t == 0u && part != 0u)
                atomicAdd(state[RADIX_S_DONE + p], 1u);
        }
        if (t == 0u)
            s_broadcast = fetch ? next : tiles;
        barrier();
        part = s_broadcast;
        barrier();
    }
}
