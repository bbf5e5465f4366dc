"""Type promotion and dtype introspection: NumPy 2 semantics (NEP 50), array API names.

    result_type(*arrays_and_dtypes)  promote_types(a, b)  can_cast(from_, to, casting)
    finfo(dtype)  iinfo(dtype)  isdtype(dtype, kind)  issubdtype(arg1, arg2)

Pairwise promotion, weak-scalar promotion and the casting table live in the C core
(`_C._promote_types`, `_C._promote_weak`, `_C._can_cast`); this module handles the argument
forms (tensors, NumPy arrays, dtype-likes, Python scalars) and the multi-operand rules.

Note [Promoting more than two dtypes]
NumPy's promotion is not associative: promote_types(promote_types(int8, uint8), float16) is
float32, yet np.result_type(int8, uint8, float16) is float16. NumPy
(PyArray_PromoteDTypeSequence) lets the "most knowledgeable" DType, the one with the highest
type number, promote each operand on its own and then joins those results. `_RANK` follows
NumPy's type numbers (float16 comes last among the built-ins); bfloat16, a user type in NumPy's
world (ml_dtypes), ranks after every built-in.

Note [Weak Python scalars]
Under NEP 50 a Python bool/int/float/complex only contributes its kind. Only the highest kind
present matters, applied once to the promoted strong dtypes; with no strong operand the result
is NumPy's default dtype for that kind (bool, int64, float64, complex128).
"""
import functools

import numpy as np

from . import _C
from ._C import TensorBase, dtype as _dtype

__all__ = ["can_cast", "finfo", "iinfo", "isdtype", "issubdtype", "promote_types", "result_type"]

_RANK = {name: i for i, name in enumerate((
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float32", "float64", "complex64", "complex128", "float16", "bfloat16"))}

# Python scalar types in increasing kind order, and NumPy's default dtype for each kind.
_WEAK_KINDS = ((bool, "bool"), (int, "int"), (float, "float"), (complex, "complex"))
_WEAK_ORDER = [kind for _, kind in _WEAK_KINDS]
_WEAK_DEFAULTS = {"bool": "bool", "int": "int64", "float": "float64", "complex": "complex128"}
_WEAK_BY_TYPE = dict(_WEAK_KINDS)
_WEAK_BY_TYPE.update({_dtype: None, np.ndarray: None, np.dtype: None})

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")

_ISDTYPE_KINDS = {
    "bool": "b", "signed integer": "i", "unsigned integer": "u", "integral": "iu",
    "real floating": "f", "complex floating": "c", "numeric": "iufc",
}


def _call(dtype, *args):
    """dtype(x) (Note [Calling a dtype] in csrc/python/dtype_type.c): a tensor
    cast on its device, sequences and NumPy arrays as tensors, else NumPy's
    scalar of the type (with NumPy's errors)."""
    if len(args) == 1 and isinstance(args[0], _C.TensorBase):
        return args[0].astype(dtype)
    if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)):
        from ._creation import asarray
        return asarray(args[0], dtype=dtype)
    if dtype == _C.bfloat16:
        raise TypeError("devtensor.bfloat16(x) takes a tensor (NumPy has no bfloat16 scalar); "
                        "use devtensor.asarray(x, dtype=devtensor.bfloat16)")
    return dtype.numpy_dtype.type(*args)


def _weak_kind(x):
    """The NEP 50 kind of a Python scalar ('bool', 'int', ...), or None for anything else."""
    kind = _WEAK_BY_TYPE.get(type(x), False)
    if kind is not False:  # the common types, without the isinstance walk below
        return kind
    if isinstance(x, (TensorBase, np.generic)):  # np.float64 subclasses float but is strong
        return None
    for pytype, kind in _WEAK_KINDS:
        if isinstance(x, pytype):
            return kind
    return None


def _as_dtype(x):
    """A devtensor dtype from a dtype-like, or from an object carrying one (tensor, array)."""
    if isinstance(x, _dtype):
        return x
    if isinstance(x, TensorBase):
        return x.dtype
    if isinstance(x, (np.ndarray, np.generic)):
        return _dtype(x.dtype)
    return _dtype(x)


def _promote_strong(dtypes):
    """Promote several dtypes the way np.result_type does: see Note [Promoting more than
    two dtypes]."""
    if len(dtypes) == 1:
        return dtypes[0]
    main = max(dtypes, key=lambda d: _RANK[d.name])
    return functools.reduce(_C._promote_types, [_C._promote_types(main, d) for d in dtypes])


def result_type(*arrays_and_dtypes):
    """The dtype NumPy 2 would give an operation on these tensors, arrays, dtypes and
    Python scalars (weak, NEP 50)."""
    if len(arrays_and_dtypes) == 2:  # the common call: two tensors or dtypes, or one and a number
        a, b = arrays_and_dtypes
        da = a if type(a) is _dtype else a.dtype if isinstance(a, TensorBase) else None
        db = b if type(b) is _dtype else b.dtype if isinstance(b, TensorBase) else None
        if da is not None:
            if db is not None:
                return _C._promote_types(da, db)
            kind = _WEAK_BY_TYPE.get(type(b))
            if kind is not None:
                return _C._promote_weak(da, kind)
        elif db is not None:
            kind = _WEAK_BY_TYPE.get(type(a))
            if kind is not None:
                return _C._promote_weak(db, kind)
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    strong, weak = [], []
    for x in arrays_and_dtypes:
        kind = _weak_kind(x)
        if kind is None:
            strong.append(_as_dtype(x))
        else:
            weak.append(kind)
    top_kind = max(weak, key=_WEAK_ORDER.index) if weak else None
    if not strong:
        return _dtype(_WEAK_DEFAULTS[top_kind])
    result = _promote_strong(strong)
    return _C._promote_weak(result, top_kind) if top_kind else result


def promote_types(type1, type2):
    """The smallest dtype both arguments cast to safely (np.promote_types)."""
    return _C._promote_types(_dtype(type1), _dtype(type2))


def can_cast(from_, to, casting="safe"):
    """Whether a cast from `from_` (a dtype or a tensor) to `to` is allowed under `casting`."""
    if _weak_kind(from_) is not None:
        raise TypeError(
            "can_cast() does not support Python ints, floats, and complex because the result "
            "used to depend on the value.\nThis change was part of adopting NEP 50, we may "
            "explicitly allow them again in the future.")
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', "
                         f"'unsafe' (got {casting!r})")
    return _C._can_cast(_as_dtype(from_), _dtype(to), casting)


def _info_dtype(x):
    """finfo/iinfo accept what NumPy's do, Python scalars included (finfo(1.0) is float64's)."""
    return _as_dtype(type(x) if _weak_kind(x) is not None else x)


class finfo:
    """Machine limits of a floating-point dtype (NumPy's attributes; complex dtypes give their
    real dtype's limits, with `dtype` the real dtype, as the array API asks)."""

    _cache = {}
    _FIELDS = ("bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal",
               "smallest_subnormal", "resolution", "precision", "iexp", "machep", "maxexp",
               "minexp", "negep", "nexp", "nmant")

    def __new__(cls, dtype):
        d = _info_dtype(dtype)
        if d not in cls._cache:
            cls._cache[d] = cls._build(d)
        return cls._cache[d]

    @classmethod
    def _build(cls, d):
        if d == _C.bfloat16:
            values = _bfloat16_finfo()
        elif d.kind in "fc":
            np_info = np.finfo(d.numpy_dtype)
            # Python numbers, as the array API asks (NumPy's are NumPy scalars)
            values = {f: getattr(np_info, f) for f in cls._FIELDS}
            values = {f: int(v) if isinstance(v, (int, np.integer)) else float(v)
                      for f, v in values.items()}
            values.update(dtype=_dtype(np_info.dtype), _repr=repr(np_info))
        else:
            np.finfo(d.numpy_dtype)  # NumPy's ValueError, in the installed NumPy's words
            raise ValueError(f"data type {d.numpy_dtype.type!r} not inexact")
        self = object.__new__(cls)
        self.__dict__.update(values)
        return self

    def __repr__(self):
        return self._repr


def _bfloat16_finfo():
    """bfloat16's limits: float32's exponent range with 7 explicit mantissa bits."""
    nmant = 7
    max_ = (2.0 - 2.0 ** -nmant) * 2.0 ** 127
    return dict(
        _repr=f"finfo(resolution=0.01, min={-max_:.5e}, max={max_:.5e}, dtype=bfloat16)",
        bits=16, eps=2.0 ** -nmant, epsneg=2.0 ** -(nmant + 1), max=max_, min=-max_,
        tiny=2.0 ** -126, smallest_normal=2.0 ** -126, smallest_subnormal=2.0 ** -(126 + nmant),
        resolution=0.01, precision=2, iexp=8, machep=-nmant, maxexp=128, minexp=-126,
        negep=-(nmant + 1), nexp=8, nmant=nmant, dtype=_C.bfloat16)


class iinfo:
    """Machine limits of an integer dtype (NumPy's attributes: bits, min, max, dtype, kind)."""

    def __init__(self, dtype):
        d = _info_dtype(dtype)
        if d.kind not in "iu":
            raise ValueError(f"Invalid integer data type {d.kind!r}.")
        self.dtype, self.kind, self.bits = d, d.kind, 8 * d.itemsize
        signed = d.kind == "i"
        self.min = -(1 << (self.bits - 1)) if signed else 0
        self.max = (1 << (self.bits - signed)) - 1

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


def _isdtype_dtype(x, what):
    """The dtype form of an isdtype argument: devtensor or NumPy dtypes and NumPy scalar
    types, as np.isdtype accepts (no strings, no arrays)."""
    if isinstance(x, (_dtype, np.dtype)) or (isinstance(x, type) and issubclass(x, np.generic)):
        return _dtype(x)
    if what == "dtype":
        raise TypeError("dtype argument must be a devtensor or NumPy dtype, "
                        f"but it is a {type(x)}.")
    raise TypeError("kind argument must be comprised of dtypes or strings only, "
                    f"but is a {type(x)}.")


def _isdtype_one(d, kind):
    """Whether dtype `d` is of one kind: a kind name or a dtype."""
    if isinstance(kind, str):
        if kind not in _ISDTYPE_KINDS:
            raise ValueError(f"kind argument is a string, but {kind!r} is not a known kind name.")
        return d.kind in _ISDTYPE_KINDS[kind]
    return d == _isdtype_dtype(kind, "kind")


def isdtype(dtype, kind):
    """Array API isdtype: whether `dtype` is of `kind` (a kind name, a dtype, or a tuple of
    those). Every kind is validated, as NumPy does, even after a match."""
    d = _isdtype_dtype(dtype, "dtype")
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return any([_isdtype_one(d, k) for k in kinds])


# the abstract scalar types bfloat16 belongs to, as float16 does
_BFLOAT16_BASES = (np.generic, np.number, np.inexact, np.floating)


def _is_bfloat16(x):
    return x is _C.bfloat16 or (type(x) is str and x == "bfloat16")


def issubdtype(arg1, arg2):
    """NumPy's issubdtype with devtensor's dtypes: bfloat16 (which NumPy
    lacks) is a floating type, a sub-dtype of itself and of no other dtype."""
    if _is_bfloat16(arg1) or _is_bfloat16(arg2):
        if _is_bfloat16(arg2):
            return _is_bfloat16(arg1)
        return arg2 in _BFLOAT16_BASES
    return np.issubdtype(arg1.type if type(arg1) is _dtype else arg1,
                         arg2.type if type(arg2) is _dtype else arg2)
