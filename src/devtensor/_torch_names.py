"""PyTorch's top-level names that code written for torch calls first and
that NumPy has no function of the same name for: seeding, the autograd
switches (the grad mode only: devtensor has no autograd), is_tensor, as_tensor,
randperm, cat, the functional forms of PyTorch's methods (clamp,
sigmoid, relu, softmax, unsqueeze, flatten, eq, div, rand_like, clone,
t, swapdims, ...), PyTorch's random draws (normal, bernoulli, poisson,
randint_like) and its top-level linear algebra (det, inverse, svd,
cholesky, logdet, pinverse).  Each keeps PyTorch's signature and meaning.
"""
import collections
import contextlib
import contextvars
import functools
import inspect
import operator

from . import _C
from ._torch_selection import _input_tensor


def manual_seed(seed):
    """Seed devtensor's generator on every device (PyTorch's manual_seed):
    the streams are counter-based, so one seed gives the same numbers on
    the cpu and on each GPU (README)."""
    from . import random
    from ._torch_setup import default_generator
    random.manual_seed(seed)
    return default_generator  # PyTorch's return: random_split(..., generator=torch.manual_seed(42))


# Note [Grad mode without autograd]
# devtensor computes no gradients, but code branches on PyTorch's grad mode
# (D2L's batch_norm from scratch uses the moving statistics when
# `not torch.is_grad_enabled()`), so the mode is kept as PyTorch keeps it:
# True by default, False inside no_grad() and inference_mode(), as
# set_grad_enabled(mode) says (at once when called, until its block ends
# when used as one), per thread and task; is_grad_enabled() reports it.
_grad_mode = contextvars.ContextVar("devtensor_grad_mode", default=True)
# the modes to restore, innermost last: per thread and task, so one instance
# may be entered in several at once (no state on the instance)
_restore = contextvars.ContextVar("devtensor_grad_mode_restore", default=())


class _GradMode(contextlib.ContextDecorator):
    """A context manager and decorator that sets the grad mode for its block
    (Note [Grad mode without autograd]); nothing else changes.  A decorated
    generator function runs each of its steps under the mode, as PyTorch's."""

    def __new__(cls, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:  # bare @no_grad (PyTorch 2 accepts it)
            cm = super().__new__(cls)
            cm.__init__()
            return cm(args[0])
        return super().__new__(cls)

    def _mode(self):
        raise NotImplementedError

    def _before(self):
        """The mode this block's exit restores."""
        return _grad_mode.get()

    def __enter__(self):
        _restore.set(_restore.get() + (self._before(),))
        _grad_mode.set(self._mode())
        return self

    def __exit__(self, *exc):
        stack = _restore.get()
        _grad_mode.set(stack[-1])
        _restore.set(stack[:-1])
        return False

    def __call__(self, func):
        if not inspect.isgeneratorfunction(func):
            return super().__call__(func)

        @functools.wraps(func)
        def steps(*args, **kwargs):  # each resumption of the generator inside a block of its own
            gen = func(*args, **kwargs)
            try:
                with self._recreate_cm():
                    value = gen.send(None)
                while True:
                    try:
                        sent = yield value
                    except GeneratorExit:
                        with self._recreate_cm():
                            gen.close()
                        raise
                    except BaseException as e:
                        with self._recreate_cm():
                            value = gen.throw(e)
                    else:
                        with self._recreate_cm():
                            value = gen.send(sent)
            except StopIteration as stop:
                return stop.value
        return steps


class no_grad(_GradMode):
    """PyTorch's no_grad: is_grad_enabled() is False within."""

    def _mode(self):
        return False


class enable_grad(_GradMode):
    """PyTorch's enable_grad: is_grad_enabled() is True within."""

    def _mode(self):
        return True


class inference_mode(_GradMode):
    """PyTorch's inference_mode(mode=True): grad mode off within when mode."""

    def __init__(self, mode=True):
        self.mode = mode

    def _mode(self):
        return not self.mode if self.mode is not None else _grad_mode.get()


class set_grad_enabled(_GradMode):
    """PyTorch's set_grad_enabled(mode): sets the grad mode when called; as
    a context manager (or decorator), until its block ends."""

    def __init__(self, mode):
        self.mode, self._previous = bool(mode), _grad_mode.get()
        _grad_mode.set(self.mode)

    def _mode(self):
        return self.mode

    def _before(self):  # the call set the mode already: its block restores the one before the call
        return _grad_mode.get() if self._previous is None else self._previous

    def _recreate_cm(self):  # a decorated function's call: its block only
        cm = type(self).__new__(type(self))
        cm.mode, cm._previous = self.mode, None
        return cm

    def __call__(self, func):  # a decorator: the call set the mode, which PyTorch undoes here
        _grad_mode.set(self._previous)
        return self._recreate_cm()._decorate(func)

    def _decorate(self, func):
        return super().__call__(func)


def is_grad_enabled():
    """PyTorch's grad mode (Note [Grad mode without autograd]); devtensor
    computes no gradients either way."""
    return _grad_mode.get()


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
    if isinstance(tensors, (list, tuple)) and tensors and all(isinstance(t, _C.TensorBase) for t in tensors):
        kept = [t for t in tensors if t.shape != (0,)]  # PyTorch's legacy: 1-d empty tensors are skipped
        if kept and len(kept) < len(tensors) and any(t.ndim != 1 for t in kept):
            from ._dtype_api import result_type
            return concatenate(kept, axis=dim, out=out, dtype=None if out is not None else result_type(*tensors))
        _check_cat_shapes(tensors, dim)  # PyTorch's RuntimeError and words, not NumPy's ValueError
    return concatenate(tensors, axis=dim, out=out)


def _check_cat_shapes(tensors, dim):
    first = tensors[0].shape
    for i, t in enumerate(tensors[1:], 1):
        if t.ndim != len(first):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} and {t.ndim}")
    if not first:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    try:
        axis = operator.index(dim)
    except TypeError:
        return  # concatenate's own error
    if not -len(first) <= axis < len(first):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-len(first)}, {len(first) - 1}], "
                         f"but got {axis})")
    axis %= len(first)
    for i, t in enumerate(tensors[1:], 1):
        for d, (a, b) in enumerate(zip(first, t.shape)):
            if d != axis and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {axis}. Expected size {a} but "
                                   f"got size {b} for tensor number {i} in the list.")


# ---- functional forms of PyTorch's methods (torch.clamp(x, 0) is x.clamp(0)) ----

def clamp(input, min=None, max=None):
    """PyTorch's clamp: NumPy's clip with either bound optional."""
    return _input_tensor("clamp", input).clamp(min, max)


def sigmoid(input):
    return _input_tensor("sigmoid", input).sigmoid()


def relu(input):
    return _input_tensor("relu", input).relu()


def softmax(input, dim, dtype=None):
    return _input_tensor("softmax", input).softmax(dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    return _input_tensor("log_softmax", input).log_softmax(dim, dtype=dtype)


def neg(input):
    return -_input_tensor("neg", input)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    """PyTorch's norm (Tensor.norm's): the Frobenius or p-norm over dim."""
    x = _input_tensor("norm", input)
    return (x if dtype is None else x.astype(dtype)).norm(p, dim, keepdim)


def dist(input, other, p=2):
    """The p-norm of input - other (PyTorch's dist)."""
    from . import linalg
    d = _input_tensor("dist", input) - other
    return linalg.vector_norm(d, ord=p)


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


def randint(low, high=None, size=None, dtype=None, device=None, *, generator=None):
    """Integers in [low, high) (in [0, low) when high is None): NumPy's
    random.randint, and PyTorch's torch.randint(high, size), whose second
    argument is a shape (a tuple or list) where NumPy's would be high;
    generator= draws from that Generator's stream.  devtensor.random.randint
    is NumPy's alone."""
    from . import random
    if size is None and isinstance(high, (tuple, list)):
        low, high, size = 0, low, tuple(high)
    if generator is not None:
        if high is None:
            low, high = 0, low
        return _source(generator).integers(low, high, size, dtype=_C.int64 if dtype is None else dtype,
                                           device=random._placed(device))
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


def clone(input):
    """A copy of input, on its device (PyTorch's clone)."""
    return _input_tensor("clone", input).clone()


def t(input):
    """The transpose of a matrix; a 0-d or 1-d tensor as it is (PyTorch's t)."""
    return _input_tensor("t", input).t()


def swapdims(input, dim0, dim1):
    """PyTorch's name of swapaxes."""
    return _input_tensor("swapdims", input).swapaxes(dim0, dim1)


def sgn(input):
    """input / |input| for complex input (0 at 0), the sign for real (PyTorch's sgn)."""
    from . import _ufuncs
    x = _input_tensor("sgn", input)
    if not x.dtype.is_complex:
        return _ufuncs.sign(x)
    a = _ufuncs.absolute(x)
    return _ufuncs.where(a == 0, 0, x / _ufuncs.where(a == 0, 1, a)).astype(x.dtype, copy=False)


def take_along_dim(input, indices, dim=None):
    """PyTorch's take_along_dim: NumPy's take_along_axis (indices broadcast
    against input but along dim), of the flattened input when dim is None."""
    from ._index_functions import take_along_axis
    x = _input_tensor("take_along_dim", input)
    if dim is None:
        return take_along_axis(x.reshape(-1), indices.reshape(-1), axis=0)
    from ._torch_selection import _dim
    return take_along_axis(x, indices, axis=_dim(dim, x.ndim))


def msort(input):
    """input sorted along its first dim (PyTorch's msort)."""
    from ._sorting import sort
    return sort(_input_tensor("msort", input), axis=0)


def is_nonzero(input):
    """Whether the one-element input is non-zero (PyTorch's is_nonzero)."""
    x = _input_tensor("is_nonzero", input)
    if x.size != 1:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if x.size == 0 else
                           "Boolean value of Tensor with more than one value is ambiguous")
    return bool(x.reshape(()))


def is_same_size(input, other):
    return tuple(_input_tensor("is_same_size", input).shape) == tuple(_input_tensor("is_same_size", other).shape)


def logcumsumexp(input, dim):
    """log(cumsum(exp(input))) along dim, without overflow or underflow
    (logaddexp's running fold)."""
    from . import _ufuncs
    from ._torch_selection import _dim
    x = _input_tensor("logcumsumexp", input)
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.astype(_C.float32)
    if x.ndim == 0:
        return x.copy()
    return _ufuncs.logaddexp.accumulate(x, axis=_dim(dim, x.ndim))


# ---- random draws of PyTorch's forms ----
def _source(generator):
    from . import random
    if generator is not None and not isinstance(generator, random.Generator):
        raise TypeError(f"generator must be a devtensor.random.Generator, not {type(generator).__name__}")
    return generator or random


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None):
    """PyTorch's normal: draws of N(mean, std^2), elementwise for tensors
    of means or deviations (their broadcast shape, dtype and device), of
    size for numbers (float64 by default: devtensor's default float dtype,
    as randn's, where PyTorch's is float32)."""
    from ._manipulation import broadcast_shapes
    src = _source(generator)
    tensors = [v for v in (mean, std) if isinstance(v, _C.TensorBase)]
    if tensors:
        if size is not None:
            raise RuntimeError("normal(): size is only taken with a number for mean and for std")
        shape = broadcast_shapes(*(v.shape for v in tensors))
        dev = tensors[0].device
        kind = tensors[0].dtype if tensors[0].dtype.is_floating_point else _C.float32
        if isinstance(std, (int, float)) and std < 0 or \
                isinstance(std, _C.TensorBase) and std.size and bool((std < 0).any()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        z = src.standard_normal(shape, device=dev).astype(kind)
        return mean + std * z
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    if size is None:
        raise TypeError("normal() with a number for mean and for std needs size")
    size = (size,) if isinstance(size, int) else tuple(size)
    return (mean + std * src.standard_normal(size, device=device)).astype(dtype or _C.float64, copy=False)


def bernoulli(input, p=None, *, generator=None):
    """1 with probability input (or p), 0 otherwise, in input's dtype and
    shape on its device (PyTorch's bernoulli)."""
    x = _input_tensor("bernoulli", input)
    prob = x if p is None else p
    if p is None and not x.dtype.is_floating_point:
        raise RuntimeError(f"bernoulli expects a floating-point probability tensor, got {x.dtype}")
    if isinstance(prob, _C.TensorBase):
        if prob.size and bool(((prob < 0) | (prob > 1)).any()):
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    elif not 0 <= prob <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={prob}")
    u = _source(generator).random(x.shape, device=x.device)
    return (u < prob).astype(x.dtype)


def poisson(input, generator=None):
    """Poisson draws with the rates in input, in its dtype and on its device."""
    x = _input_tensor("poisson", input)
    if x.size and bool((x < 0).any()):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return _source(generator).poisson(x, device=x.device).astype(x.dtype)


def randint_like(input, low=0, high=None, *, dtype=None, device=None):
    """Integers in [low, high) of input's shape, dtype and device
    (randint_like(input, high) or (input, low, high))."""
    from . import random
    x = _input_tensor("randint_like", input)
    if high is None:
        low, high = 0, low
    r = random.randint(low, high, x.shape, device=device or x.device)
    return r.astype(dtype or x.dtype)


# ---- linear algebra under PyTorch's top-level names ----
def det(input):
    from . import linalg
    return linalg.det(_input_tensor("det", input))


def inverse(input):
    from . import linalg
    return linalg.inv(_input_tensor("inverse", input))


def pinverse(input, rcond=1e-15):
    from . import linalg
    return linalg.pinv(_input_tensor("pinverse", input), rcond=rcond)


def logdet(input):
    """log(det(input)): NaN for a negative determinant, -inf for zero (PyTorch's logdet)."""
    from . import _ufuncs, linalg
    sign, logabs = linalg.slogdet(_input_tensor("logdet", input))
    if sign.dtype.is_complex:
        return _ufuncs.log(sign) + logabs
    return _ufuncs.where(sign < 0, float("nan"), logabs).astype(logabs.dtype, copy=False)


def cholesky(input, upper=False):
    """The Cholesky factor L (L @ L^H = input), or U = L^H with upper=True (PyTorch's cholesky)."""
    from . import linalg
    lower = linalg.cholesky(_input_tensor("cholesky", input))
    return lower.mT.conj() if upper and lower.dtype.is_complex else lower.mT if upper else lower


svd_result = collections.namedtuple("svd", ["U", "S", "V"])


def svd(input, some=True, compute_uv=True):
    """PyTorch's svd: (U, S, V) with input = U diag(S) V^H, reduced when
    some=True; V, not V^H (linalg.svd gives Vh)."""
    from . import linalg
    x = _input_tensor("svd", input)
    if not compute_uv:
        s = linalg.svd(x, compute_uv=False)
        from ._creation import zeros
        m, n = x.shape[-2:]
        return svd_result(zeros(x.shape[:-2] + (m, m), dtype=x.dtype, device=x.device), s,
                          zeros(x.shape[:-2] + (n, n), dtype=x.dtype, device=x.device))
    u, s, vh = linalg.svd(x, full_matrices=not some)
    return svd_result(u, s, vh.mT.conj() if vh.dtype.is_complex else vh.mT)
