/* Vulkan backend of the CLI: placeholder until the Vulkan sorter is wired in (see backend.h for
 * the contract a real implementation fulfils). It reports itself unavailable, so `--backend
 * vulkan` fails with a clear message and the automatic choice skips it. */
#include "backend.h"

#include "err.h"

#include <stdio.h>

static const char vulkan_why[] =
    "not available yet: the Vulkan backend is not built into this binary";

int cli_backend_vulkan_available(char *why, size_t n)
{
    snprintf(why, n, "%s", vulkan_why);
    return CLI_BACKEND_UNAVAILABLE;
}

int cli_backend_vulkan_sort(const cli_sort_request *req, char *err, size_t n)
{
    (void)req;
    cli_fail(err, n, "backend 'vulkan' not available: %s", vulkan_why);
    return VKSORT_ERROR_BACKEND_UNAVAILABLE;
}

void cli_backend_vulkan_release(void)
{
}
