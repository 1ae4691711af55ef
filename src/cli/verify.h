/* Checks of a sort's result that need no second sort: order, a multiset fingerprint and, for
 * index payloads, that the payload is a permutation pointing at equal keys. */
#ifndef VKSORT_CLI_VERIFY_H
#define VKSORT_CLI_VERIFY_H

#include "vksort/vksort.h"

#include <stddef.h>
#include <stdint.h>

/* Whether keys are ordered on the encoded keys restricted to [bit_begin, bit_end) (resolved
 * range), descending when flags has VKSORT_FLAG_DESCENDING. On failure *bad is the first index i
 * with keys[i] out of order against keys[i + 1]. */
int cli_check_order(vksort_key_type type, vksort_flags flags, uint32_t bit_begin,
                    uint32_t bit_end, const void *keys, size_t count, size_t *bad);

/* An order-independent fingerprint of the (key bits, value) multiset; values may be NULL.
 * Equal multisets give equal fingerprints; different ones collide with probability ~2^-128. */
typedef struct cli_fingerprint {
    uint64_t sum, mix;
} cli_fingerprint;

cli_fingerprint cli_fingerprint_of(vksort_key_type type, const void *keys, const uint32_t *values,
                                   size_t count);
int cli_fingerprint_equal(cli_fingerprint a, cli_fingerprint b);

/* For a sort of (original[i], i): whether values is a permutation of 0..count-1 and
 * keys[i] has the same bits as original[values[i]] for every i. On failure *bad is the first
 * offending output index. Returns -1 when the bitmap cannot be allocated. */
int cli_check_payload(vksort_key_type type, const void *original, const void *keys,
                      const uint32_t *values, size_t count, size_t *bad);

#endif
