#version 450
// Pass "simulate": emitters, velocity, gravity, ground bounce, lifetime and colour over life.
// Scene 0 (fountains): particles respawn at one of 5 emitters when their lifetime runs out.
// Scene 1 (overlap, for tests): a static, deterministic cloud of large overlapping sprites in
// four colours, where the draw order decides the image.
#include "common.glsl"

layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) buffer Particles { Particle p[]; };

layout(push_constant) uniform Push {
    uint count;
    uint seed;
    uint scene;
    uint reset;     // 1: (re)initialise every particle
    float dt;
    float time;
} pc;

const vec3 emitter_color[5] = vec3[5](vec3(1.0, 0.45, 0.1), vec3(0.2, 0.6, 1.0),
                                      vec3(0.4, 1.0, 0.3), vec3(1.0, 0.2, 0.6),
                                      vec3(1.0, 0.9, 0.3));

void spawn(uint i, inout Particle q, float spread_age)
{
    uint s = pcg_hash(i ^ (pc.seed * 0x9E3779B9u)) ^ pcg_hash(uint(q.misc.z) + 17u);
    uint e = uint(rand01(s) * 5.0) % 5u;
    float a = 6.2831853 * float(e) / 5.0;
    vec3 origin = vec3(cos(a) * 3.0, 0.05, sin(a) * 3.0);
    float phi = rand01(s) * 6.2831853;
    float r = sqrt(rand01(s)) * 1.4;
    vec3 v = vec3(cos(phi) * r - origin.x * 0.15, 4.0 + rand01(s) * 2.5, sin(phi) * r - origin.z * 0.15);
    float life = 2.0 + rand01(s) * 2.5;
    // At a reset, start each particle part-way through its life (ballistic, no bounce) so that
    // the fountains are full from the first frame.
    float age = spread_age * life * rand01(s);
    vec3 g = vec3(0.0, -4.0, 0.0);
    vec3 pos = origin + v * age + 0.5 * g * age * age;
    pos.y = abs(pos.y);
    q.pos_age = vec4(pos, age);
    q.vel_life = vec4(v + g * age, life);
    // Smaller sprites for more particles (radius ~ count^-1/4, from 20k on): a finer, not a
    // denser cloud, and a fill cost that grows like sqrt(count) instead of count.
    float scale = clamp(pow(20000.0 / float(pc.count), 0.25), 0.25, 1.0);
    q.misc.x = (0.03 + 0.05 * rand01(s)) * scale;
    q.misc.y = float(e);
}

void overlap(uint i, inout Particle q)
{
    uint s = pcg_hash(i ^ (pc.seed * 0x9E3779B9u));
    vec3 pos = vec3(rand01(s), rand01(s), rand01(s)) * 2.0 - 1.0;
    const vec3 palette[4] = vec3[4](vec3(1, 0.1, 0.1), vec3(0.1, 1, 0.1), vec3(0.1, 0.2, 1),
                                    vec3(1, 1, 0.1));
    q.pos_age = vec4(pos * vec3(1.2, 0.8, 1.2) + vec3(0, 1.2, 0), 0.0);
    q.vel_life = vec4(0.0, 0.0, 0.0, 1.0);
    q.color = vec4(palette[i % 4u], 0.8);
    // Sprite size shrinks with the count so that the cloud stays about as dense.
    float scale = clamp(sqrt(400.0 / float(pc.count)), 0.15, 1.0);
    q.misc = vec4((0.35 + 0.2 * rand01(s)) * scale, 0.0, 0.0, 0.0);
}

void main()
{
    // 2D dispatch: more than 65535 workgroups of 256 (16M+ particles) need a second dimension.
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i >= pc.count)
        return;
    Particle q = p[i];
    if (pc.scene == 1u) {
        if (pc.reset != 0u) {
            overlap(i, q);
            p[i] = q;
        }
        return;
    }
    if (pc.reset != 0u) {
        q.misc = vec4(0.0);
        spawn(i, q, 1.0);
    } else {
        q.pos_age.w += pc.dt;
        if (q.pos_age.w >= q.vel_life.w) {
            q.misc.z += 1.0;
            spawn(i, q, 0.0);
        } else {
            q.vel_life.xyz += vec3(0.0, -4.0, 0.0) * pc.dt;
            q.vel_life.xyz *= (1.0 - 0.1 * pc.dt);
            q.pos_age.xyz += q.vel_life.xyz * pc.dt;
            if (q.pos_age.y < 0.0) {            // bounce on the ground
                q.pos_age.y = -q.pos_age.y * 0.5;
                q.vel_life.y = -q.vel_life.y * 0.4;
                q.vel_life.xz *= 0.7;
            }
        }
    }
    float t = clamp(q.pos_age.w / q.vel_life.w, 0.0, 1.0);
    vec3 c0 = emitter_color[uint(q.misc.y) % 5u];
    vec3 c = t < 0.5 ? mix(vec3(1.0), c0, t * 2.0) : mix(c0, vec3(0.25, 0.08, 0.05), (t - 0.5) * 2.0);
    float alpha = smoothstep(0.0, 0.08, t) * (1.0 - smoothstep(0.6, 1.0, t)) * 0.6;
    q.color = vec4(c, alpha);
    p[i] = q;
}
