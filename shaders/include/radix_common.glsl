// Radix sort: what every radix pass shares (push constants, buffers, keys and digits).
//
// Variant defines (one SPIR-V module per combination, set by the build):
//   KEY64      0: 32-bit keys (uint); 1: 64-bit keys (uvec2, x = low word)
//   HAS_VALUE  a uint32 payload travels with each key
// Keys stay in their caller form in both halves of the ping-pong; every pass re-encodes the key
// it reads (a few ALU operations), so no pass has to know whether it is the first or the last.
// Order key = encoding (keys.glsl), complemented for a descending sort; pass p sorts on bits
// [bit_begin + 8p, min(bit_begin + 8p + 8, bit_end)) of it.
#ifndef VKSORT_RADIX_COMMON_GLSL
#define VKSORT_RADIX_COMMON_GLSL

#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "vksort_shader_interface.h"
#include "radix_interface.h"
#include "keys.glsl"

#ifndef KEY64
#define KEY64 0
#endif
#ifndef HAS_VALUE
#define HAS_VALUE 0
#endif

#if KEY64
#define KEY_T uvec2
#define KEY_WORDS 2u
#else
#define KEY_T uint
#define KEY_WORDS 1u
#endif

layout(push_constant) uniform RadixPush {
    uint count;       // host count (without RADIX_FLAG_INDIRECT)
    uint flags;       // RADIX_FLAG_*
    uint key_type;    // vksort_key_type
    uint bit_begin;   // resolved bit range of the order key
    uint bit_end;
    uint pass_index;  // scatter passes: the slot (radix_interface.h), whose digit the plan gives
    uint max_count;
    uint max_tiles;   // look-back rows of one region / portable blocks capacity
    uint count_word;  // word index of the indirect count in the count binding
    uint digit_count; // digit positions covering [bit_begin, bit_end)
    uint tile_size;   // elements per tile of the scatter passes
    uint aux;         // pass-specific (prepare: least elements per histogram workgroup)
    uint onesweep_groups; // workgroups of an Onesweep digit pass, at most (0: one per tile)
} pc;

// The sorter's key type (vksort_key_type), set by the host at pipeline creation so that the key
// encoding folds into the code (a runtime type costs selects on every key the tile passes read,
// twice a key); ~0u: not specialised, the push constant's.
layout(constant_id = 7) const uint KEY_TYPE_SPEC = 0xffffffffu;
uint radix_key_type() { return KEY_TYPE_SPEC != 0xffffffffu ? KEY_TYPE_SPEC : pc.key_type; }

// Order-key digit of a key for the digit starting at `shift`, masked to the bit range.
uint radix_digit32(uint enc, uint shift)
{
    uint width = min(RADIX_BITS, pc.bit_end - shift);
    return (enc >> shift) & ((1u << width) - 1u);
}

uint radix_digit64(uvec2 enc, uint shift)
{
    uint width = min(RADIX_BITS, pc.bit_end - shift);
    uint bits;
    if (shift >= 32u)
        bits = enc.y >> (shift - 32u);
    else if (shift + RADIX_BITS <= 32u)
        bits = enc.x >> shift;
    else
        bits = (enc.x >> shift) | (enc.y << (32u - shift));
    return bits & ((1u << width) - 1u);
}

// ORDER_KEY_BRANCH_FREE 1 (radix_downsweep.comp sets it for the portable 32-bit-key pairs
// downsweep, the one pass whose key type is a runtime value): the 32-bit order key without
// branches and the sentinel built once per tile (radix_load_tile). With the type a runtime value
// NVIDIA's compiler branched on it per key, one basic block per item, so that the items' loads,
// atomics and writes did not overlap. H200, u32 pairs 2^24 0.852 -> 0.847 ms, f32 pairs 0.872 ->
// 0.850; but in the long-blocks module (radix_downsweep_k32_v1_long) 99 -> 128 registers and
// u32 pairs 2^28 11.48 -> 11.89, so not there (docs/perf-notes.md, thirty-third session). The
// passes with a specialised key type keep the plain form: theirs folds to constants either way.
#ifndef ORDER_KEY_BRANCH_FREE
#define ORDER_KEY_BRANCH_FREE 0
#endif

#if KEY64
KEY_T radix_order_key(KEY_T k)
{
    uvec2 e = vksort_encode64(radix_key_type(), k);
    return (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? ~e : e;
}
uint radix_digit(KEY_T k, uint shift) { return radix_digit64(radix_order_key(k), shift); }
KEY_T radix_sentinel_key()
{
    uvec2 ones = (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? uvec2(0u) : uvec2(0xffffffffu);
    return vksort_decode64(radix_key_type(), ones);
}
#else
KEY_T radix_order_key(KEY_T k)
{
#if !ORDER_KEY_BRANCH_FREE
    uint e = vksort_encode32(radix_key_type(), k);
    return (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? ~e : e;
#else // vksort_encode32 with descending folded in, as masks
    uint type = radix_key_type();
    uint sign = type == VKSORT_SHADER_KEY_I32 || type == VKSORT_SHADER_KEY_F32 ? VKSORT_SIGN32 : 0u;
    uint negative = type == VKSORT_SHADER_KEY_F32 ? ~VKSORT_SIGN32 : 0u; // f32 < 0: every bit flips
    uint descending = (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? 0xffffffffu : 0u;
    return k ^ sign ^ descending ^ (uint(int(k) >> 31) & negative);
#endif
}
uint radix_digit(KEY_T k, uint shift) { return radix_digit32(radix_order_key(k), shift); }
// The raw key whose order key is all ones: the last digit of every pass.
KEY_T radix_sentinel_key()
{
    return vksort_decode32(radix_key_type(), (pc.flags & RADIX_FLAG_DESCENDING) != 0u ? 0u : 0xffffffffu);
}
#endif

// The shift of digit `digit` (not a scatter slot: RADIX_S_SLOT_DIGIT maps slots to digits).
uint radix_pass_shift(uint digit) { return pc.bit_begin + digit * RADIX_BITS; }

// Flattened workgroup index of an (x, y) grid (counts above RADIX_DISPATCH_SPLIT are split).
uint radix_group_index()
{
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

// The scatter passes' tiles of a count, and the portable sort's blocks: at most pc.max_tiles,
// the tiles spread evenly over them (radix_block_tiles). For the prepare pass and the
// host-sized plan (radix.c's radix_blocks agrees).
void radix_tile_counts(uint n, out uint tiles, out uint blocks)
{
    tiles = (n + pc.tile_size - 1u) / pc.tile_size;
    blocks = min(tiles, pc.max_tiles);
}

// The tiles [first, last) of portable block `block`: every block walks tiles / blocks
// consecutive tiles, the first tiles % blocks one more. (Whole multiples of a block size left the
// last wave of workgroups short: 1986 tiles in 993 blocks of two, docs/perf-notes.md.)
void radix_block_tiles(uint block, uint tiles, uint blocks, out uint first, out uint last)
{
    uint q = tiles / blocks;
    uint r = tiles - q * blocks;
    first = block * q + min(block, r);
    last = first + q + (block < r ? 1u : 0u);
}

// Zeroes the state words the scatter passes count in (tickets, finished partitions, stall
// timeouts, look-back fallbacks, skew-proof tiles; the plan writes every pass's parity and
// activity itself). For the prepare pass and the host-sized plan; the includer declares `state`
// writable.
#define radix_reset_pass_words()                                                                   \
    do {                                                                                          \
        state[RADIX_S_STALL_TIMEOUTS] = 0u;                                                       \
        state[RADIX_S_FALLBACKS] = 0u;                                                            \
        state[RADIX_S_SKEW_TILES] = 0u;                                                           \
        for (uint p_ = 0u; p_ < RADIX_MAX_PASSES; ++p_) {                                         \
            state[RADIX_S_TICKET + p_] = 0u;                                                      \
            state[RADIX_S_DONE + p_] = 0u;                                                        \
        }                                                                                         \
    } while (false)

#endif
