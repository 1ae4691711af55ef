#version 450
// Pass "depth_keys": one sort key and one index per particle. The key is the view depth encoded
// so that an ascending stable u32 sort puts the farthest particle first:
//  key_bits 32: key = 0xFFFFFFFF - floatBits(max(depth, 0)) (non-negative floats order like
//               their bits);
//  key_bits 16 or 24: the view depth quantized linearly over [0, max_depth] to key_bits bits,
//               complemented, so the sort only needs bits [0, key_bits) - 2 or 3 radix passes
//               instead of 4 (what engines do for particles: 16 bits over the default 53 m is 0.8 mm).
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer Particles { Particle p[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Keys { uint keys[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Indices { uint indices[]; };

layout(push_constant) uniform Push {
    vec4 eye;        // xyz camera position
    vec4 forward;    // xyz unit view direction
    uint count;
    uint key_bits;
    float max_depth;
} pc;

void main()
{
    // 2D dispatch: more than 65535 workgroups of 256 (16M+ particles) need a second dimension.
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i >= pc.count)
        return;
    float depth = dot(p[i].pos_age.xyz - pc.eye.xyz, pc.forward.xyz);
    if (pc.key_bits >= 32u) {
        keys[i] = 0xFFFFFFFFu - floatBitsToUint(max(depth, 0.0));
    } else {
        uint top = (1u << pc.key_bits) - 1u;
        float q = clamp(depth / pc.max_depth, 0.0, 1.0) * float(top);
        keys[i] = top - uint(q);
    }
    indices[i] = i;
}
