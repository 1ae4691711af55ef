/* --check-order: a check of the draw order that does not trust the sort keys. */
#ifndef VKSORT_DEMO_ORDER_CHECK_H
#define VKSORT_DEMO_ORDER_CHECK_H

#include <stdint.h>

/* particles: count particles as the GPU holds them (64 bytes each, xyz position first); order:
 * the draw order the frame used (count particle indices). Recomputes every particle's view
 * depth on the host from eye and forward (xyz), clamped as the key pass clamps it ([0, inf) for
 * 32-bit keys, [0, max_depth] for key_bits < 32), and checks that `order` is a permutation and
 * that the depth never increases along it, beyond float rounding (and one quantization step for
 * key_bits < 32). Prints the result; returns 0 when the frame was drawn back to front. */
int demo_order_check(const void *particles, const uint32_t *order, uint32_t count,
                     const float eye[4], const float forward[4], uint32_t key_bits,
                     float max_depth);

#endif
