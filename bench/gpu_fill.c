#include "gpu_fill.h"

#include "embed/spirv_blobs.h"

#include <stdio.h>
#include <string.h>

typedef struct fill_push {
    uint32_t word_count, seed, mode;
} fill_push;

int gpu_fill_create(gpu_fill *f, VkDevice device)
{
    memset(f, 0, sizeof *f);
    f->device = device;
    const vksort_spirv_blob *blob = vksort_spirv_find(bench_spirv_blobs, "fill_random_comp");
    if (!blob) {
        fprintf(stderr, "vksort-gpu-bench: fill_random.comp not embedded\n");
        return -1;
    }
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo sl = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sl.bindingCount = 1;
    sl.pBindings = &binding;
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(fill_push)};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &f->set_layout;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &range;
    VkShaderModuleCreateInfo sm = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    sm.codeSize = blob->size;
    sm.pCode = blob->code;
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8};
    VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dp.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dp.maxSets = 8;
    dp.poolSizeCount = 1;
    dp.pPoolSizes = &ps;
    int ok = vkCreateDescriptorSetLayout(device, &sl, NULL, &f->set_layout) == VK_SUCCESS &&
             vkCreatePipelineLayout(device, &pl, NULL, &f->layout) == VK_SUCCESS &&
             vkCreateShaderModule(device, &sm, NULL, &module) == VK_SUCCESS &&
             vkCreateDescriptorPool(device, &dp, NULL, &f->pool) == VK_SUCCESS;
    if (ok) {
        VkComputePipelineCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cp.stage.module = module;
        cp.stage.pName = "main";
        cp.layout = f->layout;
        ok = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cp, NULL, &f->pipeline) == VK_SUCCESS;
    }
    if (module)
        vkDestroyShaderModule(device, module, NULL);
    if (!ok) {
        fprintf(stderr, "vksort-gpu-bench: the input generator's pipeline could not be created\n");
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
    if (f->pipeline)
        vkDestroyPipeline(f->device, f->pipeline, NULL);
    if (f->layout)
        vkDestroyPipelineLayout(f->device, f->layout, NULL);
    if (f->set_layout)
        vkDestroyDescriptorSetLayout(f->device, f->set_layout, NULL);
    memset(f, 0, sizeof *f);
}

VkDescriptorSet gpu_fill_bind(gpu_fill *f, VkBuffer buffer)
{
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = f->pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &f->set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (vkAllocateDescriptorSets(f->device, &ai, &set) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkDescriptorBufferInfo bi = {buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &bi;
    vkUpdateDescriptorSets(f->device, 1, &w, 0, NULL);
    return set;
}

void gpu_fill_release(gpu_fill *f, VkDescriptorSet set)
{
    if (set)
        vkFreeDescriptorSets(f->device, f->pool, 1, &set);
}

void gpu_fill_record(const gpu_fill *f, VkCommandBuffer cmd, VkDescriptorSet set, uint64_t words,
                     uint32_t seed, gpu_fill_mode mode)
{
    /* Whole workgroups of 256 up to 8192 of them, then each invocation strides (32-bit word
     * counts: the benchmark's largest input is 2^28 u64 keys, 2^29 words). */
    const uint64_t groups = (words + 255u) / 256u;
    fill_push push = {(uint32_t)words, seed, (uint32_t)mode};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f->layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, groups < 8192u ? (uint32_t)(groups ? groups : 1u) : 8192u, 1, 1);
}
