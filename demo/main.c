/* vksort particle demo: options, set-up (window or headless), the frame loop, shutdown.
 * See docs/demo.md. */
#include "app.h"
#include "nvtx_marks.h"
#include "order_check.h"
#include "output_file.h"
#include "path_util.h"
#include "png_write.h"
#include "renderdoc_hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int create_device(demo_app *app)
{
    vk_context_options opt;
    memset(&opt, 0, sizeof opt);
    opt.validation = app->args.validation;
    opt.want_external = 1;
    app->windowed = 0;
    if (!app->args.headless && demo_window_init_glfw() == 0) {
        opt.instance_extensions = demo_window_instance_extensions(&opt.instance_extension_count);
        opt.swapchain = 1;
        if (vk_context_create(&opt, &app->ctx) == 0) {
            if (demo_window_create(&app->ctx, app->args.width, app->args.height, &app->win) == 0) {
                app->windowed = 1;
                return 0;
            }
            vk_context_destroy(&app->ctx);
        }
        demo_window_terminate_glfw();
        fprintf(stderr, "vksort-demo: no usable window, running headless\n");
        opt.instance_extension_count = 0;
        opt.instance_extensions = NULL;
        opt.swapchain = 0;
    } else if (!app->args.headless) {
        fprintf(stderr, "vksort-demo: no usable display (DISPLAY unset, or GLFW cannot open it), "
                        "running headless\n");
    }
    app->args.headless = 1;
    return vk_context_create(&opt, &app->ctx);
}

static int setup(demo_app *app)
{
    if (create_device(app))
        return -1;
    vk_context *ctx = &app->ctx;
    /* First, so that teardown after any later failure finds the sort backends initialised. */
    demo_sorts_init(&app->sorts, ctx);
    if (!app->windowed &&
        demo_headless_create(ctx, app->args.width, app->args.height, &app->headless))
        return -1;
    VkFormat format = app->windowed ? app->win.format : DEMO_HEADLESS_FORMAT;
    if (demo_pipelines_create(ctx, format, &app->pipes))
        return -1;
    uint32_t count = app->args.particles ? app->args.particles
                   : app->args.scene == DEMO_SCENE_OVERLAP ? 400u
                   : ctx->is_cpu ? 20000u : 1u << 20;
    demo_sort sort = app->args.sort;
    if (!app->args.sort_given && ctx->is_cpu)
        sort = DEMO_SORT_PORTABLE;  /* onesweep needs forward progress lavapipe lacks */
    if (demo_set_count(app, count, sort))
        return -1;
    vksort_graph_create_info gi;
    memset(&gi, 0, sizeof gi);
    gi.instance = ctx->instance;
    gi.physical_device = ctx->physical_device;
    gi.device = ctx->device;
    gi.get_instance_proc_addr = vkGetInstanceProcAddr;
    gi.flags = VKSORT_GRAPH_CREATE_TIMESTAMPS | (ctx->debug_utils ? VKSORT_GRAPH_CREATE_DEBUG_LABELS : 0);
    gi.frames_in_flight = 2;
    vksort_result r = vksort_graph_create(&gi, &app->graph);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "vksort-demo: render graph: %s\n", vksort_graph_result_string(r));
        return -1;
    }
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = ctx->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 4;
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vkAllocateCommandBuffers(ctx->device, &cai, app->cmds) != VK_SUCCESS ||
        vkCreateFence(ctx->device, &fi, NULL, &app->fence) != VK_SUCCESS ||
        vkCreateFence(ctx->device, &fi, NULL, &app->mid_fence) != VK_SUCCESS)
        return -1;
    demo_camera_default(&app->camera, app->args.scene == DEMO_SCENE_OVERLAP);
    printf("vksort-demo: %s, %s, %u particles, sort %s, %ux%u%s\n", ctx->props.deviceName,
           app->windowed ? "window" : "headless", app->count, demo_sort_name(app->sort),
           app->args.width, app->args.height, app->args.validation ? ", validation on" : "");
    fflush(stdout);
    return 0;
}

static void teardown(demo_app *app)
{
    vk_context *ctx = &app->ctx;
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device);
        vksort_graph_destroy(app->graph);
        demo_sorts_destroy(&app->sorts);
        vk_buffer_destroy(ctx, &app->particles);
        demo_pipelines_destroy(ctx, &app->pipes);
        demo_headless_destroy(ctx, &app->headless);
        if (app->fence)
            vkDestroyFence(ctx->device, app->fence, NULL);
        if (app->mid_fence)
            vkDestroyFence(ctx->device, app->mid_fence, NULL);
    }
    if (app->windowed) {
        demo_window_destroy(ctx, &app->win);
        vk_context_destroy(ctx);
        demo_window_terminate_glfw();
    } else {
        vk_context_destroy(ctx);
    }
}

static int wait_frame(demo_app *app)
{
    if (!app->fence_pending)
        return 0;
    if (vkWaitForFences(app->ctx.device, 1, &app->fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS) {
        fprintf(stderr, "vksort-demo: waiting for a frame failed (device lost?)\n");
        return -1;
    }
    vkResetFences(app->ctx.device, 1, &app->fence);
    app->fence_pending = 0;
    if (app->cuda_pending) {
        double ms = demo_cuda_last_ms(&app->sorts.cuda);
        if (ms >= 0.0)
            demo_timings_add(&app->timings, app->cuda_frame, "sort cuda (cuda events ms)", ms);
        app->cuda_pending = 0;
    }
    return 0;
}

static void fill_frame(demo_app *app, const demo_target *target, double dt)
{
    demo_frame *f = &app->frame;
    demo_camera_frame cf;
    app->camera.aspect = (float)target->extent.width / (float)target->extent.height;
    demo_camera_compute(&app->camera, &cf);
    f->ctx = &app->ctx;
    f->pipes = &app->pipes;
    f->sorts = &app->sorts;
    f->particles = app->particles.buffer;
    f->sort = app->sort;
    f->count = app->count;
    f->target = *target;
    f->sim = (simulate_push){app->count, app->args.seed, (uint32_t)app->args.scene,
                             app->need_reset ? 1u : 0u, (float)dt, (float)app->sim_time};
    memset(&f->keys, 0, sizeof f->keys);
    memcpy(f->keys.eye, cf.eye, sizeof cf.eye);
    memcpy(f->keys.forward, cf.forward, sizeof cf.forward);
    f->keys.count = app->count;
    f->keys.key_bits = app->args.key_bits;
    /* Quantized keys cover [0, max_depth]: the scene lies within 40 units of the orbit target. */
    f->keys.max_depth = app->camera.distance + 40.0f;
    memcpy(f->sprite.view_proj, cf.view_proj, sizeof cf.view_proj);
    memset(f->sprite.right, 0, sizeof f->sprite.right);
    memset(f->sprite.up, 0, sizeof f->sprite.up);
    memcpy(f->sprite.right, cf.right, sizeof cf.right);
    memcpy(f->sprite.up, cf.up, sizeof cf.up);
    if (app->sort == DEMO_SORT_CUDA) {
        f->cuda_wait_value = app->sorts.cuda.value + 1;
        app->sorts.cuda.value += 2;
    }
    app->need_reset = 0;
}

static int write_screenshot(demo_app *app)
{
    const vk_buffer *b = app->windowed ? &app->win.readback : &app->headless.readback;
    uint32_t w = app->windowed ? app->win.extent.width : app->headless.width;
    uint32_t h = app->windowed ? app->win.extent.height : app->headless.height;
    int bgra = app->windowed && app->win.format == VK_FORMAT_B8G8R8A8_UNORM;
    if (app->windowed && !app->win.can_read_back) {
        fprintf(stderr, "vksort-demo: this swapchain cannot be read back; no screenshot\n");
        return -1;
    }
    if (demo_png_write(app->args.screenshot, b->mapped, w, h, bgra))
        return -1;
    printf("vksort-demo: wrote %s (%ux%u)\n", app->args.screenshot, w, h);
    return 0;
}

/* The sort's name in timings and the status line; quantized keys add their width. */
static const char *sort_label(const demo_app *app)
{
    static char label[40];
    if (app->args.key_bits >= 32u)
        return demo_sort_name(app->sort);
    snprintf(label, sizeof label, "%s k%u", demo_sort_name(app->sort), app->args.key_bits);
    return label;
}

static int run(demo_app *app)
{
    const int64_t rd_frame = app->args.renderdoc_frame;
    int renderdoc = rd_frame >= 0 && demo_renderdoc_attach();
    if (rd_frame >= 0 && !renderdoc)
        fprintf(stderr, "vksort-demo: --renderdoc-capture: not running under RenderDoc "
                        "(start with `renderdoccmd capture`); no capture\n");
    uint64_t frames = app->args.frames    ? app->args.frames
                      : app->windowed     ? 0
                                          : DEMO_HEADLESS_FRAMES;
    /* A window that did not open turned the run headless: its default frame count may end
     * before the frame to capture (app_args.c checks what it knows before any Vulkan work). */
    if (rd_frame >= 0 && frames && (uint64_t)rd_frame >= frames) {
        fprintf(stderr, "vksort-demo: --renderdoc-capture %lld is past the last frame (%llu "
                        "frames)\n", (long long)rd_frame, (unsigned long long)frames);
        return -1;
    }
    int fixed = app->args.fixed_dt || !app->windowed;
    double last = demo_now_seconds();
    int quitting = 0, rc = 0;
    for (app->frame_index = 0; !frames || app->frame_index < frames; ++app->frame_index) {
        if (app->windowed && !quitting && demo_handle_input(app))
            quitting = 1;   /* one more frame, which takes the screenshot */
        const int is_last = quitting || (frames && app->frame_index + 1 == frames);
        const int shot = is_last && app->args.screenshot;
        if (wait_frame(app))
            return -1;
        demo_target target;
        if (app->windowed) {
            int a = demo_window_acquire(&app->ctx, &app->win);
            if (a < 0) {
                fprintf(stderr, "vksort-demo: cannot acquire a swapchain image\n");
                return -1;
            }
            if (a > 0) { /* minimised: nothing to draw into, and not counted as a frame */
                glfwWaitEventsTimeout(0.1);
                if (quitting || glfwWindowShouldClose(app->win.window)) {
                    if (app->args.screenshot) {
                        fprintf(stderr, "vksort-demo: the window is minimised: no screenshot\n");
                        rc = -1;
                    }
                    break;
                }
                --app->frame_index;
                continue;
            }
            demo_window_target(&app->win, shot, &target);
        } else {
            demo_headless_target(&app->headless, shot, &target);
        }
        double now = demo_now_seconds();
        double dt = fixed ? 1.0 / 60.0 : (now - last > 0.05 ? 0.05 : now - last);
        last = now;
        if (app->paused)
            dt = 0.0;
        app->sim_time += dt;
        if (renderdoc && (int64_t)app->frame_index == rd_frame)
            demo_renderdoc_start(app->ctx.instance);
        demo_nvtx_push("vksort-demo frame");
        fill_frame(app, &target, dt);
        vk_buffer check_particles, check_indices;
        memset(&check_particles, 0, sizeof check_particles);
        memset(&check_indices, 0, sizeof check_indices);
        const int check = is_last && app->args.check_order;
        if (check && (vk_buffer_create(&app->ctx, (VkDeviceSize)app->count * 64u,
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_BUFFER_HOST,
                                       "order_check_particles", &check_particles) ||
                      vk_buffer_create(&app->ctx, (VkDeviceSize)app->count * 4u,
                                       VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_BUFFER_HOST,
                                       "order_check_indices", &check_indices))) {
            fprintf(stderr, "vksort-demo: --check-order: cannot allocate the read-back buffers\n");
            vk_buffer_destroy(&app->ctx, &check_particles);
            return -1;
        }
        app->frame.check_particles = check_particles.buffer;
        app->frame.check_indices = check_indices.buffer;
        if (demo_frame_build(app->graph, &app->frame))
            return -1;
        if (app->args.print_graph && app->frame_index == 0) {
            size_t len = vksort_graph_write_text(app->graph, NULL, 0);
            char *text = malloc(len + 1);
            if (text) {
                vksort_graph_write_text(app->graph, text, len + 1);
                printf("%s", text);
                free(text);
            }
        }
        app->graph_frame++;
        demo_timings_frame_begin(&app->timings, app->graph_frame, sort_label(app), app->count);
        demo_timings_collect(&app->timings, app->graph);
        int submitted = demo_submit_frame(app);
        demo_nvtx_pop();
        if (submitted)
            return -1;
        if (shot) {
            /* Before presenting: a present that finds the swapchain out of date recreates it
             * and its read-back buffer. */
            if (wait_frame(app))
                return -1;
            rc = write_screenshot(app);
        }
        if (check) {
            const keys_push *k = &app->frame.keys;
            int bad = wait_frame(app) ||
                      demo_order_check(check_particles.mapped, check_indices.mapped, app->count,
                                       k->eye, k->forward, k->key_bits, k->max_depth);
            app->frame.check_particles = app->frame.check_indices = VK_NULL_HANDLE;
            vk_buffer_destroy(&app->ctx, &check_particles);
            vk_buffer_destroy(&app->ctx, &check_indices);
            if (bad)
                rc = -1;
        }
        if (app->windowed && demo_window_present(&app->ctx, &app->win)) {
            fprintf(stderr, "vksort-demo: present failed\n");
            return -1;
        }
        if (renderdoc && (int64_t)app->frame_index == rd_frame) {
            int ok = demo_renderdoc_end(app->ctx.instance);
            printf("vksort-demo: RenderDoc capture of frame %lld %s\n", (long long)rd_frame,
                   ok ? "written" : "FAILED");
            if (!ok)
                rc = -1;
        }
        if (demo_timings_tick(&app->timings, demo_now_seconds(), sort_label(app), app->count)) {
            if (!app->args.quiet) {
                printf("%s\n", app->timings.line);
                fflush(stdout);
            }
            if (app->windowed)
                demo_window_set_title(&app->win, app->timings.line);
        }
        if (quitting)
            break;
    }
    if (wait_frame(app))
        return -1;
    /* The timestamps of the last frames: the GPU is idle, two more resets bring them to the
     * front of the graph's ring (nothing is declared or recorded). */
    for (int i = 0; i < 2; ++i) {
        vksort_graph_reset(app->graph);
        demo_timings_collect(&app->timings, app->graph);
    }
    return rc;
}

int main(int argc, char **argv)
{
    static demo_app app;
    int p = demo_args_parse(argc, argv, &app.args);
    if (p != 0)
        return p > 0 ? 0 : 2;
    if (app.args.screenshot && demo_output_check("--screenshot", app.args.screenshot) != 0)
        return 2;
    if (app.args.screenshot && app.args.timings &&
        vksort_path_same_file(app.args.screenshot, app.args.timings)) {
        fprintf(stderr, "vksort-demo: --screenshot and --timings name the same file '%s'\n",
                app.args.timings);
        return 2;
    }
    if (demo_timings_open(&app.timings, app.args.timings))
        return 2;
    int rc = setup(&app) == 0 ? run(&app) : -1;
    if (app.ctx.device)
        vkDeviceWaitIdle(app.ctx.device);
    int messages = app.ctx.messages;
    int validation = app.ctx.validation;
    teardown(&app);
    if (demo_timings_close(&app.timings, rc == 0 && !(validation && messages > 0)))
        rc = -1;
    if (validation) {
        printf("vksort-demo: validation messages: %d\n", messages);
        if (messages > 0)
            rc = -1;
    }
    return rc == 0 ? 0 : 1;
}
