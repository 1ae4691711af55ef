/* --check-order (see order_check.h). */
#include "order_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float view_depth(const float *p, const float eye[4], const float forward[4],
                        uint32_t key_bits, float max_depth)
{
    float d = (p[0] - eye[0]) * forward[0] + (p[1] - eye[1]) * forward[1] +
              (p[2] - eye[2]) * forward[2];
    if (!(d > 0.0f))
        d = 0.0f; /* behind the camera (or NaN): the key pass clamps to 0 */
    if (key_bits < 32u && d > max_depth)
        d = max_depth;
    return d;
}

int demo_order_check(const void *particles, const uint32_t *order, uint32_t count,
                     const float eye[4], const float forward[4], uint32_t key_bits,
                     float max_depth)
{
    const float *p = particles;
    unsigned char *seen = calloc(count ? count : 1, 1);
    if (!seen) {
        fprintf(stderr, "vksort-demo: order check: out of host memory\n");
        return -1;
    }
    uint32_t not_permutation = 0, inversions = 0;
    const float step = key_bits < 32u ? max_depth / (float)((1u << key_bits) - 1u) : 0.0f;
    float prev = 0.0f;
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t i = order[k];
        if (i >= count || seen[i]) {
            if (++not_permutation <= 3)
                fprintf(stderr, "vksort-demo: order check: position %u holds particle %u (%s)\n",
                        k, i, i >= count ? "out of range" : "twice");
            continue;
        }
        seen[i] = 1;
        float d = view_depth(p + (size_t)i * 16u, eye, forward, key_bits, max_depth);
        /* Host and GPU may round the dot product differently; quantized keys tie within a step. */
        float tolerance = step + 1e-5f * fabsf(prev) + 1e-6f;
        if (k > 0 && d > prev + tolerance && ++inversions <= 3)
            fprintf(stderr, "vksort-demo: order check: position %u (particle %u, depth %.6f) is "
                            "farther than position %u (depth %.6f)\n", k, i, (double)d, k - 1u,
                    (double)prev);
        prev = d;
    }
    free(seen);
    if (not_permutation || inversions) {
        fprintf(stderr, "vksort-demo: order check FAILED: the draw order is not back to front "
                        "(%u of %u positions nearer than the one before, %u not a permutation)\n",
                inversions, count, not_permutation);
        return -1;
    }
    printf("vksort-demo: order check: %u particles drawn back to front\n", count);
    return 0;
}
