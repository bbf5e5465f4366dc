"""devtensor.nn.Parameter: a tensor that a Module registers as a parameter.

Note [Parameters are tensors whose data can move]
A Parameter is a devtensor.Tensor (a Python subclass) that shares the memory
of the tensor it was made from, as PyTorch's does.  `p.data` is a plain
tensor viewing the same memory; assigning `p.data = x` makes p view x's
memory instead, on x's device and with x's dtype and shape, and
Module.to() moves parameters that way: the Parameter objects stay the same,
so references held by an optimiser or by user code follow the move.  The C
side, and why replacing data is safe while other threads compute, is
Note [Replacing a tensor's data] in csrc/python/tensor_data.c.
devtensor has no autograd yet: requires_grad is a flag that is kept,
copied and printed, and nothing else; `grad` is None (PyTorch's value
before a backward pass), so `if p.grad is not None:` in training code
skips, as Module.zero_grad() does nothing.
"""
from .._C import Tensor
from .._tensor import _rebuild_tensor


class Parameter(Tensor):
    """A tensor registered as a module parameter: Parameter(data, requires_grad=True)
    shares data's memory."""

    grad = None  # no autograd (the module's Note): PyTorch's value before a backward pass

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .._creation import empty
            data = empty(0, dtype="float32")
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter expects a devtensor.Tensor, got {type(data).__name__}")
        self = data._alias_as(cls)
        self.requires_grad = bool(requires_grad)
        return self

    @property
    def data(self):
        """A plain tensor viewing this parameter's memory."""
        return self._reinterpret(self.dtype, self.shape, self.strides)

    @data.setter
    def data(self, value):
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a devtensor.Tensor, got {type(value).__name__}")
        self._set_data_(value)

    def detach(self):
        return self.data

    def requires_grad_(self, requires_grad=True):
        """PyTorch's requires_grad_: sets the flag, returns the parameter."""
        self.requires_grad = bool(requires_grad)
        return self

    def __repr__(self):
        return "Parameter containing:\n" + _with_requires_grad(repr(self.data),
                                                                self.requires_grad)

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        values, dtype_name, device = Tensor.__reduce_ex__(self.data, protocol)[1]
        return (_rebuild_parameter, (type(self), values, dtype_name, device, self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.copy(), self.requires_grad)
        memo[id(self)] = result
        return result


def _with_requires_grad(text, requires_grad):
    """PyTorch's `tensor([...], requires_grad=True)`: the flag before the
    closing parenthesis of a tensor's repr."""
    if not requires_grad:
        return text
    return text[:-1] + ", requires_grad=True)"


def _rebuild_parameter(cls, values, dtype_name, device, requires_grad):
    return cls(_rebuild_tensor(values, dtype_name, device), requires_grad)


def _uninitialized_use(what):
    return ValueError(f"Attempted to use an uninitialized parameter or buffer ({what}). This happens with a lazy "
                      f"module before its first call: call it once with a batch to make its parameters")


class _UninitializedSizes:
    """A lazy module's parameter or buffer has no size yet: reading it is
    PyTorch's ValueError (counting parameters would otherwise see 0)."""

    @property
    def shape(self):
        raise _uninitialized_use("shape")

    @property
    def size(self):
        raise _uninitialized_use("size")

    @property
    def ndim(self):
        raise _uninitialized_use("ndim")

    def numel(self):
        raise _uninitialized_use("numel")

    nelement = numel

    def dim(self):
        raise _uninitialized_use("dim")

    def __len__(self):
        raise _uninitialized_use("len")

    def to(self, *args, **kwargs):
        """Where the values will be made: an empty tensor (to become a
        parameter's data) or buffer on the device and dtype asked for."""
        from .._creation import empty
        from .._tensor import _parse_to_args
        device, dtype, _, _ = _parse_to_args(args, kwargs)
        device = self.device if device is None else device
        dtype = self.dtype if dtype is None else dtype
        if isinstance(self, Parameter):
            return empty(0, dtype=dtype, device=device)
        return UninitializedBuffer(device=device, dtype=dtype)


class UninitializedParameter(_UninitializedSizes, Parameter):
    """The parameter of a lazy module before its first call: no data yet, but
    a device and dtype (which Module.to() changes) and requires_grad."""
    _uninitialized = True

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        from .._creation import empty
        self = Parameter.__new__(cls, empty(0, dtype=dtype or "float32", device=device),
                                 requires_grad)
        return self

    def materialize(self, shape, device=None, dtype=None):
        """Become a Parameter of `shape` (uninitialised values) on `device`
        (default: this one's) with `dtype` (default: this one's)."""
        from .._creation import empty
        self.data = empty(tuple(shape), dtype=dtype or self.dtype,
                          device=self.device if device is None else device)
        self.__class__ = Parameter

    def __repr__(self):
        return "<UninitializedParameter>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        raise RuntimeError("cannot pickle an uninitialised parameter: call the module once first")

    def __deepcopy__(self, memo):
        result = UninitializedParameter(self.requires_grad, self.device, self.dtype)
        memo[id(self)] = result
        return result


class UninitializedBuffer(_UninitializedSizes, Tensor):
    """A lazy module's buffer before its first call (Note [Lazy modules] in
    lazy.py): no data yet, but a device and dtype, which Module.to()
    changes.  materialize() returns the buffer to register in its place (a
    plain tensor: PyTorch's turns into one in place)."""
    _uninitialized = True

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        from .._creation import empty
        return empty(0, dtype=dtype or "float32", device=device)._alias_as(cls)

    def materialize(self, shape, device=None, dtype=None):
        """A new tensor of `shape` (uninitialised values) on `device`
        (default: this one's) with `dtype` (default: this one's)."""
        from .._creation import empty
        return empty(tuple(shape), dtype=dtype or self.dtype, device=self.device if device is None else device)

    def __repr__(self):
        return "<UninitializedBuffer>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol):
        raise RuntimeError("cannot pickle an uninitialised buffer: call the module once first")

    def __deepcopy__(self, memo):
        result = UninitializedBuffer(device=self.device, dtype=self.dtype)
        memo[id(self)] = result
        return result


def is_uninitialized(t):
    """Whether t is a lazy module's parameter or buffer without values yet."""
    return getattr(t, "_uninitialized", False)


__all__ = ["Parameter", "UninitializedParameter", "UninitializedBuffer"]
