/* emu_kernels.h - the host wrappers of emu_kernels.cu, for emu_driver.cpp. */
#ifndef DT_EMU_TEST_KERNELS_H
#define DT_EMU_TEST_KERNELS_H

#include <vector_types.h>
#include <driver_types.h>

#include <stddef.h>
#include <stdint.h>

struct AtomicCells {
    int i_add, i_sub, i_max, i_min, i_and, i_exch, i_cas;
    unsigned u_add, u_sub, u_max, u_min, u_or, u_inc, u_dec;
    long long ll_max;
    unsigned long long ull_add, ull_min, ull_xor, ull_exch, ull_cas;
    float f_add, f_exch;
    double d_add;
};

enum {
    FAULT_DIVERGENT_BARRIER,
    FAULT_SHFL_EXITED,
    FAULT_SHFL_ABSENT,
    FAULT_SYNCWARP_SELF,
    FAULT_WARP_VS_BARRIER,
    FAULT_STACK_OVERFLOW,
    FAULT_SHARED_OVERRUN,
};

cudaError_t launch_axpb(const float *x, float *y, float a, float b, int64_t n, unsigned grid, unsigned block);
cudaError_t launch_axpb_chevrons(const float *x, float *y, float a, float b, int64_t n);
cudaError_t launch_builtins(unsigned *out, dim3 grid, dim3 block);
cudaError_t launch_reduce_shfl(const float *x, double *block_sums, int64_t n, unsigned grid, unsigned block);
cudaError_t launch_reduce_tree(const int *x, int *block_sums, unsigned grid, int with_first_barrier);
cudaError_t launch_reverse_dyn(const int *x, int *y, unsigned grid, unsigned block, size_t shared);
cudaError_t launch_sync_reduce(int *out, unsigned block);
cudaError_t launch_early_exit(int *out, int n);
cudaError_t launch_shuffles(const int *in, int *out, int width, int arg);
cudaError_t launch_shuffle_types(double *d, long long *ll, float *f, int *half);
cudaError_t launch_votes(unsigned *out, unsigned block);
cudaError_t launch_syncwarp_exited(int *out);
cudaError_t launch_atomics(AtomicCells *c, unsigned grid, unsigned block);
cudaError_t launch_fault(int which, int *out, unsigned block);
cudaError_t launch_nothing(dim3 grid, dim3 block, size_t shared);
cudaError_t launch_unregistered(void);

#endif
