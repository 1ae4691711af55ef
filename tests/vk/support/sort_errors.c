#include "sort_errors.h"

#include <stdio.h>
#include <string.h>

/* One expected refusal: the result and a message. */
static int expect(vksort_vk_sorter *s, vksort_result got, vksort_result want, const char *what)
{
    if (got == want && strlen(vksort_vk_sorter_last_message(s)) > 0)
        return 0;
    fprintf(stderr, "argument error '%s': result %d (want %d), message '%s'\n", what, (int)got,
            (int)want, vksort_vk_sorter_last_message(s));
    return 1;
}

vksort_vk_sort_info sort_check_u64_pairs_info(VkBuffer keys, VkBuffer values, VkBuffer scratch,
                                              uint32_t count, VkDeviceSize scratch_size)
{
    vksort_vk_sort_info si;
    memset(&si, 0, sizeof si);
    si.keys = (vksort_vk_buffer_range){keys, 0, (VkDeviceSize)count * 8u};
    si.values = (vksort_vk_buffer_range){values, 0, (VkDeviceSize)count * 4u};
    si.scratch = (vksort_vk_buffer_range){scratch, 0, scratch_size};
    si.count = count;
    return si;
}

int sort_check_argument_errors(vksort_vk_sorter *s, VkCommandBuffer cmd,
                               const vksort_vk_sort_info *good, VkDeviceSize scratch_size,
                               VkBuffer count_buffer, VkDeviceSize min_storage_alignment)
{
    const VkDeviceSize odd = min_storage_alignment > 4 ? 4 : 2; /* misaligned either way */
    const uint32_t n = good->count;
    int failed = 0;
    vksort_vk_sort_info si;
#define BAD(change, want)                                                   \
    do {                                                                    \
        si = *good;                                                         \
        change;                                                             \
        failed += expect(s, vksort_vk_cmd_sort(s, cmd, &si), want, #change); \
    } while (0)
    BAD(si.keys.offset = 4, VKSORT_ERROR_MISALIGNED); /* not a multiple of 8 nor of alignment */
    BAD(si.values.offset = odd, VKSORT_ERROR_MISALIGNED);
    BAD(si.scratch.offset = odd, VKSORT_ERROR_MISALIGNED);
    BAD(si.keys.size = (VkDeviceSize)(n - 1u) * 8u, VKSORT_ERROR_BUFFER_TOO_SMALL);
    BAD(si.values.size = 4, VKSORT_ERROR_BUFFER_TOO_SMALL);
    BAD(si.scratch.size = 4, VKSORT_ERROR_SCRATCH_TOO_SMALL);
    BAD(si.scratch.size = scratch_size - 4u, VKSORT_ERROR_SCRATCH_TOO_SMALL);
    /* The reported size whatever the count (a small sort touches less, but the rule is one). */
    BAD((si.count = 2u, si.scratch.size = scratch_size - 4u), VKSORT_ERROR_SCRATCH_TOO_SMALL);
    BAD(si.count = n + 1u, VKSORT_ERROR_COUNT_TOO_LARGE);
    BAD(si.values.buffer = VK_NULL_HANDLE, VKSORT_ERROR_INVALID_ARGUMENT);
    BAD(si.scratch.buffer = VK_NULL_HANDLE, VKSORT_ERROR_INVALID_ARGUMENT);
    BAD((si.bit_begin = 40, si.bit_end = 30), VKSORT_ERROR_BIT_RANGE);
    BAD(si.bit_end = 65, VKSORT_ERROR_BIT_RANGE);
    BAD((si.bit_begin = 60, si.bit_end = 70), VKSORT_ERROR_BIT_RANGE);
    BAD(si.flags = 1u << 7, VKSORT_ERROR_INVALID_ARGUMENT);
    BAD(si.count_buffer = ((vksort_vk_buffer_range){count_buffer, 2, 4}), VKSORT_ERROR_MISALIGNED);
    BAD(si.count_buffer = ((vksort_vk_buffer_range){count_buffer, 4, 2}), VKSORT_ERROR_BUFFER_TOO_SMALL);
#undef BAD
    failed += expect(s, vksort_vk_cmd_sort(s, VK_NULL_HANDLE, good), VKSORT_ERROR_INVALID_ARGUMENT,
                     "no command buffer");
    failed += expect(s, vksort_vk_cmd_sort(s, cmd, NULL), VKSORT_ERROR_INVALID_ARGUMENT, "no info");
    si = *good;
    si.bit_end = 65;
    if (vksort_vk_timestamp_query_count(s, &si) != 0) {
        fprintf(stderr, "argument error: timestamp_query_count of a bad sort is not 0\n");
        ++failed;
    }
    /* vksort_vk_cmd_init_scratch checks its range like a sort does. */
    if (vksort_vk_cmd_init_scratch(NULL, cmd, &good->scratch) != VKSORT_ERROR_INVALID_ARGUMENT) {
        fprintf(stderr, "argument error: init_scratch without a sorter\n");
        ++failed;
    }
    failed += expect(s, vksort_vk_cmd_init_scratch(s, VK_NULL_HANDLE, &good->scratch),
                     VKSORT_ERROR_INVALID_ARGUMENT, "init_scratch: no command buffer");
    failed += expect(s, vksort_vk_cmd_init_scratch(s, cmd, NULL), VKSORT_ERROR_INVALID_ARGUMENT,
                     "init_scratch: no range");
    vksort_vk_buffer_range r = good->scratch;
    r.buffer = VK_NULL_HANDLE;
    failed += expect(s, vksort_vk_cmd_init_scratch(s, cmd, &r), VKSORT_ERROR_INVALID_ARGUMENT,
                     "init_scratch: no buffer");
    r = good->scratch;
    r.size = scratch_size - 4u;
    failed += expect(s, vksort_vk_cmd_init_scratch(s, cmd, &r), VKSORT_ERROR_SCRATCH_TOO_SMALL,
                     "init_scratch: too small");
    r = good->scratch;
    r.offset = odd;
    failed += expect(s, vksort_vk_cmd_init_scratch(s, cmd, &r), VKSORT_ERROR_MISALIGNED,
                     "init_scratch: misaligned");
    return failed;
}
