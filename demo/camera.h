/* Orbit camera: yaw/pitch/distance around a target; Vulkan clip space (y down, z in [0, 1]). */
#ifndef VKSORT_DEMO_CAMERA_H
#define VKSORT_DEMO_CAMERA_H

typedef struct demo_camera {
    float yaw, pitch, distance;     /* radians, radians, world units */
    float target[3];
    float fov_y;                    /* radians */
    float aspect;
} demo_camera;

typedef struct demo_camera_frame {
    float view_proj[16];            /* column-major */
    float eye[3], forward[3], right[3], up[3];
} demo_camera_frame;

void demo_camera_default(demo_camera *cam, int overlap_scene);
void demo_camera_orbit(demo_camera *cam, float dx, float dy);   /* radians */
void demo_camera_zoom(demo_camera *cam, float steps);           /* wheel steps */
void demo_camera_compute(const demo_camera *cam, demo_camera_frame *out);

#endif
