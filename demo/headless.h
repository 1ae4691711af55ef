/* Headless output: an offscreen colour image (RGBA8) the frame renders into, and a host-visible
 * buffer the graph's readback pass copies it to when a screenshot is due. */
#ifndef VKSORT_DEMO_HEADLESS_H
#define VKSORT_DEMO_HEADLESS_H

#include "frame.h"
#include "vk_context.h"

typedef struct demo_headless {
    vk_image color;
    vk_buffer readback;
    uint32_t width, height;
} demo_headless;

int demo_headless_create(vk_context *ctx, uint32_t width, uint32_t height, demo_headless *out);
void demo_headless_destroy(vk_context *ctx, demo_headless *h);
/* The frame target; read_back: copy the image to h->readback.mapped in this frame. */
void demo_headless_target(const demo_headless *h, int read_back, demo_target *out);

#define DEMO_HEADLESS_FORMAT VK_FORMAT_R8G8B8A8_UNORM

#endif
