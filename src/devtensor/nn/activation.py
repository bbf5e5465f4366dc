"""Activation modules: ReLU, LeakyReLU, SiLU, Softplus, Sigmoid, Tanh, GELU,
Softmax, LogSoftmax, Softmin, GLU, and the ones whose forward is one
nn.functional call with its settings (ELU, SELU, CELU, Hardtanh, ReLU6,
Hardsigmoid, Hardswish, LogSigmoid, Mish, Softsign, Tanhshrink,
Hardshrink, Softshrink, Threshold)."""
from . import functional as F
from .module import Module


class ReLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class RReLU(Module):
    """Randomized leaky ReLU (F.rrelu): a slope drawn from U(lower, upper)
    per element while training, their mean in eval mode."""

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input):
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        return f"lower={self.lower}, upper={self.upper}" + (", inplace=True" if self.inplace else "")


class SiLU(Module):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Sigmoid(Module):
    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    def forward(self, input):
        return F.tanh(input)


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate='{self.approximate}'"


class Softmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of (N, C, H, W) or (C, H, W)."""

    def forward(self, input):
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D instead")
        return F.softmax(input, -3)


class LogSoftmax(Module):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class _Settings(Module):
    """A module whose forward is F.<_function>(input, *its settings), with
    PyTorch's names for the settings (in _fields, their order in the call;
    _defaults those of the last ones) and repr."""
    _function = None
    _fields = ()
    _defaults = ()

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(args) > len(self._fields):
            raise TypeError(f"{type(self).__name__}() takes at most {len(self._fields)} arguments")
        values = dict(zip(self._fields[len(self._fields) - len(self._defaults):], self._defaults))
        values.update(zip(self._fields, args))
        for key, value in kwargs.items():
            if key not in self._fields:
                raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        missing = [f for f in self._fields if f not in values]
        if missing:
            raise TypeError(f"{type(self).__name__}.__init__() missing required argument '{missing[0]}'")
        for key in self._fields:
            setattr(self, key, values[key])

    def forward(self, input):
        return getattr(F, self._function)(input, *(getattr(self, f) for f in self._fields))

    def extra_repr(self):
        return ", ".join(f"{f}={getattr(self, f)}" for f in self._fields if not (f == "inplace" and
                                                                                 not self.inplace))


def _settings(name, function, fields=(), defaults=()):
    return type(name, (_Settings,), {"_function": function, "_fields": fields, "_defaults": defaults,
                                     "__module__": __name__, "__doc__": f"F.{function} as a module."})


ELU = _settings("ELU", "elu", ("alpha", "inplace"), (1.0, False))
SELU = _settings("SELU", "selu", ("inplace",), (False,))
CELU = _settings("CELU", "celu", ("alpha", "inplace"), (1.0, False))
Hardtanh = _settings("Hardtanh", "hardtanh", ("min_val", "max_val", "inplace"), (-1.0, 1.0, False))
ReLU6 = _settings("ReLU6", "relu6", ("inplace",), (False,))
Hardsigmoid = _settings("Hardsigmoid", "hardsigmoid", ("inplace",), (False,))
Hardswish = _settings("Hardswish", "hardswish", ("inplace",), (False,))
Mish = _settings("Mish", "mish", ("inplace",), (False,))
LogSigmoid = _settings("LogSigmoid", "logsigmoid")
Softsign = _settings("Softsign", "softsign")
Tanhshrink = _settings("Tanhshrink", "tanhshrink")
Hardshrink = _settings("Hardshrink", "hardshrink", ("lambd",), (0.5,))
Softshrink = _settings("Softshrink", "softshrink", ("lambd",), (0.5,))
Threshold = _settings("Threshold", "threshold", ("threshold", "value", "inplace"), (False,))
Softmin = _settings("Softmin", "softmin", ("dim",), (None,))
GLU = _settings("GLU", "glu", ("dim",), (-1,))


class PReLU(Module):
    """max(0, x) + weight * min(0, x) with a learnable weight: one value, or
    one per channel (num_parameters), starting at init."""

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        from .._creation import full
        from .parameter import Parameter
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = Parameter(full((num_parameters,), init, dtype="float32" if dtype is None else dtype,
                                     device=device))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


__all__ = ["PReLU", "ELU", "SELU", "CELU", "Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Mish", "LogSigmoid", "Softsign",
           "Tanhshrink", "Hardshrink", "Softshrink", "Threshold", "Softmin", "GLU", "ReLU", "LeakyReLU", "RReLU", "SiLU", "Softplus", "Sigmoid", "Tanh", "GELU", "Softmax", "LogSoftmax",
           "Softmax2d"]
