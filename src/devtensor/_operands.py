"""How functions of several operands choose their device and take their
operands (PyTorch's rule, NumPy's data): the device of the tensor operands;
lists, NumPy arrays and Python numbers made there; a 0-d CPU tensor going
with any device as a scalar (Note [0-d CPU tensors as scalars] in
csrc/core/elementwise.c); tensors on two devices PyTorch's RuntimeError,
never a silent move of a tensor between devices.
"""
from ._C import TensorBase


def _two_devices(a, b):
    return RuntimeError(f"Expected all tensors to be on the same device, but found at least two devices, "
                        f"{a} and {b}!")


def operands_device(*objs):
    """The device of the tensors among objs (0-d CPU tensors only when no
    other tensor is there); None when none is a tensor."""
    device = scalar_device = None
    for o in objs:
        if not isinstance(o, TensorBase):
            continue
        d = o.device
        if o.ndim == 0 and d.type == "cpu":
            scalar_device = d
        elif device is None:
            device = d
        elif d != device:
            raise _two_devices(device, d)
    return device if device is not None else scalar_device


def as_tensor(x, device=None):
    """x as a tensor on device (None: a tensor stays where it is, data goes
    to the default device): data converted there, a 0-d CPU tensor moved,
    a tensor on another device refused."""
    if isinstance(x, TensorBase):
        if device is None or x.device == device:
            return x
        if x.ndim == 0 and x.device.type == "cpu":
            return x.to(device)
        raise _two_devices(device, x.device)
    from ._creation import asarray
    return asarray(x, device=device)
