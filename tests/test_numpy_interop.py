"""NumPy interop: numpy(), get(), __array__ protocol, zero-copy rules."""
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import NUMPY_DTYPE_NAMES, assert_same


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_numpy_zero_copy_on_cpu(dtype):
    a = np.arange(6).reshape(2, 3).astype(dtype)
    t = dt.asarray(a)
    n = t.numpy()
    assert isinstance(n, np.ndarray)
    assert n.dtype == a.dtype and n.shape == a.shape
    assert np.shares_memory(n, a)
    assert np.shares_memory(t.numpy(), n)


def test_numpy_writes_visible_in_tensor():
    t = dt.zeros(3)
    t.numpy()[1] = 5.0
    assert t.tolist() == [0.0, 5.0, 0.0]


def test_numpy_keeps_tensor_memory_alive():
    t = dt.arange(1000.0)
    n = t.numpy()
    del t
    import gc
    gc.collect()
    dt.ones(1000) + 2  # allocate something else
    assert n[999] == 999.0 and n.sum() == 999 * 1000 / 2


def test_numpy_of_view():
    a = np.arange(12.0).reshape(3, 4)
    t = dt.asarray(a).T
    n = t.numpy()
    assert n.strides == a.T.strides
    assert np.shares_memory(n, a)
    np.testing.assert_array_equal(n, a.T)


def test_numpy_on_cuda_raises(device):
    if device == "cpu":
        pytest.skip("cpu")
    t = dt.ones(3, device=device)
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        t.numpy()
    assert t.device == dt.device(device)


def test_numpy_force(device):
    a = np.arange(5, dtype=np.int32)
    t = dt.asarray(a.copy(), device=device)
    n = t.numpy(force=True)
    assert isinstance(n, np.ndarray)
    np.testing.assert_array_equal(n, a, strict=True)
    if device != "cpu":
        n[0] = 100
        assert t.tolist()[0] == 0


def test_get_returns_numpy_copy(device):
    a = np.arange(5, dtype=np.float32)
    t = dt.asarray(a, device=device)
    g = t.get()
    assert type(g) is np.ndarray
    np.testing.assert_array_equal(g, a, strict=True)
    g[0] = 99
    assert t.tolist()[0] == 0.0
    assert a[0] == 0.0


@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
def test_np_asarray_protocol(dtype, device):
    a = np.arange(6).reshape(3, 2).astype(dtype)
    t = dt.asarray(a, device=device)
    n = np.asarray(t)
    assert type(n) is np.ndarray
    np.testing.assert_array_equal(n, a, strict=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # NumPy warns too
        m = np.asarray(t, dtype=np.float64)
        np.testing.assert_array_equal(m, a.astype(np.float64), strict=True)
    c = np.array(t)  # copy=True
    c.flat[0] = 1
    assert t.tolist() == a.tolist()


def test_array_protocol_cpu_zero_copy():
    a = np.arange(4.0)
    t = dt.asarray(a)
    assert np.shares_memory(np.asarray(t), a)
    assert np.shares_memory(np.asarray(t, copy=False), a)
    assert not np.shares_memory(np.asarray(t, copy=True), a)
    assert not np.shares_memory(np.array(t), a)


def test_array_method_signature():
    t = dt.arange(3)
    r = t.__array__()
    np.testing.assert_array_equal(r, np.arange(3), strict=True)
    r = t.__array__(np.float32)
    assert r.dtype == np.float32
    r = t.__array__(dtype=None, copy=True)
    assert not np.shares_memory(r, t.numpy())


def test_np_asarray_cuda_copy_false_raises(device):
    if device == "cpu":
        pytest.skip("cpu")
    t = dt.ones(3, device=device)
    with pytest.raises(ValueError):
        np.asarray(t, copy=False)
    np.testing.assert_array_equal(np.asarray(t), np.ones(3))


def test_bfloat16_to_numpy():
    t = dt.tensor([1.0, 2.5], dtype=dt.bfloat16)
    # NumPy has no bfloat16: either a clear TypeError or an upcast - never garbage
    try:
        n = np.asarray(t)
    except TypeError:
        return
    np.testing.assert_array_equal(n.astype(np.float64), [1.0, 2.5])


def test_roundtrip_numpy_tensor_numpy(device):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((7, 5)).astype(np.float32)
    t = dt.asarray(a, device=device)
    back = t.cpu().numpy()
    np.testing.assert_array_equal(back, a, strict=True)
    assert_same(dt.asarray(back), a)


def test_numpy_function_accepts_tensor():
    # np functions that accept array-likes work through __array__ on cpu
    t = dt.arange(5)
    assert np.sum(np.asarray(t)) == 10


def test_asarray_of_the_same_array_is_the_same_tensor_until_something_changes():
    """Note [asarray of the same array] in csrc/python/numpy_interop.c."""
    import weakref
    a = np.arange(6.0)
    t = dt.asarray(a)
    assert dt.asarray(a) is t  # as np.asarray(a) is a
    t.flags.writeable = False  # the tensor changed: a fresh wrap is writeable
    u = dt.asarray(a)
    assert u is not t and u.flags.writeable and not t.flags.writeable
    a.flags.writeable = False  # the array changed
    v = dt.asarray(a)
    assert v is not u and not v.flags.writeable
    a.flags.writeable = True
    a.shape = (2, 3)
    w = dt.asarray(a)
    assert w.shape == (2, 3) and w is not v
    assert dt.asarray(a[::-1]) is not w and dt.asarray(a[::-1]).shape == (2, 3)
    b = a.view(np.int64)  # another array, same memory
    assert dt.asarray(b).dtype == dt.int64
    # the memo keeps nothing alive
    c = np.ones(3)
    r = weakref.ref(dt.asarray(c))
    assert r() is None
    assert dt.asarray(c).tolist() == [1.0, 1.0, 1.0]


def test_asarray_shell_of_a_dead_tensor_behaves_as_a_fresh_wrap():
    """Note [asarray of the same array]: the tensor asarray made last is kept
    as a shell when it dies and revived by the next asarray of that array;
    the shell holds no reference to the array, and what a fresh wrap would
    see decides whether it is used."""
    import sys
    import weakref
    a = np.arange(6.0)
    refs = sys.getrefcount(a)
    t = dt.asarray(a)
    assert sys.getrefcount(a) == refs + 1
    del t  # the shell: the array's reference is dropped
    assert sys.getrefcount(a) == refs
    a.resize(8, refcheck=True)  # NumPy's own check sees no other owner
    a[:] = np.arange(8.0)
    t = dt.asarray(a)  # the array's data moved: a fresh wrap
    assert t.tolist() == list(range(8)) and sys.getrefcount(a) == refs + 1
    del t
    t = dt.asarray(a)  # revived
    a[0] = 42.0
    assert t[0].item() == 42.0 and sys.getrefcount(a) == refs + 1
    t[1] = -1.0
    assert a[1] == -1.0
    del a  # the revived tensor keeps the array's memory alive
    assert t.tolist()[:3] == [42.0, -1.0, 2.0]
    del t
    # the shell keeps nothing alive
    c = np.ones(3)
    r = weakref.ref(c)
    dt.asarray(c)
    del c
    assert r() is None
    # what changed since is seen
    b = np.arange(4, dtype=np.int32)
    dt.asarray(b)
    b.shape = (2, 2)
    assert dt.asarray(b).shape == (2, 2)
    b.flags.writeable = False
    u = dt.asarray(b)
    assert not u.flags.writeable and u.dtype == dt.int32
    with pytest.raises(ValueError):
        u[0, 0] = 1
    del u
    b.flags.writeable = True
    u = dt.asarray(b)
    u[0, 0] = 7
    assert b[0, 0] == 7
    del u
    v = dt.asarray(b.view(np.float32))  # the same memory, another dtype: not the shell
    assert v.dtype == dt.float32 and v.shape == (2, 2)
    del v
    # a tensor changed before it died is not kept: the next one is fresh
    w = dt.asarray(b)
    w.flags.writeable = False
    del w
    assert dt.asarray(b).flags.writeable
    # a view of asarray's tensor keeps the storage (and array) in use
    x = dt.asarray(b)
    view = x[1]
    del x
    b[1, 0] = 9
    assert view.tolist() == [9, 3]
    assert dt.asarray(b).tolist() == [[7, 1], [9, 3]]


def test_numpy_arrays_as_out(device):
    """Note [NumPy arrays as out=]: `a += t` keeps a an ndarray, written in
    place, for CPU tensors; a device operand cannot write host memory in place."""
    t = dt.asarray([1.0, 2.0, 3.0], device=device)
    a = np.zeros(3)
    before = a
    if device != "cpu":
        with pytest.raises(TypeError, match=f"out= is a NumPy array in host memory and an operand is on {device}"):
            a += t
        assert not a.any()
        return
    a += t
    assert a is before and a.tolist() == [1.0, 2.0, 3.0]
    assert np.sin(t, out=a) is a and np.allclose(a, np.sin([1.0, 2.0, 3.0]))
    q, r = np.zeros(3), np.zeros(3)
    got = np.divmod(t, 2.0, out=(q, r))
    assert got[0] is q and got[1] is r and q.tolist() == [0, 1, 1] and r.tolist() == [1, 0, 1]
    got = np.divmod(t, 2.0, out=(q, None))  # a None out: a new result there
    assert got[0] is q and got[1].tolist() == [1, 0, 1]
    other = type("ndarray", (), {"__array_ufunc__": lambda *a, **k: NotImplemented})
    with pytest.raises(TypeError, match="out must be a devtensor.Tensor"):  # not NumPy's, whatever its name
        np.add(t, 1.0, out=other())
    m = np.zeros((2, 3))
    m += t
    assert m.tolist() == [[1, 2, 3]] * 2
    s = np.zeros(())
    assert np.add.reduce(t, out=s) is s and float(s) == 6.0
    i = np.zeros(3, dtype=np.int64)
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from dtype"):
        i += t
    with pytest.raises(TypeError, match="cannot write into a NumPy array of dtype >f8"):
        np.add(t, t, out=np.zeros(3, dtype=">f8"))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        np.add(t, t, out=ro)


def test_numpy_functions_write_numpy_arrays_and_take_them_beside_out_tensors(device):
    """Note [NumPy arrays as out=]: np.sum(t, out=a), np.copyto(a, t) write
    the array in place (CPU tensors), np.add(a, 1, out=t) computes from the
    array; a device tensor is a clear TypeError and nothing is written."""
    t = dt.asarray([1.0, 2.0, 3.0], device=device)
    buf, s = np.zeros(3), np.zeros(())
    if device != "cpu":
        for call in (lambda: np.copyto(buf, t), lambda: np.sum(t, out=s), lambda: np.cumsum(t, out=buf)):
            with pytest.raises(TypeError, match=f"the destination is a NumPy array in host memory and a tensor "
                                                f"is on {device}"):
                call()
        with pytest.raises(TypeError, match=f"add: a NumPy array input is in host memory and out= is on {device}"):
            np.add(np.ones(3), 1, out=t)
        assert not buf.any() and not s.any() and t.tolist() == [1, 2, 3]
        assert np.add([1.0, 2.0, 3.0], 1, out=t) is t and t.tolist() == [2, 3, 4]  # a list goes to out's device
        assert float(np.add(1.0, 2.0, out=dt.zeros((), device=device))) == 3.0
        return
    assert np.copyto(buf, t) is None and buf.tolist() == [1, 2, 3]
    assert np.sum(t, out=s) is s and float(s) == 6.0
    assert np.mean(t, out=s) is s and float(s) == 2.0
    assert np.cumsum(t, out=buf) is buf and buf.tolist() == [1, 3, 6]
    assert np.clip(t, 1.5, 2.5, out=buf) is buf and buf.tolist() == [1.5, 2.0, 2.5]
    np.copyto(buf, t, where=np.array([True, False, True]))
    assert buf.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(TypeError, match="Cannot cast"):
        np.copyto(np.zeros(3, dtype=np.int64), t)
    assert np.add(np.ones(3), 1, out=t) is t and t.tolist() == [2, 2, 2]
    assert np.multiply(np.ones(3), np.arange(3.0), out=(t,)) is t and t.tolist() == [0, 1, 2]
    assert np.add([1.0, 2.0, 3.0], 1, out=t) is t and t.tolist() == [2, 3, 4]
    assert float(np.add(1.0, 2.0, out=dt.zeros(()))) == 3.0


def test_host_copy_of_a_device_view_keeps_its_neighbours(device):
    """Note [A device view's host copy keeps its neighbours]: NumPy's
    as_strided on np.asarray(vals[2:]) reads vals before the slice, as SciPy's
    toeplitz does; every view's host copy holds the view's values."""
    from numpy.lib.stride_tricks import as_strided
    c = np.array([1.0, 2.0, 3.0])
    vals = dt.concatenate([dt.asarray(c[::-1], device=device), dt.asarray(c[1:], device=device)])
    got = as_strided(np.asarray(vals[2:]), shape=(3, 3), strides=(-8, 8))
    assert got.tolist() == [[1, 2, 3], [2, 1, 2], [3, 2, 1]]
    x = dt.arange(24.0, device=device).reshape(4, 6)
    big = dt.arange(10.0 ** 5, device=device)
    for v in (x, x[1:], x[:, ::-2], x.T, x[2:3, 1:2], x[1:, 2], big[5:10], x[:0], x[1, 1]):
        a = np.asarray(v)
        assert a.shape == v.shape and a.tolist() == v.tolist()
        assert a.flags.writeable == (device == "cpu")


def test_array_interface_of_cpu_tensors(device):
    """NumPy's array interface (what Pillow's Image.fromarray and NumPy's
    byte_bounds read) describes a CPU tensor's memory; tensors elsewhere and
    bfloat16 ones have none, so NumPy goes on to __array__."""
    z = dt.arange(24.0, device=device).reshape(4, 6)
    v = z[1:3, ::2]
    if device != "cpu":
        assert not hasattr(v, "__array_interface__")
        return
    a = np.arange(24.0).reshape(4, 6)[1:3, ::2]
    ai = v.__array_interface__
    assert ai["shape"] == (2, 3) and ai["typestr"] == "<f8" and ai["strides"] == (48, 16) and ai["version"] == 3
    assert ai["data"] == (v.data_ptr(), False)
    assert dt.ones(3).__array_interface__["strides"] is None  # contiguous
    ro = dt.ones(3)
    ro.flags.writeable = False
    assert ro.__array_interface__["data"][1] is True

    class Holder:  # an object with the interface alone: NumPy reads the tensor's memory through it
        pass

    h = Holder()
    h.__array_interface__, h.keep = ai, v
    np.testing.assert_array_equal(np.asarray(h), a)
    assert np.shares_memory(np.asarray(h), np.asarray(z))
    lo, hi = np.lib.array_utils.byte_bounds(v)
    assert hi - lo == np.lib.array_utils.byte_bounds(a)[1] - np.lib.array_utils.byte_bounds(a)[0]
    assert lo == v.data_ptr()
    assert not hasattr(dt.ones(2, dtype=dt.bfloat16), "__array_interface__")
