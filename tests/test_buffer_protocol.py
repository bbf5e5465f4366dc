"""The buffer protocol of CPU tensors (Note [The buffer protocol] in
csrc/python/buffer.c): memoryview, bytes, files, hashlib, array and NumPy
read a CPU tensor in place, as they read an ndarray; NumPy's memoryview of
the same array is the oracle."""
import array
import gc
import hashlib
import io

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, same_error

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]


def layouts():
    """(name, make) pairs: the same layout of a NumPy array and a tensor."""
    return [
        ("contiguous", lambda x: x),
        ("transposed", lambda x: x.T),
        ("reversed", lambda x: x[::-1, ::-2]),
        ("row", lambda x: x[1]),
        ("0-d", lambda x: x[1, ...][2, ...]),
        ("empty", lambda x: x[:0]),
        ("broadcast", lambda x: x[:1]),
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_memoryview_matches_numpys(dtype):
    a = (np.arange(12) % 5).astype(dtype).reshape(3, 4)
    t = dt.asarray(a.copy())
    for name, make in layouts():
        want, got = memoryview(make(a)), memoryview(make(t))
        assert (got.format, got.itemsize, got.ndim, got.shape, got.strides, got.readonly) == \
            (want.format, want.itemsize, want.ndim, want.shape, want.strides, want.readonly), name
        assert got.c_contiguous == want.c_contiguous and got.f_contiguous == want.f_contiguous, name
        assert got.tobytes() == want.tobytes(), name
        if want.format not in ("e", "Zf", "Zd"):  # memoryview cannot list these, NumPy's either
            assert got.tolist() == want.tolist(), name
        assert bytes(make(t)) == bytes(make(a)), name
        back = np.asarray(got)
        assert back.dtype == a.dtype and np.array_equal(back, make(a)), name


def test_consumers_read_the_memory_in_place():
    a = np.arange(6.0).reshape(2, 3)
    t = dt.asarray(a.copy())
    assert hashlib.sha256(t).hexdigest() == hashlib.sha256(a).hexdigest()
    f = io.BytesIO()
    assert f.write(t) == 48 and f.getvalue() == a.tobytes()
    assert array.array("d", bytes(t)).tolist() == a.ravel().tolist()
    view = np.frombuffer(t, dtype=np.float64)
    view[0] = 9.0  # a view of the tensor's memory, not a copy
    assert t[0, 0].item() == 9.0
    n = np.asarray(t)
    n[1, 2] = -1.0
    assert t[1, 2].item() == -1.0 and n.flags.writeable


def test_reading_into_a_tensor():
    t = dt.zeros(3)
    assert io.BytesIO(np.array([1.0, 2.0, 3.0]).tobytes()).readinto(t) == 24
    assert t.tolist() == [1.0, 2.0, 3.0]


def test_read_only_tensors_lend_read_only_memory():
    t = dt.arange(3.0)
    t.flags.writeable = False
    a = np.arange(3.0)
    a.flags.writeable = False
    assert memoryview(t).readonly and not np.asarray(t).flags.writeable
    with pytest.raises(TypeError):
        memoryview(t)[0] = 1.0
    with pytest.raises(TypeError):  # io turns the ValueError into its TypeError, for NumPy too
        io.BytesIO(b"x" * 24).readinto(t)
    assert t.tolist() == [0.0, 1.0, 2.0]


def test_contiguity_is_numpys():
    """A consumer with no use for strides needs C order: NumPy's ValueError."""
    a = np.arange(6.0).reshape(2, 3)
    t = dt.asarray(a.copy())
    same_error(lambda: array.array("d").frombytes(a.T), lambda: array.array("d").frombytes(t.T))
    same_error(lambda: array.array("d").frombytes(a[:, ::2]), lambda: array.array("d").frombytes(t[:, ::2]))
    assert bytes(t.T) == bytes(a.T)  # bytes() asks for strides and copies in C order


def test_the_export_keeps_the_memory():
    t = dt.arange(4.0)
    m = memoryview(t)
    del t
    gc.collect()
    dt.empty(4).fill(7.0)  # memory freed now would be reused here
    assert m.tolist() == [0.0, 1.0, 2.0, 3.0]
    lin = dt.nn.Linear(2, 2)
    w = memoryview(lin.weight)
    before = w.tolist()
    lin.to(dtype=dt.float64)  # new storage for the same Parameter
    assert w.tolist() == before and w.format == "f"


def test_bfloat16_lends_bytes_without_a_format():
    t = dt.ones(3, dtype="bfloat16")
    with pytest.raises(ValueError, match="bfloat16 has no buffer format"):
        memoryview(t)
    f = io.BytesIO()
    f.write(t)
    assert f.getvalue() == b"\x80\x3f" * 3


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device (real or emulated)")
def test_device_tensors_lend_nothing():
    t = dt.arange(3.0, device=CUDA_DEVICES[0])
    with pytest.raises(BufferError, match=f"on {CUDA_DEVICES[0]} has no buffer in host memory"):
        memoryview(t)
    with pytest.raises(BufferError):
        io.BytesIO().write(t)
    assert np.asarray(t).tolist() == [0.0, 1.0, 2.0]  # NumPy reads it through __array__


def test_exports_release_what_they_hold():
    import sys
    t = dt.arange(4.0)
    before = sys.getrefcount(t)
    for _ in range(100):
        with memoryview(t) as m:
            m.tobytes()
        np.asarray(t).sum()
    assert sys.getrefcount(t) == before
