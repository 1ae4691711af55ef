/* Window mode: a GLFW window (X11) with a Vulkan swapchain, and the live controls (mouse orbit and
 * zoom, keys). */
#ifndef VKSORT_DEMO_WINDOW_H
#define VKSORT_DEMO_WINDOW_H

#include "frame.h"
#include "vk_context.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#define DEMO_MAX_SWAPCHAIN_IMAGES 8

typedef struct demo_input {
    float orbit_dx, orbit_dy;   /* radians since the last poll */
    float zoom_steps;
    int sort_key;               /* 1..6 pressed, else 0 */
    int count_change;           /* +1 double, -1 halve */
    int toggle_pause, reset, quit;
    int dragging;
    double last_x, last_y;
} demo_input;

typedef struct demo_window {
    GLFWwindow *window;
    VkSurfaceKHR surface;
    VkSwapchainKHR swapchain;
    VkFormat format;
    VkExtent2D extent;
    uint32_t image_count;
    VkImage images[DEMO_MAX_SWAPCHAIN_IMAGES];
    VkImageView views[DEMO_MAX_SWAPCHAIN_IMAGES];
    VkSemaphore acquired[DEMO_MAX_SWAPCHAIN_IMAGES + 1];
    VkSemaphore rendered[DEMO_MAX_SWAPCHAIN_IMAGES];
    uint32_t acquire_slot;
    uint32_t image_index;
    VkSemaphore current_acquired;
    int can_read_back;          /* swapchain images allow TRANSFER_SRC */
    vk_buffer readback;
    demo_input input;
} demo_window;

/* glfwInit with a display and Vulkan support. 0 when a window can be tried, else -1 (no
 * message: the caller falls back to headless). */
int demo_window_init_glfw(void);
void demo_window_terminate_glfw(void);
const char *const *demo_window_instance_extensions(uint32_t *count);

/* Window + surface + swapchain. -1 (with the reason on stderr) when this device cannot present. */
int demo_window_create(vk_context *ctx, uint32_t width, uint32_t height, demo_window *w);
void demo_window_destroy(vk_context *ctx, demo_window *w);

/* Acquires the next image (recreating the swapchain when needed). 0, 1 when the window is
 * minimised (skip the frame), -1 on error. */
int demo_window_acquire(vk_context *ctx, demo_window *w);
void demo_window_target(const demo_window *w, int read_back, demo_target *out);
/* Presents the acquired image after `rendered[image_index]` is signalled. */
int demo_window_present(vk_context *ctx, demo_window *w);
void demo_window_set_title(demo_window *w, const char *title);

#endif
