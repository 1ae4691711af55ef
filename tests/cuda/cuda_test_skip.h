/* Shared by the CUDA tests: CTest's skip code and the one-line skip message. */
#ifndef VKSORT_TEST_CUDA_SKIP_H
#define VKSORT_TEST_CUDA_SKIP_H

#include <stdio.h>

/* Registered as SKIP_RETURN_CODE in tests/cuda/CMakeLists.txt. */
#define CUDA_TEST_SKIP 77

static inline int cuda_test_skip(const char *reason)
{
    printf("SKIP: %s\n", reason);
    fflush(stdout);
    return CUDA_TEST_SKIP;
}

#endif
