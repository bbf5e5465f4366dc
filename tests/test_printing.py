"""repr/str: PyTorch's layout with NumPy's number formatting."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES


def _np_body(a):
    return np.array2string(a, separator=", ", prefix="tensor(")


def test_exact_simple_cases():
    assert repr(dt.ones(2, 3)) == "tensor([[1., 1., 1.],\n        [1., 1., 1.]])"
    assert repr(dt.tensor([1, 2, 3])) == "tensor([1, 2, 3])"
    assert repr(dt.tensor([1, 2, 3], dtype=dt.int32)) == "tensor([1, 2, 3], dtype=int32)"
    assert repr(dt.tensor([1.0, 2.0], dtype=dt.float32)) == "tensor([1., 2.], dtype=float32)"
    assert repr(dt.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(dt.tensor([0.1, 2.5])) == "tensor([0.1, 2.5])"
    assert repr(dt.tensor(1.5)) == "tensor(1.5)"
    assert repr(dt.tensor(7)) == "tensor(7)"


def test_bool_shows_no_dtype():
    r = repr(dt.tensor([True, False]))
    assert r.startswith("tensor([") and "True" in r and "False" in r
    assert "dtype" not in r
    assert r == "tensor([ True, False])"


@pytest.mark.parametrize("dev", CUDA_DEVICES or ["cuda:0"])
def test_device_suffix(dev):
    if dev not in CUDA_DEVICES:
        pytest.skip("no CUDA device")
    assert repr(dt.tensor([1.0, 2.0], device=dev)) == f"tensor([1., 2.], device='{dev}')"
    r = repr(dt.tensor([1, 2], dtype=dt.int32, device=dev))
    assert r.startswith("tensor([1, 2], ")
    assert f"device='{dev}'" in r and "dtype=int32" in r
    assert r.index("device=") < r.index("dtype=")  # PyTorch order
    r = repr(dt.ones(2, 3, device=dev))
    assert r == f"tensor([[1., 1., 1.],\n        [1., 1., 1.]], device='{dev}')"


def test_str_contains_values(device):
    s = str(dt.tensor([1.0, 2.0], device=device))
    assert "1." in s and "2." in s


@pytest.mark.parametrize("dtype,suffix", [
    ("int8", True), ("int16", True), ("int32", True), ("int64", False), ("uint8", True),
    ("uint64", True), ("float16", True), ("float32", True), ("float64", False),
    ("complex64", True), ("complex128", False), ("bool", False), ("bfloat16", True),
])
def test_dtype_suffix(dtype, suffix):
    r = repr(dt.ones(3, dtype=dtype))
    assert r.startswith("tensor(")
    assert r.endswith(")")
    assert (f"dtype={dtype}" in r) == suffix, r


@pytest.mark.parametrize("make", [
    lambda: np.array([[1.5, -2.25], [100.0, 0.001]]),
    lambda: np.arange(12).reshape(3, 4),
    lambda: np.array([1e-10, 1.0]),
    lambda: np.array([1e20, 1.0]),
    lambda: np.array([np.nan, np.inf, -np.inf, 0.0]),
    lambda: np.array([1 + 2j, -0.5j]),
    lambda: np.arange(24.0).reshape(2, 3, 4),
    lambda: np.array([-1, 10, -100]),
], ids=["floats", "ints", "small", "large", "nonfinite", "complex", "3d", "neg"])
def test_numpy_number_formatting(make):
    a = make()
    assert repr(dt.asarray(a)) == f"tensor({_np_body(a)})"


def test_float32_formatting_matches_numpy():
    a = np.array([0.1, 1 / 3], dtype=np.float32)
    r = repr(dt.asarray(a))
    assert r == f"tensor({_np_body(a)}, dtype=float32)"


def test_large_tensors_summarised(device):
    r = repr(dt.arange(10_000, device=device))
    assert "..." in r
    assert r.startswith("tensor([   0,    1,    2") or r.startswith("tensor([0, 1, 2")
    assert "9999" in r
    assert len(r) < 500
    r2 = repr(dt.zeros((2000, 2000), device=device))
    assert "..." in r2 and len(r2) < 2000


def test_empty_and_0d():
    r = repr(dt.zeros(0))
    assert r == "tensor([])"
    # empty: no values tell int64 or bool from float64, so the dtype is shown (NumPy's rule too)
    assert repr(dt.zeros(0, dtype=dt.int64)) == "tensor([], dtype=int64)"
    assert repr(dt.zeros((0, 3), dtype=dt.bool)) == "tensor([], size=(0, 3), dtype=bool)"
    r = repr(dt.zeros((2, 0)))
    assert r.startswith("tensor(")
    assert repr(dt.tensor(True)) == "tensor(True)"


def test_printing_cuda_does_not_move(device):
    x = dt.ones(2, device=device)
    repr(x)
    str(x)
    assert x.device == dt.device(device)


def test_print_options_are_per_thread():
    """As NumPy's (a context variable): one thread's `with printoptions` or
    set_printoptions changes how no other thread prints."""
    import threading
    seen, entered, printed = [], threading.Event(), threading.Event()

    def other():
        entered.wait(5)
        seen.append(repr(dt.asarray([1.23456])))
        printed.set()

    worker = threading.Thread(target=other)
    worker.start()
    with dt.printoptions(precision=1):
        entered.set()
        printed.wait(5)
        mine = repr(dt.asarray([1.23456]))
    worker.join()
    assert (mine, seen) == ("tensor([1.2])", ["tensor([1.23456])"])
    assert repr(dt.asarray([1.23456])) == "tensor([1.23456])"  # restored after the block


def test_pytorch_print_options():
    saved = dt.get_printoptions()
    try:
        wide = dt.asarray([1e-9, 1e6])
        dt.set_printoptions(sci_mode=False)  # fixed point: NumPy's suppress
        assert repr(wide) == "tensor([      0., 1000000.])"
        dt.set_printoptions(sci_mode=None)  # automatic again
        assert repr(wide) == "tensor([1.e-09, 1.e+06])"
        plain = dt.asarray([1.5, 2.25])
        dt.set_printoptions(sci_mode=True, precision=3)
        assert repr(plain) == "tensor([1.500e+00, 2.250e+00])"
        dt.set_printoptions(precision=4)  # a call without sci_mode drops its formatter, as without formatter=
        assert repr(plain) == "tensor([1.5 , 2.25])"
        with dt.printoptions(sci_mode=True):
            assert str(plain) == "tensor([1.5000e+00, 2.2500e+00])"
            assert repr(dt.arange(3)) == "tensor([0, 1, 2])"  # integers keep their form
        assert repr(plain) == "tensor([1.5 , 2.25])"
        dt.set_printoptions(profile="short")
        assert repr(dt.arange(3000.0)) == "tensor([0.e+00, 1.e+00, ..., 3.e+03, 3.e+03])"  # precision 2, edgeitems 2
        dt.set_printoptions(profile="full")
        assert "..." not in repr(dt.arange(3000))
        dt.set_printoptions(profile="default")
        assert dt.get_printoptions() == np.get_printoptions()
        with pytest.raises(ValueError, match="profile must be 'default', 'short' or 'full', got 'long'"):
            dt.set_printoptions(profile="long")
    finally:
        dt.set_printoptions(**saved)
