"""PyTorch's default device: set_default_device and get_default_device.

Factories given no device create tensors on the innermost `with
dt.device(...):` block, else on the device set_default_device gave this
thread, else on cpu (Note [Default device] in csrc/python/device_type.c).
"""
from . import _C


def set_default_device(device):
    """Create tensors on `device` where a factory is given none, in this thread.

    As torch.set_default_device: `with dt.device(...)` blocks still take
    precedence, an explicit device= argument always wins, and None (or
    'cpu') goes back to cpu.  The device is not checked to exist until a
    factory uses it, so 'cuda' follows the current CUDA device.
    """
    _C._set_default_device(device)


def get_default_device():
    """The device factories use when given none, in this thread ('cuda'
    resolved to the current CUDA device, as torch.get_default_device)."""
    d = _C._default_device()
    if d.type == "cuda" and d.index is None:
        return _C._resolve_device(d)
    return d
