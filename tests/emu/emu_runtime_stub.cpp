/* emu_runtime_stub.cpp - a stand-in for the emulated runtime, for the
 * emulation's own tests: cudaLaunchKernel runs the launch at once on the
 * calling thread (emu_launch_prepare + emu_launch_run), and
 * cudaGetLastError returns the last launch's error once.  The real
 * emulated runtime (streams, memory, sticky errors) is a separate piece.
 */
#include "emu_launch.h"

static thread_local cudaError_t t_last = cudaSuccess;

extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                        cudaStream_t stream)
{
    (void)stream;
    emu_launch *l = nullptr;
    cudaError_t e = emu_launch_prepare(func, grid, block, args, shared, &l);
    if (e == cudaSuccess)
        e = emu_launch_run(l);
    if (e != cudaSuccess)
        t_last = e;
    return e;
}

extern "C" cudaError_t cudaGetLastError(void)
{
    cudaError_t e = t_last;
    t_last = cudaSuccess;
    return e;
}
