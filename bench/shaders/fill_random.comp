#version 450
// The benchmark's input, written on the GPU right before each timed sort: uniform random
// 32-bit words from a hash of the word index and the run's seed (MODE_RANDOM), or each word's
// own index (MODE_INDEX, the payloads). Generating here instead of uploading from the host
// keeps the GPU busy between runs, so its clocks stay up (docs/PERFORMANCE.md, ninth round).
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) writeonly buffer Words {
    uint words[];
};

layout(push_constant) uniform Push {
    uint word_count;
    uint seed;
    uint mode; // 0: random, 1: index, 2: depth (f32 in [1, 100), a renderer's depth keys)
} pc;

// Integer hash: xorshift-multiply rounds (the "lowbias32" constants), uniform output bits for
// consecutive inputs.
uint hash32(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void main()
{
    uint salt = hash32(pc.seed * 0x9e3779b9u + 1u);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.word_count; i += stride)
    {
        uint r = hash32(i ^ salt);
        // Depths: uniform in [1, 100) from the hash's top 24 bits, as float bits: few values
        // of the high bits (exponents 127..133), so the keys' top digit has four values.
        uint depth = floatBitsToUint(1.0 + 99.0 * float(r >> 8u) * (1.0 / 16777216.0));
        words[i] = pc.mode == 0u ? r : pc.mode == 2u ? depth : i;
    }
}
