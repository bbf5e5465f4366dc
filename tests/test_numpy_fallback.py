"""devtensor.<name> for NumPy names devtensor does not implement (Note [NumPy
names devtensor lacks]): NumPy's function on CPU tensors, tensors back, a
TypeError for device tensors; NumPy's type names as devtensor dtypes."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, assert_same

CALLS = [
    ("i0", lambda m: m.i0(m.asarray([0.0, 3.0, 6.5, 0.2]))),
    ("polyint", lambda m: m.polyint(m.asarray([3.0, 2.0, 1.0]))),
    ("polyder", lambda m: m.polyder(m.asarray([1.0, 2.0, 3.0]))),
    ("roots", lambda m: m.roots(m.asarray([1.0, -3.0, 2.0]))),
    ("hanning", lambda m: m.hanning(5)),
    ("ldexp", lambda m: m.ldexp(m.arange(4.0), 3)),
    ("packbits", lambda m: m.packbits(m.asarray([1, 0, 1, 1], dtype=m.uint8))),
    ("spacing", lambda m: m.spacing(m.arange(3.0))),
    ("fromfunction", lambda m: m.fromfunction(lambda i, j: i + j, (2, 3))),
]


@pytest.mark.parametrize("name,call", CALLS, ids=[c[0] for c in CALLS])
def test_numpy_functions_devtensor_lacks(name, call):
    assert name not in vars(dt)  # reached through devtensor.__getattr__
    got, want = call(dt), call(np)
    assert isinstance(got, dt.Tensor)
    assert_same(got, want)


def test_index_helpers_and_names():
    assert_same(dt.c_[dt.arange(3), dt.arange(3)], np.c_[np.arange(3), np.arange(3)])
    assert_same(dt.r_[dt.arange(2), 7], np.r_[np.arange(2), 7])
    assert_same(dt.mgrid[0:2, 0:3], np.mgrid[0:2, 0:3])
    assert [t.shape for t in dt.ogrid[0:2, 0:3]] == [(2, 1), (1, 3)]
    assert dt.s_[1:3] == slice(1, 3) and dt.newaxis is None
    assert dt.bool_ is dt.bool and dt.intp is dt.int64 and dt.double is dt.float64
    assert dt.ndarray is dt.Tensor and isinstance(dt.arange(2), dt.ndarray)
    assert dt.floating is np.floating and dt.testing is np.testing
    assert dt.issubdtype(dt.float32, dt.floating) and dt.issubdtype(dt.arange(2).dtype, dt.integer)
    assert not dt.issubdtype(dt.int8, dt.floating)
    dt.testing.assert_allclose(dt.arange(3.0), [0, 1, 2])
    with pytest.raises(AttributeError, match="module 'devtensor' has no attribute 'no_such'"):
        dt.no_such


@pytest.mark.skipif(not CUDA_DEVICES, reason="needs a (emulated) CUDA device")
def test_device_tensors_are_refused():
    t = dt.ones(3, device=CUDA_DEVICES[0])
    with pytest.raises(TypeError) as info:
        dt.i0(t)
    assert str(info.value) == (f"devtensor has no i0 for tensors on {CUDA_DEVICES[0]}: "
                               f"move them to the host first (t.cpu(), or t.numpy(force=True)) "
                               f"to use NumPy's")
    assert_same(dt.i0(t.cpu()), np.i0(np.ones(3)))
