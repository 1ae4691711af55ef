/* CUDA backend of the CLI: placeholder until the CUB backend (cuda/) is wired in (see backend.h
 * for the contract). It reports itself unavailable, so `--backend cuda` fails with a clear
 * message and the automatic choice skips it. */
#include "backend.h"

#include "err.h"

#include <stdio.h>

static const char cuda_why[] =
    "not built in this binary (the CLI's CUDA backend is not implemented yet)";

int cli_backend_cuda_available(char *why, size_t n)
{
    snprintf(why, n, "%s", cuda_why);
    return CLI_BACKEND_UNAVAILABLE;
}

int cli_backend_cuda_sort(const cli_sort_request *req, char *err, size_t n)
{
    (void)req;
    cli_fail(err, n, "backend 'cuda' not available: %s", cuda_why);
    return VKSORT_ERROR_BACKEND_UNAVAILABLE;
}

void cli_backend_cuda_release(void)
{
}
