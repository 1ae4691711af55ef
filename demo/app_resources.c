/* The particle buffer and the sort backend, (re)made for a particle count (see app.h). */
#include "app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int demo_set_count(demo_app *app, uint32_t count, demo_sort sort)
{
    vk_context *ctx = &app->ctx;
    vkDeviceWaitIdle(ctx->device);
    if ((uint64_t)count * 64u > ctx->props.limits.maxStorageBufferRange) {
        fprintf(stderr, "vksort-demo: %u particles need %llu bytes in one storage buffer; %s allows "
                        "%u (maxStorageBufferRange): at most %u particles\n",
                count, (unsigned long long)count * 64u, ctx->props.deviceName,
                ctx->props.limits.maxStorageBufferRange, ctx->props.limits.maxStorageBufferRange / 64u);
        return -1;
    }
    if (count != app->count) {
        /* The new buffer first: on failure the old one (and count) stay, so the caller can go
         * back to them. */
        vk_buffer particles;
        const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT; /* --check-order */
        if (vk_buffer_create(ctx, (VkDeviceSize)count * 64u, usage, VK_BUFFER_DEVICE, "particles",
                             &particles))
            return -1;
        vk_buffer_destroy(ctx, &app->particles);
        app->particles = particles;
        demo_sorts_resize(&app->sorts, count);
        app->count = count;
        app->need_reset = 1;
    }
    char why[512];
    if (demo_sorts_prepare(&app->sorts, sort, why, sizeof why)) {
        fprintf(stderr, "vksort-demo: sort '%s' is not available: %s\n", demo_sort_name(sort), why);
        return -1;
    }
    if (sort == DEMO_SORT_ONESWEEP && ctx->is_cpu) {
        const char *t = getenv("LP_NUM_THREADS");
        if (!t || strcmp(t, "1") != 0)
            fprintf(stderr, "vksort-demo: warning: onesweep on a CPU Vulkan driver needs "
                            "LP_NUM_THREADS=1 (lavapipe's loop limit, docs/vulkan.md)\n");
    }
    app->sort = sort;
    return 0;
}
