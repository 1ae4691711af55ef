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

/* Scatter through per-bucket write-combining buffers of one cache line: the scattered stores
 * become whole-line copies, which cuts read-for-ownership traffic and TLB misses. A line in the
 * destination can be shared with the thread owning the neighbouring range of the same bucket,
 * so each flush writes only [begin, end) of this thread's own elements. */
#define RADIX_LINE ((size_t)(64u / sizeof(RADIX_KEY)))
static inline void RADIX_NAME(scatter_wc)(const RADIX_KEY *restrict src_keys,
                                          const uint32_t *restrict src_values,
                                          RADIX_KEY *restrict dst_keys,
                                          uint32_t *restrict dst_values, size_t lo, size_t hi,
                                          unsigned shift, RADIX_KEY mask,
                                          size_t *restrict pos, size_t *restrict begin,
                                          RADIX_KEY (*restrict kbuf)[RADIX_LINE],
                                          uint32_t (*restrict vbuf)[RADIX_LINE], int decode_out,
                                          const key_masks *m)
{
    const size_t buckets = (size_t)mask + 1u;
    for (size_t b = 0; b < buckets; ++b)
        begin[b] = pos[b];
    for (size_t i = lo; i < hi; ++i) {
        RADIX_KEY k = src_keys[i];
        size_t b = (size_t)((k >> shift) & mask);
        size_t p = pos[b]++;
        size_t slot = p & (RADIX_LINE - 1u);
        kbuf[b][slot] = decode_out ? RADIX_NAME(decode)(k, m) : k;
        if (src_values)
            vbuf[b][slot] = src_values[i];
        if (slot == RADIX_LINE - 1u) {
            size_t first = begin[b];
            size_t from = first & (RADIX_LINE - 1u);
            if (from == 0) {
                copy_line_streaming(dst_keys + first, kbuf[b]);
                if (src_values)
                    copy_bytes_streaming(dst_values + first, vbuf[b], sizeof vbuf[b]);
            } else {
                memcpy(dst_keys + first, kbuf[b] + from, (RADIX_LINE - from) * sizeof(RADIX_KEY));
                if (src_values)
                    memcpy(dst_values + first, vbuf[b] + from, (RADIX_LINE - from) * 4u);
            }
            begin[b] = p + 1u;
        }
    }
    for (size_t b = 0; b < buckets; ++b) {
        size_t first = begin[b], end = pos[b];
        if (first == end)
            continue;
        size_t from = first & (RADIX_LINE - 1u);
        memcpy(dst_keys + first, kbuf[b] + from, (end - first) * sizeof(RADIX_KEY));
        if (src_values)
            memcpy(dst_values + first, vbuf[b] + from, (end - first) * 4u);
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
    /* Per thread: digit_count histograms of B buckets (first pass) and B running offsets. */
    const size_t B = job->buckets;
    size_t *const counters = job->counters;
    const size_t per_thread = (size_t)digit_count * B + B;
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
        size_t *offsets = hist + (size_t)digit_count * B;
        unsigned char *wc_area = job->wc_buffers + (size_t)t * B * WC_BYTES_PER_BUCKET;

        /* Pass 0: encode in place (when the encoding is not the identity) and histogram every
         * digit at once. */
        memset(hist, 0, sizeof(size_t) * (size_t)digit_count * B);
        for (size_t i = lo; i < hi; ++i) {
            RADIX_KEY k = keys[i];
            if (encode_in_place) {
                k = RADIX_NAME(encode)(k, m);
                keys[i] = k;
            }
            for (unsigned d = 0; d < digit_count; ++d)
                hist[d * B + ((k >> job->digit_shift[d]) & job->digit_mask[d])]++;
        }
#pragma omp barrier
#pragma omp single
        {
            /* A digit whose whole histogram sits in one bucket cannot change the order. */
            for (unsigned d = 0; d < digit_count; ++d) {
                int constant = 0;
                for (size_t b = 0; b < B && !constant; ++b) {
                    size_t total = 0;
                    for (int u = 0; u < nt; ++u)
                        total += counters[(size_t)u * per_thread + d * B + b];
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
            memset(offsets, 0, B * sizeof(size_t));
            for (size_t i = lo; i < hi; ++i)
                offsets[(src_k[i] >> shift) & mask]++;
#pragma omp barrier
            /* Bucket-major, thread-minor exclusive scan (keeps the pass stable), in parallel: each
             * thread sums a range of buckets over all threads' counts, the range totals are
             * scanned, then each thread writes its range's offsets. The counts are strided by a
             * thread's whole counter block, so a serial scan costs a cache miss per entry. */
            {
                const size_t blo = B * (size_t)t / (size_t)nt, bhi = B * (size_t)(t + 1) / (size_t)nt;
                size_t range_sum = 0;
                for (size_t b = blo; b < bhi; ++b)
                    for (int u = 0; u < nt; ++u)
                        range_sum += counters[(size_t)u * per_thread + (size_t)digit_count * B + b];
                job->range_totals[(size_t)t * RANGE_TOTAL_STRIDE] = range_sum;
#pragma omp barrier
                size_t run = 0;
                for (int u = 0; u < t; ++u)
                    run += job->range_totals[(size_t)u * RANGE_TOTAL_STRIDE];
                for (size_t b = blo; b < bhi; ++b) {
                    for (int u = 0; u < nt; ++u) {
                        size_t *c = counters + (size_t)u * per_thread + (size_t)digit_count * B;
                        size_t v = c[b];
                        c[b] = run;
                        run += v;
                    }
                }
            }
#pragma omp barrier
            const int decode_out = (p + 1 == pass_count) && encode_in_place && dst_k == keys;
            if (hi - lo >= WC_MIN_KEYS) {
                RADIX_KEY(*kbuf)[RADIX_LINE] = (RADIX_KEY(*)[RADIX_LINE])(void *)wc_area;
                uint32_t(*vbuf)[RADIX_LINE] =
                    (uint32_t(*)[RADIX_LINE])(void *)(wc_area + B * 64u);
                size_t *begin = (size_t *)(void *)(wc_area + B * 128u);
                if (decode_out)
                    RADIX_NAME(scatter_wc)(src_k, src_v, dst_k, dst_v, lo, hi, shift, mask,
                                           offsets, begin, kbuf, vbuf, 1, m);
                else if (src_v)
                    RADIX_NAME(scatter_wc)(src_k, src_v, dst_k, dst_v, lo, hi, shift, mask,
                                           offsets, begin, kbuf, vbuf, 0, m);
                else
                    RADIX_NAME(scatter_wc)(src_k, NULL, dst_k, NULL, lo, hi, shift, mask,
                                           offsets, begin, kbuf, NULL, 0, m);
            } else {
                RADIX_NAME(scatter)(src_k, src_v, dst_k, dst_v, lo, hi, shift, mask, offsets,
                                    decode_out, m);
            }
            store_fence(); /* non-temporal stores visible before the barrier */
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
#undef RADIX_LINE
