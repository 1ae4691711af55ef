// Radix sort: the lanes of this subgroup whose element has the same digit (its peers), shared by
// the digit passes' ranking (radix_tile.glsl) and the hybrid chunk sort's stable radix sort.
// From subgroupPartitionNV where VK_NV_shader_subgroup_partitioned exists (USE_PARTITIONED=1),
// else one ballot per digit bit (uvec4 ballots: any subgroup size from 4 to 128).
#ifndef VKSORT_RADIX_PEERS_GLSL
#define VKSORT_RADIX_PEERS_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#ifndef USE_PARTITIONED
#define USE_PARTITIONED 0
#endif
#if USE_PARTITIONED
#extension GL_NV_shader_subgroup_partitioned : require
#endif

// The ballot loop's control: unrolled for the digit passes' constant bit count; an includer whose
// count is a runtime value (the chunk sort) defines it empty first, as its loop was before.
#ifndef RADIX_PEERS_LOOP
#define RADIX_PEERS_LOOP [[unroll]]
#endif

// Peers of a digit below 2^bits.
uvec4 radix_peers_of(uint digit, uint bits)
{
#if USE_PARTITIONED
    return subgroupPartitionNV(digit);
#else
    uvec4 peers = subgroupBallot(true);
    RADIX_PEERS_LOOP for (uint b = 0u; b < bits; ++b) {
        bool bit = ((digit >> b) & 1u) != 0u;
        uvec4 vote = subgroupBallot(bit);
        peers &= bit ? vote : ~vote;
    }
    return peers;
#endif
}

#endif
