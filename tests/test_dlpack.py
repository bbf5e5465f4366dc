"""DLPack: zero-copy exchange with NumPy here (and PyTorch/CuPy on a GPU),
lifetimes of exported and imported memory, and the refusals."""
import ctypes
import gc
import sys

import numpy as np
import pytest

import devtensor as dt
from helpers import EMULATED, HAS_REAL_GPU, NUMPY_DTYPE_NAMES


def layouts():
    a = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    return {"contiguous": a, "transposed": a.T, "negative": a[:, ::-1, ::2], "0-d": np.array(5.0),
            "empty": np.zeros((0, 3)), "column": a[:, 1, :][:, None]}


@pytest.mark.parametrize("name", list(layouts()))
def test_numpy_to_devtensor_shares_memory(name):
    a = layouts()[name]
    t = dt.from_dlpack(a)
    assert t.shape == a.shape and t.dtype == a.dtype
    np.testing.assert_array_equal(t.numpy(), a)
    if a.size:
        assert np.shares_memory(t.numpy(), a)


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_round_trip_every_dtype(dtype):
    a = (np.arange(6) % 2).astype(dtype).reshape(2, 3)
    t = dt.from_dlpack(a)
    b = np.from_dlpack(t)
    assert b.dtype == a.dtype and np.shares_memory(a, b)
    t[0, 0] = 1  # written through the devtensor view, seen by both arrays
    assert a[0, 0] == 1 and b[0, 0] == 1


def test_devtensor_to_numpy_strided_and_copy():
    x = dt.arange(6, dtype=dt.int16).reshape(2, 3).T
    y = np.from_dlpack(x)
    assert y.strides == x.strides
    np.testing.assert_array_equal(y, np.arange(6, dtype=np.int16).reshape(2, 3).T)
    c = dt.from_dlpack(np.arange(3.0), copy=True)
    assert not np.shares_memory(c.numpy(), np.arange(3.0))


def test_exported_memory_outlives_the_tensor():
    a = np.arange(1000.0)
    before = sys.getrefcount(a)
    t = dt.from_numpy(a)
    cap = t.__dlpack__()
    del t
    b = dt._C._from_dlpack(cap)  # consumes the capsule
    np.testing.assert_array_equal(b.numpy(), a)
    with pytest.raises(BufferError, match="unconsumed"):
        dt._C._from_dlpack(cap)  # a capsule is consumed once
    del b, cap
    gc.collect()
    assert sys.getrefcount(a) == before


def test_unconsumed_capsule_releases_its_reference():
    a = np.arange(10.0)
    before = sys.getrefcount(a)
    cap = dt.from_numpy(a).__dlpack__()
    assert sys.getrefcount(a) > before
    del cap
    gc.collect()
    assert sys.getrefcount(a) == before


def test_refusals():
    with pytest.raises(TypeError, match="__dlpack__"):
        dt.from_dlpack([1, 2, 3])
    with pytest.raises(BufferError):
        dt.ones(2).__dlpack__(dl_device=(2, 0))
    assert dt.ones(2).__dlpack_device__() == (1, 0)


@pytest.mark.skipif(not EMULATED, reason="needs emulated devices")
def test_emulated_devices_cannot_export():
    x = dt.ones(2, device="cuda:0")
    for export in (x.__dlpack__, x.__dlpack_device__):
        with pytest.raises(BufferError, match="emulated CUDA devices keep host memory"):
            export()


def test_device_tensor_exports_a_host_copy_when_asked(device):
    """dl_device=(1, 0) (kDLCPU) from a device tensor: a host copy, flagged as
    one, also where the device itself has no DLPack form (emulated); refused
    with copy=False.  A CPU tensor takes no stream (the array API)."""
    x = dt.arange(6.0, device=device).reshape(2, 3)[:, ::2]

    class Producer:  # NumPy asks for dl_device=(1, 0) when given device="cpu"
        def __dlpack__(self, **kwargs):
            return x.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return (1, 0)

    got = np.from_dlpack(Producer(), device="cpu")
    assert got.tolist() == [[0.0, 2.0], [3.0, 5.0]]
    if device != "cpu":
        with pytest.raises(BufferError, match=r"to the CPU \(DLPack device \(1, 0\)\) needs a copy"):
            x.__dlpack__(dl_device=(1, 0), copy=False)
    else:
        with pytest.raises(BufferError, match="stream must be None"):
            x.__dlpack__(stream=1)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLManagedTensor(ctypes.Structure):  # DLTensor's fields, then manager_ctx and deleter
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_DLTENSOR = b"dltensor"  # a capsule keeps a pointer to its name


@pytest.mark.skipif(not EMULATED, reason="needs emulated devices")
def test_emulated_devices_refuse_memory_of_a_real_gpu():
    """A capsule as PyTorch or CuPy on a GPU would hand over (kDLCUDA, device
    0): emulated devices keep host memory and cannot hold it; the refusal
    leaves the capsule to its producer."""
    shape = (ctypes.c_int64 * 1)(4)
    m = _DLManagedTensor(data=0x10000, device=_DLDevice(2, 0), ndim=1, dtype=_DLDataType(2, 32, 1),
                         shape=shape)
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    capsule = new(ctypes.addressof(m), _DLTENSOR, None)
    with pytest.raises(BufferError, match="emulated CUDA devices .* cannot hold memory of a real GPU"):
        dt._C._from_dlpack(capsule)
    valid = ctypes.pythonapi.PyCapsule_IsValid
    valid.restype, valid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
    assert valid(capsule, _DLTENSOR) == 1  # not consumed


@pytest.mark.gpu
def test_cuda_exchange_with_torch_and_cupy():
    x = dt.arange(10, dtype=dt.float32, device="cuda:0") * 2
    assert x.__dlpack_device__() == (2, 0)
    for name in ("torch", "cupy"):
        lib = pytest.importorskip(name)
        y = lib.from_dlpack(x)
        np.testing.assert_array_equal(np.asarray(y.tolist()), np.arange(10) * 2)
        z = dt.from_dlpack(y)
        assert z.device == dt.device("cuda:0") and z.data_ptr() == x.data_ptr()
    assert HAS_REAL_GPU


def test_devtensor_tensors_need_no_capsule():
    """from_dlpack of a devtensor tensor shares its memory on any device, the
    emulated ones included (they have no DLPack form), as a new tensor."""
    devices = ["cpu"] + (["cuda:0"] if dt.cuda.is_available() else [])
    for device in devices:
        x = dt.arange(4.0, device=device)
        y = dt.from_dlpack(x)
        assert y is not x and y.device == x.device
        y[0] = 9.0
        assert x[0].item() == 9.0
        z = dt.from_dlpack(x, copy=True)
        z[1] = 7.0
        assert x[1].item() == 1.0


def test_copy_false_refuses_a_move():
    """The array API: copy=False never copies, so a device move is a BufferError
    (and device= with copy=None moves, a copy)."""
    a = np.arange(3.0)
    assert dt.from_dlpack(a, device="cpu", copy=False).device == dt.device("cpu")
    if not dt.cuda.is_available():
        return
    with pytest.raises(BufferError, match="the data is on cpu, and moving it to cuda:0 needs a copy"):
        dt.from_dlpack(a, device="cuda:0", copy=False)
    x = dt.from_dlpack(a, device="cuda:0")
    assert x.device == dt.device("cuda:0") and x.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(BufferError, match="on cuda:0, and moving it to cpu"):
        dt.from_dlpack(x, device="cpu", copy=False)
    np.testing.assert_array_equal(dt.from_dlpack(x, device="cpu").numpy(), a)
