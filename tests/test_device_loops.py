"""Every elementwise loop and every cast on every CUDA device, contiguous and
strided, against the same call on the cpu.

On emulated devices this launches the CUDA backend's kernels themselves
(contiguous, 32-bit strided and, with DEVTENSOR_EMULATE_INDEX64=1, 64-bit
strided), so that CI executes them (tools/kernel_coverage.py counts them).
Comparison: casts bit for bit; loops with check() of tests/test_ufunc_values.py,
as the value tests compare with NumPy: bit for bit for integers and for exact
operations, NumPy-style tolerances where the device's math library (CUDA's,
or the host's under the emulation) may round differently from the CPU loops.
"""
import zlib

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, NUMPY_DTYPE_NAMES, requires_cuda, to_np
from test_ufunc_values import BINARY, check, values_for

OPS = sorted(dt._C.OPS)
DTYPES = NUMPY_DTYPE_NAMES + ["bfloat16"]


def _inputs(name, dtype, nin, strided, device):
    """nin tensors of dtype on device (bool for where's condition), 6x5 values;
    strided ones are every other row and column of a twice bigger tensor."""
    rng = np.random.default_rng(zlib.crc32(f"{name} {dtype}".encode()))  # the same in every run
    src = "float32" if dtype == "bfloat16" else dtype
    v = values_for(src, name)
    out = []
    for k in range(nin):
        vk = v
        if name == "power" and k == 1 and v.dtype.kind == "i":
            # a negative integer exponent raises before any launch; the
            # refusal is tested in test_ufunc_values.py
            vk = v[(v >= 0) & (v < 8)]
        a = vk[rng.integers(0, len(vk), (12, 10) if strided else (6, 5))]
        if name == "where" and k == 0:
            a = a.astype(bool) if a.dtype.kind != "c" else a.real.astype(bool)
        t = dt.asarray(a, device=device)
        if dtype == "bfloat16" and t.dtype != dt.bool:
            t = t.astype(dt.bfloat16)
        out.append(t[::2, ::2] if strided else t)
    return out


def _run(name, inputs):
    try:
        return dt._C._ufunc(dt._C.OPS[name], *inputs)
    except Exception as e:  # noqa: BLE001  (the same refusal is checked on both sides)
        return type(e)


def _same(name, got, ref, context):
    if isinstance(ref, type) or isinstance(got, type):
        assert got is ref, f"{context}: {got} vs cpu's {ref}"
        return
    if got.dtype == dt.bfloat16:
        got, ref = got.astype(dt.float32), ref.astype(dt.float32)
    check(got, to_np(ref), name, complex_in=ref.dtype.is_complex, context=context)


@requires_cuda
@pytest.mark.parametrize("strided", [False, True], ids=["contiguous", "strided"])
@pytest.mark.parametrize("name", OPS)
def test_every_loop_on_every_device(name, strided):
    nin = 3 if name == "where" else 2 if name in BINARY else 1
    for dtype in DTYPES:
        ref = _run(name, _inputs(name, dtype, nin, strided, "cpu"))
        for dev in CUDA_DEVICES:
            got = _run(name, _inputs(name, dtype, nin, strided, dev))
            _same(name, got, ref, f"{name}({dtype}, {'strided' if strided else 'contiguous'}) "
                                  f"on {dev}")


@requires_cuda
@pytest.mark.parametrize("strided", [False, True], ids=["contiguous", "strided"])
@pytest.mark.parametrize("src", DTYPES)
def test_every_cast_on_every_device(src, strided):
    a = values_for("float32" if src == "bfloat16" else src)
    a = np.resize(a, 64).reshape(8, 8)
    for to in DTYPES:
        for dev in ["cpu"] + CUDA_DEVICES:
            t = dt.asarray(a, device=dev)
            t = t.astype(src) if src == "bfloat16" else t
            t = t[::2, ::2] if strided else t
            r = t.astype(to)
            if dev == "cpu":
                ref = r
                continue
            assert r.device == dt.device(dev)
            f32 = (lambda x: x.astype(dt.float32)) if to == "bfloat16" else (lambda x: x)
            np.testing.assert_array_equal(to_np(f32(r)), to_np(f32(ref)), strict=True,
                                          err_msg=f"{src} -> {to} on {dev}")
