#version 450
// Prepare pass of an indirect-count sort: reads the caller's count, clamps it to the sorter's
// max count, stores it in the scratch state and fills the indirect dispatch table of the passes
// that follow (the host computes the same numbers for a host count; see src/vk/bitonic.c).
//   pc.aux0: word index of the count in the count binding    pc.aux1: max count
//   pc.level: log2 of the tile size                           pc.bit_hi: table entries
#extension GL_GOOGLE_include_directive : require
#include "vksort_shader_interface.h"

layout(local_size_x = VKSORT_PREPARE_WORKGROUP) in;

layout(push_constant) uniform Push {
    uint count;
    uint flags;
    uint mask_lo;
    uint mask_hi;
    uint level;
    uint bit_hi;
    uint aux0;
    uint aux1;
} pc;

layout(set = 0, binding = VKSORT_BINDING_STATE, std430) writeonly buffer State { uint state[]; };
layout(set = 0, binding = VKSORT_BINDING_COUNT, std430) readonly buffer Count { uint count_words[]; };

void write_groups(uint entry, uint groups)
{
    uint w = VKSORT_STATE_HEADER_WORDS + 3u * entry;
    state[w + 0u] = VKSORT_GRID_COLUMNS(groups, VKSORT_DISPATCH_SPLIT);
    state[w + 1u] = VKSORT_GRID_ROWS(groups, VKSORT_DISPATCH_SPLIT);
    state[w + 2u] = 1u;
}

void main()
{
    uint n = min(count_words[pc.aux0], pc.aux1);
    uint log_tile = pc.level;
    uint entries = pc.bit_hi;
    if (gl_GlobalInvocationID.x == 0u) {
        state[0] = n;
        state[1] = 0u;
        state[2] = 0u;
        state[3] = 0u;
    }
    uint log_n = n < 2u ? 0u : uint(findMSB(n - 1u)) + 1u;
    uint tiles = n < 2u ? 0u : ((n - 1u) >> log_tile) + 1u;
    for (uint e = gl_GlobalInvocationID.x; e < entries; e += VKSORT_PREPARE_WORKGROUP) {
        if (e == 0u) {
            write_groups(0u, tiles);
            continue;
        }
        uint level = log_tile + 1u + (e - 1u) / 2u;
        bool level_active = n >= 2u && level <= log_n;
        uint groups;
        if ((e & 1u) != 0u) { // global merge passes of this level
            uint threads = (1u << log_n) >> VKSORT_BITONIC_GLOBAL_LOG;
            groups = (threads + VKSORT_BITONIC_GLOBAL_WORKGROUP - 1u) / VKSORT_BITONIC_GLOBAL_WORKGROUP;
        } else {              // local merge of this level
            groups = tiles;
        }
        write_groups(e, level_active ? groups : 0u);
    }
}
