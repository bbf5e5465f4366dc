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

# Note [A process bound to one CUDA device]
# A Dask worker bound to one device (devtensor.dask.BindDevice, as dask-cuda
# gives each worker one GPU) receives CUDA tensors from the client and from
# other workers, pickled in tasks or serialised as results.  They land on
# the worker's device, whichever CUDA device they left from; CPU tensors
# stay on the CPU, and map_location still wins.
_bound_cuda = None


def bind_cuda(device):
    """Make CUDA tensors unpickled in this process land on `device` (a CUDA
    device, checked now), or restore the default with None."""
    from . import _C
    global _bound_cuda
    if device is not None:
        device = _C._resolve_device(device if isinstance(device, _C.device) else _C.device(device))
        if device.type != "cuda":
            raise ValueError(f"a process can be bound to a CUDA device, not {device}")
    _bound_cuda = device


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


def destination(device):
    """Where a tensor that left from `device` (its name) lands in this
    process: map_location's device, the bound CUDA device, or `device`
    itself; RuntimeError if that does not exist here."""
    from . import _C
    target = _target.get()
    if target is None and _bound_cuda is not None and device.startswith("cuda"):
        target = _bound_cuda
    where = _C.device(device) if target is None else target
    try:
        return _C._resolve_device(where)
    except RuntimeError as e:
        raise RuntimeError(
            f"cannot load a tensor onto {where} in this process: {e}. To load it onto the CPU, "
            f"unpickle inside `with devtensor.map_location('cpu'):`") from None


def unpickled_tensor(values, dtype_name, device):
    """The tensor a pickle describes (see the module's docstring)."""
    from . import _C
    from ._creation import asarray
    where = destination(device)
    # the array is the unpickler's own: share it unless it is read-only
    t = asarray(values, device=where, copy=None if values.flags.writeable else True)
    return t.astype(_C.dtype(dtype_name), copy=False)
