"""Identity, Linear, LazyLinear and Bilinear, with PyTorch's default initialisation."""
import math
import operator

from .. import _C
from .._creation import empty
from . import functional as F, init
from .module import Module, _registered
from .lazy import LazyModuleMixin
from .parameter import Parameter, UninitializedParameter


def _features(value, name):
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None
    if n < 0:
        raise ValueError(f"{name} must be non-negative, got {n}")
    return n


def default_init(weight, bias, fan_in):
    """PyTorch's initialisation of Linear and the convolutions: weight by
    kaiming_uniform_ with a = sqrt(5), which is U(-1/sqrt(fan_in),
    1/sqrt(fan_in)), and bias (if any) from the same range."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)


class Identity(Module):
    """Returns its input (extra arguments are accepted and ignored)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class _Registered:
    """Class-level access to a registered parameter: `self.weight` costs a
    dict look-up instead of a failed attribute search and Module.__getattr__
    (0.1 us against 0.9 us, twice per Linear call).  Assignment and deletion
    still go through Module.__setattr__ / __delattr__."""

    def __init__(self, name):
        self.name = name

    def __get__(self, module, owner=None):
        if module is None:
            return self
        d = module.__dict__
        try:
            return d["_parameters"][self.name]
        except KeyError:
            if self.name in d:  # a plain attribute of that name
                return d[self.name]
            return module.__getattr__(self.name)

    def __set__(self, module, value):
        if isinstance(value, (Parameter, Module)) or _registered(module, self.name):
            Module.__setattr__(module, self.name, value)  # registers; never object.__setattr__
        else:
            module.__dict__[self.name] = value

    def __delete__(self, module):
        if _registered(module, self.name):
            module._forget(self.name)
        elif self.name in module.__dict__:
            del module.__dict__[self.name]
        else:
            raise AttributeError(self.name)


class Linear(Module):
    """y = x W^T + b, W of shape (out_features, in_features); W and b start
    U(-1/sqrt(in_features), 1/sqrt(in_features)), as in PyTorch."""

    weight = _Registered("weight")
    bias = _Registered("bias")

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = _features(in_features, "in_features")
        self.out_features = _features(out_features, "out_features")
        dtype = _C.float32 if dtype is None else dtype
        self.weight = Parameter(empty((self.out_features, self.in_features), dtype=dtype,
                                      device=device))
        if bias:
            self.bias = Parameter(empty(self.out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        default_init(self.weight, self.bias, self.weight.shape[1])

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class NonDynamicallyQuantizableLinear(Linear):
    """Linear under the name PyTorch gives MultiheadAttention's out_proj (its
    repr shows it)."""


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose in_features is taken from its first input: its weight
    and bias are made then, on the input's device (with the dtype and
    requires_grad they were given, or that Module.to() set), initialised as
    Linear's, and the module becomes a Linear (Note [Lazy modules])."""
    cls_to_become = Linear
    _lazy_attr = "in_features"

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = _features(out_features, "out_features")
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def _lazy_size(self, input):
        if input.ndim == 0:
            raise RuntimeError("LazyLinear needs an input with at least one dimension (the features)")
        return input.shape[-1]

    def _lazy_template(self, name):
        return (self.out_features, None) if name == "weight" else (self.out_features,)


class Bilinear(Module):
    """y = x1^T W_k x2 + b_k, W of shape (out_features, in1_features,
    in2_features); W and b start U(-1/sqrt(in1_features), 1/sqrt(in1_features)),
    as in PyTorch."""

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = _features(in1_features, "in1_features")
        self.in2_features = _features(in2_features, "in2_features")
        self.out_features = _features(out_features, "out_features")
        dtype = _C.float32 if dtype is None else dtype
        self.weight = Parameter(empty((self.out_features, self.in1_features, self.in2_features), dtype=dtype,
                                      device=device))
        if bias:
            self.bias = Parameter(empty(self.out_features, dtype=dtype, device=device))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.in1_features) if self.in1_features else 0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


__all__ = ["Identity", "Linear", "LazyLinear", "Bilinear"]
