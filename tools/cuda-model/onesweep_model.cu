// A CUDA model of vksort's Vulkan Onesweep digit pass (shaders/include/radix_tile.glsl +
// radix_onesweep_tile.glsl: same tile layout, ballot ranking, per-subgroup counters, look-back and
// shared-memory scatter), u32 keys, one digit pass. It exists so that Nsight Compute (which cannot
// profile Vulkan) can say where such a pass spends its time, and so that the same algorithm's
// time under NVCC can be set against the Vulkan driver's (docs/perf-notes.md).
//
//   nvcc -O3 -arch=sm_90 [-DWG=512 -DITEMS=17 -DRANK_MODE=2 -DFULLSPEC=0 -DMINB=1] \
//        -o onesweep_model tools/cuda-model/onesweep_model.cu
//   ./onesweep_model [log2 n = 24] [runs = 20]
//   ncu --clock-control none --section SpeedOfLight --section InstructionStats \
//       -k onesweep_pass --launch-skip 2 --launch-count 1 ./onesweep_model 24 3
// RANK_MODE 0: eight ballots per item (as the Vulkan pass before 2026-11-30), 1: the same with a
// sign-mask select, 2: one shared atomicOr per item (the Vulkan pass now). FULLSPEC: full tiles
// without bounds checks. MINB: __launch_bounds__ minimum blocks per SM (a register cap, which
// Vulkan cannot ask for). Digits ride in the high half of the tile positions (as in Vulkan).
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef WG
#define WG 512
#endif
#ifndef ITEMS
#define ITEMS 17
#endif
#define TILE (WG * ITEMS)
#define DIGITS 256u
#define WARPS (WG / 32)
#define LB_WIDTH 4
#define LB_AGGREGATE (1u << 30)
#define LB_INCLUSIVE (2u << 30)
#define LB_STATUS (3u << 30)
#define LB_VALUE ((1u << 30) - 1u)
#ifndef RANK_MODE
#define RANK_MODE 2
#endif
#ifndef FULLSPEC
#define FULLSPEC 0
#endif
#define COUNTER_WORDS ((RANK_MODE == 2 ? 2 : 1) * WARPS * DIGITS)
#define SMEM_WORDS (TILE > COUNTER_WORDS ? TILE : COUNTER_WORDS)

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                              \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__host__ __device__ __forceinline__ unsigned digit_of(unsigned k, unsigned shift) { return (k >> shift) & 255u; }

#ifndef MINB
#define MINB 1
#endif
// Shared memory at file scope (pointers passed to functions would be generic pointers).
__shared__ unsigned s_mem[SMEM_WORDS];
__shared__ unsigned s_count[DIGITS], s_tile_start[DIGITS], s_dst[DIGITS], s_partial[WARPS];
__shared__ unsigned s_part;

template <bool FULL>
__device__ __forceinline__ void tile_body(const unsigned *__restrict__ keys_in,
                                          unsigned *__restrict__ keys_out, unsigned n, unsigned shift,
                                          const unsigned *digit_start, unsigned *lookback,
                                          unsigned part);

// Exclusive scan over the block's first 256 threads' values (256 = 8 warps).
__device__ unsigned scan256(unsigned v)
{
    unsigned t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    unsigned incl = v;
    for (int o = 1; o < 32; o <<= 1) {
        unsigned y = __shfl_up_sync(~0u, incl, o);
        if (lane >= (unsigned)o)
            incl += y;
    }
    if (t < DIGITS && lane == 31u)
        s_partial[warp] = incl;
    __syncthreads();
    unsigned before = 0;
    if (t < DIGITS)
        for (unsigned w = 0; w < warp; ++w)
            before += s_partial[w];
    return before + incl - v;
}


__global__ __launch_bounds__(WG, MINB) void onesweep_pass(const unsigned *__restrict__ keys_in,
                                                    unsigned *__restrict__ keys_out, unsigned n,
                                                    unsigned shift, const unsigned *digit_start,
                                                    unsigned *lookback, unsigned *ticket)
{
    const unsigned t = threadIdx.x;
    if (t == 0)
        s_part = atomicAdd(ticket, 1u);
    for (unsigned i = t; i < COUNTER_WORDS; i += WG)
        s_mem[i] = 0;
    __syncthreads();
    const unsigned part = s_part;
#if FULLSPEC
    if ((part + 1u) * TILE <= n)
        tile_body<true>(keys_in, keys_out, n, shift, digit_start, lookback, part);
    else
#endif
        tile_body<false>(keys_in, keys_out, n, shift, digit_start, lookback, part);
}

template <bool FULL>
__device__ __forceinline__ void tile_body(const unsigned *__restrict__ keys_in,
                                          unsigned *__restrict__ keys_out, unsigned n, unsigned shift,
                                          const unsigned *digit_start, unsigned *lookback,
                                          unsigned part)
{
    const unsigned t = threadIdx.x, lane = t & 31u, warp = t >> 5;
#if RANK_MODE == 2
    unsigned *s_match = s_mem + WARPS * DIGITS;
#endif
    const unsigned base = part * TILE;
    const unsigned tile_n = FULL ? (unsigned)TILE : min((unsigned)TILE, n - base);
    const unsigned counters = warp * DIGITS;
    const unsigned lbase = warp * 32u * ITEMS;

    unsigned key[ITEMS], pos[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        unsigned li = lbase + j * 32u + lane;
        key[j] = li < tile_n ? keys_in[base + li] : 0u;
    }
    const unsigned lt = (1u << lane) - 1u;
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        unsigned li = lbase + j * 32u + lane;
        bool valid = li < tile_n;
        unsigned d = valid ? digit_of(key[j], shift) : 0u;
#if RANK_MODE == 2
        // Peers by one shared atomicOr per lane into the warp's slot of the digit (CUB's
        // "atomic or" match); the lowest peer moves the counter and clears the slot.
        unsigned peers = 0;
        if (valid)
            atomicOr(&s_match[counters + d], 1u << lane);
        __syncwarp();
        if (valid)
            peers = s_match[counters + d];
        unsigned rank = __popc(peers & lt);
        unsigned leader = __ffs(peers) - 1u;
        unsigned before = 0;
        __syncwarp();
        if (valid && rank == 0) {
            before = s_mem[counters + d];
            s_mem[counters + d] = before + __popc(peers);
            s_match[counters + d] = 0;
        }
        before = __shfl_sync(~0u, before, leader & 31u);
        __syncwarp();
#else
        unsigned peers = __ballot_sync(~0u, valid);
#pragma unroll
        for (int b = 0; b < 8; ++b) {
#if RANK_MODE == 1
            // 0 or ~0 from the bit by a shift pair; peers keep the lanes whose vote equals it.
            unsigned same = (unsigned)((int)(d << (31 - b)) >> 31);
            unsigned v = __ballot_sync(~0u, (int)same < 0);
            peers &= ~(v ^ same);
#else
            bool bit = (d >> b) & 1u;
            unsigned v = __ballot_sync(~0u, bit);
            peers &= bit ? v : ~v;
#endif
        }
        unsigned rank = __popc(peers & lt);
        unsigned before = valid ? s_mem[counters + d] : 0u;
        __syncwarp();
        if (valid && rank == 0)
            s_mem[counters + d] = before + __popc(peers);
        __syncwarp();
#endif
        pos[j] = valid ? (before + rank) | (d << 16) : ~0u;
    }
    __syncthreads();
    if (t < DIGITS) {
        unsigned run = 0;
        for (unsigned s = 0; s < WARPS; ++s) {
            unsigned v = s_mem[s * DIGITS + t];
            s_mem[s * DIGITS + t] = run;
            run += v;
        }
        s_count[t] = run;
    }
    __syncthreads();
    unsigned c = t < DIGITS ? s_count[t] : 0u;
    unsigned ex = scan256(c);
    if (t < DIGITS)
        s_tile_start[t] = ex;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
        if (pos[j] != ~0u) {
            unsigned d = pos[j] >> 16;
            pos[j] = (pos[j] & 0xffffu) + s_tile_start[d] + s_mem[counters + d];
        }
    __syncthreads();

    if (t < DIGITS) {
        const unsigned row = part * DIGITS;
        atomicExch(&lookback[row + t], (part == 0 ? LB_INCLUSIVE : LB_AGGREGATE) | c);
        unsigned exclusive = 0;
        if (part != 0) {
            unsigned j = part;
            bool done = false;
            while (!__all_sync(~0u, done)) {
                if (!done) {
                    unsigned j0 = j, w[LB_WIDTH];
#pragma unroll
                    for (int k = 0; k < LB_WIDTH; ++k)
                        w[k] = (unsigned)k < j0 ? ((volatile unsigned *)lookback)[(j0 - 1 - k) * DIGITS + t] : 0u;
                    bool walk = true;
#pragma unroll
                    for (int k = 0; k < LB_WIDTH; ++k) {
                        if (walk && (unsigned)k < j0) {
                            if (w[k] & LB_STATUS) {
                                exclusive += w[k] & LB_VALUE;
                                --j;
                                done = (w[k] & LB_INCLUSIVE) || j == 0;
                                walk = !done;
                            } else {
                                walk = false;
                            }
                        }
                    }
                }
            }
            atomicExch(&lookback[row + t], LB_INCLUSIVE | (exclusive + c));
        }
        s_dst[t] = digit_start[t] + exclusive - ex;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
        if (pos[j] != ~0u)
            s_mem[pos[j]] = key[j];
    __syncthreads();
#pragma unroll
    for (int m = 0; m < ITEMS; ++m) {
        unsigned i = m * WG + t;
        if (i < tile_n) {
            unsigned k = s_mem[i];
            keys_out[s_dst[digit_of(k, shift)] + i] = k;
        }
    }
}

int main(int argc, char **argv)
{
    const int lg = argc > 1 ? atoi(argv[1]) : 24;
    const int runs = argc > 2 ? atoi(argv[2]) : 20;
    const unsigned n = 1u << lg, shift = 0;
    const unsigned tiles = (n + TILE - 1) / TILE;
    std::vector<unsigned> h(n);
    unsigned long long x = 88172645463325252ull;
    for (auto &k : h) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        k = (unsigned)(x >> 16);
    }
    std::vector<unsigned> count(DIGITS, 0), start(DIGITS, 0);
    for (unsigned k : h) count[digit_of(k, shift)]++;
    for (unsigned d = 1; d < DIGITS; ++d) start[d] = start[d - 1] + count[d - 1];
    unsigned *d_in, *d_out, *d_start, *d_lb, *d_ticket;
    CHECK(cudaMalloc(&d_in, n * 4ull));
    CHECK(cudaMalloc(&d_out, n * 4ull));
    CHECK(cudaMalloc(&d_start, DIGITS * 4));
    CHECK(cudaMalloc(&d_lb, (size_t)tiles * DIGITS * 4));
    CHECK(cudaMalloc(&d_ticket, 4));
    CHECK(cudaMemcpy(d_in, h.data(), n * 4ull, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_start, start.data(), DIGITS * 4, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < runs + 2; ++r) {
        CHECK(cudaMemset(d_lb, 0, (size_t)tiles * DIGITS * 4));
        CHECK(cudaMemset(d_ticket, 0, 4));
        CHECK(cudaEventRecord(e0));
        onesweep_pass<<<tiles, WG>>>(d_in, d_out, n, shift, d_start, d_lb, d_ticket);
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float m = 0;
        CHECK(cudaEventElapsedTime(&m, e0, e1));
        if (r >= 2) ms.push_back(m);
    }
    CHECK(cudaGetLastError());
    std::vector<unsigned> out(n);
    CHECK(cudaMemcpy(out.data(), d_out, n * 4ull, cudaMemcpyDeviceToHost));
    // Checked: digits non-decreasing and, within a digit, the input order (stable).
    std::vector<unsigned> expect(n);
    std::vector<unsigned> next(start);
    for (unsigned i = 0; i < n; ++i) expect[next[digit_of(h[i], shift)]++] = h[i];
    bool ok = out == expect;
    std::sort(ms.begin(), ms.end());
    printf("cuda model onesweep pass (rank mode %d, fullspec %d, minblocks %d): n=2^%d wg %d items %d tile %d tiles %u: median %.1f us (min %.1f) %s\n",
           RANK_MODE, FULLSPEC, MINB, lg, WG, ITEMS, TILE, tiles, ms[ms.size() / 2] * 1000.0, ms[0] * 1000.0, ok ? "stable-sorted" : "WRONG");
    return ok ? 0 : 1;
}
