/* emu_library.h - what the emulated CUDA libraries (emu_blas.cpp,
 * emu_solver.cpp, emu_fft.cpp) share: the device current on the calling
 * thread, whether memory lies where a device may touch it, and leaving
 * the caller's last runtime error alone.  C++ only. */
#ifndef DT_EMU_LIBRARY_H
#define DT_EMU_LIBRARY_H

#include <cuda_runtime_api.h>

#include "emu_runtime.h"

#include <stddef.h>

namespace dt_emu {

/* Note [The library's own runtime]
 * A CUDA library reaches the runtime through its own copy of cudart, so
 * its failing runtime calls leave no error in the caller's last-error
 * slot (sticky errors belong to the device and show anyway).  Quiet
 * clears what the emulation's own calls leave there, when the slot was
 * clear. */
struct Quiet {
    bool was_clear = cudaPeekAtLastError() == cudaSuccess;
    ~Quiet()
    {
        if (was_clear)
            (void)cudaGetLastError();
    }
};

/* The calling thread's current device, or -1 without a usable runtime. */
inline int current_device()
{
    Quiet q;
    int d = -1;
    return cudaGetDevice(&d) == cudaSuccess ? d : -1;
}

/* Whether [p, p+n) lies in one live allocation that `device` may access:
 * its own, or a peer's it enabled access to. */
inline bool accessible(int device, const void *p, size_t n)
{
    int owner = emu_runtime_device_of(p, n);
    return owner >= 0 && emu_runtime_peer_enabled(device, owner);
}

/* A host pointer a library may write an answer through (a buffer size):
 * not NULL, not device memory. */
inline bool host_out(const void *p, size_t n)
{
    return p != nullptr && emu_runtime_device_of(p, n) < 0;
}

} // namespace dt_emu

#endif /* DT_EMU_LIBRARY_H */
