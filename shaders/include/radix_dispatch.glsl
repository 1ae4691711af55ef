// The indirect dispatch table in the radix state (radix_interface.h, RADIX_S_DISPATCH): what the
// plan writes for every later pass, and the hybrid chunk sort for the fallback's slots. The
// includer declares `state` writable.
#ifndef VKSORT_RADIX_DISPATCH_GLSL
#define VKSORT_RADIX_DISPATCH_GLSL

// Entry `entry` (RADIX_E_*): `groups` workgroups, as a grid past RADIX_DISPATCH_SPLIT.
void radix_plan_write_groups(uint entry, uint groups)
{
    uint w = RADIX_S_DISPATCH + 4u * entry;
    state[w + 0u] = VKSORT_GRID_COLUMNS(groups, RADIX_DISPATCH_SPLIT);
    state[w + 1u] = VKSORT_GRID_ROWS(groups, RADIX_DISPATCH_SPLIT);
    state[w + 2u] = 1u;
    state[w + 3u] = 0u;
}

// An Onesweep digit pass's workgroups for `tiles` tiles: one a tile, or at most
// pc.onesweep_groups that loop over the tiles.
uint radix_onesweep_pass_groups(uint tiles)
{
    return pc.onesweep_groups != 0u ? min(tiles, pc.onesweep_groups) : tiles;
}

#endif
