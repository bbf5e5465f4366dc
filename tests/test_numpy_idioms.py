"""Idioms of real NumPy programs that a view, a device or a signature could
silently change: each runs with NumPy and with devtensor (on every device,
and with the device as the default) and must give NumPy's answer.

Found by running NumPy programs with `import devtensor as np` (element
swaps, running totals, histories of p[0], ravel of a strided array,
astype's NumPy signature, nditer writing into an array, FFTs of a CPU
tensor while a GPU is the default device)."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, to_np

PROGRAMS = {
    "swap by tuple": "a = np.array([3, 1, 2]); a[0], a[2] = a[2], a[0]; r = a.tolist()",
    "swap through a temporary": "a = np.array([3, 1, 2]); t = a[0]; a[0] = a[2]; a[2] = t; r = a.tolist()",
    "in-place add to an element read": "a = np.arange(3); x = a[1]; x += 10; r = [a.tolist(), int(x)]",
    "history of p[0]": "p = np.zeros(2); h = []\nfor _ in range(3):\n    p += 1\n    h.append(p[0])\n"
                       "r = [float(v) for v in h]",
    "2-d element": "m = np.arange(6).reshape(2, 3); v = m[1, 2]; m[1, 2] = 0; r = [int(v), m.tolist()]",
    "bubble sort": "a = np.array([5, 2, 9, 1, 5, 6])\nfor i in range(len(a)):\n"
                   "    for j in range(len(a) - 1 - i):\n        if a[j] > a[j + 1]:\n"
                   "            a[j], a[j + 1] = a[j + 1], a[j]\nr = a.tolist()",
    "Gauss-Seidel convergence test": "A = np.array([[4.0, 1.0], [2.0, 5.0]]); b = np.array([1.0, 2.0]); x = np.zeros(2)\n"
                                     "sweeps = 0\nwhile True:\n    change = 0.0\n    sweeps += 1\n"
                                     "    for i in range(2):\n        old = x[i]\n"
                                     "        x[i] = (b[i] - A[i] @ x + A[i, i] * x[i]) / A[i, i]\n"
                                     "        change = max(change, abs(float(x[i] - old)))\n"
                                     "    if change < 1e-12:\n        break\nr = [sweeps, x.tolist()]",
    "running maximum from a[0]": "a = np.array([3.0, 7.0, 2.0]); m = a[0]\nfor v in a[1:]:\n"
                                 "    if v > m:\n        m = v\nm += 100\nr = [float(m), a.tolist()]",
    "iteration of a 1-d array gives copies": "a = np.arange(3.0); items = list(a); a[:] = -1; r = [float(v) for v in items]",
    "iteration of a 2-d array gives row views": "a = np.zeros((2, 2))\nfor row in a:\n    row += 1\nr = a.tolist()",
    "reversed": "r = [float(v) for v in reversed(np.arange(3.0))]",
    "a[i, ...] stays a 0-d view": "a = np.arange(3.0); v = a[1, ...]; v += 10; r = a.tolist()",
    "ravel of a strided array is a copy": "a = np.arange(6.0); b = np.ravel(a[::2]); b[0] = 99; r = [a.tolist(), b.tolist()]",
    "ravel of a contiguous array is a view": "a = np.arange(6.0).reshape(2, 3); b = a.ravel(); b[0] = 99; r = a.tolist()",
    "astype with order": "x = np.arange(6.0).reshape(2, 3).T; r = [str(x.astype(np.float32, order='C').dtype), "
                         "str(x.astype('int32', 'C').dtype), x.astype(np.float32, subok=False).tolist()]",
}


def run(module, code):
    env = {"np": module}
    exec(code, env)
    return env["r"]


@pytest.mark.parametrize("name", PROGRAMS)
def test_numpy_idiom_gives_numpys_answer(name, device):
    want = run(np, PROGRAMS[name])
    with dt.device(device):
        got = run(dt, PROGRAMS[name])
    assert got == want


def test_an_element_is_a_copy_on_the_device_and_writes_still_reach_the_tensor(device):
    """Note [An element is a copy]: t[i, j] is a 0-d tensor of t's device and
    dtype holding the element; t[i, j] = v still writes into t; t[()] of a
    0-d tensor is a copy too, t[...] a view."""
    t = dt.arange(6, device=device).reshape(2, 3)
    e = t[1, 2]
    assert (e.shape, e.dtype, e.device) == ((), t.dtype, t.device)
    t[1, 2] = 50
    assert int(e) == 5 and to_np(t)[1, 2] == 50
    z = dt.tensor(7.0, device=device)
    c, v = z[()], z[...]
    c += 1
    v += 10
    assert float(z) == 17.0 and float(c) == 8.0
    ro = dt.arange(3, device=device)
    ro.flags.writeable = False
    copy = ro[1]
    copy += 1  # a copy of a read-only element is the caller's
    assert to_np(ro).tolist() == [0, 1, 2]


def test_reversed_of_a_0d_tensor_is_numpys_error():
    with pytest.raises(TypeError):
        reversed(np.array(3.0))
    with pytest.raises(TypeError):
        reversed(dt.tensor(3.0))


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device (real or emulated)")
def test_host_copies_numpy_did_not_ask_for_are_read_only():
    """Note [Host copies NumPy did not ask for are read-only]: nditer's
    readwrite on a GPU tensor raises instead of losing its writes; asarray
    copies are read-only, array copies and CPU views writable."""
    t = dt.arange(4, device=CUDA_DEVICES[0])
    with pytest.raises(ValueError, match="read-only"):
        for x in np.nditer(t, op_flags=["readwrite"]):
            x[...] = 2 * x
    assert to_np(t).tolist() == [0, 1, 2, 3]
    assert not np.asarray(t).flags.writeable and not np.asarray(t, dtype=np.float32).flags.writeable
    assert np.array(t).flags.writeable and t.cpu().numpy().flags.writeable
    cpu = dt.arange(4)
    for x in np.nditer(cpu, op_flags=["readwrite"]):
        x[...] = 2 * x
    assert cpu.tolist() == [0, 2, 4, 6]


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device (real or emulated)")
def test_cpu_tensors_stay_on_the_cpu_when_a_gpu_is_the_default():
    """FFTs, NumPy's fallbacks and advanced indexing of CPU tensors give CPU
    tensors whatever the default device is."""
    x = dt.arange(8.0, device="cpu").reshape(2, 4)
    with dt.device(CUDA_DEVICES[0]):
        results = [dt.fft.fft(x[0]), dt.fft.rfft2(x), dt.fft.irfft(dt.fft.rfft(x[0])), x[[1, 0]],
                   x[x > 2], dt.trim_zeros(x[0]), x.ravel()[::3].ravel()]
    assert all(r.device == dt.device("cpu") for r in results), [r.device for r in results]


def test_setting_the_shape_says_what_to_do():
    t = dt.arange(6)
    with pytest.raises(AttributeError, match="reshape"):
        t.shape = (2, 3)
    assert t.shape == (6,)


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a CUDA device (real or emulated)")
def test_numpys_fallbacks_make_data_where_the_factories_do():
    """NumPy's functions devtensor lacks (Note [NumPy names devtensor lacks]):
    with no tensor in, the result is on the default device, as a factory's;
    with CPU tensors in, on the CPU; the index helpers follow their tensors'
    one device.  from_numpy is PyTorch's: always the CPU."""
    import io
    gpu = dt.device(CUDA_DEVICES[0])
    with dt.device(gpu):
        made = [dt.r_[0:3], dt.mgrid[0:2, 0:2], dt.loadtxt(io.StringIO("1 2\n3 4")),
                dt.r_[dt.zeros(2), 1], dt.c_[dt.zeros(2), dt.ones(2)]]
        on_cpu = [dt.trim_zeros(dt.arange(3.0, device="cpu")), dt.r_[dt.zeros(2, device="cpu"), 1],
                  dt.from_numpy(np.arange(3)), dt.bincount(dt.arange(3, device="cpu"))]
    assert all(t.device == gpu for t in made), [t.device for t in made]
    assert all(t.device == dt.device("cpu") for t in on_cpu), [t.device for t in on_cpu]
    assert to_np(made[3]).tolist() == [0.0, 0.0, 1.0]


def test_typed_code_subscripts_ndarray_and_dtype():
    """Annotations NumPy code writes, np.ndarray[Any, np.dtype[np.float64]],
    evaluate (a generic alias, as NumPy's)."""
    import types
    import typing

    def f(x: dt.ndarray[typing.Any, dt.dtype[dt.float64]]) -> dt.ndarray: ...
    hint = typing.get_type_hints(f)["x"]
    assert isinstance(hint, types.GenericAlias) and hint.__origin__ is dt.ndarray
    assert typing.get_args(hint)[1] == types.GenericAlias(dt.dtype, (dt.float64,))
    assert isinstance(dt.zeros(2), dt.ndarray) and dt.dtype("float32") is dt.float32


def test_names_numpy_2_removed_keep_numpy_s_advice():
    for name in ("float_", "NaN", "Inf", "cast"):
        with pytest.raises(AttributeError) as want:
            getattr(np, name)
        with pytest.raises(AttributeError) as got:
            getattr(dt, name)
        assert str(got.value) == str(want.value)
    with pytest.raises(AttributeError, match="module 'devtensor' has no attribute 'nosuch'"):
        dt.nosuch
