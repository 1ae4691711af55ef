#version 450
// Camera-facing sprites, vertex pulling: sprite s draws particle indices[s] (back to front when
// the indices are sorted); 6 vertices (two triangles) per sprite, no vertex buffers.
#include "common.glsl"

layout(std430, set = 0, binding = 0) readonly buffer Particles { Particle p[]; };
layout(std430, set = 0, binding = 1) readonly buffer Indices { uint indices[]; };

layout(push_constant) uniform Push {
    mat4 view_proj;
    vec4 right;      // xyz camera right
    vec4 up;         // xyz camera up
} pc;

layout(location = 0) out vec2 v_uv;
layout(location = 1) out vec4 v_color;

const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1),
                                vec2(-1, 1));

void main()
{
    uint sprite = uint(gl_VertexIndex) / 6u;
    vec2 c = corners[uint(gl_VertexIndex) % 6u];
    Particle q = p[indices[sprite]];
    vec3 pos = q.pos_age.xyz + (pc.right.xyz * c.x + pc.up.xyz * c.y) * q.misc.x;
    gl_Position = pc.view_proj * vec4(pos, 1.0);
    v_uv = c;
    v_color = vec4(q.color.rgb * q.color.a, q.color.a);   // premultiplied
}
