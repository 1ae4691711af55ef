/*
 * vksort-shader-stats: what the driver made of the sort's shaders. Creates the pipelines of the
 * radix, hybrid chunk and bitonic passes exactly as a sorter for this device would specialise
 * them, with VK_KHR_pipeline_executable_properties statistics captured, and prints every
 * statistic the driver reports (registers, shared and local memory, spills, instruction counts:
 * whatever the driver offers). A tuning aid, not a test: read it next to the per-pass timings.
 *
 *   vksort-shader-stats [filter [wg [items [compact]]]]
 *     filter: substring of the module names (default: all radix)
 *     wg, items: radix_workgroup_size, radix_items_per_invocation of the sorters (0: default)
 *     compact: 1 adds VKSORT_VK_CREATE_RADIX_COMPACT_TILES
 * Environment: VKSORT_TEST_DEVICE=N or VKSORT_TEST_DEVICE_NAME=S picks the physical device;
 * VKSORT_STATS_IR_DIR=DIR also writes every internal representation the driver offers (its
 * intermediate code or machine code, if any) to DIR/<module>.<executable>.<n>.txt.
 */
/* Vulkan with prototypes first: sorter_internal.h (the library's pipeline specialisation) would
 * otherwise include it without them. */
#include <vulkan/vulkan.h>

#include "sorter_internal.h"
#include "spirv_blobs.h"
#include "vkutil.h"
#include "vksort/vulkan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static VkPhysicalDevice pick_device(VkInstance instance)
{
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, NULL);
    if (n == 0)
        return VK_NULL_HANDLE;
    VkPhysicalDevice *pds = calloc(n, sizeof *pds);
    vkEnumeratePhysicalDevices(instance, &n, pds);
    const char *want = getenv("VKSORT_TEST_DEVICE_NAME");
    const char *index = getenv("VKSORT_TEST_DEVICE");
    uint32_t pick = index ? (uint32_t)atoi(index) : 0;
    for (uint32_t i = 0; want && i < n; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (strstr(p.deviceName, want)) {
            pick = i;
            break;
        }
    }
    VkPhysicalDevice pd = pick < n ? pds[pick] : VK_NULL_HANDLE;
    free(pds);
    return pd;
}

typedef struct context {
    VkDevice device;
    VkPipelineLayout layout;
    PFN_vkGetPipelineExecutablePropertiesKHR get_props;
    PFN_vkGetPipelineExecutableStatisticsKHR get_stats;
    PFN_vkGetPipelineExecutableInternalRepresentationsKHR get_irs;
    const char *ir_dir; /* NULL: no internal representations */
    int robustness_off; /* pipelines as VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS makes them */
} context;

/* Writes the executable's internal representations (text ones only) to cx->ir_dir. */
static void dump_internal_representations(const context *cx, const char *name,
                                          const VkPipelineExecutableInfoKHR *ei)
{
    uint32_t n = 0;
    if (cx->get_irs(cx->device, ei, &n, NULL) != VK_SUCCESS || n == 0) {
        printf("    (no internal representations)\n");
        return;
    }
    VkPipelineExecutableInternalRepresentationKHR *ir = calloc(n, sizeof *ir);
    if (!ir)
        return;
    for (uint32_t i = 0; i < n; ++i)
        ir[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR;
    /* First call: sizes; second: the data. */
    cx->get_irs(cx->device, ei, &n, ir);
    for (uint32_t i = 0; i < n; ++i)
        ir[i].pData = ir[i].dataSize ? malloc(ir[i].dataSize) : NULL;
    cx->get_irs(cx->device, ei, &n, ir);
    for (uint32_t i = 0; i < n; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.%u.%u.txt", cx->ir_dir, name, ei->executableIndex, i);
        FILE *f = ir[i].isText && ir[i].pData ? fopen(path, "w") : NULL;
        if (f) {
            fprintf(f, "// %s: %s\n", ir[i].name, ir[i].description);
            /* Text data ends with a NUL inside dataSize (the spec); stop at it. */
            const char *text = ir[i].pData;
            size_t len = 0;
            while (len < ir[i].dataSize && text[len])
                ++len;
            fwrite(text, 1, len, f);
            fclose(f);
        }
        printf("    IR %-29s %zu bytes%s%s\n", ir[i].name, ir[i].dataSize,
               ir[i].isText ? "" : " (binary, not written)", f ? " -> written" : "");
        free(ir[i].pData);
    }
    free(ir);
}

/* Creates the module's pipeline with the given specialisation (NULL: none) and prints its
 * statistics. */
static int report(const context *cx, const char *name, const VkSpecializationInfo *spec)
{
    const vksort_spirv_blob *blob = vksort_spirv_find(vksort_spirv_blobs, name);
    if (!blob) {
        printf("%-36s (not in this build)\n", name);
        return 0;
    }
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = blob->size;
    smci.pCode = blob->code;
    VkShaderModule module;
    if (vkCreateShaderModule(cx->device, &smci, NULL, &module) != VK_SUCCESS)
        return -1;
    VkComputePipelineCreateInfo cp = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cp.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    if (cx->ir_dir)
        cp.flags |= VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
    cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cp.stage.module = module;
    cp.stage.pName = "main";
    cp.stage.pSpecializationInfo = spec;
    cp.layout = cx->layout;
    VkPipelineRobustnessCreateInfoEXT robustness = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT};
    if (cx->robustness_off) {
        robustness.storageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DISABLED_EXT;
        cp.pNext = &robustness;
    }
    VkPipeline pipeline;
    VkResult vr = vkCreateComputePipelines(cx->device, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline);
    vkDestroyShaderModule(cx->device, module, NULL);
    if (vr != VK_SUCCESS) {
        printf("%-36s vkCreateComputePipelines failed (%d)\n", name, (int)vr);
        return -1;
    }
    printf("%s (spec", name);
    for (uint32_t i = 0; spec && i < spec->mapEntryCount; ++i) {
        const VkSpecializationMapEntry *e = &spec->pMapEntries[i];
        uint32_t v;
        memcpy(&v, (const unsigned char *)spec->pData + e->offset, sizeof v);
        printf(" %u=%u", e->constantID, v);
    }
    printf(")\n");
    VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pi.pipeline = pipeline;
    uint32_t ne = 0;
    cx->get_props(cx->device, &pi, &ne, NULL);
    for (uint32_t e = 0; e < ne && e < 4; ++e) {
        VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        ei.pipeline = pipeline;
        ei.executableIndex = e;
        uint32_t ns = 0;
        cx->get_stats(cx->device, &ei, &ns, NULL);
        VkPipelineExecutableStatisticKHR st[64];
        if (ns > 64)
            ns = 64;
        for (uint32_t i = 0; i < ns; ++i) {
            memset(&st[i], 0, sizeof st[i]);
            st[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
        }
        cx->get_stats(cx->device, &ei, &ns, st);
        for (uint32_t i = 0; i < ns; ++i) {
            printf("    %-32s ", st[i].name);
            switch (st[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("%s\n", st[i].value.b32 ? "true" : "false"); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("%lld\n", (long long)st[i].value.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("%llu\n", (unsigned long long)st[i].value.u64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: printf("%g\n", st[i].value.f64); break;
            default: printf("?\n"); break;
            }
        }
        if (cx->ir_dir)
            dump_internal_representations(cx, name, &ei);
    }
    vkDestroyPipeline(cx->device, pipeline, NULL);
    return 0;
}

static int matches(const char *name, const char *filter)
{
    return !filter || strstr(name, filter) != NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        printf("usage: vksort-shader-stats [filter [wg [items [compact]]]]\n"
               "  filter: substring of the module names (default: all radix)\n"
               "  wg, items: radix_workgroup_size, radix_items_per_invocation (0: default)\n"
               "  compact: 1 adds VKSORT_VK_CREATE_RADIX_COMPACT_TILES\n"
               "  VKSORT_TEST_DEVICE=N or VKSORT_TEST_DEVICE_NAME=S picks the device;\n"
               "  VKSORT_STATS_IR_DIR=DIR also writes the driver's internal representations\n");
        return 0;
    }
    const char *filter = argc > 1 ? argv[1] : "radix";
    const uint32_t want_wg = argc > 2 ? (uint32_t)atoi(argv[2]) : 0u;
    const uint32_t want_items = argc > 3 ? (uint32_t)atoi(argv[3]) : 0u;
    const int want_compact = argc > 4 && atoi(argv[4]) != 0;
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS) {
        fprintf(stderr, "vksort-shader-stats: no Vulkan instance\n");
        return 1;
    }
    VkPhysicalDevice pd = pick_device(instance);
    if (!pd) {
        fprintf(stderr, "vksort-shader-stats: no physical device\n");
        return 1;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    printf("device: %s\n", props.deviceName);
    if (!vkutil_has_device_extension(pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        fprintf(stderr, "vksort-shader-stats: %s lacks %s\n", props.deviceName,
                VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        return 1;
    }
    const char *exts[4] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME,
                           VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, NULL, NULL};
    uint32_t n_ext = 2;
    if (vkutil_has_device_extension(pd, VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME))
        exts[n_ext++] = VK_NV_SHADER_SUBGROUP_PARTITIONED_EXTENSION_NAME;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pef = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    pef.pipelineExecutableInfo = VK_TRUE;
    /* Pipeline robustness where the device has it, as the benchmarks and tests use it. */
    VkPhysicalDevicePipelineRobustnessFeaturesEXT prf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
    const int robustness = vkutil_has_pipeline_robustness(pd);
    if (robustness) {
        prf.pipelineRobustness = VK_TRUE;
        exts[n_ext++] = VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME;
        pef.pNext = &prf;
    }
    const char *ir_dir = getenv("VKSORT_STATS_IR_DIR");
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &pef;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = n_ext;
    dci.ppEnabledExtensionNames = exts;
    context cx;
    memset(&cx, 0, sizeof cx);
    cx.robustness_off = robustness;
    printf("storage-buffer bounds checks: %s\n", robustness ? "off (pipeline robustness)" : "driver default");
    if (vkCreateDevice(pd, &dci, NULL, &cx.device) != VK_SUCCESS) {
        fprintf(stderr, "vksort-shader-stats: vkCreateDevice failed\n");
        return 1;
    }
    cx.get_props = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(
        cx.device, "vkGetPipelineExecutablePropertiesKHR");
    cx.get_stats = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(
        cx.device, "vkGetPipelineExecutableStatisticsKHR");
    cx.get_irs = (PFN_vkGetPipelineExecutableInternalRepresentationsKHR)vkGetDeviceProcAddr(
        cx.device, "vkGetPipelineExecutableInternalRepresentationsKHR");
    cx.ir_dir = ir_dir && *ir_dir && cx.get_irs ? ir_dir : NULL;

    /* One layout that fits every pass: 9 storage buffers, 128 bytes of push constants. */
    VkDescriptorSetLayoutBinding b[9];
    memset(b, 0, sizeof b);
    for (uint32_t i = 0; i < 9; ++i) {
        b[i].binding = i;
        b[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        b[i].descriptorCount = 1;
        b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dsl = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dsl.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    dsl.bindingCount = 9;
    dsl.pBindings = b;
    VkDescriptorSetLayout set_layout;
    vkCreateDescriptorSetLayout(cx.device, &dsl, NULL, &set_layout);
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 128};
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &set_layout;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &range;
    vkCreatePipelineLayout(cx.device, &pl, NULL, &cx.layout);

    /* The configurations a sorter picks on this device. */
    const struct {
        vksort_key_type type;
        int payload;
    } configs[] = {{VKSORT_KEY_U32, 0}, {VKSORT_KEY_U32, 1}, {VKSORT_KEY_U64, 0}};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; ++c) {
        vksort_vk_sorter_create_info ci;
        memset(&ci, 0, sizeof ci);
        ci.instance = instance;
        ci.physical_device = pd;
        ci.device = cx.device;
        ci.get_instance_proc_addr = vkGetInstanceProcAddr;
        ci.key_type = configs[c].type;
        ci.has_payload = configs[c].payload ? VK_TRUE : VK_FALSE;
        ci.max_count = 1u << 24;
        ci.algorithm = VKSORT_VK_ALGORITHM_ONESWEEP;
        ci.radix_workgroup_size = want_wg;
        ci.radix_items_per_invocation = want_items;
        ci.flags = (want_compact ? VKSORT_VK_CREATE_RADIX_COMPACT_TILES : 0u) |
                   (robustness ? VKSORT_VK_CREATE_PIPELINE_ROBUSTNESS : 0u);
        ci.enabled_extension_count = n_ext;
        ci.enabled_extensions = exts;
        vksort_vk_sorter *s = NULL;
        if (vksort_vk_sorter_create(&ci, &s) != VKSORT_SUCCESS) {
            fprintf(stderr, "vksort-shader-stats: sorter creation failed\n");
            return 1;
        }
        vksort_vk_sorter_properties p;
        vksort_vk_get_sorter_properties(s, &p);
        const uint32_t wg = p.radix_workgroup_size, items = p.radix_tile_size / wg;
        printf("\n== %s%s: radix workgroup %u, %u items, subgroup %u%s%s%s, %u scatter round(s); bitonic tile %u, workgroup %u\n",
               vksort_key_type_name(configs[c].type), configs[c].payload ? " pairs" : " keys", wg,
               items, p.subgroup_size, p.radix_partitioned ? ", partitioned" : "",
               p.radix_atomic_or ? ", atomicOr ranking" : "",
               p.radix_skew_ranking ? (p.radix_skew_partitioned ? ", skewed digits partitioned"
                                                                 : ", skewed digits by ballots")
                                    : "",
               p.radix_scatter_rounds, p.tile_size, p.workgroup_size);
        /* The radix pipelines exactly as the sorters specialise them (their default geometry):
         * the Onesweep pass from this sorter, the reduce-then-scan passes from a portable
         * sorter of the same configuration that asks for them (on a GPU PORTABLE is otherwise
         * Onesweep with the fallback; 2^26 elements, so that pairs with 32-bit keys also have
         * the long-blocks downsweep module, radix.c's long_blocks). */
        vksort_vk_sorter *sp = NULL;
        ci.algorithm = VKSORT_VK_ALGORITHM_PORTABLE;
        ci.max_count = 1u << 26;
        ci.flags |= VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN;
        const vksort_result pr = vksort_vk_sorter_create(&ci, &sp);
        ci.flags &= ~(vksort_vk_create_flags)VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN;
        if (pr != VKSORT_SUCCESS) {
            fprintf(stderr, "vksort-shader-stats: portable sorter creation failed\n");
            vksort_vk_sorter_destroy(s);
            return 1;
        }
        const vksort_vk_radix_pipe pipes[] = {RADIX_PIPE_ONESWEEP, RADIX_PIPE_DOWNSWEEP,
                                              RADIX_PIPE_HISTOGRAM, RADIX_PIPE_UPSWEEP};
        char name[96];
        for (size_t k = 0; k < sizeof pipes / sizeof pipes[0]; ++k) {
            const vksort_vk_sorter *owner = pipes[k] == RADIX_PIPE_ONESWEEP ? s : sp;
            vksort_vk_radix_module_name(owner, pipes[k], NULL, name, sizeof name);
            vksort_vk_radix_spec spec;
            vksort_vk_radix_specialization(owner, pipes[k], NULL, &spec);
            if (matches(name, filter))
                report(&cx, name, &spec.info);
        }
        /* The Onesweep pass with the look-back fallback (its _fb module), from a sorter with
         * VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK of the same configuration. */
        vksort_vk_sorter *sf = NULL;
        ci.algorithm = VKSORT_VK_ALGORITHM_ONESWEEP;
        ci.max_count = 1u << 24;
        ci.flags |= VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK;
        const vksort_result fr = vksort_vk_sorter_create(&ci, &sf);
        ci.flags &= ~(vksort_vk_create_flags)VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK;
        if (fr != VKSORT_SUCCESS) {
            fprintf(stderr, "vksort-shader-stats: fallback sorter creation failed\n");
            vksort_vk_sorter_destroy(sp);
            vksort_vk_sorter_destroy(s);
            return 1;
        }
        vksort_vk_radix_module_name(sf, RADIX_PIPE_ONESWEEP, NULL, name, sizeof name);
        if (matches(name, filter)) {
            vksort_vk_radix_spec spec;
            vksort_vk_radix_specialization(sf, RADIX_PIPE_ONESWEEP, NULL, &spec);
            report(&cx, name, &spec.info);
        }
        vksort_vk_sorter_destroy(sf);
        /* The histogram pass as the Onesweep sorter specialises it (no block-count table code):
         * the same module, beside the portable one's above. */
        vksort_vk_radix_module_name(s, RADIX_PIPE_HISTOGRAM, NULL, name, sizeof name);
        if (matches(name, filter)) {
            vksort_vk_radix_spec spec;
            vksort_vk_radix_specialization(s, RADIX_PIPE_HISTOGRAM, NULL, &spec);
            printf("-- as the Onesweep sorter specialises it:\n");
            report(&cx, name, &spec.info);
        }
        vksort_vk_radix_module_name(sp, RADIX_PIPE_DOWNSWEEP, &sp->radix.long_blocks, name,
                                    sizeof name);
        if (sp->radix.long_blocks_min_count && matches(name, filter)) {
            vksort_vk_radix_spec spec;
            vksort_vk_radix_specialization(sp, RADIX_PIPE_DOWNSWEEP, &sp->radix.long_blocks, &spec);
            printf("-- portable long blocks (from %u elements):\n", sp->radix.long_blocks_min_count);
            report(&cx, name, &spec.info);
        }
        vksort_vk_sorter_destroy(sp);
        /* The small tiles' fused pass, plain and building its own histogram (spec constant 12;
         * the second is what a persistent scratch's small host counts run). */
        if (s->radix.small.max_count && s->radix.small.fused_max_count) {
            const vksort_vk_radix_pipe fused[] = {RADIX_PIPE_ONESWEEP_FUSED,
                                                  RADIX_PIPE_ONESWEEP_FUSED_HISTOGRAM};
            for (size_t k = 0; k < 2; ++k) {
                vksort_vk_radix_module_name(s, fused[k], &s->radix.small, name, sizeof name);
                vksort_vk_radix_spec spec;
                vksort_vk_radix_specialization(s, fused[k], &s->radix.small, &spec);
                if (matches(name, filter)) {
                    printf("-- small tiles (%u x %u)%s:\n", s->radix.small.workgroup,
                           s->radix.small.items, k ? ", building its own histogram (12=1)" : "");
                    report(&cx, name, &spec.info);
                }
            }
        }
        /* The other geometries' Onesweep pipelines: the per-digit pass of the mid tiles (the
         * default's is above), and the fused pass of the default, mid and wave tiles where they
         * fuse - each specialised for its own tile, so its registers (and so the workgroups
         * per SM) can differ from the per-digit pass's. */
        const struct {
            const vksort_vk_radix_geometry *geo; /* NULL: the default geometry */
            const char *what;
            int per_digit; /* printed above for the default geometry; the wave's always fuses */
        } others[] = {{NULL, "default", 0}, {&s->radix.mid, "mid", 1}, {&s->radix.wave, "wave", 0}};
        for (size_t k = 0; k < sizeof others / sizeof others[0]; ++k) {
            const vksort_vk_radix_geometry *g = others[k].geo ? others[k].geo : &s->radix.geometry;
            for (int fused = 0; g->max_count && fused < 2; ++fused) {
                if (fused ? !g->fused_max_count : !others[k].per_digit)
                    continue;
                const vksort_vk_radix_pipe pipe = fused ? RADIX_PIPE_ONESWEEP_FUSED : RADIX_PIPE_ONESWEEP;
                vksort_vk_radix_module_name(s, pipe, others[k].geo, name, sizeof name);
                if (!matches(name, filter))
                    continue;
                vksort_vk_radix_spec spec;
                vksort_vk_radix_specialization(s, pipe, others[k].geo, &spec);
                printf("-- %s tiles (%u x %u), %s:\n", others[k].what, g->workgroup, g->items,
                       fused ? "fused" : "a dispatch per digit");
                if (fused)
                    printf("   (fused up to %u elements)\n", g->fused_max_count);
                report(&cx, name, &spec.info);
            }
        }
        vksort_vk_sorter_destroy(s);
        /* The hybrid path's chunk passes (32-bit keys), from a sorter that asks for it up to its
         * largest count, so that the large tiles' chunk sort is there too. */
        if (vksort_key_size(configs[c].type) == 4u) {
            vksort_vk_sorter *sh = NULL;
            vksort_vk_sorter_create_info hci = ci;
            hci.radix_hybrid = VKSORT_VK_RADIX_HYBRID_ON;
            hci.max_count = 1u << 28;
            if (vksort_vk_sorter_create(&hci, &sh) != VKSORT_SUCCESS) {
                fprintf(stderr, "vksort-shader-stats: hybrid sorter creation failed\n");
                return 1;
            }
            if (!sh->radix.hybrid_max_count) {
                printf("-- no hybrid path on this device\n");
            } else {
                vksort_vk_radix_module_name(sh, RADIX_PIPE_CHUNK_BOUNDS, NULL, name, sizeof name);
                if (matches(name, filter)) {
                    vksort_vk_radix_spec spec;
                    vksort_vk_radix_specialization(sh, RADIX_PIPE_CHUNK_BOUNDS, NULL, &spec);
                    report(&cx, name, &spec.info);
                }
                for (int large = 0; large < 2; ++large) {
                    if (large && !sh->radix.hybrid_large_items)
                        continue;
                    vksort_vk_radix_spec spec;
                    vksort_vk_radix_chunk_sort_specialization(sh, large, name, sizeof name, &spec);
                    if (!matches(name, filter))
                        continue;
                    printf("-- hybrid chunk sort, 512 x %u%s:\n", spec.data[1],
                           large ? " (large: one bucket a chunk)" : "");
                    report(&cx, name, &spec.info);
                }
            }
            vksort_vk_sorter_destroy(sh);
        }
        /* The bitonic tile sort: 0 workgroup size, 1 tile size, 2 key type (pipelines.c). */
        const uint32_t bit_vals[3] = {p.workgroup_size, p.tile_size, (uint32_t)configs[c].type};
        const VkSpecializationMapEntry bit_entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
        const VkSpecializationInfo bit_spec = {3, bit_entries, sizeof bit_vals, bit_vals};
        const unsigned kw = vksort_key_size(configs[c].type) * 8u;
        snprintf(name, sizeof name, "bitonic_local_sort_k%u_v%d_ns", kw, configs[c].payload);
        if (matches(name, filter))
            report(&cx, name, &bit_spec);
    }
    vkDestroyPipelineLayout(cx.device, cx.layout, NULL);
    vkDestroyDescriptorSetLayout(cx.device, set_layout, NULL);
    vkDestroyDevice(cx.device, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
