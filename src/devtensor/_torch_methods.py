"""PyTorch's Tensor methods that NumPy's ndarray has no method of the same
name for, installed on devtensor.Tensor (devtensor._tensor).

Note [PyTorch's methods]
    A tensor's methods are NumPy's ndarray's (NumPy code runs unchanged:
    t.size is an int, t.repeat is np.repeat, t.sort() sorts in place) plus
    the ones below, which PyTorch code calls all the time and which no
    NumPy method shadows: counting (numel, dim, element_size, stride),
    copies and casts (clone, detach, float, double, ...; a cast to the
    tensor's own dtype returns it, as PyTorch's), factories of the same
    dtype and device (new_zeros, ...), views (t, expand, expand_as,
    view_as), clamp, and the in-place family (zero_, fill_, copy_, add_,
    sub_, mul_, div_, clamp_, the unary abs_, exp_, sqrt_, ..., and the
    random fills normal_ and uniform_, nn.init's), which return the tensor;
    the method forms of NumPy's functions and operators (add, sub, mul, div
    with rounding_mode, eq, ..., abs, exp, log, sqrt, rsqrt, pow, maximum,
    atan2, isnan, where, lerp, addcmul, logsumexp, amax, amin, nansum,
    norm, flip, roll, tril, triu, tile, unflatten, repeat_interleave,
    softmax, relu, ...), none of which an ndarray method shadows.  The selection family (gather,
    topk, chunk, ...) is in _torch_selection.py.  There is no autograd:
    detach() is a view of the same memory.
"""
import operator

from . import _C
from ._creation import _new
from ._torch_selection import _dim, _fill_value, _same_device


def _dt():
    import devtensor
    return devtensor


def _cast(name, dtype):
    """The method t.<name>(): t as dtype (t itself when it already is)."""
    def cast(self):
        return self.to(dtype)
    cast.__name__ = cast.__qualname__ = name
    cast.__doc__ = f"self as {dtype} (itself when it already is), PyTorch's Tensor.{name}()"
    return cast


_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
               "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
               "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}
_TYPE_DTYPES = {kind + "Tensor": dtype for dtype, kind in _TYPE_NAMES.items()}  # 'FloatTensor' -> 'float32'


def _size_args(size):
    """new_zeros((2, 3)) and new_zeros(2, 3): the shape."""
    if len(size) == 1 and not isinstance(size[0], int):
        return tuple(size[0])
    return tuple(size)


def _preserve_format_axes(shape, strides):
    """The axes, outermost first, of the memory order PyTorch's clone() gives
    a tensor of these shape and strides.

    Note [preserve_format]
        PyTorch's memory_format=torch.preserve_format lays a copy out in the
        order of the source's strides (its infer_dense_strides): a stable
        insertion sort of the axes by stride, where an axis of stride 0 (an
        expanded one) compares as ambiguous, keeping C order around it, and
        of equal strides the shorter axis is the inner one.  NumPy's
        order='K' puts stride 0 innermost instead: x[:1].expand(3, 4)
        copies to Fortran order there, to C order here (as PyTorch's clone,
        so that a .view(-1) of it works)."""
    strides = [abs(s) for s in strides]
    perm = list(range(len(shape)))[::-1]  # innermost first

    def should_swap(d0, d1):
        if strides[d0] == 0 or strides[d1] == 0:
            return 0
        if strides[d0] != strides[d1]:
            return -1 if strides[d0] < strides[d1] else 1
        return 1 if shape[d0] > shape[d1] else 0

    for i in range(1, len(perm)):
        j = i
        for k in range(i - 1, -1, -1):
            order = should_swap(perm[k], perm[j])
            if order > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif order < 0:
                break
    return tuple(perm[::-1])


def _tensor_argument(name, other):
    """other, which must be a tensor (PyTorch's TypeError, not an AttributeError)."""
    if not isinstance(other, _C.TensorBase):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {type(other).__name__}")
    return other


def _scaled(self, other, alpha):
    """alpha * other for add and sub, in the result's dtype (PyTorch's: a
    float16 other times 100 does not overflow for a float32 self); a float
    alpha for an integer result is PyTorch's error."""
    if alpha == 1:
        return other
    dt = _dt()
    result = dt.result_type(self, other)
    if result.kind in "biu" and isinstance(alpha, float):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    return dt.multiply(other, alpha, dtype=result)


def _all_dims(dim):
    """PyTorch's dim=() or [] for every dimension, NumPy's None."""
    if isinstance(dim, (tuple, list)):
        return tuple(dim) if dim else None
    return dim


def _functional():
    from .nn import functional
    return functional


def _matrices(name, t):
    if t.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def _divide(a, b, rounding_mode, out=None):
    """PyTorch's div: true division, or rounded toward zero ('trunc') or
    down ('floor'), in the operands' dtype for integers."""
    dt = _dt()
    if rounding_mode is None:
        return dt.true_divide(a, b, out=out)
    if rounding_mode == "floor":
        return dt.floor_divide(a, b, out=out)
    if rounding_mode != "trunc":
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                         f"'{rounding_mode}'")
    q = dt.floor_divide(a, b)
    if q.dtype.kind in "iu":  # floor + 1 where the division was inexact and the signs differ
        q = q + dt.logical_and(dt.remainder(a, b) != 0, dt.less(a, 0) != dt.less(b, 0))
    else:
        q = dt.trunc(dt.true_divide(a, b))
    if out is None:
        return q
    out[...] = q
    return out


# Note [No autograd]
# devtensor computes no gradients.  A tensor reads as PyTorch's do outside
# autograd (requires_grad False, grad and grad_fn None, is_leaf True), so
# code that only looks at them runs; asking a tensor to require gradients
# (requires_grad_(), tensor(..., requires_grad=True)) or to run backward()
# is a NotImplementedError saying so.  nn.Parameter keeps a requires_grad
# flag for modules (Note [Parameters are tensors whose data can move]).
NO_AUTOGRAD = ("devtensor has no autograd: tensors cannot require gradients or run backward() "
               "(nn.Parameter keeps a requires_grad flag for modules, and nothing else)")


class _TorchMethods:
    """Methods installed on devtensor.Tensor (Note [PyTorch's methods])."""

    # ---- counting ----
    def numel(self):
        """The number of elements (PyTorch's numel; NumPy's t.size)."""
        return self.size

    def dim(self):
        """The number of dimensions (PyTorch's dim; NumPy's t.ndim)."""
        return self.ndim

    def element_size(self):
        """Bytes per element (PyTorch's element_size; NumPy's t.itemsize)."""
        return self.itemsize

    def stride(self, dim=None):
        """The strides in elements (PyTorch's; t.strides are NumPy's bytes)."""
        steps = tuple(s // self.itemsize for s in self.strides)
        return steps if dim is None else steps[dim]

    def get_device(self):
        """The CUDA device index, or -1 on the cpu (PyTorch's get_device)."""
        return -1 if self.device.type == "cpu" else self.device.index

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    # ---- copies and casts ----
    def clone(self):
        """A copy on the same device (PyTorch's clone), in this tensor's memory
        order (PyTorch's preserve_format: x.T.clone() is F-ordered, and an
        expanded tensor's clone is C-ordered: Note [preserve_format])."""
        if self.is_contiguous():
            return self.copy()
        if 0 not in self.strides:  # no expanded axis: NumPy's order='K' is this order
            return self.copy("K")
        out = _new(self.shape, self.dtype, self.device, _preserve_format_axes(self.shape, self.strides))
        out[...] = self
        return out

    def detach(self):
        """A view of the same memory (no autograd in devtensor: nothing to detach from)."""
        return self[...]

    # ---- autograd's attributes, as PyTorch's for a tensor outside autograd (Note [No autograd]) ----
    requires_grad = False
    grad = None
    grad_fn = None
    is_leaf = True

    def requires_grad_(self, requires_grad=True):
        """PyTorch's requires_grad_: False is this tensor; True is refused (no autograd)."""
        if requires_grad:
            raise NotImplementedError(NO_AUTOGRAD)
        return self

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        raise NotImplementedError(NO_AUTOGRAD)

    @property
    def data(self):
        """PyTorch's Tensor.data: a tensor viewing the same memory (NumPy's
        ndarray.data, a memoryview, is memoryview(t) on the CPU).  Only an
        nn.Parameter's data can be replaced by assignment."""
        return self[...]

    @data.setter
    def data(self, value):
        if not isinstance(value, _C.TensorBase):
            raise TypeError(f"data must be a devtensor.Tensor, got {type(value).__name__}")
        self._set_data_(value)

    def type_as(self, other):
        """self in other's tensor type (itself when it already is): other's
        dtype, and other's kind of device, as PyTorch's self.type(other.type()),
        whose type names no device index: a CPU tensor goes to the current
        CUDA device for a CUDA one, a CUDA tensor stays on its own."""
        other = _tensor_argument("type_as", other)
        if other.device.type == self.device.type:
            return self.to(other.dtype)
        if other.device.type == "cpu":
            return self.to("cpu", other.dtype)
        return self.cuda().to(other.dtype)

    # ---- factories of this dtype and device ----
    def new_zeros(self, *size, dtype=None, device=None):
        return _dt().zeros(_size_args(size), dtype=dtype or self.dtype, device=device or self.device)

    def new_ones(self, *size, dtype=None, device=None):
        return _dt().ones(_size_args(size), dtype=dtype or self.dtype, device=device or self.device)

    def new_empty(self, *size, dtype=None, device=None):
        return _dt().empty(_size_args(size), dtype=dtype or self.dtype, device=device or self.device)

    def new_full(self, size, fill_value, *, dtype=None, device=None):
        return _dt().full(tuple(size), fill_value, dtype=dtype or self.dtype, device=device or self.device)

    def new_tensor(self, data, *, dtype=None, device=None):
        return _dt().tensor(data, dtype=dtype or self.dtype, device=device or self.device)

    # ---- views ----
    def t(self):
        """The transpose of a tensor of at most 2 dimensions (PyTorch's t())."""
        if self.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
        return self.T

    def expand(self, *sizes):
        """A read-only broadcast view to sizes (-1 keeps a dimension), PyTorch's expand."""
        sizes = _size_args(sizes)
        lead = len(sizes) - self.ndim
        if lead < 0:
            raise RuntimeError(f"expand: the number of sizes provided ({len(sizes)}) must be greater "
                               f"or equal to the number of dimensions in the tensor ({self.ndim})")
        shape = tuple(self.shape[i - lead] if n == -1 and i >= lead else n for i, n in enumerate(sizes))
        return self.broadcast_to(shape)

    def expand_as(self, other):
        return self.broadcast_to(_tensor_argument("expand_as", other).shape)

    def view_as(self, other):
        return self.view(_tensor_argument("view_as", other).shape)

    # ---- clamp and the in-place family (each returns self) ----
    def clamp(self, min=None, max=None):
        """PyTorch's clamp: NumPy's clip with either bound optional."""
        return _dt().clip(self, min, max)

    def clamp_(self, min=None, max=None):
        _warn_if_element_copy(self, "clamp_")
        _dt().clip(self, min, max, out=self)
        return self

    def zero_(self):
        _warn_if_element_copy(self, "zero_")
        self[...] = 0
        return self

    def fill_(self, value):
        """Every element set to value, a number or a 0-d tensor (PyTorch's
        fill_: a longer tensor is an error, where t[...] = v broadcasts)."""
        _fill_value(value, "fill_", "fill_ only supports 0-dimension value tensor but got tensor with {} "
                                    "dimensions.")
        _warn_if_element_copy(self, "fill_")
        self[...] = value
        return self

    def copy_(self, src, non_blocking=False):
        """src's values into self, broadcast and cast, from any device."""
        _warn_if_element_copy(self, "copy_")
        self[...] = src
        return self

    def add_(self, other, *, alpha=1):
        _warn_if_element_copy(self, "add_")
        _dt().add(self, _scaled(self, other, alpha), out=self)
        return self

    def sub_(self, other, *, alpha=1):
        _warn_if_element_copy(self, "sub_")
        _dt().subtract(self, _scaled(self, other, alpha), out=self)
        return self

    def mul_(self, other):
        _warn_if_element_copy(self, "mul_")
        _dt().multiply(self, other, out=self)
        return self

    def div_(self, other, *, rounding_mode=None):
        _warn_if_element_copy(self, "div_")
        _divide(self, other, rounding_mode, out=self)
        return self

    # ---- arithmetic and comparisons as methods (PyTorch's; NumPy has only the operators) ----
    def add(self, other, *, alpha=1):
        return _dt().add(self, _scaled(self, other, alpha))

    def sub(self, other, *, alpha=1):
        return _dt().subtract(self, _scaled(self, other, alpha))

    def mul(self, other):
        return _dt().multiply(self, other)

    def div(self, other, *, rounding_mode=None):
        """self / other; rounding_mode 'trunc' rounds toward zero, 'floor' down
        (in the operands' dtype, as PyTorch's)."""
        return _divide(self, other, rounding_mode)

    def eq(self, other):
        return self == other

    def ne(self, other):
        return self != other

    def lt(self, other):
        return self < other

    def le(self, other):
        return self <= other

    def gt(self, other):
        return self > other

    def ge(self, other):
        return self >= other

    # ---- reductions and functions PyTorch has as methods (NumPy only as functions) ----
    def amax(self, dim=None, keepdim=False):
        return _dt().amax(self, axis=_all_dims(dim), keepdims=keepdim)

    def amin(self, dim=None, keepdim=False):
        return _dt().amin(self, axis=_all_dims(dim), keepdims=keepdim)

    def norm(self, p="fro", dim=None, keepdim=False):
        """PyTorch's Tensor.norm: the 2-norm ('fro') or p-norm of the elements
        along dim (all of them by default), or the nuclear norm ('nuc') of
        the matrices on dim (the last two by default)."""
        linalg = _dt().linalg
        if p == "nuc":
            dim = tuple(range(self.ndim)) if dim is None else dim
            if len(dim) != 2:
                raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {dim}")
            return linalg.norm(self, ord="nuc", axis=dim, keepdims=keepdim)
        return linalg.vector_norm(self, ord=2 if p == "fro" else p, axis=dim, keepdims=keepdim)

    def flip(self, *dims, **kwargs):
        """flip(0, 1), flip((0, 1)) or flip(dims=(0, 1)), PyTorch's forms."""
        if kwargs:
            if dims or set(kwargs) != {"dims"}:
                raise TypeError(f"flip() takes the dims positionally or as dims=, not {sorted(kwargs)}")
            return _dt().flip(self, dims=kwargs["dims"])
        return _dt().flip(self, dims[0] if len(dims) == 1 else dims)

    def roll(self, shifts, dims=None):
        return _dt().roll(self, shifts, dims)

    def tril(self, diagonal=0):
        _matrices("tril", self)
        return _dt().tril(self, diagonal)

    def triu(self, diagonal=0):
        _matrices("triu", self)
        return _dt().triu(self, diagonal)

    def type(self, dtype=None, non_blocking=False):
        """PyTorch's Tensor.type: with a dtype, self cast to it (self when it
        already is); without, the tensor type's name ('devtensor.FloatTensor',
        'devtensor.cuda.FloatTensor', ...)."""
        if dtype is None:
            kind = _TYPE_NAMES.get(str(self.dtype), str(self.dtype).capitalize())
            return f"devtensor.{'cuda.' if self.device.type == 'cuda' else ''}{kind}Tensor"
        if isinstance(dtype, str) and (dtype.endswith("Tensor") or dtype.startswith(("torch.", "devtensor."))):
            return self._to_type_name(dtype)
        return self.to(dtype=dtype)

    def _to_type_name(self, name):
        """self in the tensor type name ('devtensor.cuda.LongTensor', or
        PyTorch's 'torch.FloatTensor'): its dtype, and CUDA (the tensor's own
        device, or the current one) or the CPU."""
        parts = name.split(".")
        if len(parts) not in (2, 3) or parts[0] not in ("devtensor", "torch") or (len(parts) == 3 and
                                                                                   parts[1] != "cuda"):
            raise ValueError(f"invalid type: '{name}'")
        if parts[-1] not in _TYPE_DTYPES:
            raise ValueError(f"invalid type: '{name}'")
        dtype = _TYPE_DTYPES[parts[-1]]
        if len(parts) == 3:
            return (self if self.device.type == "cuda" else self.cuda()).to(dtype)
        return self.to("cpu", dtype)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def select(self, dim, index):
        """The slice at index along dim, without dim (PyTorch's select: a view)."""
        d = _dim(dim, self.ndim)
        return self[(slice(None),) * d + (operator.index(index),)]

    def diag(self, diagonal=0):
        """PyTorch's Tensor.diag: NumPy's diag (a vector's matrix, a matrix's diagonal)."""
        return _dt().diag(self, diagonal)

    def fill_diagonal_(self, fill_value, wrap=False):
        """fill_value on the main diagonal, in place (NumPy's fill_diagonal)."""
        _dt().fill_diagonal(self, fill_value, wrap=wrap)
        return self

    def exponential_(self, lambd=1.0, *, generator=None):
        """Fill with Exp(lambd) draws, in place."""
        from . import random
        src = generator if generator is not None else random
        self[...] = src.exponential(1.0 / lambd, self.shape, device=self.device)
        return self

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (probability p, a number or a tensor) or 0, in place."""
        from ._torch_names import bernoulli
        self[...] = bernoulli(self, p=p, generator=generator)
        return self

    def random_(self, *bounds, generator=None, **named):
        """Fill with integers drawn uniformly from [from, to), in place:
        random_(to), random_(from, to), or random_() over [0, 2^mantissa]
        for floats and [0, max] for integers (PyTorch's Tensor.random_)."""
        from ._torch_names import _source
        if "from" in named:
            bounds = (named.pop("from"),) + bounds
        if "to" in named:
            bounds = bounds + (named.pop("to"),)
        if named or len(bounds) > 2:
            raise TypeError("random_() takes from and to, at most")
        low, high = (0, bounds[0]) if len(bounds) == 1 else bounds if len(bounds) == 2 else (0, None)
        if high is None:  # up to 2^mantissa for floats, the largest value for integers
            if self.dtype.is_floating_point:
                high = 2 ** (_dt().finfo(self.dtype).nmant + 1) + 1
            else:
                high = 2 if self.dtype == _C.bool else int(_dt().iinfo(self.dtype).max) + 1
        if not low < high:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
        if self.dtype.is_floating_point:
            info = _dt().finfo(self.dtype)
            if low < float(info.min) or high - 1 > float(info.max):
                raise RuntimeError(f"random_: [{low}, {high}) is out of bounds for {self.dtype}")
        kind = self.dtype if not (self.dtype.is_floating_point or self.dtype.is_complex) else _C.int64
        if generator is None:
            self[...] = _dt().random.randint(low, high, self.shape, dtype=kind, device=self.device)
        else:
            self[...] = _source(generator).integers(low, high, self.shape, dtype=kind, device=self.device)
        return self

    def apply_(self, callable):
        """callable applied to each element, in place (on CPU tensors only, as PyTorch's)."""
        if self.device.type != "cpu":
            raise TypeError("apply_ is only implemented on CPU tensors")
        values = [callable(v) for v in self.reshape(-1).tolist()]
        self[...] = _dt().asarray(values, dtype=self.dtype).reshape(self.shape)
        return self

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return _dt().nan_to_num(self, nan=nan, posinf=posinf, neginf=neginf)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        self[...] = _dt().nan_to_num(self, nan=nan, posinf=posinf, neginf=neginf)
        return self

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        """PyTorch's Tensor.diff: the n-th differences along dim."""
        return _dt().diff(self, n, dim=dim, prepend=prepend, append=append)

    def outer(self, vec2):
        return _dt().outer(self, vec2)

    def cross(self, other, dim=None):
        """The cross product along dim (without dim, the first dimension of
        size 3, as PyTorch's Tensor.cross)."""
        if dim is None:
            sizes = _dt().broadcast_shapes(self.shape, getattr(other, "shape", ()))
            dim = next((d for d, n in enumerate(sizes) if n == 3), None)
            if dim is None:
                raise RuntimeError(f"no dimension of size 3 in input: {list(sizes)}")
        return _dt().cross(self, other, dim=dim)

    def renorm(self, p, dim, maxnorm):
        """Each slice along dim whose p-norm exceeds maxnorm scaled down to it."""
        dt = _dt()
        if not (self.dtype.is_floating_point or self.dtype.is_complex):
            raise RuntimeError(f"renorm: input needs to be floating point or complex, got {self.dtype}")
        if not p > 0:
            raise RuntimeError(f"renorm: non-positive norm not supported, got p={p}")
        if maxnorm < 0:
            raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
        dim = _dim(dim, self.ndim)
        axes = tuple(d for d in range(self.ndim) if d != dim)
        norms = dt.linalg.vector_norm(self, ord=p, axis=axes, keepdims=True)
        return self * dt.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0).astype(self.dtype, copy=False)

    def renorm_(self, p, dim, maxnorm):
        self[...] = self.renorm(p, dim, maxnorm)
        return self

    def index_put_(self, indices, values, accumulate=False):
        """self[indices] = values (indices a tuple of index tensors); with
        accumulate, every repeat of a position adds (PyTorch's index_put_)."""
        dt = _dt()
        key = tuple(dt.asarray(i, device=self.device) if isinstance(i, _C.TensorBase) else i for i in indices)
        if isinstance(values, _C.TensorBase):
            if values.ndim == 0:
                values = values.to(self.device)  # a 0-d value goes with any device, as in operators
            _same_device(self, values)  # the indices may be on the CPU, as for t[idx]
        if accumulate:
            dt.add.at(self, key, values)
        else:
            self[key] = values
        return self

    def index_put(self, indices, values, accumulate=False):
        return self.clone().index_put_(indices, values, accumulate)

    def put_(self, index, source, accumulate=False):
        """source's values at the flat (row-major) positions index of self, in
        place; with accumulate, repeats add (PyTorch's Tensor.put_)."""
        dt = _dt()
        for t in (index, source):
            if isinstance(t, _C.TensorBase):
                _same_device(self, t)
        index = dt.asarray(index, device=self.device).reshape(-1)
        index = dt.where(index < 0, index + self.size, index)  # negative positions count from the end
        if index.size and (bool((index < 0).any()) or bool((index >= self.size).any())):
            raise IndexError(f"put_(): index out of range for a tensor of {self.size} elements")
        where = dt.unravel_index(index, self.shape)
        flat = (source if hasattr(source, "reshape") else dt.asarray(source)).reshape(-1)
        if accumulate:
            dt.add.at(self, where, flat)
        else:
            self[where] = flat
        return self

    def repeat_interleave(self, repeats, dim=None):
        """Each element (or slice along dim) repeated: NumPy's repeat."""
        return _dt().repeat(self, repeats, dim)

    def softmax(self, dim, dtype=None):
        return _functional().softmax(self, dim, dtype)

    def log_softmax(self, dim, dtype=None):
        return _functional().log_softmax(self, dim, dtype)

    def relu(self):
        return _functional().relu(self)

    def sigmoid(self):
        return _functional().sigmoid(self)

    def rsqrt(self):
        """1 / sqrt(self) (PyTorch's rsqrt)."""
        return _dt().reciprocal(_dt().sqrt(self))

    def frac(self):
        """The fractional part, self - trunc(self), with self's sign (PyTorch's frac)."""
        return self - _dt().trunc(self)

    def pow(self, exponent):
        return _dt().power(self, exponent)

    def where(self, condition, other):
        """self where condition holds, else other (PyTorch's Tensor.where)."""
        return _dt().where(condition, self, other)

    def clamp_min(self, min):
        return _dt().clip(self, min, None)

    def clamp_max(self, max):
        return _dt().clip(self, None, max)

    def lerp(self, end, weight):
        """self + weight * (end - self), PyTorch's lerp (computed from end
        when |weight| >= 0.5, as PyTorch's, so weight 1 gives end exactly)."""
        dt = _dt()
        diff = dt.subtract(end, self)
        small = dt.less(dt.absolute(weight), 0.5)
        return dt.where(small, self + weight * diff, end - diff * (1 - weight))

    def addcmul(self, tensor1, tensor2, *, value=1):
        """self + value * tensor1 * tensor2 (PyTorch's addcmul)."""
        return self + value * tensor1 * tensor2

    def addcdiv(self, tensor1, tensor2, *, value=1):
        """self + value * tensor1 / tensor2 (PyTorch's addcdiv)."""
        return self + value * (tensor1 / tensor2)

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _dt().isclose(self, other, rtol, atol, equal_nan)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _dt().allclose(self, other, rtol, atol, equal_nan)

    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return _dt().nansum(self, _all_dims(dim), dtype, keepdims=keepdim)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        return _dt().nanmean(self, _all_dims(dim), dtype, keepdims=keepdim)

    def logsumexp(self, dim, keepdim=False):
        """log(sum(exp(self))) along dim, computed with the maximum subtracted
        (PyTorch's logsumexp; integers give float32, as PyTorch's)."""
        return _logsumexp(self, dim, keepdim)

    def tile(self, *dims):
        """tile(2, 3) or tile((2, 3)): NumPy's tile, PyTorch's forms."""
        return _dt().tile(self, _size_args(dims))

    def unflatten(self, dim, sizes):
        """dim split into sizes (one may be -1), PyTorch's unflatten."""
        shape, d = self.shape, _dim(dim, self.ndim)
        return self.reshape(shape[:d] + tuple(sizes) + shape[d + 1:])

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with values drawn from N(mean, std^2) (nn.init.normal_)."""
        from .nn import init
        return init.normal_(self, mean, std, generator=generator)

    def uniform_(self, *args, **kwargs):
        """uniform_(from=0, to=1, *, generator=None): fill with values drawn
        uniformly from [from, to) (nn.init.uniform_); from is a keyword
        only through **{'from': ...}, as in PyTorch."""
        if len(args) > 2:
            raise TypeError(f"uniform_() takes at most 2 positional arguments ({len(args)} given)")
        bounds = dict(zip(("from", "to"), args))
        generator = kwargs.pop("generator", None)
        for key, value in kwargs.items():
            if key not in ("from", "to") or key in bounds:
                raise TypeError(f"uniform_() got an unexpected keyword argument '{key}'")
            bounds[key] = value
        from .nn import init
        return init.uniform_(self, bounds.get("from", 0.0), bounds.get("to", 1.0), generator=generator)


def _logsumexp(x, dim, keepdim):
    dt = _dt()
    if not (x.dtype.is_floating_point or x.dtype.is_complex):
        x = x.astype(_C.float32)
    axis = _all_dims(dim)
    m = dt.amax(x, axis=axis, keepdims=True) if x.size else dt.zeros((1,) * x.ndim, dtype=x.dtype, device=x.device)
    m = dt.where(dt.isfinite(m), m, 0)  # rows of -inf (or +inf, NaN) keep their value
    r = dt.log(dt.sum(dt.exp(x - m), axis=axis, keepdims=True)) + m
    return r if keepdim else dt.squeeze(r, axis=axis if axis is not None else tuple(range(x.ndim)))


def _method(name, ufunc):
    """The method t.<name>(): ufunc(t), PyTorch's method form of NumPy's function."""
    found = []  # the ufunc, looked up on the first call (devtensor imports this module)

    def apply(self):
        if not found:
            found.append(getattr(_dt(), ufunc))
        return found[0](self)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"{ufunc}(self) (PyTorch's Tensor.{name}())"
    return apply


def _binary_method(name, ufunc):
    """The method t.<name>(other): ufunc(t, other)."""
    found = []

    def apply(self, other):
        if not found:
            found.append(getattr(_dt(), ufunc))
        return found[0](self, other)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"{ufunc}(self, other) (PyTorch's Tensor.{name}(other))"
    return apply


def _warn_if_element_copy(self, name):
    """PyTorch's in-place methods on t[i, j], a copy of one element (Note [An
    element is a copy] in csrc/python/index.c): the change cannot reach t."""
    if self._element_copy:
        import warnings
        warnings.warn(f"{name}() on t[i, j], which is a copy of one element in devtensor (as NumPy's "
                      f"scalar is; PyTorch's is a view): the change does not reach t. Write "
                      f"t[i, j] = value, or use the view t[i, j, ...]", UserWarning, stacklevel=3)


def _in_place(name, ufunc):
    """The method t.<name>(): ufunc(t) written into t, which it returns."""
    def apply(self):
        _warn_if_element_copy(self, name)
        getattr(_dt(), ufunc)(self, out=self)
        return self
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"{ufunc}(self) in place (PyTorch's Tensor.{name}()); returns self"
    return apply


for _name, _ufunc in (("abs", "absolute"), ("neg", "negative"), ("negative", "negative"), ("exp", "exp"),
                      ("exp2", "exp2"), ("expm1", "expm1"), ("log", "log"), ("log2", "log2"), ("log10", "log10"),
                      ("log1p", "log1p"), ("sqrt", "sqrt"), ("square", "square"), ("reciprocal", "reciprocal"),
                      ("sign", "sign"), ("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"), ("sin", "sin"),
                      ("cos", "cos"), ("tan", "tan"), ("tanh", "tanh"), ("sinh", "sinh"), ("cosh", "cosh"),
                      ("asin", "arcsin"), ("acos", "arccos"), ("atan", "arctan"), ("isnan", "isnan"),
                      ("isinf", "isinf"), ("isfinite", "isfinite"), ("logical_not", "logical_not")):
    setattr(_TorchMethods, _name, _method(_name, _ufunc))
for _name, _ufunc in (("maximum", "maximum"), ("minimum", "minimum"), ("fmod", "fmod"),
                      ("remainder", "remainder"), ("atan2", "arctan2"), ("hypot", "hypot"),
                      ("logical_and", "logical_and"), ("logical_or", "logical_or"),
                      ("logical_xor", "logical_xor"), ("bitwise_and", "bitwise_and"),
                      ("bitwise_or", "bitwise_or"), ("bitwise_xor", "bitwise_xor")):
    setattr(_TorchMethods, _name, _binary_method(_name, _ufunc))
for _name, _ufunc in (("abs_", "absolute"), ("neg_", "negative"), ("exp_", "exp"), ("log_", "log"),
                      ("sqrt_", "sqrt"), ("floor_", "floor"), ("ceil_", "ceil"), ("trunc_", "trunc"),
                      ("reciprocal_", "reciprocal"), ("square_", "square"), ("sign_", "sign"), ("sin_", "sin"),
                      ("cos_", "cos"), ("tanh_", "tanh")):
    setattr(_TorchMethods, _name, _in_place(_name, _ufunc))
del _name, _ufunc



def _in_place_of(name, method):
    """The method t.<name>(*args): t.<method>(*args) written into t, which
    it returns (PyTorch's in-place form; a result t's dtype cannot hold
    under same_kind casting is refused, as PyTorch refuses it)."""
    def apply(self, *args, **kwargs):
        _warn_if_element_copy(self, name)
        _dt().copyto(self, getattr(self, method)(*args, **kwargs), casting="same_kind")
        return self
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"self.{method}(...) written into self (PyTorch's Tensor.{name}); returns self"
    return apply


for _name in ("tril", "triu", "relu", "sigmoid", "clip", "round", "fmod", "remainder", "tan", "atan", "asin",
              "acos", "sinh", "cosh", "log2", "log10", "log1p", "expm1", "exp2", "rsqrt", "frac", "logit",
              "nan_to_num", "lerp", "addcmul", "addcdiv", "xlogy", "clamp_min", "clamp_max", "logical_not",
              "bitwise_and", "bitwise_or", "bitwise_xor", "hypot", "atan2"):
    if not hasattr(_TorchMethods, _name + "_"):
        setattr(_TorchMethods, _name + "_", _in_place_of(_name + "_", _name))
del _name


def _function_method(name, call):
    """The method t.<name>(...): the devtensor function of PyTorch's name on t."""
    def apply(self, *args, **kwargs):
        return call(_dt(), self, *args, **kwargs)
    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"PyTorch's Tensor.{name}: devtensor.{name}(self, ...)"
    return apply


_TorchMethods.count_nonzero = _function_method("count_nonzero", lambda dt, t, dim=None: dt.count_nonzero(t, dim=dim))
_TorchMethods.rot90 = _function_method("rot90", lambda dt, t, k=1, dims=(0, 1): dt.rot90(t, k, dims=dims))
_TorchMethods.take_along_dim = _function_method("take_along_dim", lambda dt, t, indices, dim=None:
                                                dt.take_along_dim(t, indices, dim))
_TorchMethods.argwhere = _function_method("argwhere", lambda dt, t: dt.argwhere(t))
_TorchMethods.erfinv = _function_method("erfinv", lambda dt, t: dt.erfinv(t))
_TorchMethods.erfinv_ = _in_place_of("erfinv_", "erfinv")
_TorchMethods.bincount = _function_method("bincount", lambda dt, t, weights=None, minlength=0:
                                          dt.bincount(t, weights, minlength))

# the casts: float(), double(), half(), bfloat16(), long(), int(), ... (PackedSequence's too)
CASTS = (("float", _C.float32), ("double", _C.float64), ("half", _C.float16), ("bfloat16", _C.bfloat16),
         ("long", _C.int64), ("int", _C.int32), ("short", _C.int16), ("char", _C.int8), ("byte", _C.uint8),
         ("bool", _C.bool))
for _name, _dtype in CASTS:
    setattr(_TorchMethods, _name, _cast(_name, _dtype))
del _name, _dtype
