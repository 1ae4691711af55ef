/* Orbit camera math (see camera.h). */
#include "camera.h"

#include <math.h>
#include <string.h>

void demo_camera_default(demo_camera *cam, int overlap_scene)
{
    memset(cam, 0, sizeof *cam);
    cam->yaw = 0.6f;
    cam->pitch = overlap_scene ? 0.25f : 0.35f;
    cam->distance = overlap_scene ? 4.5f : 13.0f;
    cam->target[1] = overlap_scene ? 1.2f : 2.0f;
    cam->fov_y = 0.9f;
    cam->aspect = 16.0f / 9.0f;
}

void demo_camera_orbit(demo_camera *cam, float dx, float dy)
{
    cam->yaw += dx;
    cam->pitch += dy;
    if (cam->pitch > 1.5f)
        cam->pitch = 1.5f;
    if (cam->pitch < -1.2f)
        cam->pitch = -1.2f;
}

void demo_camera_zoom(demo_camera *cam, float steps)
{
    cam->distance *= powf(0.9f, steps);
    if (cam->distance < 0.5f)
        cam->distance = 0.5f;
    if (cam->distance > 200.0f)
        cam->distance = 200.0f;
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void demo_camera_compute(const demo_camera *cam, demo_camera_frame *f)
{
    float cp = cosf(cam->pitch), sp = sinf(cam->pitch);
    float cy = cosf(cam->yaw), sy = sinf(cam->yaw);
    for (int i = 0; i < 3; ++i)
        f->eye[i] = cam->target[i];
    f->eye[0] += cam->distance * cp * sy;
    f->eye[1] += cam->distance * sp;
    f->eye[2] += cam->distance * cp * cy;
    for (int i = 0; i < 3; ++i)
        f->forward[i] = cam->target[i] - f->eye[i];
    normalize3(f->forward);
    const float world_up[3] = {0.0f, 1.0f, 0.0f};
    cross3(f->forward, world_up, f->right);
    normalize3(f->right);
    cross3(f->right, f->forward, f->up);
    /* View matrix rows: right, up, -forward (right-handed, camera looks down -z). */
    float view[16] = {0};
    for (int i = 0; i < 3; ++i) {
        view[i * 4 + 0] = f->right[i];
        view[i * 4 + 1] = f->up[i];
        view[i * 4 + 2] = -f->forward[i];
    }
    view[12] = -(f->right[0] * f->eye[0] + f->right[1] * f->eye[1] + f->right[2] * f->eye[2]);
    view[13] = -(f->up[0] * f->eye[0] + f->up[1] * f->eye[1] + f->up[2] * f->eye[2]);
    view[14] = f->forward[0] * f->eye[0] + f->forward[1] * f->eye[1] + f->forward[2] * f->eye[2];
    view[15] = 1.0f;
    /* Perspective, Vulkan clip space: y flipped, depth 0 (near) .. 1 (far). */
    const float n = 0.05f, fa = 500.0f;
    float t = 1.0f / tanf(cam->fov_y * 0.5f);
    float proj[16] = {0};
    proj[0] = t / cam->aspect;
    proj[5] = -t;
    proj[10] = fa / (n - fa);
    proj[11] = -1.0f;
    proj[14] = n * fa / (n - fa);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k)
                s += proj[k * 4 + r] * view[c * 4 + k];
            f->view_proj[c * 4 + r] = s;
        }
}
