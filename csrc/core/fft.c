/* fft.c - Fourier transforms through the backend's run_fft.
 *
 * Note [FFTs]
 * The backend transforms the last one to three axes of C-contiguous data,
 * in batches, unnormalised (cuFFT's model, which the CPU emulation of
 * cuFFT shares).  Everything else NumPy's fft module does is the Python
 * layer's (devtensor/fft.py): cropping and zero-padding to n, moving the
 * transformed axes last, more than three axes as successive transforms,
 * the norm scaling, hfft and ihfft through conjugates.  Here: the dtypes
 * and shapes, a C-contiguous input (copied when x is not, and always for
 * C2R, whose input the library destroys), a fresh output, and the empty
 * cases (an empty batch calls no backend).  The CPU backend has no
 * run_fft: on the CPU, devtensor.fft is NumPy's own on zero-copy views.
 */
#include "fft.h"

#include <string.h>

#include "backend.h"

static dt_dtype complex_of(dt_dtype real)
{
    return real == DT_FLOAT32 ? DT_COMPLEX64 : DT_COMPLEX128;
}

static dt_dtype real_of(dt_dtype cplx)
{
    return cplx == DT_COMPLEX64 ? DT_FLOAT32 : DT_FLOAT64;
}

static dt_status check(dt_fft_kind kind, const dt_tensor *x, int rank, int64_t n_last,
                       dt_error *err)
{
    if ((unsigned)kind > DT_FFT_C2R)
        return dt_error_set(err, DT_ERR_VALUE, "fft: bad kind %d", (int)kind);
    int real = x->dtype == DT_FLOAT32 || x->dtype == DT_FLOAT64;
    int cplx = x->dtype == DT_COMPLEX64 || x->dtype == DT_COMPLEX128;
    if (kind == DT_FFT_R2C ? !real : !cplx)
        return dt_error_set(err, DT_ERR_TYPE, "fft: a %s transform takes %s, not %s",
                            kind == DT_FFT_C2C ? "complex" : kind == DT_FFT_R2C ? "real-input"
                                                                                : "real-output",
                            kind == DT_FFT_R2C ? "float32 or float64" : "complex64 or complex128",
                            dt_dtype_get_info(x->dtype)->name);
    if (rank < 1 || rank > 3 || rank > x->ndim)
        return dt_error_set(err, DT_ERR_VALUE, "fft: %d transformed axes of a %d-dimensional "
                            "tensor (1 to 3, at most its dimensions)", rank, x->ndim);
    for (int d = x->ndim - rank; d < x->ndim; d++)
        if (x->shape[d] < 1)
            return dt_error_set(err, DT_ERR_VALUE, "fft: a transformed axis is empty");
    if (kind == DT_FFT_C2R && (n_last < 1 || x->shape[x->ndim - 1] != n_last / 2 + 1))
        return dt_error_set(err, DT_ERR_VALUE, "fft: a real-output transform of %lld points "
                            "takes %lld values on its last axis, not %lld", (long long)n_last,
                            (long long)(n_last / 2 + 1), (long long)x->shape[x->ndim - 1]);
    return DT_OK;
}

dt_status dt_fft(dt_fft_kind kind, const dt_tensor *x, int rank, int64_t n_last, int inverse,
                 dt_tensor *out, dt_error *err)
{
    dt_tensor_init_empty(out);
    DT_TRY(check(kind, x, rank, n_last, err));
    int last = x->ndim - 1;
    int64_t shape[DT_MAX_NDIM];
    memcpy(shape, x->shape, (size_t)x->ndim * sizeof *shape);
    dt_dtype out_dtype = x->dtype, cplx = x->dtype;
    int64_t n = x->shape[last]; /* the real-side size of the last axis */
    if (kind == DT_FFT_R2C) {
        shape[last] = n / 2 + 1;
        out_dtype = cplx = complex_of(x->dtype);
    } else if (kind == DT_FFT_C2R) {
        shape[last] = n = n_last;
        out_dtype = real_of(x->dtype);
    }
    dt_device device = dt_tensor_device(x);
    DT_TRY(dt_tensor_init_new(out, device, out_dtype, x->ndim, shape, err));
    int64_t count = 1;
    for (int d = 0; d < x->ndim - rank; d++)
        count *= x->shape[d];
    if (count == 0)
        return DT_OK;
    dt_tensor in;
    dt_tensor_init_empty(&in);
    dt_status st = DT_OK;
    if (kind == DT_FFT_C2R || !dt_tensor_is_contiguous(x)) {
        st = dt_tensor_init_new(&in, device, x->dtype, x->ndim, x->shape, err);
        if (st == DT_OK)
            st = dt_tensor_copy_into(&in, x, err);
    }
    const dt_backend_iface *be = st == DT_OK ? dt_device_resolve(&device, err) : NULL;
    if (st == DT_OK && be == NULL)
        st = err->status;
    if (st == DT_OK && be->run_fft == NULL)
        st = dt_error_set(err, DT_ERR_NOT_IMPLEMENTED, "the %s backend has no Fourier transforms",
                          be->name);
    if (st == DT_OK) {
        dt_fft_loop l;
        memset(&l, 0, sizeof l);
        l.kind = kind;
        l.device_index = device.index < 0 ? 0 : device.index;
        l.stream = be->get_stream ? be->get_stream(l.device_index) : NULL;
        l.dtype = cplx;
        l.inverse = kind == DT_FFT_C2R || (kind == DT_FFT_C2C && inverse);
        l.rank = rank;
        l.count = count;
        for (int i = 0; i < rank; i++)
            l.shape[i] = x->shape[x->ndim - rank + i];
        l.shape[rank - 1] = n;
        l.in = (char *)dt_tensor_data(in.storage ? &in : x);
        l.out = dt_tensor_data(out);
        st = be->run_fft(&l, err);
    }
    dt_tensor_clear(&in);
    if (st != DT_OK)
        dt_tensor_clear(out);
    return st;
}
