/* Occupancy probe: how many workgroups of a given size and shared-memory footprint a Vulkan
 * driver keeps resident at once (the most seen running together, over the device), to tell
 * whether two radix tiles of a given footprint can share a multiprocessor.
 *   cc -O2 -o occupancy-probe probe.c -lvulkan
 *   ./occupancy-probe probe.spv   (probe.spv: glslc --target-env=vulkan1.1 probe.comp)
 *   PROBE_WG=384 PROBE_BYTES=23552,24064,24576,25088 ./occupancy-probe probe.spv */
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a comma-separated list of numbers from environment variable `name` into out (at most
 * cap); returns how many, or `fallback` (out untouched) when the variable is unset. */
static size_t env_list(const char *name, uint32_t *out, size_t cap, size_t fallback)
{
    const char *s = getenv(name);
    if (!s)
        return fallback;
    size_t n = 0;
    for (; n < cap && *s; ++n, s += strcspn(s, ","), s += *s == ',')
        out[n] = (uint32_t)strtoul(s, NULL, 10);
    return n;
}

#define CK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { fprintf(stderr, "%s: %d\n", #x, r_); exit(1); } } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: occupancy-probe probe.spv\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    static uint32_t code[1 << 16];
    size_t bytes = fread(code, 1, sizeof code, f);
    fclose(f);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, 0, "probe", 1, 0, 0, VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, 0, 0, &app};
    VkInstance inst; CK(vkCreateInstance(&ici, 0, &inst));
    uint32_t n = 8; VkPhysicalDevice pds[8]; CK(vkEnumeratePhysicalDevices(inst, &n, pds));
    VkPhysicalDevice pd = pds[0];
    VkPhysicalDeviceProperties props; vkGetPhysicalDeviceProperties(pd, &props);
    printf("device: %s\n", props.deviceName);
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, 0, 0, 0, 1, &prio};
    uint32_t qn = 16; VkQueueFamilyProperties qf[16];
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &qn, qf);
    for (uint32_t i = 0; i < qn; ++i) if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) { qci.queueFamilyIndex = i; break; }
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, 0, 0, 1, &qci};
    VkDevice dev; CK(vkCreateDevice(pd, &dci, 0, &dev));
    VkQueue q; vkGetDeviceQueue(dev, qci.queueFamilyIndex, 0, &q);
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, 0, 0, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer buf; CK(vkCreateBuffer(dev, &bci, 0, &buf));
    VkMemoryRequirements mr; vkGetBufferMemoryRequirements(dev, buf, &mr);
    VkPhysicalDeviceMemoryProperties mp; vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    uint32_t mt = 0;
    for (; mt < mp.memoryTypeCount; ++mt)
        if ((mr.memoryTypeBits >> mt & 1) && (mp.memoryTypes[mt].propertyFlags & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) == (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) break;
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, 0, mr.size, mt};
    VkDeviceMemory mem; CK(vkAllocateMemory(dev, &mai, 0, &mem)); CK(vkBindBufferMemory(dev, buf, mem, 0));
    uint32_t *host; CK(vkMapMemory(dev, mem, 0, 256, 0, (void **)&host));
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, 0, 0, 1, &b};
    VkDescriptorSetLayout dsl; CK(vkCreateDescriptorSetLayout(dev, &dl, 0, &dsl));
    VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, 0, 0, 1, &dsl};
    VkPipelineLayout layout; CK(vkCreatePipelineLayout(dev, &pl, 0, &layout));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dp = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, 0, 0, 1, 1, &ps};
    VkDescriptorPool pool; CK(vkCreateDescriptorPool(dev, &dp, 0, &pool));
    VkDescriptorSetAllocateInfo da = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, 0, pool, 1, &dsl};
    VkDescriptorSet set; CK(vkAllocateDescriptorSets(dev, &da, &set));
    VkDescriptorBufferInfo dbi = {buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, 0, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, &dbi};
    vkUpdateDescriptorSets(dev, 1, &w, 0, 0);
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, 0, 0, bytes, code};
    VkShaderModule sm; CK(vkCreateShaderModule(dev, &smi, 0, &sm));
    VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, 0, 0, qci.queueFamilyIndex};
    VkCommandPool cp; CK(vkCreateCommandPool(dev, &cpi, 0, &cp));
    /* Workgroup sizes and shared-memory footprints (bytes, a multiple of 4): the defaults, or
     * PROBE_WG="384,256" and PROBE_BYTES="23552,24064,24576" (e.g. the byte limit for two radix
     * tiles per multiprocessor). */
    uint32_t wgs[16] = {256, 384, 512, 768, 1024};
    uint32_t footprints[64] = {4, 8, 12, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 40, 44, 47};
    size_t nk = 16;
    for (uint32_t i = 0; i < nk; ++i)
        footprints[i] *= 1024u;
    size_t nw = env_list("PROBE_WG", wgs, 16, 5);
    nk = env_list("PROBE_BYTES", footprints, 64, nk);
    printf("most workgroups resident at once (device-wide) | per multiprocessor at 132\n");
    for (size_t wi = 0; wi < nw; ++wi) {
        if (wgs[wi] == 0u || wgs[wi] > props.limits.maxComputeWorkGroupInvocations) continue;
        printf("wg %4u:", wgs[wi]);
        for (size_t ki = 0; ki < nk; ++ki) {
            uint32_t words = footprints[ki] / 4u;
            if (words == 0u) continue;
            if (words * 4u > props.limits.maxComputeSharedMemorySize) continue;
            uint32_t spec[3] = {wgs[wi], words, argc > 2 ? (uint32_t)atoi(argv[2]) : 200000u};
            VkSpecializationMapEntry me[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
            VkSpecializationInfo si = {3, me, sizeof spec, spec};
            VkComputePipelineCreateInfo cci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, 0, 0,
                {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, 0, 0, VK_SHADER_STAGE_COMPUTE_BIT, sm, "main", &si}, layout};
            VkPipeline pipe; CK(vkCreateComputePipelines(dev, 0, 1, &cci, 0, &pipe));
            memset(host, 0, 16);
            VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, 0, cp, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
            VkCommandBuffer cb; CK(vkAllocateCommandBuffers(dev, &cai, &cb));
            VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, 0, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
            CK(vkBeginCommandBuffer(cb, &cbi));
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, 0);
            vkCmdDispatch(cb, 132u * 16u, 1, 1);
            CK(vkEndCommandBuffer(cb));
            VkSubmitInfo sub = {VK_STRUCTURE_TYPE_SUBMIT_INFO, 0, 0, 0, 0, 1, &cb};
            CK(vkQueueSubmit(q, 1, &sub, 0)); CK(vkQueueWaitIdle(q));
            printf(" %uB:%u(%.1f)", footprints[ki], host[1], host[1] / 132.0);
            fflush(stdout);
            vkFreeCommandBuffers(dev, cp, 1, &cb);
            vkDestroyPipeline(dev, pipe, 0);
        }
        printf("\n");
    }
    vkDestroyCommandPool(dev, cp, 0);
    vkDestroyShaderModule(dev, sm, 0);
    vkDestroyDescriptorPool(dev, pool, 0);
    vkDestroyPipelineLayout(dev, layout, 0);
    vkDestroyDescriptorSetLayout(dev, dsl, 0);
    vkUnmapMemory(dev, mem); vkFreeMemory(dev, mem, 0); vkDestroyBuffer(dev, buf, 0);
    vkDestroyDevice(dev, 0); vkDestroyInstance(inst, 0);
    return 0;
}
