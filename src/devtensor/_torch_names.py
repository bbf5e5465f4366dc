"""PyTorch's top-level names that code written for torch calls first and
that NumPy has no function of the same name for: seeding, the autograd
switches (no-ops: devtensor has no autograd), is_tensor, as_tensor,
randperm, cat, and the functional forms of PyTorch's methods (clamp,
sigmoid, relu, softmax, unsqueeze, flatten, eq, div, rand_like, ...).
Each keeps PyTorch's signature and meaning.
"""
import contextlib

from . import _C
from ._torch_selection import _input_tensor


def manual_seed(seed):
    """Seed devtensor's generator on every device (PyTorch's manual_seed):
    the streams are counter-based, so one seed gives the same numbers on
    the cpu and on each GPU (README)."""
    from . import random
    random.manual_seed(seed)


class _NoAutograd(contextlib.ContextDecorator):
    """A context manager and decorator that changes nothing: devtensor has
    no autograd, so there are no gradients to switch off (PyTorch's
    no_grad, enable_grad, inference_mode and set_grad_enabled run as they
    are written)."""

    def __new__(cls, mode=True):
        if callable(mode):  # bare @no_grad (PyTorch 2 accepts it): decorate the function
            return super().__new__(cls)(mode)
        return super().__new__(cls)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


no_grad = enable_grad = inference_mode = _NoAutograd


def set_grad_enabled(mode):
    """PyTorch's set_grad_enabled(mode): a no-op context manager (no autograd)."""
    return _NoAutograd(mode)


def is_grad_enabled():
    """False: devtensor computes no gradients."""
    return False


def is_tensor(obj):
    """Whether obj is a devtensor tensor (PyTorch's is_tensor)."""
    return isinstance(obj, _C.TensorBase)


def as_tensor(data, dtype=None, device=None):
    """PyTorch's as_tensor: data as a tensor, sharing memory where it can
    (a tensor already of that dtype and device, a CPU NumPy array); a tensor
    goes to a default device set (Note [tensor() under a default device])."""
    from ._creation import _tensor_device, asarray
    if device is None and isinstance(data, _C.TensorBase):
        device = _tensor_device(data)
    return asarray(data, dtype=dtype, device=device)


def randperm(n, *, dtype=None, device=None, generator=None):
    """A random permutation of 0..n-1 (PyTorch's randperm; int64 by default),
    from generator (a devtensor.random Generator) or the global one."""
    from . import random
    if generator is not None and not isinstance(generator, random.Generator):
        raise TypeError(f"randperm(): generator must be a devtensor.random.Generator, not "
                        f"{type(generator).__name__}")
    perm = (generator or random).permutation(n, device=device)
    return perm if dtype is None else perm.astype(dtype)


def cat(tensors, dim=0, *, out=None):
    """PyTorch's cat: the tensors joined along dim (NumPy's concatenate, axis
    named dim); they must share a device, as PyTorch's must."""
    from ._manipulation import concatenate
    return concatenate(tensors, axis=dim, out=out)


# ---- functional forms of PyTorch's methods (torch.clamp(x, 0) is x.clamp(0)) ----

def clamp(input, min=None, max=None):
    """PyTorch's clamp: NumPy's clip with either bound optional."""
    return _input_tensor("clamp", input).clamp(min, max)


def sigmoid(input):
    return _input_tensor("sigmoid", input).sigmoid()


def relu(input):
    return _input_tensor("relu", input).relu()


def softmax(input, dim):
    return _input_tensor("softmax", input).softmax(dim)


def log_softmax(input, dim):
    return _input_tensor("log_softmax", input).log_softmax(dim)


def logsumexp(input, dim, keepdim=False):
    return _input_tensor("logsumexp", input).logsumexp(dim, keepdim)


def unsqueeze(input, dim):
    """A view with a new dimension of length 1 at dim (PyTorch's unsqueeze)."""
    return _input_tensor("unsqueeze", input).unsqueeze(dim)


def flatten(input, start_dim=0, end_dim=-1):
    """dims start_dim to end_dim merged into one (PyTorch's flatten)."""
    return _input_tensor("flatten", input).flatten(start_dim, end_dim)


def permute(input, dims):
    return _input_tensor("permute", input).permute(dims)


def div(input, other, *, rounding_mode=None):
    """input / other; rounding_mode 'trunc' or 'floor' (PyTorch's div)."""
    from ._torch_methods import _divide
    return _divide(_input_tensor("div", input), other, rounding_mode)


def mul(input, other):
    return _input_tensor("mul", input) * other


def sub(input, other, *, alpha=1):
    return _input_tensor("sub", input).sub(other, alpha=alpha)


def rsqrt(input):
    return _input_tensor("rsqrt", input).rsqrt()


def eq(input, other):
    return _input_tensor("eq", input) == other


def ne(input, other):
    return _input_tensor("ne", input) != other


def gt(input, other):
    return _input_tensor("gt", input) > other


def ge(input, other):
    return _input_tensor("ge", input) >= other


def lt(input, other):
    return _input_tensor("lt", input) < other


def le(input, other):
    return _input_tensor("le", input) <= other


def randint(low, high=None, size=None, dtype=None, device=None):
    """Integers in [low, high) (in [0, low) when high is None): NumPy's
    random.randint, and PyTorch's torch.randint(high, size), whose second
    argument is a shape (a tuple or list) where NumPy's would be high.
    devtensor.random.randint is NumPy's alone."""
    from . import random
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, tuple(high)
    return random.randint(low, high, size, dtype=dtype, device=device)


def is_floating_point(input):
    """Whether input's dtype is a floating one (PyTorch's is_floating_point)."""
    return _input_tensor("is_floating_point", input).is_floating_point()


def is_complex(input):
    """Whether input's dtype is complex (PyTorch's is_complex)."""
    return _input_tensor("is_complex", input).dtype.is_complex


def numel(input):
    """The number of elements (PyTorch's numel)."""
    return _input_tensor("numel", input).size


def rand_like(input, *, dtype=None, device=None):
    """Uniform [0, 1) draws of input's shape, dtype and device (PyTorch's rand_like)."""
    from .random import rand
    _input_tensor("rand_like", input)
    return rand(*input.shape, dtype=dtype or input.dtype, device=device or input.device)


def randn_like(input, *, dtype=None, device=None):
    """Standard normal draws of input's shape, dtype and device (PyTorch's randn_like)."""
    from .random import randn
    _input_tensor("randn_like", input)
    return randn(*input.shape, dtype=dtype or input.dtype, device=device or input.device)
