"""repr of tensors: PyTorch's layout with NumPy's number formatting.

    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    tensor([1, 2, 3], dtype=int32)
    tensor([1., 2.], device='cuda:0')

Device tensors are copied to the host to be formatted.  The dtype is shown
unless it is one NumPy infers from Python data (float64, int64, bool,
complex128) and, for an empty tensor, float64 (tensor([]) is float64).  devtensor.set_printoptions / printoptions (NumPy's names,
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
    if t.dtype.name not in _IMPLIED_DTYPES or (t.size == 0 and t.dtype.name != "float64"):
        suffix.append(f"dtype={t.dtype}")  # no values to tell an empty int64 from float64, as NumPy's
    return prefix + ", ".join([body] + suffix) + ")"


# NumPy's formatting functions, given tensors: NumPy's text of the values,
# read to the host as printing reads them (Note [Implicit transfers] in
# devtensor/_transfer_guard.py), bfloat16 shown through float32.

def _for_numpy(a):
    from ._C import TensorBase, bfloat16, float32
    if isinstance(a, TensorBase):
        return np.asarray(a.astype(float32) if a.dtype == bfloat16 else a)
    return a


def _numpy_formatting(fn, a, args, kwargs):
    from ._utilities import active_printoptions
    with active_printoptions():  # devtensor.set_printoptions' options, as NumPy's apply to its own
        return fn(_for_numpy(a), *args, **kwargs)


def array2string(a, *args, **kwargs):
    """NumPy's array2string of a tensor's values."""
    return _numpy_formatting(np.array2string, a, args, kwargs)


def array_repr(arr, *args, **kwargs):
    """NumPy's array_repr of a tensor's values ("array([...])")."""
    return _numpy_formatting(np.array_repr, arr, args, kwargs)


def array_str(a, *args, **kwargs):
    """NumPy's array_str of a tensor's values."""
    return _numpy_formatting(np.array_str, a, args, kwargs)
