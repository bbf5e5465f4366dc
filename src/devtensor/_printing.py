"""repr of tensors: PyTorch's layout with NumPy's number formatting.

    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    tensor([1, 2, 3], dtype=int32)
    tensor([1., 2.], device='cuda:0')

Device tensors are copied to the host to be formatted.  The dtype is shown
unless it is one NumPy infers from Python data (float64, int64, bool,
complex128).  devtensor.set_printoptions / printoptions (NumPy's names,
devtensor/_utilities.py) choose precision, threshold, line width and the rest.
"""
import numpy as np

_IMPLIED_DTYPES = ("float64", "int64", "bool", "complex128")


def tensor_repr(t):
    prefix = "tensor("
    values = t._host_view()
    suffix = []
    if t.size == 0 and t.ndim != 1:
        body = "[]"
        suffix.append(f"size={t.shape}")
    else:
        from ._utilities import active_printoptions
        with active_printoptions():  # devtensor.set_printoptions' options
            body = np.array2string(values, separator=", ", prefix=prefix)
    if t.device.type != "cpu":
        suffix.append(f"device='{t.device}'")
    if t.dtype.name not in _IMPLIED_DTYPES:
        suffix.append(f"dtype={t.dtype}")
    return prefix + ", ".join([body] + suffix) + ")"
