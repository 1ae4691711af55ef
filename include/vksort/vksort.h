/*
 * vksort — common contract shared by every backend (CPU, Vulkan, CUDA).
 *
 * Semantics (identical on every backend and algorithm):
 *  - Key types u32, i32, f32, u64, i64, f64. Each key maps to an order-preserving unsigned
 *    encoding of the same width: unsigned as is; signed: sign bit flipped; float: all bits
 *    flipped when the sign bit is set, else only the sign bit. Floats therefore sort in
 *    IEEE-754 totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
 *  - Optional payload: one uint32_t per key that travels with its key.
 *  - Stability: equal keys keep their input order (also when sorting descending).
 *  - Bit range [bit_begin, bit_end): only those bits of the *encoding* decide the order; the other
 *    bits are carried along untouched. bit_end == 0 means "up to the key width", so a
 *    zero-initialised options struct sorts on every bit.
 *  - Digits that are equal for every key cost no pass.
 */
#ifndef VKSORT_VKSORT_H
#define VKSORT_VKSORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VKSORT_VERSION_MAJOR 0
#define VKSORT_VERSION_MINOR 1
#define VKSORT_VERSION_PATCH 0

/* Result codes. Zero is success; every error is negative. vksort_result_string() names each. */
typedef enum vksort_result {
    VKSORT_SUCCESS = 0,
    VKSORT_ERROR_INVALID_ARGUMENT = -1,     /* NULL pointer, unknown enum value, bad flags */
    VKSORT_ERROR_OUT_OF_HOST_MEMORY = -2,   /* a host allocation failed */
    VKSORT_ERROR_BIT_RANGE = -3,            /* bit range empty, reversed or past the key width */
    VKSORT_ERROR_SCRATCH_TOO_SMALL = -4,    /* caller scratch smaller than the queried size */
    VKSORT_ERROR_COUNT_TOO_LARGE = -5,      /* count above the sorter's maximum */
    VKSORT_ERROR_BUFFER_TOO_SMALL = -6,     /* a buffer range cannot hold count elements */
    VKSORT_ERROR_MISALIGNED = -7,           /* an offset/size breaks the documented alignment */
    VKSORT_ERROR_UNSUPPORTED = -8,          /* this backend/algorithm cannot do what was asked */
    VKSORT_ERROR_BACKEND_UNAVAILABLE = -9,  /* backend not built in or no device for it */
    VKSORT_ERROR_DEVICE_LIMITS = -10,       /* the device lacks a limit/feature the sort needs */
    VKSORT_ERROR_VULKAN = -11,              /* a Vulkan call failed (see the sorter's last VkResult) */
    VKSORT_ERROR_CUDA = -12,                /* a CUDA call failed */
    /* The render graph's (vksort/graph.h); every failing graph call also leaves a sentence
     * naming the pass and resource in vksort_graph_last_message(). */
    VKSORT_ERROR_GRAPH_UNKNOWN_RESOURCE = -100,  /* handle not of this graph build */
    VKSORT_ERROR_GRAPH_UNKNOWN_PASS = -101,
    VKSORT_ERROR_GRAPH_READ_BEFORE_WRITE = -102, /* transient read, never written before */
    VKSORT_ERROR_GRAPH_CYCLE = -103,             /* dependencies contradict each other */
    VKSORT_ERROR_GRAPH_LAYOUT_CONFLICT = -104,   /* one pass, one image, two layouts */
    VKSORT_ERROR_GRAPH_BAD_USE = -105,           /* no stage/access, layout on a buffer, ... */
    VKSORT_ERROR_GRAPH_NOT_COMPILED = -106,      /* record/query before a successful compile */
    VKSORT_ERROR_GRAPH_INVALID_STATE = -107,     /* e.g. adding a pass after compile */
    VKSORT_ERROR_GRAPH_NOT_READY = -108          /* timestamps not available yet (not an error) */
} vksort_result;

/* A static, human-readable English sentence for a result code (never NULL). */
const char *vksort_result_string(vksort_result result);

/* Key types. The zero value is u32. */
typedef enum vksort_key_type {
    VKSORT_KEY_U32 = 0,
    VKSORT_KEY_I32 = 1,
    VKSORT_KEY_F32 = 2,
    VKSORT_KEY_U64 = 3,
    VKSORT_KEY_I64 = 4,
    VKSORT_KEY_F64 = 5,
    VKSORT_KEY_TYPE_COUNT = 6
} vksort_key_type;

/* Sort flags, OR-ed together. */
typedef enum vksort_flag_bits {
    /* Largest key first; equal keys still keep their input order. */
    VKSORT_FLAG_DESCENDING = 1u << 0,
    /* Ask for stability explicitly. The radix sorts and the CPU sort are always stable; the
     * bitonic sort is only stable (ties broken by input position) when this flag is set. */
    VKSORT_FLAG_STABLE = 1u << 1
} vksort_flag_bits;
typedef uint32_t vksort_flags;

#define VKSORT_FLAGS_ALL (VKSORT_FLAG_DESCENDING | VKSORT_FLAG_STABLE)

/* Width of a key type in bytes (4 or 8); 0 for an unknown type. */
uint32_t vksort_key_size(vksort_key_type type);
/* Lower-case name ("u32", "f64", ...); NULL for an unknown type. */
const char *vksort_key_type_name(vksort_key_type type);
/* Parses a lower-case name; returns VKSORT_ERROR_INVALID_ARGUMENT for an unknown name. */
vksort_result vksort_key_type_from_name(const char *name, vksort_key_type *out_type);

/* Resolves and checks a bit range for a key type: bit_end == 0 becomes the key width.
 * Fails with VKSORT_ERROR_BIT_RANGE unless bit_begin < bit_end <= width. */
vksort_result vksort_resolve_bit_range(vksort_key_type type, uint32_t bit_begin, uint32_t bit_end,
                                       uint32_t *out_begin, uint32_t *out_end);

/* Order-preserving encodings (see the header comment). decode(encode(x)) == x for every bit
 * pattern, NaNs included. */
uint32_t vksort_encode_u32_bits(vksort_key_type type, uint32_t bits);
uint32_t vksort_decode_u32_bits(vksort_key_type type, uint32_t encoded);
uint64_t vksort_encode_u64_bits(vksort_key_type type, uint64_t bits);
uint64_t vksort_decode_u64_bits(vksort_key_type type, uint64_t encoded);

/* Optional host allocation callbacks (all three set, or the struct not given at all). */
typedef struct vksort_allocation_callbacks {
    void *user_data;
    void *(*allocate)(void *user_data, size_t size, size_t alignment);
    void (*free)(void *user_data, void *memory);
} vksort_allocation_callbacks;

#ifdef __cplusplus
}
#endif

#endif /* VKSORT_VKSORT_H */
