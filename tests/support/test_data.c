#include "test_data.h"

#include <stdlib.h>
#include <string.h>

const char *test_dist_name(test_dist d)
{
    static const char *const names[DIST_COUNT] = {"uniform",  "sorted",   "reversed",
                                                  "constant", "few",      "low-byte",
                                                  "flag-bit", "specials"};
    /* The targeted ones, from DIST_BYTES_0_2 on, in their enum order. */
    static const char *const targeted[] = {"bytes-0-2",     "top-heavy",    "skewed-top",
                                           "crowded-chunk", "diagonal-top", "high-half",
                                           "repeated-8",    "crowded-bucket",
                                           "crowded-64",    "repeated-64",  "paired-top"};
    if ((unsigned)d < DIST_COUNT)
        return names[d];
    const unsigned t = (unsigned)d - (unsigned)DIST_BYTES_0_2;
    return d >= DIST_BYTES_0_2 && t < sizeof targeted / sizeof targeted[0] ? targeted[t] : "?";
}

uint64_t test_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t special_bits(vksort_key_type type, uint64_t r)
{
    static const uint32_t f32_specials[] = {
        0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800123u, /* +-NaN, with payload bits */
        0x7f800000u, 0xff800000u,                           /* +-inf */
        0x00000000u, 0x80000000u,                           /* +-0 */
        0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, /* denormals */
        0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0xff7fffffu};
    static const uint64_t f64_specials[] = {
        0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
        0xfff0000000000abcull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
        0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
        0x8000000000000001ull, 0x000fffffffffffffull, 0x800fffffffffffffull,
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7fefffffffffffffull,
        0xffefffffffffffffull};
    static const uint64_t int_specials[] = {0, 1, 2, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000,
                                            0xffffffff, 0xfffffffe, 0x7fffffffffffffffull,
                                            0x8000000000000000ull, 0xffffffffffffffffull,
                                            0x100000000ull, 0xfffffffffffffffeull, 12345};
    unsigned i = (unsigned)(r % 16u);
    switch (type) {
    case VKSORT_KEY_F32: return f32_specials[i];
    case VKSORT_KEY_F64: return f64_specials[i];
    default: return int_specials[i];
    }
}

void test_fill_keys(vksort_key_type type, test_dist dist, void *keys, size_t n, uint64_t seed)
{
    const int wide = vksort_key_size(type) == 8;
    const uint64_t wmask = wide ? ~0ull : 0xffffffffull;
    const uint64_t step = wmask / (n ? n : 1);
    uint64_t state = seed * 0x2545f4914f6cdd1dull + (uint64_t)dist * 7919u + 1u;
    uint64_t few[5];
    for (int i = 0; i < 5; ++i)
        few[i] = test_rng_next(&state);
    const uint64_t base = test_rng_next(&state);
    for (size_t i = 0; i < n; ++i) {
        uint64_t r = test_rng_next(&state);
        uint64_t bits;
        if (dist == DIST_SPECIALS) {
            /* A quarter random bit patterns, the rest from the table of special values. */
            bits = (r >> 8) % 4u == 0 ? (r >> 11) ^ (r << 13) : special_bits(type, r);
        } else {
            uint64_t enc; /* in the encoded (order) domain */
            switch (dist) {
            case DIST_UNIFORM: enc = r; break;
            case DIST_SORTED: enc = (uint64_t)i * step; break;
            case DIST_REVERSED: enc = wmask - (uint64_t)i * step; break;
            case DIST_CONSTANT: enc = base; break;
            case DIST_FEW_UNIQUE: enc = few[r % 5u]; break;
            case DIST_LOW_BYTE: enc = (base & ~0xffull) | (r & 0xffu); break;
            case DIST_FLAG_BIT: enc = (base & ~(1ull << 13)) | ((r & 1u) << 13); break;
            case DIST_BYTES_0_2: enc = (base & ~0xff00ffull) | (r & 0xff00ffu); break;
            case DIST_TOP_HEAVY: enc = (r >> 61) == 0 ? ((r & wmask) >> 8) & ~0xff00ull : r; break;
            case DIST_SKEWED_TOP: {
                const unsigned top = wide ? 56u : 24u;
                const uint64_t pick = test_rng_next(&state);
                enc = r;
                if ((pick & 15u) != 0u) /* 15/16: the base's top byte */
                    enc = (enc & ~(0xffull << top)) | (base & (0xffull << top));
                if (((pick >> 4) & 7u) < 5u) /* 5/8: the base's byte below it */
                    enc = (enc & ~(0xffull << (top - 8u))) | (base & (0xffull << (top - 8u)));
                break;
            }
            case DIST_CROWDED_CHUNK: {
                const unsigned top = wide ? 56u : 24u;
                const uint64_t pick = test_rng_next(&state);
                enc = r;
                if (pick % 40u == 0u)
                    enc = (enc & ~(0xffull << top)) | (((pick >> 8) & 3u) << top);
                break;
            }
            case DIST_DIAGONAL_TOP:
            case DIST_PAIRED_TOP: {
                const unsigned top = wide ? 56u : 24u;
                const uint64_t byte_mask = dist == DIST_PAIRED_TOP ? 0xfeu : 0xffu;
                enc = (r & ~(0xffull << (top - 8u))) | (((r >> top) & byte_mask) << (top - 8u));
                break;
            }
            case DIST_HIGH_HALF: enc = (r & ~0xffffull) | (base & 0xffffu); break;
            case DIST_CROWDED_BUCKET: {
                const unsigned low = wide ? 48u : 16u;
                enc = test_rng_next(&state) % 1600u == 0u ? (base & ~((1ull << low) - 1u)) | (r & ((1ull << low) - 1u)) : r;
                break;
            }
            case DIST_CROWDED_64: {
                const unsigned top = wide ? 54u : 22u;
                enc = test_rng_next(&state) % 600u == 0u ? r & ((1ull << top) - 1u) : r;
                break;
            }
            case DIST_REPEATED_8:
            case DIST_REPEATED_64: {
                const size_t values = n / (dist == DIST_REPEATED_8 ? 8u : 64u);
                uint64_t value = base + r % (values ? values : 1u); /* a value's seed */
                enc = test_rng_next(&value);
                break;
            }
            default: enc = r; break;
            }
            enc &= wmask;
            bits = wide ? vksort_decode_u64_bits(type, enc)
                        : vksort_decode_u32_bits(type, (uint32_t)enc);
        }
        if (wide) {
            memcpy((uint64_t *)keys + i, &bits, 8);
        } else {
            uint32_t b32 = (uint32_t)bits;
            memcpy((uint32_t *)keys + i, &b32, 4);
        }
    }
}

typedef struct ref_ctx {
    vksort_key_type type;
    uint64_t order_flip;
    uint64_t mask;
} ref_ctx;

static uint64_t ref_order_key(const ref_ctx *c, const unsigned char *keys, size_t i)
{
    uint64_t e;
    if (vksort_key_size(c->type) == 8) {
        uint64_t b;
        memcpy(&b, keys + i * 8, 8);
        e = vksort_encode_u64_bits(c->type, b);
    } else {
        uint32_t b;
        memcpy(&b, keys + i * 4, 4);
        e = vksort_encode_u32_bits(c->type, b);
    }
    return (e ^ c->order_flip) & c->mask;
}

int test_reference_sort(vksort_key_type type, int descending, uint32_t bit_begin,
                        uint32_t bit_end, void *keys, uint32_t *values, size_t n)
{
    const size_t ks = vksort_key_size(type);
    uint32_t width = (uint32_t)ks * 8u;
    if (bit_end == 0)
        bit_end = width;
    ref_ctx c = {type, descending ? ~0ull : 0ull,
                 ((bit_end - bit_begin) == 64 ? ~0ull : ((1ull << (bit_end - bit_begin)) - 1u))
                     << bit_begin};
    if (n < 2)
        return 1;
    /* Sort an index permutation by (order key), stable bottom-up merge. */
    size_t *idx = malloc(n * sizeof *idx), *tmp = malloc(n * sizeof *tmp);
    uint64_t *ok = malloc(n * sizeof *ok);
    unsigned char *kcopy = malloc(n * ks);
    uint32_t *vcopy = values ? malloc(n * 4) : NULL;
    if (!idx || !tmp || !ok || !kcopy || (values && !vcopy)) {
        free(idx); free(tmp); free(ok); free(kcopy); free(vcopy);
        return 0;
    }
    for (size_t i = 0; i < n; ++i) {
        idx[i] = i;
        ok[i] = ref_order_key(&c, keys, i);
    }
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = ok[idx[b]] < ok[idx[a]] ? idx[b++] : idx[a++];
            while (a < mid) tmp[o++] = idx[a++];
            while (b < hi) tmp[o++] = idx[b++];
        }
        size_t *s = idx; idx = tmp; tmp = s;
    }
    memcpy(kcopy, keys, n * ks);
    if (values)
        memcpy(vcopy, values, n * 4);
    for (size_t i = 0; i < n; ++i) {
        memcpy((unsigned char *)keys + i * ks, kcopy + idx[i] * ks, ks);
        if (values)
            values[i] = vcopy[idx[i]];
    }
    free(idx); free(tmp); free(ok); free(kcopy); free(vcopy);
    return 1;
}

size_t test_first_difference(const void *a, const void *b, size_t n, size_t elem_size)
{
    const unsigned char *pa = a, *pb = b;
    if (memcmp(pa, pb, n * elem_size) == 0)
        return (size_t)-1;
    for (size_t i = 0; i < n; ++i)
        if (memcmp(pa + i * elem_size, pb + i * elem_size, elem_size) != 0)
            return i;
    return (size_t)-1;
}
