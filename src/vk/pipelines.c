/* Pipelines from the embedded SPIR-V: one push-descriptor set layout and one pipeline layout
 * shared by every pass, compute pipelines specialised for the sorter (workgroup size, tile size,
 * key type). */
#include "sorter_internal.h"
#include "spirv_blobs.h"

#include <stdio.h>
#include <string.h>

typedef struct pipeline_recipe {
    const char *shader;  /* base name */
    const char *variant; /* "ns", "s1", "si", or NULL (no key/payload variants) */
    int stable;          /* which tile geometry */
} pipeline_recipe;

static const pipeline_recipe recipes[PIPE_COUNT] = {
    [PIPE_LOCAL_SORT_NS] = {"bitonic_local_sort", "ns", 0},
    [PIPE_LOCAL_SORT_S1] = {"bitonic_local_sort", "s1", 1},
    [PIPE_LOCAL_SORT_SI] = {"bitonic_local_sort", "si", 1},
    [PIPE_LOCAL_MERGE_NS] = {"bitonic_local_merge", "ns", 0},
    [PIPE_LOCAL_MERGE_SI] = {"bitonic_local_merge", "si", 1},
    [PIPE_GLOBAL_MERGE_NS] = {"bitonic_global_merge", "ns", 0},
    [PIPE_GLOBAL_MERGE_SI] = {"bitonic_global_merge", "si", 1},
    [PIPE_PREPARE] = {"clamp_count", NULL, 0},
    [PIPE_RANK_SORT] = {"rank_sort", NULL, 0}, /* named and specialised in create_pipeline */
};

vksort_result vksort_vk_check_storage_buffers(vksort_vk_sorter *s, uint32_t binding_count,
                                             const char *what)
{
    /* The spec's minimum is 4; every binding is a storage buffer of the compute stage. */
    if (binding_count > s->max_storage_buffers)
        return vksort_vk_fail(s, VKSORT_ERROR_DEVICE_LIMITS, VK_SUCCESS,
                              "%s need %u storage buffers per stage "
                              "(maxPerStageDescriptorStorageBuffers %u)",
                              what, binding_count, s->max_storage_buffers);
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_create_push_layout(vksort_vk_sorter *s, uint32_t binding_count,
                                          uint32_t push_bytes, VkDescriptorSetLayout *out_set,
                                          VkPipelineLayout *out_layout)
{
    vksort_result r = vksort_vk_check_storage_buffers(s, binding_count, "the sort's pipelines");
    if (r != VKSORT_SUCCESS)
        return r;
    VkDescriptorSetLayoutBinding bindings[16];
    memset(bindings, 0, sizeof bindings);
    for (uint32_t i = 0; i < binding_count && i < 16; ++i) {
        bindings[i].binding = i;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dsl = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dsl.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    dsl.bindingCount = binding_count;
    dsl.pBindings = bindings;
    VkResult vr = s->vk.vkCreateDescriptorSetLayout(s->device, &dsl, s->vk_allocator, out_set);
    if (vr != VK_SUCCESS)
        return vksort_vk_fail(s, VKSORT_ERROR_VULKAN, vr, "vkCreateDescriptorSetLayout failed (%d)",
                              (int)vr);
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = out_set;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &range;
    vr = s->vk.vkCreatePipelineLayout(s->device, &pl, s->vk_allocator, out_layout);
    if (vr != VK_SUCCESS)
        return vksort_vk_fail(s, VKSORT_ERROR_VULKAN, vr, "vkCreatePipelineLayout failed (%d)",
                              (int)vr);
    return VKSORT_SUCCESS;
}

vksort_result vksort_vk_create_compute_pipeline(vksort_vk_sorter *s, const char *module_name,
                                                const VkSpecializationInfo *spec,
                                                uint32_t required_subgroup_size,
                                                VkPipelineLayout layout, const char *label,
                                                VkPipeline *out)
{
    const vksort_spirv_blob *blob = vksort_spirv_find(vksort_spirv_blobs, module_name);
    if (!blob)
        return vksort_vk_fail(s, VKSORT_ERROR_UNSUPPORTED, VK_SUCCESS,
                              "embedded shader %s missing from this build", module_name);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = blob->size;
    smci.pCode = blob->code;
    VkShaderModule module = VK_NULL_HANDLE;
    VkResult vr = s->vk.vkCreateShaderModule(s->device, &smci, s->vk_allocator, &module);
    if (vr != VK_SUCCESS)
        return vksort_vk_fail(s, VKSORT_ERROR_VULKAN, vr, "vkCreateShaderModule(%s) failed (%d)",
                              module_name, (int)vr);
    VkComputePipelineCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cp.stage.module = module;
    cp.stage.pName = "main";
    cp.stage.pSpecializationInfo = spec;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    if (required_subgroup_size) {
        required.requiredSubgroupSize = required_subgroup_size;
        cp.stage.pNext = &required;
        cp.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    cp.layout = layout;
    /* VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS: no bounds checks on the storage buffers. */
    VkPipelineRobustnessCreateInfoEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT};
    if (s->buffer_robustness_off) {
        robustness.storageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT;
        robustness.uniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT;
        robustness.vertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT;
        robustness.images = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT;
        cp.pNext = &robustness;
    }
    vr = s->vk.vkCreateComputePipelines(s->device, s->pipeline_cache, 1, &cp, s->vk_allocator, out);
    s->vk.vkDestroyShaderModule(s->device, module, s->vk_allocator);
    if (vr != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return vksort_vk_fail(s, VKSORT_ERROR_VULKAN, vr, "vkCreateComputePipelines(%s) failed (%d)",
                              module_name, (int)vr);
    }
    vksort_vk_name_object(s, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)*out, label);
    return VKSORT_SUCCESS;
}

static vksort_result create_layouts(vksort_vk_sorter *s)
{
    vksort_result r = vksort_vk_create_push_layout(s, VKSORT_BINDING_TOTAL, sizeof(vksort_vk_push),
                                                   &s->set_layout, &s->pipeline_layout);
    if (r == VKSORT_SUCCESS)
        vksort_vk_name_object(s, VK_OBJECT_TYPE_PIPELINE_LAYOUT,
                              (uint64_t)(uintptr_t)s->pipeline_layout, "vksort pipeline layout");
    return r;
}

static vksort_result create_pipeline(vksort_vk_sorter *s, vksort_vk_pipeline_id id)
{
    const pipeline_recipe *rc = &recipes[id];
    char name[96];
    if (rc->variant)
        snprintf(name, sizeof name, "%s_k%u_v%d_%s", rc->shader, s->key_size * 8u,
                 s->has_payload ? 1 : 0, rc->variant);
    else
        snprintf(name, sizeof name, "%s", rc->shader);
    const vksort_vk_tile *tile = &s->tile[rc->stable];
    uint32_t spec_data[3] = {tile->workgroup, tile->size, (uint32_t)s->key_type};
    if (id == PIPE_RANK_SORT) {
        snprintf(name, sizeof name, "rank_sort_k%u_v%d", s->key_size * 8u, s->has_payload ? 1 : 0);
        spec_data[0] = s->rank_workgroup;
        spec_data[1] = s->rank_capacity;
    }
    const VkSpecializationMapEntry entries[3] = {
        {0, 0, 4},
        {1, 4, 4},
        {2, 8, 4},
    };
    VkSpecializationInfo spec = {3, entries, sizeof spec_data, spec_data};
    char label[128];
    snprintf(label, sizeof label, "vksort %s tile %u", name, spec_data[1]);
    return vksort_vk_create_compute_pipeline(s, name, &spec, 0, s->pipeline_layout, label,
                                             &s->pipelines[id]);
}

vksort_result vksort_vk_create_pipelines(vksort_vk_sorter *s)
{
    vksort_result r = create_layouts(s);
    if (r != VKSORT_SUCCESS)
        return r;
    for (int id = 0; id < PIPE_COUNT; ++id) {
        if (id == PIPE_RANK_SORT && s->rank_capacity == 0)
            continue;
        r = create_pipeline(s, (vksort_vk_pipeline_id)id);
        if (r != VKSORT_SUCCESS)
            return r;
    }
    return VKSORT_SUCCESS;
}

void vksort_vk_destroy_pipelines(vksort_vk_sorter *s)
{
    for (int id = 0; id < PIPE_COUNT; ++id) {
        if (s->pipelines[id])
            s->vk.vkDestroyPipeline(s->device, s->pipelines[id], s->vk_allocator);
        s->pipelines[id] = VK_NULL_HANDLE;
    }
    if (s->pipeline_layout)
        s->vk.vkDestroyPipelineLayout(s->device, s->pipeline_layout, s->vk_allocator);
    if (s->set_layout)
        s->vk.vkDestroyDescriptorSetLayout(s->device, s->set_layout, s->vk_allocator);
    s->pipeline_layout = VK_NULL_HANDLE;
    s->set_layout = VK_NULL_HANDLE;
}
