/* Resolves the radix algorithm asked for into the implementation (radix_choice.h). */
#include "radix_choice.h"

int vksort_vk_vendor_has_forward_progress(uint32_t vendor_id)
{
    switch (vendor_id) {
    case 0x10DE: /* NVIDIA */
    case 0x1002: /* AMD */
    case 0x8086: /* Intel */
        return 1;
    default:
        return 0;
    }
}

vksort_vk_radix_choice vksort_vk_radix_choose(vksort_vk_algorithm requested, uint32_t vendor_id,
                                              int cpu_device, vksort_vk_create_flags flags)
{
    vksort_vk_radix_choice c;
    if (requested == VKSORT_VK_ALGORITHM_AUTO)
        requested = vksort_vk_vendor_has_forward_progress(vendor_id) ? VKSORT_VK_ALGORITHM_ONESWEEP
                                                                     : VKSORT_VK_ALGORITHM_PORTABLE;
    c.reported = requested;
    if (requested == VKSORT_VK_ALGORITHM_PORTABLE) {
        const int reduce_then_scan = cpu_device || (flags & VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN);
        c.implementation = reduce_then_scan ? VKSORT_VK_ALGORITHM_PORTABLE : VKSORT_VK_ALGORITHM_ONESWEEP;
        c.lookback_fallback = !reduce_then_scan;
    } else {
        c.implementation = VKSORT_VK_ALGORITHM_ONESWEEP;
        c.lookback_fallback = (flags & VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK) != 0;
    }
    return c;
}
