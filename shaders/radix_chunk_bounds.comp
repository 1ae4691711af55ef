#version 450
// Hybrid sort (RADIX_FLAG_HYBRID, radix_interface.h), after the digit passes of the top 16 bits:
// the bounds of the chunk sort's chunks. Chunk c holds the buckets [c k, (c + 1) k) (a bucket:
// the keys of one value of the order key's top 16 bits; k = 2^RADIX_HYBRID_LOG_K(pc.aux));
// bound[c] is the first index whose bucket is >= c k, for c = 0 .. chunks (bound[chunks] = n).
// They go to the scratch keys half B, free between the top passes (which end in A) and the
// fallback's digit passes. One subgroup a bound: a search of the sorted keys, one load a lane a
// level (each level narrows the range by the subgroup size), so a bound costs a few round trips
// and the pass no read of the whole array.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_CHUNK_BOUNDS_WORKGROUP) in;

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) readonly buffer KeysA { KEY_T keys[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_B, std430) writeonly buffer Bounds { uint bounds[]; };
layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };

void main()
{
    const uint n = state[RADIX_S_COUNT];
    const uint log_k = RADIX_HYBRID_LOG_K(pc.aux);
    const uint chunks = RADIX_HYBRID_BUCKETS >> log_k;
    const uint sg = gl_SubgroupSize;
    // The first level's stride: the least power of sg with sg * stride > n, so that the last
    // lane's probe lies past the keys and some lane always hits (then every level keeps its
    // last probe a hit: the range below it holds the answer).
    uint top = 1u;
    while (top <= n / sg)
        top *= sg;
    const uint subgroups = gl_NumWorkGroups.x * gl_NumSubgroups;
    for (uint c = gl_WorkGroupID.x * gl_NumSubgroups + gl_SubgroupID; c <= chunks; c += subgroups) {
        const uint target = c << log_k;
        uint base = 0u, answer = n;
        for (uint stride = top; stride > 0u; stride /= sg) {
            // Lane l probes base + (l + 1) stride - 1; past the keys (tested without that sum,
            // which can wrap for the first levels) it hits.
            const uint step = gl_SubgroupInvocationID + 1u;
            const bool past = step > (n - base) / stride;
            const uint q = past ? 0u : base + step * stride - 1u;
            const bool hit = past || (radix_order_key(keys[q]) >> 16) >= target;
            const uint first = subgroupBallotFindLSB(subgroupBallot(hit));
            if (stride == 1u)
                answer = min(base + first, n);
            base += first * stride;
        }
        if (subgroupElect())
            bounds[c] = c == chunks ? n : answer;
    }
}
