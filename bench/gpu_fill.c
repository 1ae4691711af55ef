#include "gpu_fill.h"

#include "embed/spirv_blobs.h"

#include <stdio.h>
#include <string.h>

typedef struct fill_push {
    uint32_t word_count, seed, mode;
} fill_push;

/* A compute pipeline of the embedded module `name` with `bindings` storage buffers and
 * `push_bytes` of push constants. 1 on success; what was created stays in the outputs. */
static int create_pipeline(VkDevice device, const char *name, uint32_t bindings, uint32_t push_bytes,
                           VkDescriptorSetLayout *set_layout, VkPipelineLayout *layout,
                           VkPipeline *pipeline)
{
    const vksort_spirv_blob *blob = vksort_spirv_find(bench_spirv_blobs, name);
    if (!blob) {
        fprintf(stderr, "vksort-gpu-bench: %s not embedded\n", name);
        return 0;
    }
    VkDescriptorSetLayoutBinding b[4];
    memset(b, 0, sizeof b);
    for (uint32_t i = 0; i < bindings && i < 4; ++i)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                              VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo sl = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sl.bindingCount = bindings;
    sl.pBindings = b;
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = set_layout;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &range;
    VkShaderModuleCreateInfo sm = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    sm.codeSize = blob->size;
    sm.pCode = blob->code;
    VkShaderModule module = VK_NULL_HANDLE;
    int ok = vkCreateDescriptorSetLayout(device, &sl, NULL, set_layout) == VK_SUCCESS &&
             vkCreatePipelineLayout(device, &pl, NULL, layout) == VK_SUCCESS &&
             vkCreateShaderModule(device, &sm, NULL, &module) == VK_SUCCESS;
    if (ok) {
        VkComputePipelineCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cp.stage.module = module;
        cp.stage.pName = "main";
        cp.layout = *layout;
        ok = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cp, NULL, pipeline) == VK_SUCCESS;
    }
    if (module)
        vkDestroyShaderModule(device, module, NULL);
    if (!ok)
        fprintf(stderr, "vksort-gpu-bench: the pipeline of %s could not be created\n", name);
    return ok;
}

int gpu_fill_create(gpu_fill *f, VkDevice device)
{
    memset(f, 0, sizeof *f);
    f->device = device;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16};
    VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dp.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dp.maxSets = 8;
    dp.poolSizeCount = 1;
    dp.pPoolSizes = &ps;
    int ok = create_pipeline(device, "fill_random_comp", 1, sizeof(fill_push), &f->set_layout,
                             &f->layout, &f->pipeline) &&
             create_pipeline(device, "check_sorted_comp", 3, sizeof(gpu_check_info),
                             &f->check_set_layout, &f->check_layout, &f->check_pipeline) &&
             vkCreateDescriptorPool(device, &dp, NULL, &f->pool) == VK_SUCCESS;
    if (!ok) {
        gpu_fill_destroy(f);
        return -1;
    }
    return 0;
}

void gpu_fill_destroy(gpu_fill *f)
{
    if (!f->device)
        return;
    if (f->pool)
        vkDestroyDescriptorPool(f->device, f->pool, NULL);
    VkPipeline pipes[2] = {f->pipeline, f->check_pipeline};
    VkPipelineLayout layouts[2] = {f->layout, f->check_layout};
    VkDescriptorSetLayout sets[2] = {f->set_layout, f->check_set_layout};
    for (int i = 0; i < 2; ++i) {
        if (pipes[i])
            vkDestroyPipeline(f->device, pipes[i], NULL);
        if (layouts[i])
            vkDestroyPipelineLayout(f->device, layouts[i], NULL);
        if (sets[i])
            vkDestroyDescriptorSetLayout(f->device, sets[i], NULL);
    }
    memset(f, 0, sizeof *f);
}

/* A set of `layout` whose bindings 0.. are the buffers (whole ranges). */
static VkDescriptorSet bind_buffers(gpu_fill *f, VkDescriptorSetLayout layout, const VkBuffer *buffers,
                                    uint32_t count)
{
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = f->pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (vkAllocateDescriptorSets(f->device, &ai, &set) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkDescriptorBufferInfo bi[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < count && i < 4; ++i) {
        bi[i] = (VkDescriptorBufferInfo){buffers[i], 0, VK_WHOLE_SIZE};
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w[i].pBufferInfo = &bi[i];
    }
    vkUpdateDescriptorSets(f->device, count, w, 0, NULL);
    return set;
}

VkDescriptorSet gpu_fill_bind(gpu_fill *f, VkBuffer buffer)
{
    return bind_buffers(f, f->set_layout, &buffer, 1);
}

VkDescriptorSet gpu_check_bind(gpu_fill *f, VkBuffer keys, VkBuffer values, VkBuffer result)
{
    /* Without payloads the shader never reads binding 1: the keys stand in. */
    const VkBuffer b[3] = {keys, values ? values : keys, result};
    return bind_buffers(f, f->check_set_layout, b, 3);
}

void gpu_fill_release(gpu_fill *f, VkDescriptorSet set)
{
    if (set)
        vkFreeDescriptorSets(f->device, f->pool, 1, &set);
}

/* Whole workgroups of 256 up to 8192 of them, then each invocation strides. */
static uint32_t groups_for(uint64_t items)
{
    const uint64_t groups = (items + 255u) / 256u;
    return groups < 8192u ? (uint32_t)(groups ? groups : 1u) : 8192u;
}

void gpu_fill_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set, uint64_t words,
                     uint32_t seed, gpu_fill_mode mode)
{
    /* (32-bit word counts: the benchmark's largest input is 2^28 u64 keys, 2^29 words.) */
    fill_push push = {(uint32_t)words, seed, (uint32_t)mode};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, groups_for(words), 1, 1);
}

void gpu_check_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set,
                      const gpu_check_info *info)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->check_pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->check_layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, f->check_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof *info, info);
    vkCmdDispatch(cmd, groups_for(info->n), 1, 1);
}
