/*
 * Which radix sort each device class gets (src/vk/radix_choice.c), without the devices: AUTO by
 * vendor, PORTABLE by device type (Onesweep with the look-back fallback on GPUs,
 * reduce-then-scan on CPU devices and with VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN), ONESWEEP
 * as asked. The devices the lavapipe suites cannot be (NVIDIA, Mali, ...) are only here.
 */
#include "radix_choice.h"
#include "support/test_main.h"

enum {
    NVIDIA = 0x10DE,
    AMD = 0x1002,
    INTEL = 0x8086,
    APPLE = 0x106B,
    ARM = 0x13B5,
    QUALCOMM = 0x5143,
    IMGTEC = 0x1010,
    MESA = 0x10005
};

#define ONESWEEP VKSORT_VK_ALGORITHM_ONESWEEP
#define PORTABLE VKSORT_VK_ALGORITHM_PORTABLE

static void expect(vksort_vk_algorithm requested, uint32_t vendor, int cpu_device,
                   vksort_vk_create_flags flags, vksort_vk_algorithm reported,
                   vksort_vk_algorithm implementation, int fallback)
{
    vksort_vk_radix_choice c = vksort_vk_radix_choose(requested, vendor, cpu_device, flags);
    CHECK_EQ(c.reported, reported);
    CHECK_EQ(c.implementation, implementation);
    CHECK_EQ(c.lookback_fallback, fallback);
}

static void test_vendors(void)
{
    CHECK(vksort_vk_vendor_has_forward_progress(NVIDIA));
    CHECK(vksort_vk_vendor_has_forward_progress(AMD));
    CHECK(vksort_vk_vendor_has_forward_progress(INTEL));
    const uint32_t unfair[] = {APPLE, ARM, QUALCOMM, IMGTEC, MESA, 0u};
    for (size_t i = 0; i < sizeof unfair / sizeof unfair[0]; ++i)
        CHECK(!vksort_vk_vendor_has_forward_progress(unfair[i]));
}

static void test_auto(void)
{
    const vksort_vk_algorithm AUTO = VKSORT_VK_ALGORITHM_AUTO;
    expect(AUTO, NVIDIA, 0, 0u, ONESWEEP, ONESWEEP, 0);
    expect(AUTO, AMD, 0, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, ONESWEEP, ONESWEEP, 1);
    /* GPUs not known to schedule fairly: PORTABLE, which there is Onesweep with the fallback. */
    expect(AUTO, ARM, 0, 0u, PORTABLE, ONESWEEP, 1);
    expect(AUTO, APPLE, 0, 0u, PORTABLE, ONESWEEP, 1);
    expect(AUTO, QUALCOMM, 0, VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN, PORTABLE, PORTABLE, 0);
    /* lavapipe: reduce-then-scan. */
    expect(AUTO, MESA, 1, 0u, PORTABLE, PORTABLE, 0);
    expect(AUTO, MESA, 1, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, PORTABLE, PORTABLE, 0);
}

static void test_portable(void)
{
    expect(PORTABLE, NVIDIA, 0, 0u, PORTABLE, ONESWEEP, 1);
    expect(PORTABLE, ARM, 0, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, PORTABLE, ONESWEEP, 1);
    expect(PORTABLE, NVIDIA, 0, VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN, PORTABLE, PORTABLE, 0);
    expect(PORTABLE, MESA, 1, 0u, PORTABLE, PORTABLE, 0);
    expect(PORTABLE, MESA, 1, VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN, PORTABLE, PORTABLE, 0);
}

static void test_onesweep(void)
{
    /* Asked for by name, Onesweep is Onesweep on any device; the fallback only when asked. */
    expect(ONESWEEP, ARM, 0, 0u, ONESWEEP, ONESWEEP, 0);
    expect(ONESWEEP, MESA, 1, 0u, ONESWEEP, ONESWEEP, 0);
    expect(ONESWEEP, MESA, 1, VKSORT_VK_CREATE_RADIX_LOOKBACK_FALLBACK, ONESWEEP, ONESWEEP, 1);
    expect(ONESWEEP, NVIDIA, 0, VKSORT_VK_CREATE_RADIX_REDUCE_THEN_SCAN, ONESWEEP, ONESWEEP, 0);
}

int main(void)
{
    RUN(test_vendors);
    RUN(test_auto);
    RUN(test_portable);
    RUN(test_onesweep);
    return test_summary();
}
