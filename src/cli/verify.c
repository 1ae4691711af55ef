/* Result checks, written independently of the sort (plain loops over encoded keys). */
#include "verify.h"

#include <stdlib.h>
#include <string.h>

static uint64_t load_key(size_t key_size, const void *keys, size_t i)
{
    if (key_size == 8) {
        uint64_t b;
        memcpy(&b, (const unsigned char *)keys + i * 8u, 8);
        return b;
    }
    uint32_t b;
    memcpy(&b, (const unsigned char *)keys + i * 4u, 4);
    return b;
}

static uint64_t order_key(vksort_key_type type, size_t key_size, uint64_t bits, uint64_t flip,
                          uint64_t mask)
{
    uint64_t e = key_size == 8 ? vksort_encode_u64_bits(type, bits)
                               : vksort_encode_u32_bits(type, (uint32_t)bits);
    return (e ^ flip) & mask;
}

int cli_check_order(vksort_key_type type, vksort_flags flags, uint32_t bit_begin,
                    uint32_t bit_end, const void *keys, size_t count, size_t *bad)
{
    const size_t ks = vksort_key_size(type);
    const uint32_t bits = bit_end - bit_begin;
    const uint64_t mask = (bits >= 64 ? ~0ull : ((1ull << bits) - 1u)) << bit_begin;
    /* Descending is ascending on the complemented encoding. */
    const uint64_t flip = (flags & VKSORT_FLAG_DESCENDING) ? ~0ull : 0u;
    if (count < 2)
        return 1;
    uint64_t prev = order_key(type, ks, load_key(ks, keys, 0), flip, mask);
    for (size_t i = 1; i < count; ++i) {
        uint64_t cur = order_key(type, ks, load_key(ks, keys, i), flip, mask);
        if (cur < prev) {
            *bad = i - 1;
            return 0;
        }
        prev = cur;
    }
    return 1;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

cli_fingerprint cli_fingerprint_of(vksort_key_type type, const void *keys, const uint32_t *values,
                                   size_t count)
{
    const size_t ks = vksort_key_size(type);
    cli_fingerprint f = {0, 0};
    for (size_t i = 0; i < count; ++i) {
        uint64_t k = load_key(ks, keys, i);
        uint64_t v = values ? values[i] : 0u;
        /* Two different hashes of the pair, combined by addition (order-independent). */
        uint64_t h = mix64(k ^ mix64(v + 0x243f6a8885a308d3ull));
        f.sum += h;
        f.mix += mix64(h ^ 0x13198a2e03707344ull);
    }
    return f;
}

int cli_fingerprint_equal(cli_fingerprint a, cli_fingerprint b)
{
    return a.sum == b.sum && a.mix == b.mix;
}

int cli_check_payload(vksort_key_type type, const void *original, const void *keys,
                      const uint32_t *values, size_t count, size_t *bad)
{
    const size_t ks = vksort_key_size(type);
    unsigned char *seen = calloc(count / 8u + 1u, 1);
    if (!seen)
        return -1;
    int ok = 1;
    for (size_t i = 0; i < count; ++i) {
        uint32_t v = values[i];
        if ((size_t)v >= count || (seen[v / 8u] >> (v % 8u)) & 1u ||
            load_key(ks, original, v) != load_key(ks, keys, i)) {
            *bad = i;
            ok = 0;
            break;
        }
        seen[v / 8u] |= (unsigned char)(1u << (v % 8u));
    }
    free(seen);
    return ok;
}
