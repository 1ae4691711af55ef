/* Offscreen target of the headless mode (see headless.h). */
#include "headless.h"

#include <string.h>

int demo_headless_create(vk_context *ctx, uint32_t width, uint32_t height, demo_headless *h)
{
    memset(h, 0, sizeof *h);
    h->width = width;
    h->height = height;
    if (vk_image_create(ctx, DEMO_HEADLESS_FORMAT, width, height,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        "offscreen_color", &h->color) ||
        vk_buffer_create(ctx, (VkDeviceSize)width * height * 4u, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         VK_BUFFER_HOST, "screenshot_readback", &h->readback)) {
        demo_headless_destroy(ctx, h);
        return -1;
    }
    return 0;
}

void demo_headless_destroy(vk_context *ctx, demo_headless *h)
{
    vk_image_destroy(ctx, &h->color);
    vk_buffer_destroy(ctx, &h->readback);
}

void demo_headless_target(const demo_headless *h, int read_back, demo_target *t)
{
    memset(t, 0, sizeof *t);
    t->name = "offscreen_color";
    t->image = h->color.image;
    t->view = h->color.view;
    t->format = DEMO_HEADLESS_FORMAT;
    t->extent = (VkExtent2D){h->width, h->height};
    /* Every frame clears it: the previous contents are discarded (the previous frame finished:
     * the demo waits for each frame's fence before submitting the next). */
    t->initial.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    t->readback = read_back ? h->readback.buffer : VK_NULL_HANDLE;
}
