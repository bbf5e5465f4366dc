/* fft.h - Fourier transforms on any device whose backend fills run_fft
 * (Note [FFTs] in fft.c): the primitive devtensor/fft.py builds NumPy's
 * and the array API's fft on, for devices other than the CPU. */
#ifndef DT_FFT_H
#define DT_FFT_H

#include "backend.h"
#include "compat.h"
#include "tensor.h"

DT_EXTERN_C_BEGIN

/* *out = the unnormalised transform of kind over the last `rank` (1 to 3)
 * axes of x, every other axis a batch: C2C of complex64 or complex128 x
 * (inverse: sign +1); R2C of float32 or float64 x (the last axis becomes
 * n / 2 + 1); C2R of complex x whose last axis is n_last / 2 + 1, giving
 * n_last >= 1 real values there.  The transformed axes must not be empty;
 * an empty batch gives an empty result. */
dt_status dt_fft(dt_fft_kind kind, const dt_tensor *x, int rank, int64_t n_last, int inverse,
                 dt_tensor *out, dt_error *err);

DT_EXTERN_C_END

#endif /* DT_FFT_H */
