"""__cuda_array_interface__ (version 3) export: absent for CPU tensors and on
emulated devices; its contents, and a zero-copy round trip through CuPy when
one is importable, only on a real GPU."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, EMULATED, HAS_REAL_GPU, to_np


def test_absent_for_cpu_tensors():
    t = dt.ones(3)
    assert not hasattr(t, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only for CUDA tensors; this one is on cpu"):
        t.__cuda_array_interface__


@pytest.mark.skipif(not (CUDA_DEVICES and EMULATED), reason="needs an emulated CUDA device")
def test_absent_on_emulated_devices():
    t = dt.ones(3, device=CUDA_DEVICES[0])
    assert not hasattr(t, "__cuda_array_interface__")


@pytest.mark.skipif(not HAS_REAL_GPU, reason="needs a real GPU")
def test_interface_on_a_gpu():
    t = dt.arange(12.0, device="cuda:0").reshape(3, 4)
    cai = t.__cuda_array_interface__
    assert cai["shape"] == (3, 4) and cai["typestr"] == "<f8" and cai["version"] == 3
    assert cai["data"] == (t.data_ptr(), False) and cai["strides"] is None
    assert cai["stream"] is None
    view = t[:, ::2]
    assert view.__cuda_array_interface__["strides"] == (32, 16)
    with pytest.raises(TypeError, match="no bfloat16"):
        t.astype(dt.bfloat16).__cuda_array_interface__
    cupy = pytest.importorskip("cupy")
    c = cupy.asarray(view)  # zero-copy through the interface
    assert c.data.ptr == view.data_ptr()
    np.testing.assert_array_equal(cupy.asnumpy(c), to_np(view))
