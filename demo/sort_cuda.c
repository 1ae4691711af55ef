/* CUDA backend of the demo (see sort_cuda.h). */
#include "sort_cuda.h"

#include "nvtx_marks.h"

#include <stdio.h>
#include <string.h>

void demo_cuda_init(demo_cuda *c)
{
    memset(c, 0, sizeof *c);
}

#ifndef VKSORT_WITH_CUDA

int demo_cuda_prepare(demo_cuda *c, vk_context *ctx, uint32_t max_count, char *why, size_t n)
{
    (void)c;
    (void)ctx;
    (void)max_count;
    snprintf(why, n, "the CUDA backend is not built into this binary (configure with the CUDA "
                     "toolkit and -DVKSORT_CUDA=AUTO or ON)");
    return -1;
}

int demo_cuda_enqueue(demo_cuda *c, uint32_t count, uint32_t key_bits, uint64_t wait_value)
{
    (void)c;
    (void)count;
    (void)key_bits;
    (void)wait_value;
    return -1;
}

double demo_cuda_last_ms(demo_cuda *c)
{
    (void)c;
    return -1.0;
}

void demo_cuda_release_buffers(demo_cuda *c, vk_context *ctx)
{
    (void)c;
    (void)ctx;
}

void demo_cuda_destroy(demo_cuda *c, vk_context *ctx)
{
    (void)c;
    (void)ctx;
}

#else

#include "vksort/cuda.h"

#include <unistd.h>

static int import_buffer(demo_cuda *c, vk_context *ctx, vk_buffer *b, void **out, char *why, size_t n)
{
    VkMemoryGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
    gi.memory = b->memory;
    gi.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    if (ctx->get_memory_fd(ctx->device, &gi, &fd) != VK_SUCCESS) {
        snprintf(why, n, "cuda: vkGetMemoryFdKHR failed");
        return -1;
    }
    vksort_cuda_vk_buffer_import_info ii;
    memset(&ii, 0, sizeof ii);
    ii.fd = fd;
    ii.allocation_size = b->allocation_size;
    ii.dedicated = 1;
    ii.offset = 0;
    ii.size = b->size;
    vksort_result r = vksort_cuda_import_vk_buffer(c->sorter, &ii, (vksort_cuda_vk_buffer **)out);
    if (r != VKSORT_SUCCESS) {
        close(fd);
        snprintf(why, n, "cuda: importing a Vulkan buffer: %s",
                 vksort_cuda_sorter_last_message(c->sorter));
        return -1;
    }
    return 0;
}

int demo_cuda_prepare(demo_cuda *c, vk_context *ctx, uint32_t max_count, char *why, size_t n)
{
    if (c->sorter && c->max_count == max_count && c->cu_keys)
        return 0;
    vksort_cuda_diagnostics d;
    memset(&d, 0, sizeof d);
    int devices = 0;
    if (vksort_cuda_get_device_count(&devices, &d) != VKSORT_SUCCESS) {
        snprintf(why, n, "no CUDA device: %s", d.message);
        return -1;
    }
    if (!ctx->external) {
        snprintf(why, n, "the Vulkan device %s lacks timeline semaphores or "
                         "VK_KHR_external_memory_fd/VK_KHR_external_semaphore_fd",
                 ctx->props.deviceName);
        return -1;
    }
    demo_cuda_destroy(c, ctx);
    vksort_cuda_sorter_create_info ci;
    memset(&ci, 0, sizeof ci);
    ci.key_type = VKSORT_KEY_U32;
    ci.has_payload = 1;
    ci.max_count = max_count ? max_count : 1;
    ci.use_device_uuid = 1;
    memcpy(ci.device_uuid, ctx->device_uuid, 16);
    ci.enable_timing = 1;
    ci.diagnostics = &d;
    vksort_cuda_sorter *sorter = NULL;
    if (vksort_cuda_sorter_create(&ci, &sorter) != VKSORT_SUCCESS) {
        snprintf(why, n, "cuda sorter: %s (is the Vulkan device %s a CUDA device?)", d.message,
                 ctx->props.deviceName);
        return -1;
    }
    c->sorter = sorter;
    c->max_count = ci.max_count;
    VkDeviceSize bytes = (VkDeviceSize)ci.max_count * 4u;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT; /* --check-order */
    if (vk_buffer_create(ctx, bytes, usage, VK_BUFFER_EXPORT, "cuda_sort_keys", &c->keys) ||
        vk_buffer_create(ctx, bytes, usage, VK_BUFFER_EXPORT, "cuda_sort_indices", &c->indices)) {
        snprintf(why, n, "cuda: cannot allocate exportable buffers");
        demo_cuda_destroy(c, ctx);
        return -1;
    }
    if (import_buffer(c, ctx, &c->keys, &c->cu_keys, why, n) ||
        import_buffer(c, ctx, &c->indices, &c->cu_indices, why, n)) {
        demo_cuda_destroy(c, ctx);
        return -1;
    }
    vksort_cuda_vk_semaphore_chains sc;
    vksort_cuda_vk_semaphore_chains_init(&sc, 0);
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    si.pNext = &sc.type;
    VkSemaphoreGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR};
    gi.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
    int fd = -1;
    if (vkCreateSemaphore(ctx->device, &si, NULL, &c->timeline) != VK_SUCCESS ||
        (gi.semaphore = c->timeline, ctx->get_semaphore_fd(ctx->device, &gi, &fd) != VK_SUCCESS)) {
        snprintf(why, n, "cuda: cannot create/export the timeline semaphore");
        demo_cuda_destroy(c, ctx);
        return -1;
    }
    vk_name(ctx, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)c->timeline, "cuda_timeline");
    if (vksort_cuda_import_vk_semaphore(c->sorter, fd, (vksort_cuda_vk_semaphore **)&c->cu_semaphore) !=
        VKSORT_SUCCESS) {
        close(fd);
        snprintf(why, n, "cuda: importing the timeline semaphore: %s",
                 vksort_cuda_sorter_last_message(c->sorter));
        demo_cuda_destroy(c, ctx);
        return -1;
    }
    c->value = 0;
    c->failed = 0;
    return 0;
}

int demo_cuda_enqueue(demo_cuda *c, uint32_t count, uint32_t key_bits, uint64_t wait_value)
{
    vksort_cuda_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.semaphore = c->cu_semaphore;
    si.wait_value = wait_value;
    si.signal_value = wait_value + 1;
    si.keys = c->cu_keys;
    si.values = c->cu_indices;
    si.count = count;
    si.flags = VKSORT_FLAG_STABLE;
    si.bit_end = key_bits < 32u ? key_bits : 0u;
    demo_nvtx_push("vksort-demo cuda sort (enqueue)");
    vksort_result r = vksort_cuda_sort_vk(c->sorter, &si);
    demo_nvtx_pop();
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "vksort-demo: cuda sort: %s\n", vksort_cuda_sorter_last_message(c->sorter));
        /* Arguments rejected: nothing enqueued, not even the signal (the caller signals it). */
        c->failed = r != VKSORT_ERROR_CUDA;
        return -1;
    }
    return 0;
}

double demo_cuda_last_ms(demo_cuda *c)
{
    double ms = -1.0;
    if (c->sorter && vksort_cuda_sorter_last_sort_ms(c->sorter, &ms) != VKSORT_SUCCESS)
        ms = -1.0;
    return ms;
}

void demo_cuda_release_buffers(demo_cuda *c, vk_context *ctx)
{
    demo_cuda_destroy(c, ctx);
}

void demo_cuda_destroy(demo_cuda *c, vk_context *ctx)
{
    if (c->sorter)
        vksort_cuda_sorter_synchronize(c->sorter);
    vksort_cuda_vk_buffer_destroy(c->cu_keys);
    vksort_cuda_vk_buffer_destroy(c->cu_indices);
    vksort_cuda_vk_semaphore_destroy(c->cu_semaphore);
    vksort_cuda_sorter_destroy(c->sorter);
    vk_buffer_destroy(ctx, &c->keys);
    vk_buffer_destroy(ctx, &c->indices);
    if (c->timeline)
        vkDestroySemaphore(ctx->device, c->timeline, NULL);
    demo_cuda_init(c);
}

#endif
