/* Result codes to messages. */
#include "vksort/vksort.h"

const char *vksort_result_string(vksort_result result)
{
    switch (result) {
    case VKSORT_SUCCESS: return "success";
    case VKSORT_ERROR_INVALID_ARGUMENT: return "invalid argument (NULL pointer, unknown enum value or flag)";
    case VKSORT_ERROR_OUT_OF_HOST_MEMORY: return "out of host memory";
    case VKSORT_ERROR_BIT_RANGE: return "bit range must satisfy begin < end <= key width";
    case VKSORT_ERROR_SCRATCH_TOO_SMALL: return "scratch memory smaller than the queried size";
    case VKSORT_ERROR_COUNT_TOO_LARGE: return "count exceeds the sorter's maximum count";
    case VKSORT_ERROR_BUFFER_TOO_SMALL: return "a buffer range is too small for the count";
    case VKSORT_ERROR_MISALIGNED: return "an offset or size breaks the required alignment";
    case VKSORT_ERROR_UNSUPPORTED: return "operation not supported by this backend or algorithm";
    case VKSORT_ERROR_BACKEND_UNAVAILABLE: return "backend not available on this machine";
    case VKSORT_ERROR_DEVICE_LIMITS: return "the device lacks a limit or feature the sort needs";
    case VKSORT_ERROR_VULKAN: return "a Vulkan call failed";
    case VKSORT_ERROR_CUDA: return "a CUDA call failed";
    }
    return "unknown vksort result code";
}
