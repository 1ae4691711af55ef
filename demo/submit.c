/* Recording and submitting the segments of a frame (see app.h). */
#include "app.h"

#include <stdio.h>
#include <string.h>

static int submit(demo_app *app, VkCommandBuffer cmd, const VkSemaphoreSubmitInfo *waits,
                  uint32_t wait_count, const VkSemaphoreSubmitInfo *signals, uint32_t signal_count,
                  VkFence fence)
{
    VkCommandBufferSubmitInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    ci.commandBuffer = cmd;
    VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.waitSemaphoreInfoCount = wait_count;
    si.pWaitSemaphoreInfos = waits;
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &ci;
    si.signalSemaphoreInfoCount = signal_count;
    si.pSignalSemaphoreInfos = signals;
    VkResult r = app->ctx.queue_submit2(app->ctx.queue, 1, &si, fence);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: vkQueueSubmit2 failed (VkResult %d)\n", (int)r);
        return -1;
    }
    return 0;
}

/* Queue-family ownership of the CUDA-shared key/index buffers (include/vksort/cuda.h): released to
 * VK_QUEUE_FAMILY_EXTERNAL at the end of the segment before the CUDA sort, acquired back at the
 * start of the segment after it. The graph records no ownership transfers (docs/graph.md). */
static void cuda_ownership(demo_app *app, VkCommandBuffer cmd, int release)
{
    VkBuffer buffers[2] = {app->sorts.cuda.keys.buffer, app->sorts.cuda.indices.buffer};
    VkBufferMemoryBarrier b[2];
    memset(b, 0, sizeof b);
    for (int i = 0; i < 2; ++i) {
        b[i].sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
        b[i].srcAccessMask = release ? VK_ACCESS_SHADER_WRITE_BIT : 0;
        b[i].dstAccessMask = release ? 0 : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        b[i].srcQueueFamilyIndex = release ? app->ctx.queue_family : VK_QUEUE_FAMILY_EXTERNAL;
        b[i].dstQueueFamilyIndex = release ? VK_QUEUE_FAMILY_EXTERNAL : app->ctx.queue_family;
        b[i].buffer = buffers[i];
        b[i].size = VK_WHOLE_SIZE;
    }
    vkCmdPipelineBarrier(cmd,
                         release ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         release ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT
                                 : VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 0, NULL, 2, b, 0, NULL);
}

static VkSemaphoreSubmitInfo sem(VkSemaphore s, uint64_t value, VkPipelineStageFlags2 stage)
{
    VkSemaphoreSubmitInfo i = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    i.semaphore = s;
    i.value = value;
    i.stageMask = stage;
    return i;
}

int demo_submit_frame(demo_app *app)
{
    vk_context *ctx = &app->ctx;
    uint32_t segments = vksort_graph_segment_count(app->graph);
    if (segments == 0 || segments > 4) {
        fprintf(stderr, "vksort-demo: unexpected segment count %u\n", segments);
        return -1;
    }
    const int cuda = app->frame.sort == DEMO_SORT_CUDA;
    uint64_t cuda_wait = app->frame.cuda_wait_value;
    for (uint32_t s = 0; s < segments; ++s) {
        VkCommandBuffer cmd = app->cmds[s];
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vkResetCommandBuffer(cmd, 0);
        vkBeginCommandBuffer(cmd, &bi);
        if (cuda && s > 0)
            cuda_ownership(app, cmd, 0);
        vksort_result r = vksort_graph_record_segment(app->graph, s, cmd);
        if (cuda && s + 1 < segments)
            cuda_ownership(app, cmd, 1);
        if (vkEndCommandBuffer(cmd) != VK_SUCCESS || r != VKSORT_SUCCESS) {
            fprintf(stderr, "vksort-demo: recording segment %u: %s: %s\n", s,
                    vksort_graph_result_string(r), vksort_graph_last_message(app->graph));
            return -1;
        }
        vksort_graph_segment_info info;
        vksort_graph_get_segment_info(app->graph, s, &info);
        const int last = s + 1 == segments;
        VkSemaphoreSubmitInfo waits[2], signals[2];
        uint32_t nw = 0, ns = 0;
        if (last && app->windowed) {
            waits[nw++] = sem(app->win.current_acquired, 0, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
            signals[ns++] = sem(app->win.rendered[app->win.image_index], 0,
                                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        }
        if (cuda && s > 0)   /* after the CUDA sort: wait for its signal */
            waits[nw++] = sem(app->sorts.cuda.timeline, cuda_wait + 1, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        if (cuda && !last) { /* before it: signal W (W+1 when CUDA enqueued nothing) */
            uint64_t v = app->frame.cuda_enqueued ? cuda_wait : cuda_wait + 1;
            signals[ns++] = sem(app->sorts.cuda.timeline, v, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
        }
        const int reference = app->frame.sort == DEMO_SORT_REFERENCE;
        const int host_sort = !last && (app->frame.sort == DEMO_SORT_CPU || reference) && info.external_pass;
        VkFence fence = last ? app->fence : host_sort ? app->mid_fence : VK_NULL_HANDLE;
        if (submit(app, cmd, waits, nw, signals, ns, fence))
            return -1;
        if (last)
            app->fence_pending = 1;
        if (host_sort) {
            /* The documented stall: the GPU work before the sort must finish, the host sorts, then
             * the rest of the frame is submitted. */
            if (vkWaitForFences(ctx->device, 1, &app->mid_fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS)
                return -1;
            vkResetFences(ctx->device, 1, &app->mid_fence);
            if (demo_sorts_cpu_run(&app->sorts, app->frame.count, app->frame.keys.key_bits, reference))
                return -1;
            demo_timings_add(&app->timings, app->graph_frame,
                             reference ? "sort reference (host ms)" : "sort cpu (host ms)", app->sorts.last_cpu_ms);
        }
    }
    if (cuda) {
        if (!app->frame.cuda_enqueued) {
            fprintf(stderr, "vksort-demo: the CUDA sort could not be enqueued\n");
            return -1;
        }
        app->cuda_pending = 1;
        app->cuda_frame = app->graph_frame;
    }
    return 0;
}
