/* Which radix sort a sorter runs: the algorithm asked for (AUTO, ONESWEEP, PORTABLE), the
 * device's vendor and type and the create flags resolved into the implementation. One pure
 * function, so that every device class's choice is tested without that device
 * (tests/vk/test_vk_radix_choice.c). */
#ifndef VKSORT_VK_RADIX_CHOICE_H
#define VKSORT_VK_RADIX_CHOICE_H

#include <vksort/vulkan.h>

#include <stdint.h>

typedef struct vksort_vk_radix_choice {
    /* What the sorter reports as its algorithm: ONESWEEP or PORTABLE (AUTO resolved). */
    vksort_vk_algorithm reported;
    /* The implementation: ONESWEEP (decoupled look-back) or PORTABLE (reduce-then-scan). */
    vksort_vk_algorithm implementation;
    /* ONESWEEP with the look-back fallback (the _fb digit-pass modules). */
    int lookback_fallback;
} vksort_vk_radix_choice;

/* requested: AUTO, ONESWEEP or PORTABLE. AUTO is ONESWEEP on vendors known to schedule
 * workgroups fairly (NVIDIA, AMD, Intel), else PORTABLE. PORTABLE, the radix sort that needs no
 * forward progress between workgroups, is Onesweep with the look-back fallback on GPUs, and the
 * reduce-then-scan sort on CPU devices (lavapipe: a chain of fallbacks can run into gallivm's
 * loop limit, docs/vulkan.md) or with VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN. ONESWEEP takes
 * the fallback where VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK asks. */
vksort_vk_radix_choice vksort_vk_radix_choose(vksort_vk_algorithm requested, uint32_t vendor_id,
                                              int cpu_device, vksort_vk_create_flags flags);

/* NVIDIA, AMD, Intel: drivers known to give the workgroups of a dispatch forward progress. */
int vksort_vk_vendor_has_forward_progress(uint32_t vendor_id);

#endif
