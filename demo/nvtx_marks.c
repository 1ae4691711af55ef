/* NVTX ranges of the demo (see nvtx_marks.h). */
#include "nvtx_marks.h"

#if defined(VKSORT_WITH_CUDA) && defined(VKSORT_DEMO_HAS_NVTX)
#include <nvtx3/nvToolsExt.h>

void demo_nvtx_push(const char *name)
{
    nvtxRangePushA(name);
}

void demo_nvtx_pop(void)
{
    nvtxRangePop();
}
#else
void demo_nvtx_push(const char *name)
{
    (void)name;
}

void demo_nvtx_pop(void)
{
}
#endif
