/*
 * The example of docs/vulkan.md, built and run as a test so that it stays true: depth-sort
 * particle indices in a frame, with the count written by the GPU.
 */
#include "support/vk_rig.h"
#include "vksort/vulkan.h"

#include <stdio.h>
#include <string.h>

/* ---- example (docs/vulkan.md) ---- */
typedef struct particle_sort {
    vksort_vk_sorter *sorter;
    vksort_vk_memory_requirements reqs;
} particle_sort;

/* Once, at start-up: a sorter for up to max_particles f32 depths with a uint32 payload. */
static vksort_result particle_sort_init(particle_sort *ps, VkInstance instance,
                                        VkPhysicalDevice physical_device, VkDevice device,
                                        uint32_t max_particles)
{
    vksort_vk_diagnostics diag;
    vksort_vk_sorter_create_info ci = {0};
    ci.instance = instance;
    ci.physical_device = physical_device;
    ci.device = device; /* created with VK_KHR_push_descriptor enabled */
    ci.get_instance_proc_addr = vkGetInstanceProcAddr;
    ci.key_type = VKSORT_KEY_F32;
    ci.has_payload = VK_TRUE;
    ci.max_count = max_particles;
    ci.diagnostics = &diag;
    vksort_result r = vksort_vk_sorter_create(&ci, &ps->sorter);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "vksort: %s (%s)\n", vksort_result_string(r), diag.message);
        return r;
    }
    /* Allocate a scratch buffer of reqs.scratch_size bytes with reqs.scratch_usage. */
    return vksort_vk_get_memory_requirements(ps->sorter, &ps->reqs);
}

/* Every frame: depths[i] and indices[i] were written by a compute pass, and so was the number of
 * live particles (a uint32 at count_offset). Sort back to front, then draw. */
static vksort_result particle_sort_record(particle_sort *ps, VkCommandBuffer cmd,
                                          VkBuffer depths, VkBuffer indices, VkBuffer scratch,
                                          VkBuffer counts, VkDeviceSize count_offset)
{
    /* The producer's writes -> the sort's first accesses (COMPUTE_SHADER, read + write). */
    VkMemoryBarrier before = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    before.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0, NULL, 0, NULL);

    vksort_vk_sort_info info = {0};
    info.keys = (vksort_vk_buffer_range){depths, 0, VK_WHOLE_SIZE};
    info.values = (vksort_vk_buffer_range){indices, 0, VK_WHOLE_SIZE};
    info.scratch = (vksort_vk_buffer_range){scratch, 0, ps->reqs.scratch_size};
    info.count_buffer = (vksort_vk_buffer_range){counts, count_offset, 4}; /* GPU-driven count */
    info.flags = VKSORT_FLAG_DESCENDING; /* farthest first */
    vksort_result r = vksort_vk_cmd_sort(ps->sorter, cmd, &info);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "vksort: %s\n", vksort_vk_sorter_last_message(ps->sorter));
        return r;
    }

    /* The sort's last writes (COMPUTE_SHADER) -> the draw reading the indices. The compute
     * pipeline, descriptor set 0 and push constants of the compute bind point must be rebound. */
    VkMemoryBarrier after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &after, 0, NULL, 0, NULL);
    return VKSORT_SUCCESS;
}
/* ---- end of example ---- */

int main(void)
{
    vk_rig rig;
    vk_rig_options opt = {1, -1, 0};
    if (vk_rig_create(&rig, &opt) != 0)
        return 1;
    const uint32_t max_particles = 10000, live = 7777;
    particle_sort ps;
    int fail = particle_sort_init(&ps, rig.instance, rig.physical_device, rig.device,
                                  max_particles) != VKSORT_SUCCESS;
    const VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    vk_rig_buffer depths, indices, scratch, counts;
    fail = fail || vk_rig_buffer_create(&rig, max_particles * 4, su, 1, &depths) ||
           vk_rig_buffer_create(&rig, max_particles * 4, su, 1, &indices) ||
           vk_rig_buffer_create(&rig, ps.reqs.scratch_size, ps.reqs.scratch_usage, 1, &scratch) ||
           vk_rig_buffer_create(&rig, 64, su, 1, &counts);
    if (fail)
        return 1;
    float *d = depths.mapped;
    uint32_t *ix = indices.mapped;
    for (uint32_t i = 0; i < max_particles; ++i) {
        d[i] = (float)((i * 7919u) % 1000u) * 0.25f - 50.0f;
        ix[i] = i;
    }
    ((uint32_t *)counts.mapped)[5] = live;

    VkCommandBuffer cmd = vk_rig_begin(&rig);
    fail = particle_sort_record(&ps, cmd, depths.buffer, indices.buffer, scratch.buffer,
                                counts.buffer, 20) != VKSORT_SUCCESS;
    vk_rig_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    fail = vk_rig_submit_wait(&rig, cmd) != 0 || fail;
    for (uint32_t i = 1; i < live && !fail; ++i)
        if (d[i - 1] < d[i])
            fail = 1; /* descending */
    for (uint32_t i = 0; i < live && !fail; ++i)
        if (d[i] != (float)((ix[i] * 7919u) % 1000u) * 0.25f - 50.0f)
            fail = 1;
    for (uint32_t i = live; i < max_particles && !fail; ++i)
        if (ix[i] != i)
            fail = 1; /* past the live count: untouched */

    vk_rig_buffer_destroy(&rig, &depths);
    vk_rig_buffer_destroy(&rig, &indices);
    vk_rig_buffer_destroy(&rig, &scratch);
    vk_rig_buffer_destroy(&rig, &counts);
    vksort_vk_sorter_destroy(ps.sorter);
    vk_rig_destroy(&rig);
    if (rig.messages)
        fail = 1;
    printf("%s (validation messages: %d)\n", fail ? "FAIL" : "ok", rig.messages);
    return fail;
}
