#version 450
// The benchmark's input, written on the GPU right before each timed sort (bench_data.h: uniform
// random words, each word's own index for the payloads, or f32 depths). Generating here instead
// of uploading from the host keeps the GPU busy between runs, so its clocks stay up
// (docs/PERFORMANCE.md, ninth round).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) writeonly buffer Words {
    uint words[];
};

layout(push_constant) uniform Push {
    uint word_count;
    uint seed;
    uint mode; // BENCH_FILL_*
} pc;

#define BENCH_GLSL
#include "bench_data.h"

void main()
{
    uint salt = bench_salt(pc.seed);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.word_count; i += stride)
        words[i] = bench_word(salt, i, pc.mode);
}
