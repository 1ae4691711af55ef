#version 450
// Ground plane y = 0: one quad of 2 triangles, the grid lines are drawn by grid.frag.
layout(push_constant) uniform Push {
    mat4 view_proj;
} pc;
layout(location = 0) out vec2 v_xz;

const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                vec2(-1, 1));

void main()
{
    vec2 xz = corners[gl_VertexIndex] * 12.0;
    v_xz = xz;
    gl_Position = pc.view_proj * vec4(xz.x, 0.0, xz.y, 1.0);
}
