#version 450
#extension GL_EXT_control_flow_attributes : require
// Occupancy probe: every workgroup fills SHARED_WORDS of shared memory, counts itself in while it
// runs and records the most workgroups seen running at once (docs/perf-notes.md).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SHARED_WORDS = 1024u;
layout(constant_id = 2) const uint SPIN = 100000u;
layout(set = 0, binding = 0, std430) coherent buffer Counters { uint running; uint most; uint sink; };
shared uint s[SHARED_WORDS];
void main()
{
    uint t = gl_LocalInvocationID.x;
    for (uint i = t; i < SHARED_WORDS; i += gl_WorkGroupSize.x)
        s[i] = i ^ gl_WorkGroupID.x;
    barrier();
    if (t == 0u)
        atomicMax(most, atomicAdd(running, 1u) + 1u);
#ifdef HEAVY
    // About 64 values live across the loop: a register footprint like the radix tile's.
    uint a[64];
    [[unroll]] for (uint i = 0u; i < 64u; ++i)
        a[i] = s[(t * 7u + i) % SHARED_WORDS];
    for (uint k = 0u; k < SPIN / 64u; ++k)
        [[unroll]] for (uint i = 0u; i < 64u; ++i)
            a[i] = a[i] * 1664525u + a[(i + 1u) & 63u];
    uint acc = 0u;
    [[unroll]] for (uint i = 0u; i < 64u; ++i)
        acc += a[i];
#else
    uint acc = s[(t * 7u) % SHARED_WORDS];
    for (uint k = 0u; k < SPIN; ++k)
        acc = acc * 1664525u + 1013904223u;
#endif
    barrier();
    if (t == 0u)
        atomicAdd(running, 0xffffffffu);
    if (acc == 0x12345678u)
        sink = acc;
}
