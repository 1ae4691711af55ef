/* The demo's compute and graphics pipelines, from the SPIR-V embedded at build time. */
#include "pipelines.h"

#include "spirv_blobs.h"

#include <stdio.h>
#include <string.h>

static VkShaderModule shader(vk_context *ctx, const char *name)
{
    const vksort_spirv_blob *b = vksort_spirv_find(demo_spirv_blobs, name);
    if (!b) {
        fprintf(stderr, "vksort-demo: shader %s not embedded\n", name);
        return VK_NULL_HANDLE;
    }
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = b->size;
    ci.pCode = b->code;
    VkShaderModule m = VK_NULL_HANDLE;
    if (vkCreateShaderModule(ctx->device, &ci, NULL, &m) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    return m;
}

static int set_layout(vk_context *ctx, uint32_t bindings, VkShaderStageFlags stages,
                      VkDescriptorSetLayout *out)
{
    VkDescriptorSetLayoutBinding b[4];
    memset(b, 0, sizeof b);
    for (uint32_t i = 0; i < bindings; ++i) {
        b[i].binding = i;
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = stages;
    }
    VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    ci.bindingCount = bindings;
    ci.pBindings = b;
    return vkCreateDescriptorSetLayout(ctx->device, &ci, NULL, out) == VK_SUCCESS ? 0 : -1;
}

static int pipeline_layout(vk_context *ctx, VkDescriptorSetLayout set, VkShaderStageFlags stages,
                           uint32_t push_size, VkPipelineLayout *out)
{
    VkPushConstantRange range = {stages, 0, push_size};
    VkPipelineLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = set ? 1 : 0;
    ci.pSetLayouts = &set;
    ci.pushConstantRangeCount = 1;
    ci.pPushConstantRanges = &range;
    return vkCreatePipelineLayout(ctx->device, &ci, NULL, out) == VK_SUCCESS ? 0 : -1;
}

static int compute(vk_context *ctx, const char *name, VkPipelineLayout layout, VkPipeline *out)
{
    VkShaderModule m = shader(ctx, name);
    if (!m)
        return -1;
    VkComputePipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = m;
    ci.stage.pName = "main";
    ci.layout = layout;
    VkResult r = vkCreateComputePipelines(ctx->device, VK_NULL_HANDLE, 1, &ci, NULL, out);
    vkDestroyShaderModule(ctx->device, m, NULL);
    vk_name(ctx, VK_OBJECT_TYPE_PIPELINE, (uint64_t)*out, name);
    return r == VK_SUCCESS ? 0 : -1;
}

/* blend: premultiplied alpha (ONE, ONE_MINUS_SRC_ALPHA), depth test on, depth write off;
 * opaque: no blending, depth test and write on. */
static int graphics(vk_context *ctx, const char *vs_name, const char *fs_name, VkPipelineLayout layout,
                    VkFormat color_format, int blend, VkPipeline *out)
{
    VkShaderModule vs = shader(ctx, vs_name), fs = shader(ctx, fs_name);
    VkResult r = VK_ERROR_UNKNOWN;
    if (vs && fs) {
        vkutil_graphics_desc gd;
        memset(&gd, 0, sizeof gd);
        gd.vertex = vs;
        gd.fragment = fs;
        gd.layout = layout;
        gd.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        gd.color_format = color_format;
        gd.premultiplied_blend = blend;
        gd.depth_format = DEMO_DEPTH_FORMAT;
        gd.depth_test = 1;
        gd.depth_write = !blend;
        r = vkutil_graphics_pipeline_create(ctx->device, &gd, out);
        if (r == VK_SUCCESS)
            vk_name(ctx, VK_OBJECT_TYPE_PIPELINE, (uint64_t)*out, vs_name);
    }
    if (vs)
        vkDestroyShaderModule(ctx->device, vs, NULL);
    if (fs)
        vkDestroyShaderModule(ctx->device, fs, NULL);
    return r == VK_SUCCESS ? 0 : -1;
}

int demo_pipelines_create(vk_context *ctx, VkFormat color_format, demo_pipelines *p)
{
    memset(p, 0, sizeof *p);
    p->color_format = color_format;
    const VkShaderStageFlags vsfs = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    int rc = set_layout(ctx, 1, VK_SHADER_STAGE_COMPUTE_BIT, &p->simulate_set) ||
             set_layout(ctx, 3, VK_SHADER_STAGE_COMPUTE_BIT, &p->keys_set) ||
             set_layout(ctx, 2, VK_SHADER_STAGE_VERTEX_BIT, &p->sprite_set) ||
             pipeline_layout(ctx, p->simulate_set, VK_SHADER_STAGE_COMPUTE_BIT, sizeof(simulate_push),
                             &p->simulate_layout) ||
             pipeline_layout(ctx, p->keys_set, VK_SHADER_STAGE_COMPUTE_BIT, sizeof(keys_push),
                             &p->keys_layout) ||
             pipeline_layout(ctx, p->sprite_set, vsfs, sizeof(sprite_push), &p->sprite_layout) ||
             pipeline_layout(ctx, VK_NULL_HANDLE, vsfs, 64, &p->grid_layout) ||
             compute(ctx, "simulate_comp", p->simulate_layout, &p->simulate) ||
             compute(ctx, "depth_keys_comp", p->keys_layout, &p->keys) ||
             graphics(ctx, "sprite_vert", "sprite_frag", p->sprite_layout, color_format, 1, &p->sprite) ||
             graphics(ctx, "grid_vert", "grid_frag", p->grid_layout, color_format, 0, &p->grid);
    if (rc) {
        fprintf(stderr, "vksort-demo: pipeline creation failed\n");
        demo_pipelines_destroy(ctx, p);
        return -1;
    }
    return 0;
}

void demo_pipelines_destroy(vk_context *ctx, demo_pipelines *p)
{
    VkPipeline pl[] = {p->simulate, p->keys, p->sprite, p->grid};
    for (int i = 0; i < 4; ++i)
        if (pl[i])
            vkDestroyPipeline(ctx->device, pl[i], NULL);
    VkPipelineLayout ly[] = {p->simulate_layout, p->keys_layout, p->sprite_layout, p->grid_layout};
    for (int i = 0; i < 4; ++i)
        if (ly[i])
            vkDestroyPipelineLayout(ctx->device, ly[i], NULL);
    VkDescriptorSetLayout sl[] = {p->simulate_set, p->keys_set, p->sprite_set};
    for (int i = 0; i < 3; ++i)
        if (sl[i])
            vkDestroyDescriptorSetLayout(ctx->device, sl[i], NULL);
    memset(p, 0, sizeof *p);
}
