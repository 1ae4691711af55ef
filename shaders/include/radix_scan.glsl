// Exclusive scan across a workgroup of one value per invocation, in invocation order: subgroup
// scans, then the subgroup totals in order (invocation 0). Every invocation calls it (it has
// barriers) and subgroups must be full. The includer declares
//     shared uint s_scan_partial[N];   // N >= gl_NumSubgroups
// which is free again after the caller's next barrier.
#ifndef VKSORT_RADIX_SCAN_GLSL
#define VKSORT_RADIX_SCAN_GLSL

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

uint radix_workgroup_exclusive_scan(uint x)
{
    uint inclusive = subgroupInclusiveAdd(x);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
        s_scan_partial[gl_SubgroupID] = inclusive;
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint run = 0u;
        for (uint s = 0u; s < gl_NumSubgroups; ++s) {
            uint v = s_scan_partial[s];
            s_scan_partial[s] = run;
            run += v;
        }
    }
    barrier();
    return s_scan_partial[gl_SubgroupID] + inclusive - x;
}

#endif
