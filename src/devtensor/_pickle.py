"""Pickling tensors: what unpickling does, and `map_location` to choose the
device tensors are unpickled onto.

A pickled tensor holds its values as a NumPy array (bfloat16 widened to
float32, which is exact), its dtype's name and its device.  Unpickling puts
it back on that device; a CUDA tensor unpickled where that device does not
exist raises RuntimeError saying how to load it onto the CPU instead:

    with devtensor.map_location("cpu"):
        obj = pickle.load(f)
"""
import contextlib
import contextvars

_target = contextvars.ContextVar("devtensor_map_location", default=None)


@contextlib.contextmanager
def map_location(device):
    """Within the block, tensors are unpickled (and copy.deepcopy'd pickles
    loaded) onto `device` instead of the device they were pickled on."""
    from ._C import device as device_type
    token = _target.set(device if isinstance(device, device_type) else device_type(device))
    try:
        yield
    finally:
        _target.reset(token)


def unpickled_tensor(values, dtype_name, device):
    """The tensor a pickle describes (see the module's docstring)."""
    from . import _C
    from ._creation import asarray
    target = _target.get()
    where = _C.device(device) if target is None else target
    try:
        where = _C._resolve_device(where)
    except RuntimeError as e:
        raise RuntimeError(
            f"cannot unpickle a tensor onto {where}: {e}. To load it onto the CPU, unpickle "
            f"inside `with devtensor.map_location('cpu'):`") from None
    # the array is the unpickler's own: share it unless it is read-only
    t = asarray(values, device=where, copy=None if values.flags.writeable else True)
    return t.astype(_C.dtype(dtype_name), copy=False)
