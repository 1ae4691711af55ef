/*
 * One Vulkan sort case checked against the CPU backend: sorters cached by configuration,
 * shared host-visible buffers with guard zones, indirect counts, and the comparison (bytes
 * identical with the stable flag, a radix sort or a RANK small sort; otherwise - the bitonic
 * network without the stable flag - the same order keys and the same (key, value) multiset).
 * Used by the bitonic and radix tests; every check runs under the rig's validation.
 */
#ifndef VKSORT_TEST_SORT_CHECK_H
#define VKSORT_TEST_SORT_CHECK_H

#include "support/test_data.h"
#include "support/vk_rig.h"
#include "vksort/vulkan.h"

typedef struct sort_config {
    vksort_key_type type;
    int payload;
    uint32_t max_count;
    uint32_t tile_cap;
    vksort_vk_algorithm algorithm;
    vksort_vk_create_flags flags;
    uint32_t radix_wg; /* vksort_vk_sorter_create_info::radix_workgroup_size */
    uint32_t elements; /* vksort_vk_sorter_create_info::bitonic_elements_per_invocation */
    vksort_vk_small_sort small_sort;
    uint32_t rank_wg;  /* vksort_vk_sorter_create_info::rank_workgroup_size */
    uint32_t radix_items; /* vksort_vk_sorter_create_info::radix_items_per_invocation */
    uint32_t onesweep_groups; /* vksort_vk_sorter_create_info::radix_onesweep_workgroups */
    vksort_vk_radix_buckets buckets; /* vksort_vk_sorter_create_info::radix_buckets */
    vksort_vk_radix_hybrid hybrid;   /* vksort_vk_sorter_create_info::radix_hybrid */
} sort_config;

typedef struct sort_slot {
    sort_config cfg;
    vksort_vk_sorter *sorter;
    vksort_vk_sorter_properties props;
    vksort_vk_memory_requirements reqs;
} sort_slot;

typedef struct sort_case {
    sort_config cfg;
    test_dist dist;
    uint32_t n;          /* host count, or the value in the count buffer when indirect */
    int desc, stable;
    uint32_t bit_begin, bit_end;
    int indirect;
    uint64_t seed;
} sort_case;

/* A zeroed create info holding the rig's instance, physical device, device and
 * vkGetInstanceProcAddr: what every sorter the tests and benchmarks create starts from. */
void sort_check_create_info(const vk_rig *rig, vksort_vk_sorter_create_info *ci);
void sort_check_init(vk_rig *rig);
void sort_check_shutdown(void);
/* Flags ORed into every sorter created from now on (a suite's choice for all of its cases:
 * test_vk_radix --algo portable asks reduce-then-scan on every device). */
void sort_check_add_create_flags(vksort_vk_create_flags flags);
/* A radix shape for every sorter of a suite that leaves its shape to the sorter
 * (radix_wg, radix_items and onesweep_groups all 0): the GPU machine tests a tuning candidate
 * (test_vk_radix --radix-wg ...) before it becomes a default. workgroup 0: none. */
typedef struct sort_radix_override {
    uint32_t workgroup;       /* radix_workgroup_size */
    uint32_t items;           /* radix_items_per_invocation (0: the sorter's) */
    uint32_t onesweep_groups; /* radix_onesweep_workgroups (0: the sorter's) */
    vksort_vk_create_flags flags; /* ORed in, e.g. VKSORT_VK_CREATE_RADIX_COMPACT_TILES */
} sort_radix_override;
void sort_check_override_radix(const sort_radix_override *shape);
/* The sorter for a configuration (created on first use); NULL (reason printed) on error. */
sort_slot *sort_check_sorter(const sort_config *cfg);
/* Runs one case; returns 1 when everything matched. out_scratch (optional): the scratch
 * buffer's mapping after the sort. The scratch is filled with garbage before every sort, except
 * for a sorter with VKSORT_VK_CREATE_PERSISTENT_SCRATCH: its scratch gets garbage and
 * vksort_vk_cmd_init_scratch once, then is kept from case to case while the cases use that
 * sorter (what the flag promises). */
int sort_check_run(const sort_case *c, const void **out_scratch);
/* The count a case's sort plans by (its geometry, its small-sort choice): the count, or for an
 * indirect count max_count, which is all the host knows. */
uint32_t sort_check_planned_count(const sort_case *c);
/* The tiles a radix sort of n elements takes on a sorter with these properties: its small
 * geometry, the wave band's, the mid one or the default, in the order the sorter picks them
 * (geometries it lacks have zero sizes). */
void sort_check_radix_geometry(const vksort_vk_sorter_properties *pr, uint32_t n,
                               uint32_t *tile, uint32_t *workgroup);
/* A readable one-line description of a case. */
void sort_check_describe(const sort_case *c, char *buf, size_t n);
/* Bit range k of a small rotation: full, [0,16), [8,24), [3,w-5), [w-1,w). */
uint32_t sort_check_bit_range(vksort_key_type type, unsigned k, uint32_t *begin);

#endif
