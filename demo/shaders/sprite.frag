#version 450
// Soft round sprite generated in the shader (no texture), premultiplied alpha.
layout(location = 0) in vec2 v_uv;
layout(location = 1) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    float r = length(v_uv);
    float a = 1.0 - smoothstep(0.55, 1.0, r);
    if (a <= 0.0)
        discard;
    o_color = v_color * a;
}
