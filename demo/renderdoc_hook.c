/* RenderDoc in-application API (see renderdoc_hook.h). */
#include "renderdoc_hook.h"

#ifdef VKSORT_DEMO_NO_RENDERDOC

int demo_renderdoc_attach(void)
{
    return 0;
}

void demo_renderdoc_start(VkInstance instance)
{
    (void)instance;
}

int demo_renderdoc_end(VkInstance instance)
{
    (void)instance;
    return 0;
}

#else

#include <renderdoc_app.h>

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

static RENDERDOC_API_1_1_2 *rdoc;

int demo_renderdoc_attach(void)
{
    void *lib = dlopen("librenderdoc.so", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        return 0;
    pRENDERDOC_GetAPI get_api = NULL;
    *(void **)&get_api = dlsym(lib, "RENDERDOC_GetAPI");
    if (!get_api || get_api(eRENDERDOC_API_Version_1_1_2, (void **)&rdoc) != 1 || !rdoc) {
        rdoc = NULL;
        return 0;
    }
    return 1;
}

void demo_renderdoc_start(VkInstance instance)
{
    if (rdoc)
        rdoc->StartFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), NULL);
}

int demo_renderdoc_end(VkInstance instance)
{
    if (!rdoc)
        return 0;
    return rdoc->EndFrameCapture(RENDERDOC_DEVICEPOINTER_FROM_VKINSTANCE(instance), NULL) == 1;
}

#endif
