#version 450
// Grid lines every unit, fading out with distance from the centre.
layout(location = 0) in vec2 v_xz;
layout(location = 0) out vec4 o_color;

void main()
{
    vec2 g = abs(fract(v_xz - 0.5) - 0.5) / fwidth(v_xz);
    float line = 1.0 - min(min(g.x, g.y), 1.0);
    float fade = 1.0 - smoothstep(6.0, 12.0, length(v_xz));
    vec3 base = vec3(0.08, 0.09, 0.11);
    o_color = vec4(mix(base, vec3(0.35, 0.38, 0.45), line * fade), 1.0);
}
