/* NVTX ranges of the demo (Nsight Systems timeline): one per frame and one around the CUDA sort's
 * enqueue, next to the library's own ranges in the "vksort" domain (cuda/sorter.cu). Header-only
 * NVTX 3 from the CUDA toolkit; free when no tool is attached; nothing without the CUDA backend. */
#ifndef VKSORT_DEMO_NVTX_MARKS_H
#define VKSORT_DEMO_NVTX_MARKS_H

void demo_nvtx_push(const char *name);
void demo_nvtx_pop(void);

#endif
