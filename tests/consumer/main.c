/* Sorts a few floats (with payloads) through the installed library and checks the result. */
#include <vksort/cpu.h>

#include <stdio.h>

int main(void)
{
    float keys[6] = {3.5f, -1.0f, 0.0f, -0.0f, 2.0f, -1.0f};
    uint32_t values[6] = {0, 1, 2, 3, 4, 5};
    vksort_cpu_sort_info info = {0};
    info.key_type = VKSORT_KEY_F32;
    info.count = 6;
    info.keys = keys;
    info.values = values;
    vksort_result r = vksort_cpu_sort(&info);
    if (r != VKSORT_SUCCESS) {
        fprintf(stderr, "consumer: %s\n", vksort_result_string(r));
        return 1;
    }
    /* totalOrder and stability: -1(1) -1(5) -0(3) +0(2) 2(4) 3.5(0) */
    const uint32_t expect[6] = {1, 5, 3, 2, 4, 0};
    for (int i = 0; i < 6; ++i) {
        if (values[i] != expect[i]) {
            fprintf(stderr, "consumer: wrong order at %d\n", i);
            return 1;
        }
    }
    printf("consumer: sorted through the installed vksort %d.%d.%d\n", VKSORT_VERSION_MAJOR,
           VKSORT_VERSION_MINOR, VKSORT_VERSION_PATCH);
    return 0;
}
