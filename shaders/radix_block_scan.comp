#version 450
// Portable radix, step 2 of a pass: turns the block counts into each block's starting index per
// digit. One workgroup per digit (RADIX_DIGITS workgroups): its invocations take consecutive
// runs of blocks, sum them, scan the sums across the workgroup (subgroup scans, then the
// subgroup totals), and write each block's start = the digit's global start + the blocks before
// it. (A single workgroup walking the blocks in order cost 70 µs per digit on the H200 at 1024
// blocks: 64 dependent rounds of loads; this is a few rounds.) No workgroup waits for another.
// Slot 0 of a sort with RADIX_FLAG_BLOCK_COUNTS has no upsweep: its block counts are the
// histogram pass's table row of the slot's digit (the keys are still in input order).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_SCAN_WORKGROUP) in;
#define WG RADIX_SCAN_WORKGROUP
#define MAX_PER (RADIX_MAX_BLOCKS / WG) // blocks per invocation

layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };
layout(set = 0, binding = RADIX_BINDING_HIST, std430) readonly buffer Hist { uint hist[]; };
layout(set = 0, binding = RADIX_BINDING_LOOKBACK, std430) buffer Blocks { uint block_counts[]; };

shared uint s_scan_partial[WG]; // one per subgroup (at most WG subgroups)
#include "radix_scan.glsl"

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint d = radix_group_index();
    uint blocks = state[RADIX_S_BLOCKS];
    uint digit = state[RADIX_S_SLOT_DIGIT + pc.pass_index];
    uint per = (blocks + WG - 1u) / WG;
    uint first = t * per;
    // Block b's count at block_counts[b * stride + offset].
    bool from_table = (pc.flags & RADIX_FLAG_BLOCK_COUNTS) != 0u && pc.pass_index == 0u;
    uint stride = from_table ? pc.digit_count * RADIX_DIGITS : RADIX_DIGITS;
    uint offset = from_table ? RADIX_BLOCK_TABLE(pc.max_tiles) + digit * RADIX_DIGITS + d : d;
    uint v[MAX_PER];
    uint sum = 0u;
    [[unroll]] for (uint k = 0u; k < MAX_PER; ++k) {
        uint b = first + k;
        v[k] = k < per && b < blocks ? block_counts[b * stride + offset] : 0u;
        sum += v[k];
    }
    uint run = hist[(RADIX_MAX_PASSES + digit) * RADIX_DIGITS + d] +
               radix_workgroup_exclusive_scan(sum);
    [[unroll]] for (uint k = 0u; k < MAX_PER; ++k) {
        uint b = first + k;
        if (k < per && b < blocks)
            block_counts[b * RADIX_DIGITS + d] = run;
        run += v[k];
    }
}
