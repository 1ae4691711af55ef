/*
 * LSD radix sort body, instantiated once per key width by cpu_sort.c (a C "template"):
 * define RADIX_KEY (uint32_t or uint64_t) and RADIX_NAME(x) before including.
 *
 * Threads own contiguous chunks of the array. Per digit pass: each thread counts its chunk,
 * offsets are laid out bucket-major then thread-minor (so thread 0's keys of a bucket precede
 * thread 1's: the pass is stable), then each thread scatters its chunk in order.
 */

#define RADIX_BITS ((unsigned)(sizeof(RADIX_KEY) * 8u))

/* Encode (type + descending folded into two masks, see cpu_sort.c). Branch-free. */
static inline RADIX_KEY RADIX_NAME(encode)(RADIX_KEY bits, const key_masks *m)
{
    RADIX_KEY neg = (RADIX_KEY)(bits >> (RADIX_BITS - 1u));
    return (bits ^ ((neg * (RADIX_KEY)m->negative_flip) | (RADIX_KEY)m->sign_flip)) ^
           (RADIX_KEY)m->order_flip;
}

static inline RADIX_KEY RADIX_NAME(decode)(RADIX_KEY enc, const key_masks *m)
{
    RADIX_KEY e = enc ^ (RADIX_KEY)m->order_flip;
    RADIX_KEY was_negative = (RADIX_KEY)((e >> (RADIX_BITS - 1u)) ^ 1u);
    return e ^ ((was_negative * (RADIX_KEY)m->negative_flip) | (RADIX_KEY)m->sign_flip);
}

/* Stable insertion sort on encoded keys, for tiny arrays. */
static void RADIX_NAME(insertion_sort)(RADIX_KEY *keys, uint32_t *values, size_t n,
                                       RADIX_KEY order_mask, const key_masks *m)
{
    for (size_t i = 0; i < n; ++i)
        keys[i] = RADIX_NAME(encode)(keys[i], m);
    for (size_t i = 1; i < n; ++i) {
        RADIX_KEY k = keys[i];
        uint32_t v = values ? values[i] : 0;
        size_t j = i;
        while (j > 0 && (keys[j - 1] & order_mask) > (k & order_mask)) {
            keys[j] = keys[j - 1];
            if (values)
                values[j] = values[j - 1];
            --j;
        }
        keys[j] = k;
        if (values)
            values[j] = v;
    }
    for (size_t i = 0; i < n; ++i)
        keys[i] = RADIX_NAME(decode)(keys[i], m);
}

/* One scatter pass of thread t over its chunk [lo, hi) of src into dst. */
static inline void RADIX_NAME(scatter)(const RADIX_KEY *restrict src_keys,
                                       const uint32_t *restrict src_values,
                                       RADIX_KEY *restrict dst_keys, uint32_t *restrict dst_values,
                                       size_t lo, size_t hi, unsigned shift, RADIX_KEY mask,
                                       size_t *restrict offsets, int decode_out,
                                       const key_masks *m)
{
    if (decode_out) {
        for (size_t i = lo; i < hi; ++i) {
            RADIX_KEY k = src_keys[i];
            size_t d = offsets[(k >> shift) & mask]++;
            dst_keys[d] = RADIX_NAME(decode)(k, m);
            if (src_values)
                dst_values[d] = src_values[i];
        }
    } else if (src_values) {
        for (size_t i = lo; i < hi; ++i) {
            RADIX_KEY k = src_keys[i];
            size_t d = offsets[(k >> shift) & mask]++;
            dst_keys[d] = k;
            dst_values[d] = src_values[i];
        }
    } else {
        for (size_t i = lo; i < hi; ++i) {
            RADIX_KEY k = src_keys[i];
            dst_keys[offsets[(k >> shift) & mask]++] = k;
        }
    }
}

static void RADIX_NAME(radix_sort)(const sort_job *job)
{
    RADIX_KEY *keys = (RADIX_KEY *)job->keys;
    RADIX_KEY *tmp_keys = (RADIX_KEY *)job->tmp_keys;
    uint32_t *values = job->values;
    uint32_t *tmp_values = job->tmp_values;
    const size_t n = job->count;
    const int threads = job->threads;
    const key_masks *m = &job->masks;
    const unsigned digit_count = job->digit_count;
    /* Per thread: digit_count histograms of 256 (first pass) and 256 running offsets. */
    size_t *const counters = job->counters;
    const size_t per_thread = (size_t)digit_count * 256u + 256u;
    const int encode_in_place = job->encode_in_place;
    unsigned pass_digit[MAX_DIGITS];
    unsigned pass_count = 0;

#pragma omp parallel num_threads(threads)
    {
        /* OpenMP may grant fewer threads than asked (dynamic adjustment): use what we got. */
        const int nt = omp_get_num_threads();
        const int t = omp_get_thread_num();
        const size_t lo = n * (size_t)t / (size_t)nt;
        const size_t hi = n * (size_t)(t + 1) / (size_t)nt;
        size_t *hist = counters + (size_t)t * per_thread;
        size_t *offsets = hist + (size_t)digit_count * 256u;

        /* Pass 0: encode in place (when the encoding is not the identity) and histogram every
         * digit at once. */
        memset(hist, 0, sizeof(size_t) * (size_t)digit_count * 256u);
        for (size_t i = lo; i < hi; ++i) {
            RADIX_KEY k = keys[i];
            if (encode_in_place) {
                k = RADIX_NAME(encode)(k, m);
                keys[i] = k;
            }
            for (unsigned d = 0; d < digit_count; ++d)
                hist[d * 256u + ((k >> job->digit_shift[d]) & job->digit_mask[d])]++;
        }
#pragma omp barrier
#pragma omp single
        {
            /* A digit whose whole histogram sits in one bucket cannot change the order. */
            for (unsigned d = 0; d < digit_count; ++d) {
                int constant = 0;
                for (unsigned b = 0; b < 256u && !constant; ++b) {
                    size_t total = 0;
                    for (int u = 0; u < nt; ++u)
                        total += counters[(size_t)u * per_thread + d * 256u + b];
                    if (total == n)
                        constant = 1;
                    else if (total != 0)
                        break;
                }
                if (!constant)
                    pass_digit[pass_count++] = d;
            }
        }
        /* implicit barrier of single */

        RADIX_KEY *src_k = keys, *dst_k = tmp_keys;
        uint32_t *src_v = values, *dst_v = tmp_values;
        for (unsigned p = 0; p < pass_count; ++p) {
            const unsigned shift = job->digit_shift[pass_digit[p]];
            const RADIX_KEY mask = (RADIX_KEY)job->digit_mask[pass_digit[p]];
            memset(offsets, 0, 256u * sizeof(size_t));
            for (size_t i = lo; i < hi; ++i)
                offsets[(src_k[i] >> shift) & mask]++;
#pragma omp barrier
#pragma omp single
            {
                /* Bucket-major, thread-minor exclusive scan: keeps the pass stable. */
                size_t sum = 0;
                for (unsigned b = 0; b < 256u; ++b) {
                    for (int u = 0; u < nt; ++u) {
                        size_t *c = counters + (size_t)u * per_thread + (size_t)digit_count * 256u;
                        size_t v = c[b];
                        c[b] = sum;
                        sum += v;
                    }
                }
            }
            const int decode_out = (p + 1 == pass_count) && encode_in_place && dst_k == keys;
            RADIX_NAME(scatter)(src_k, src_v, dst_k, dst_v, lo, hi, shift, mask, offsets,
                                decode_out, m);
#pragma omp barrier
            RADIX_KEY *tk = src_k; src_k = dst_k; dst_k = tk;
            uint32_t *tv = src_v; src_v = dst_v; dst_v = tv;
        }

        /* Odd pass count: the result sits in scratch; copy it home (decoding on the way).
         * Zero passes with an in-place encoding: decode in place. */
        if (src_k != keys) {
            for (size_t i = lo; i < hi; ++i)
                keys[i] = encode_in_place ? RADIX_NAME(decode)(src_k[i], m) : src_k[i];
            if (values)
                memcpy(values + lo, src_v + lo, (hi - lo) * sizeof(uint32_t));
        } else if (pass_count == 0 && encode_in_place) {
            for (size_t i = lo; i < hi; ++i)
                keys[i] = RADIX_NAME(decode)(keys[i], m);
        }
    }
}

#undef RADIX_BITS
