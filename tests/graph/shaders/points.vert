#version 450
// Draws point i at pixel (i, 0) of an n x 1 target carrying the vertex's payload (the sorted
// index, read as a vertex attribute from the sorted buffer).
layout(location = 0) in uint payload;
layout(location = 0) flat out uint v_payload;
layout(push_constant) uniform Params { uint n; } pc;
void main()
{
    float x = -1.0 + (2.0 * float(gl_VertexIndex) + 1.0) / float(pc.n);
    gl_Position = vec4(x, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
    v_payload = payload;
}
