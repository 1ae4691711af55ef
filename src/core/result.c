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
    case VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE: return "unknown resource (not a resource of this graph build)";
    case VKSORT_ERROR_GRAPH_UNKNOWN_PASS: return "unknown pass (not a pass of this graph build)";
    case VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE: return "a pass reads a resource that no earlier pass wrote";
    case VKSORT_ERROR_GRAPH_CYCLE: return "the pass dependencies form a cycle";
    case VKSORT_ERROR_GRAPH_LAYOUT_CONFLICT: return "one pass uses an image in two layouts";
    case VKSORT_ERROR_GRAPH_BAD_USE: return "invalid resource use (no stage or access, layout on a buffer, ...)";
    case VKSORT_ERROR_GRAPH_NOT_COMPILED: return "the graph is not compiled";
    case VKSORT_ERROR_GRAPH_INVALID_STATE: return "the call is not valid in the graph's current state";
    case VKSORT_ERROR_GRAPH_NOT_READY: return "results not available yet";
    }
    return "unknown vksort result code";
}
