#version 450
// After an odd number of active passes the sorted data sits in the scratch half (B): copy it
// back to the caller's buffers (dispatched with zero workgroups otherwise).
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

layout(local_size_x = RADIX_COPY_WORKGROUP) in;

layout(set = 0, binding = RADIX_BINDING_KEYS_A, std430) writeonly buffer KeysA { KEY_T keys_a[]; };
layout(set = 0, binding = RADIX_BINDING_KEYS_B, std430) readonly buffer KeysB { KEY_T keys_b[]; };
#if HAS_VALUE
layout(set = 0, binding = RADIX_BINDING_VALUES_A, std430) writeonly buffer ValuesA { uint values_a[]; };
layout(set = 0, binding = RADIX_BINDING_VALUES_B, std430) readonly buffer ValuesB { uint values_b[]; };
#endif
layout(set = 0, binding = RADIX_BINDING_STATE, std430) readonly buffer State { uint state[]; };

void main()
{
    uint n = state[RADIX_S_COUNT];
    uint base = radix_group_index() * RADIX_COPY_PER_GROUP + gl_LocalInvocationID.x;
    for (uint k = 0u; k < RADIX_COPY_PER_GROUP / RADIX_COPY_WORKGROUP; ++k) {
        uint i = base + k * RADIX_COPY_WORKGROUP;
        if (i < n) {
            keys_a[i] = keys_b[i];
#if HAS_VALUE
            values_a[i] = values_b[i];
#endif
        }
    }
}
