// Shared by the demo's shaders: the particle layout (std430, 64 bytes) and a hash RNG.
struct Particle {
    vec4 pos_age;     // xyz position, w age (seconds)
    vec4 vel_life;    // xyz velocity, w lifetime (seconds)
    vec4 color;       // straight (not premultiplied) rgba, colour over life applied
    vec4 misc;        // x sprite radius, y emitter, z respawn count, w unused
};

uint pcg_hash(uint v)
{
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Uniform float in [0, 1) from a hashed key.
float rand01(inout uint s)
{
    s = pcg_hash(s);
    return float(s >> 8) * (1.0 / 16777216.0);
}
