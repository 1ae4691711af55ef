#version 450
// Portable radix, step 2 of a pass (one workgroup): turns the block counts into each block's
// starting index per digit: invocation d walks the blocks in order from the digit's global
// start. Loads go in batches so that several are in flight at once.
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_DIGITS) in;

layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) readonly buffer Hist { uint hist[]; };
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) buffer Blocks { uint block_counts[]; };

#define BATCH 16u

void main()
{
    uint d = gl_LocalInvocationID.x;
    uint blocks = state[RADIX_S_BLOCKS];
    uint run = hist[(RADIX_MAX_PASSES + pc.pass_index) * RADIX_DIGITS + d];
    for (uint b0 = 0u; b0 < blocks; b0 += BATCH) {
        uint v[BATCH];
        [[unroll]] for (uint k = 0u; k < BATCH; ++k)
            v[k] = b0 + k < blocks ? block_counts[(b0 + k) * RADIX_DIGITS + d] : 0u;
        [[unroll]] for (uint k = 0u; k < BATCH; ++k) {
            if (b0 + k < blocks)
                block_counts[(b0 + k) * RADIX_DIGITS + d] = run;
            run += v[k];
        }
    }
}
