"""Helpers of the linalg tests (test_linalg.py, test_linalg_norms.py):
test matrices, tolerances by dtype, and comparisons with numpy.linalg
(NumPy's result, or its error type and words)."""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same

LA = dt.linalg
FLOATS = ["float32", "float64", "complex64", "complex128"]
DTYPES = FLOATS + ["int64"]
BATCHES = [(), (3,), (2, 3)]
LAYOUTS = ["transposed", "strided", "reversed"]


def on(a, device):
    return dt.asarray(np.array(a), device=device)


def rand(shape, dtype="float64", seed=0):
    """Uniform in [-1, 1) (and i times that), small integers for integer dtypes."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "biu":
        return rng.integers(0 if dtype == "bool" else -3, 2 if dtype == "bool" else 4,
                            size=shape).astype(dtype)
    a = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.uniform(-1, 1, shape)
    return a.astype(dtype)


def well_conditioned(batch, n, dtype="float64", seed=0):
    """Diagonally dominant: far from singular in every dtype."""
    return (rand(tuple(batch) + (n, n), dtype, seed) + (3 * n + 1) * np.eye(n, dtype=dtype))


def hermitian(batch, n, dtype="float64", seed=0):
    a = rand(tuple(batch) + (n, n), dtype, seed)
    return a + np.conj(np.swapaxes(a, -1, -2))


def positive_definite(batch, n, dtype="float64", seed=0):
    a = rand(tuple(batch) + (n, n), dtype, seed)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)


def tolerance(dtype):
    """(rtol, atol) of a result in dtype (float32's precision here, double's in NumPy)."""
    if str(dtype) == "float16":  # norms: summed in another order
        return 4e-3, 4e-3
    return (2e-4, 2e-4) if str(dtype) in ("float32", "complex64") else (1e-9, 1e-9)


def close(t, want, device=None):
    """t has NumPy's dtype and shape, is on device, and equals want within its dtype's tolerance."""
    want = np.asarray(want)
    rtol, atol = tolerance(want.dtype)
    assert_same(t, want, device, exact=False, rtol=rtol, atol=atol)


def same_meta(t, want, device):
    """t has NumPy's dtype and shape and lives on device (values checked elsewhere)."""
    assert isinstance(t, dt.Tensor), type(t)
    assert (t.dtype, t.shape) == (np.asarray(want).dtype, np.asarray(want).shape)
    assert t.device == dt.device(device)


def same_result(got, want, device):
    """got is NumPy's result: tensors for arrays and NumPy scalars, NumPy's
    own int32 for lstsq's rank, a Python int where NumPy gives one
    (matrix_rank of a vector)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        if getattr(got, "_fields", None) != ("solution", "residuals", "rank", "singular_values"):  # lstsq's:
            assert getattr(got, "_fields", None) == getattr(want, "_fields", None)  # PyTorch's names on NumPy's tuple
        for g, w in zip(got, want):
            same_result(g, w, device)
    elif isinstance(got, dt.Tensor):
        close(got, want, device)
    else:
        assert type(got) is type(want) and got == want, (got, want)


def same_error(dt_call, np_call):
    """dt_call raises NumPy's exception type (LinAlgError is NumPy's own) with its message."""
    with pytest.raises(Exception) as want, np.errstate(all="ignore"):
        np_call()
    with pytest.raises(Exception) as got:
        dt_call()
    assert got.type is want.type, (got.type, want.value)
    assert str(got.value) == str(want.value)


def check(dt_call, np_call, device):
    """NumPy's result (its floating-point warnings silenced) or NumPy's error."""
    try:
        with np.errstate(all="ignore"):
            want = np_call()
    except Exception:
        same_error(dt_call, np_call)
        return
    same_result(dt_call(), want, device)


def laid_out(a, layout, device):
    """(NumPy array, tensor on device) equal to a, seen as a transposed base,
    every other column of a wider base, or a base reversed on both matrix axes."""
    if layout == "transposed":
        base, view = np.ascontiguousarray(np.swapaxes(a, -1, -2)), (lambda x: x.swapaxes(-1, -2))
    elif layout == "strided":
        base = np.zeros(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)
        base[..., ::2] = a
        view = (lambda x: x[..., ::2])
    else:
        base, view = np.ascontiguousarray(a[..., ::-1, ::-1]), (lambda x: x[..., ::-1, ::-1])
    return view(base), view(on(base, device))


def mH(a):
    return np.conj(np.swapaxes(a, -1, -2))


def eye_like(a, n):
    return np.broadcast_to(np.eye(n), a.shape[:-2] + (n, n))


def near(x, y, dtype):
    rtol, atol = tolerance(dtype)
    np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)


def is_cuda(device):
    return dt.device(device).type == "cuda"
