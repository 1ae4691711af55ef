/* GLFW window, Vulkan swapchain and input of the window mode (see window.h). */
#include "window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_error(int code, const char *msg)
{
    if (getenv("VKSORT_DEMO_VERBOSE"))
        fprintf(stderr, "glfw error %d: %s\n", code, msg);
}

int demo_window_init_glfw(void)
{
    const char *display = getenv("DISPLAY");
    const char *wayland = getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        return -1;
    glfwSetErrorCallback(on_error);
    if (!glfwInit())
        return -1;
    if (!glfwVulkanSupported()) {
        glfwTerminate();
        return -1;
    }
    return 0;
}

void demo_window_terminate_glfw(void)
{
    glfwTerminate();
}

const char *const *demo_window_instance_extensions(uint32_t *count)
{
    return glfwGetRequiredInstanceExtensions(count);
}

static demo_input *input_of(GLFWwindow *win)
{
    return &((demo_window *)glfwGetWindowUserPointer(win))->input;
}

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    if (action != GLFW_PRESS)
        return;
    demo_input *in = input_of(win);
    if (key >= GLFW_KEY_1 && key <= GLFW_KEY_6)
        in->sort_key = key - GLFW_KEY_1 + 1;
    else if (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD || key == GLFW_KEY_RIGHT_BRACKET)
        in->count_change = 1;
    else if (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT || key == GLFW_KEY_LEFT_BRACKET)
        in->count_change = -1;
    else if (key == GLFW_KEY_SPACE)
        in->toggle_pause = 1;
    else if (key == GLFW_KEY_R)
        in->reset = 1;
    else if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_Q)
        in->quit = 1;
}

static void on_button(GLFWwindow *win, int button, int action, int mods)
{
    (void)mods;
    demo_input *in = input_of(win);
    if (button == GLFW_MOUSE_BUTTON_LEFT) {
        in->dragging = action == GLFW_PRESS;
        glfwGetCursorPos(win, &in->last_x, &in->last_y);
    }
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    demo_input *in = input_of(win);
    if (in->dragging) {
        in->orbit_dx -= (float)(x - in->last_x) * 0.005f;
        in->orbit_dy += (float)(y - in->last_y) * 0.005f;
    }
    in->last_x = x;
    in->last_y = y;
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    input_of(win)->zoom_steps += (float)dy;
}

static void destroy_swapchain(vk_context *ctx, demo_window *w)
{
    for (uint32_t i = 0; i < w->image_count; ++i)
        if (w->views[i])
            vkDestroyImageView(ctx->device, w->views[i], NULL);
    memset(w->views, 0, sizeof w->views);
    w->image_count = 0;
}

static int create_swapchain(vk_context *ctx, demo_window *w)
{
    VkSurfaceCapabilitiesKHR caps;
    if (vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx->physical_device, w->surface, &caps) != VK_SUCCESS)
        return -1;
    uint32_t nf = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical_device, w->surface, &nf, NULL);
    VkSurfaceFormatKHR formats[64];
    if (nf > 64)
        nf = 64;
    vkGetPhysicalDeviceSurfaceFormatsKHR(ctx->physical_device, w->surface, &nf, formats);
    if (nf == 0)
        return -1;
    VkSurfaceFormatKHR chosen = formats[0];
    int unorm8 = 0;
    for (uint32_t i = 0; i < nf && !unorm8; ++i)
        if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM || formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
            chosen = formats[i];
            unorm8 = 1;
        }
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(w->window, &fw, &fh);
        extent.width = (uint32_t)fw;
        extent.height = (uint32_t)fh;
    }
    if (extent.width == 0 || extent.height == 0)
        return 1;
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount)
        count = caps.maxImageCount;
    if (count > DEMO_MAX_SWAPCHAIN_IMAGES)
        count = DEMO_MAX_SWAPCHAIN_IMAGES;
    /* The PNG writer takes 8-bit UNORM RGBA/BGRA only: another format draws, but no screenshot. */
    w->can_read_back = unorm8 && (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    VkSwapchainCreateInfoKHR ci = {.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    ci.surface = w->surface;
    ci.minImageCount = count;
    ci.imageFormat = chosen.format;
    ci.imageColorSpace = chosen.colorSpace;
    ci.imageExtent = extent;
    ci.imageArrayLayers = 1;
    ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                    (w->can_read_back ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.preTransform = caps.currentTransform;
    ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    ci.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    ci.clipped = VK_TRUE;
    ci.oldSwapchain = w->swapchain;
    VkSwapchainKHR sc = VK_NULL_HANDLE;
    if (vkCreateSwapchainKHR(ctx->device, &ci, NULL, &sc) != VK_SUCCESS)
        return -1;
    destroy_swapchain(ctx, w);
    if (w->swapchain)
        vkDestroySwapchainKHR(ctx->device, w->swapchain, NULL);
    w->swapchain = sc;
    w->format = chosen.format;
    w->extent = extent;
    uint32_t n = 0;
    vkGetSwapchainImagesKHR(ctx->device, sc, &n, NULL);
    if (n > DEMO_MAX_SWAPCHAIN_IMAGES)
        return -1;
    vkGetSwapchainImagesKHR(ctx->device, sc, &n, w->images);
    w->image_count = n;
    for (uint32_t i = 0; i < n; ++i) {
        VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = w->images[i];
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = w->format;
        vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        if (vkCreateImageView(ctx->device, &vci, NULL, &w->views[i]) != VK_SUCCESS)
            return -1;
        char name[32];
        snprintf(name, sizeof name, "swapchain_image_%u", i);
        vk_name(ctx, VK_OBJECT_TYPE_IMAGE, (uint64_t)w->images[i], name);
    }
    vk_buffer_destroy(ctx, &w->readback);
    if (w->can_read_back &&
        vk_buffer_create(ctx, (VkDeviceSize)extent.width * extent.height * 4u,
                         VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_BUFFER_HOST, "screenshot_readback",
                         &w->readback))
        w->can_read_back = 0;
    return 0;
}

int demo_window_create(vk_context *ctx, uint32_t width, uint32_t height, demo_window *w)
{
    memset(w, 0, sizeof *w);
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    w->window = glfwCreateWindow((int)width, (int)height, "vksort particle demo", NULL, NULL);
    if (!w->window) {
        fprintf(stderr, "vksort-demo: cannot create a window\n");
        return -1;
    }
    glfwSetWindowUserPointer(w->window, w);
    glfwSetKeyCallback(w->window, on_key);
    glfwSetMouseButtonCallback(w->window, on_button);
    glfwSetCursorPosCallback(w->window, on_cursor);
    glfwSetScrollCallback(w->window, on_scroll);
    VkBool32 supported = VK_FALSE;
    if (glfwCreateWindowSurface(ctx->instance, w->window, NULL, &w->surface) != VK_SUCCESS ||
        vkGetPhysicalDeviceSurfaceSupportKHR(ctx->physical_device, ctx->queue_family, w->surface,
                                             &supported) != VK_SUCCESS ||
        !supported) {
        fprintf(stderr, "vksort-demo: %s cannot present to this window\n", ctx->props.deviceName);
        demo_window_destroy(ctx, w);
        return -1;
    }
    VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES + 1; ++i)
        if (vkCreateSemaphore(ctx->device, &si, NULL, &w->acquired[i]) != VK_SUCCESS) {
            demo_window_destroy(ctx, w);
            return -1;
        }
    for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES; ++i)
        if (vkCreateSemaphore(ctx->device, &si, NULL, &w->rendered[i]) != VK_SUCCESS) {
            demo_window_destroy(ctx, w);
            return -1;
        }
    if (create_swapchain(ctx, w) != 0) {
        fprintf(stderr, "vksort-demo: cannot create a swapchain\n");
        demo_window_destroy(ctx, w);
        return -1;
    }
    return 0;
}

void demo_window_destroy(vk_context *ctx, demo_window *w)
{
    if (ctx->device) {
        vkDeviceWaitIdle(ctx->device);
        destroy_swapchain(ctx, w);
        if (w->swapchain)
            vkDestroySwapchainKHR(ctx->device, w->swapchain, NULL);
        for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES + 1; ++i)
            if (w->acquired[i])
                vkDestroySemaphore(ctx->device, w->acquired[i], NULL);
        for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES; ++i)
            if (w->rendered[i])
                vkDestroySemaphore(ctx->device, w->rendered[i], NULL);
        vk_buffer_destroy(ctx, &w->readback);
    }
    if (w->surface)
        vkDestroySurfaceKHR(ctx->instance, w->surface, NULL);
    if (w->window)
        glfwDestroyWindow(w->window);
    memset(w, 0, sizeof *w);
}

int demo_window_acquire(vk_context *ctx, demo_window *w)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        VkSemaphore sem = w->acquired[w->acquire_slot];
        VkResult r = vkAcquireNextImageKHR(ctx->device, w->swapchain, UINT64_MAX, sem,
                                           VK_NULL_HANDLE, &w->image_index);
        if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {
            w->current_acquired = sem;
            w->acquire_slot = (w->acquire_slot + 1) % (DEMO_MAX_SWAPCHAIN_IMAGES + 1);
            return 0;
        }
        if (r != VK_ERROR_OUT_OF_DATE_KHR)
            return -1;
        vkDeviceWaitIdle(ctx->device);
        int rc = create_swapchain(ctx, w);
        if (rc != 0)
            return rc;
    }
    return -1;
}

void demo_window_target(const demo_window *w, int read_back, demo_target *t)
{
    memset(t, 0, sizeof *t);
    t->name = "swapchain_image";
    t->image = w->images[w->image_index];
    t->view = w->views[w->image_index];
    t->format = w->format;
    t->extent = w->extent;
    /* The acquire semaphore is waited for at COLOR_ATTACHMENT_OUTPUT: the layout transition
     * out of UNDEFINED must come after it in that stage. */
    t->initial.stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    t->initial.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    t->final.stage = VK_PIPELINE_STAGE_2_NONE;
    t->final.layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    t->readback = read_back && w->can_read_back ? w->readback.buffer : VK_NULL_HANDLE;
}

int demo_window_present(vk_context *ctx, demo_window *w)
{
    VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &w->rendered[w->image_index];
    pi.swapchainCount = 1;
    pi.pSwapchains = &w->swapchain;
    pi.pImageIndices = &w->image_index;
    VkResult r = vkQueuePresentKHR(ctx->queue, &pi);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        vkDeviceWaitIdle(ctx->device);
        return create_swapchain(ctx, w) < 0 ? -1 : 0;
    }
    return r == VK_SUCCESS ? 0 : -1;
}

void demo_window_set_title(demo_window *w, const char *title)
{
    glfwSetWindowTitle(w->window, title);
}
