/*
 * The argument errors every Vulkan sorter must refuse, shared by the bitonic and radix tests:
 * from one valid sort of u64 keys with u32 payloads, each bad variant (misaligned ranges,
 * ranges too small, a count above max_count, missing buffers, bad bit ranges or flags, a bad
 * count buffer, no command buffer) must fail with its result code and a message, and
 * vksort_vk_cmd_init_scratch must check its range the same way. Nothing is recorded by any of
 * them, so the caller's command buffer stays empty.
 */
#ifndef VKSORT_TEST_SORT_ERRORS_H
#define VKSORT_TEST_SORT_ERRORS_H

#include "vksort/vulkan.h"

/* A valid sort info for the battery below: count u64 keys and u32 payloads from offset 0 of
 * their buffers, scratch_size bytes of scratch. */
vksort_vk_sort_info sort_check_u64_pairs_info(VkBuffer keys, VkBuffer values, VkBuffer scratch,
                                              uint32_t count, VkDeviceSize scratch_size);

/* good: a valid sort of good->count 64-bit keys and payloads (no count buffer, keys and values
 * exactly count elements long, scratch exactly scratch_size bytes); max_count of the sorter ==
 * good->count. count_buffer: any storage buffer of at least 8 bytes. min_storage_alignment:
 * the device's minStorageBufferOffsetAlignment. Returns how many checks failed (each printed). */
int sort_check_argument_errors(vksort_vk_sorter *s, VkCommandBuffer cmd,
                               const vksort_vk_sort_info *good, VkDeviceSize scratch_size,
                               VkBuffer count_buffer, VkDeviceSize min_storage_alignment);

#endif
