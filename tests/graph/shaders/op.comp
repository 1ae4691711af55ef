#version 450
// Test pass for the render graph: dst[i] = src0[i] * mul + add (+ src1[i] when use_src1).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src0 { uint src0[]; };
layout(set = 0, binding = 1) readonly buffer Src1 { uint src1[]; };
layout(set = 0, binding = 2) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Params { uint n; uint mul; uint add; uint use_src1; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n)
        return;
    uint v = src0[i] * pc.mul + pc.add;
    if (pc.use_src1 != 0u)
        v += src1[i];
    dst[i] = v;
}
