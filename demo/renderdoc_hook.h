/* RenderDoc in-application API: found only when the process runs under RenderDoc
 * (dlopen("librenderdoc.so", RTLD_NOLOAD)); then frame N is captured with
 * StartFrameCapture/EndFrameCapture around it. */
#ifndef VKSORT_DEMO_RENDERDOC_HOOK_H
#define VKSORT_DEMO_RENDERDOC_HOOK_H

#include <vulkan/vulkan.h>

/* 1 when RenderDoc is loaded in this process. */
int demo_renderdoc_attach(void);
/* device: RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance); window NULL (any). */
void demo_renderdoc_start(VkInstance instance);
/* 1 when the capture was written. */
int demo_renderdoc_end(VkInstance instance);

#endif
