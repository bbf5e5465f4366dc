"""NumPy's functions of the bits of numbers: ldexp, frexp and spacing (a
float's exponent and ulp), packbits and unpackbits, with
NumPy's dtypes, values and errors, on every device.

ldexp is a core op (exact: C's ldexp in each backend); the others are
built from devtensor's ufuncs, reductions and views, so they run on the
device of their operand.  NumPy's ufuncs applied to tensors reach them
(_FUNCTION_UFUNCS in _numpy_dispatch.py).

Note [ldexp's integer operand]
NumPy's ldexp takes a float and an integer (loops 'fi->f', 'dl->d', ...;
a float or uint64 power is a TypeError).  The core op takes both operands
in the loop's float dtype, so the power is clamped first to a bound that
dtype holds exactly (512 for float32, 4096 for float64: past the span of
the dtype's exponents every result is already 0 or inf, with the sign of
x1).  float16 and bfloat16 compute in float32 and round once at the end:
the float32 product is exact wherever the 16-bit result is not 0 or inf.

Note [NumPy's spacing]
spacing(x) is the distance from x to the next float away from zero, with
x's sign: nextafter(x, copysign(inf, x)) - x; +-0 give the smallest
positive subnormal, inf and NaN give NaN.  NumPy's float16 loop differs
(npy_half_spacing steps towards +inf whatever the sign: spacing(-1) is
+2**-11); devtensor follows it for float16, and uses the rule above for
bfloat16, which NumPy lacks.
"""
import operator

import numpy as np

from . import _C
from ._operands import numpy_call, numpy_views, operands_device
from ._C import TensorBase
from ._ufuncs import _NO_LOOP, FunctionUfunc, float_operand as _float_operand, into_outputs, two_outputs

_ufunc = _C._ufunc
_OPS = _C.OPS


def _dt():
    import devtensor
    return devtensor


def _into(result, out):
    if out is None:
        return result
    return _ufunc(_OPS["positive"], result, out=out)


# ---- ldexp ----

def _power_operand(n, device):
    """ldexp's integer operand as an int64 tensor; NumPy's TypeError for a
    float, complex or uint64 power, its OverflowError for a Python int
    outside int32 (its loops take a C int from Python ints)."""
    dt = _dt()
    if isinstance(n, TensorBase):
        if n.dtype.kind not in "biu" or n.dtype == dt.uint64:
            raise TypeError(_NO_LOOP.format("ldexp"))
        return n.astype(dt.int64)
    if isinstance(n, int):
        v = int(n)
        if not -2 ** 31 <= v < 2 ** 31:
            raise OverflowError(f"Python integer {v} out of bounds for int32")
        return dt.asarray(v, dtype=dt.int64, device=device)
    n = dt.asarray(n, device=device)
    return _power_operand(n, device)


def ldexp(x1, x2, /, out=None):
    """x1 * 2**x2, exactly (rounded once): NumPy's ldexp, a float x1 (integers
    become NumPy's float dtype for them) and an integer x2 (Note [ldexp's
    integer operand])."""
    views = numpy_views(x1, x2) if out is None else None
    if views is not None:  # Note [NumPy's loops for CPU tensors]
        return numpy_call(np.ldexp, views)
    dt = _dt()
    device = operands_device(x1, x2)
    if not isinstance(x1, TensorBase):
        x1 = dt.asarray(x1, device=device)
    x = _float_operand(x1, "ldexp")
    n = _power_operand(x2, x.device)
    loop = dt.float64 if x.dtype == dt.float64 else dt.float32
    bound = 4096 if loop == dt.float64 else 512
    n = dt.clip(n, -bound, bound).astype(loop)
    r = _ufunc(_OPS["ldexp"], x.astype(loop, copy=False), n)
    return _into(r if r.dtype == x.dtype else r.astype(x.dtype), out)


# ---- frexp ----

def frexp(x, /, out=(None, None)):
    """(mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa|
    < 1 (NumPy's frexp: the mantissa in x's float dtype, the exponent int32;
    0, inf and NaN give themselves and exponent 0)."""
    out = two_outputs((x,), out)
    views = numpy_views(x) if out[0] is None and out[1] is None else None
    if views is not None:  # Note [NumPy's loops for CPU tensors]
        # frexp raises no floating-point flag (inf, NaN and subnormals
        # included), so NumPy's errstate, 2 us a call, is not needed
        return numpy_call(np.frexp, views, floats=False)
    dt = _dt()
    x = _float_operand(x, "frexp")
    ordinary = dt.isfinite(x) & (x != 0)
    # an exponent one too large or too small where log2 rounds across an
    # integer; the exact ldexp below shows which, and the step fixes it
    e = dt.where(ordinary, dt.floor(dt.log2(dt.abs(x))), 0).astype(dt.int32) + ordinary
    m = ldexp(x, -e)
    big = ordinary & (dt.abs(m) >= 1)
    small = ordinary & (dt.abs(m) < 0.5)
    e = e + big - small
    m = ldexp(x, -e)
    return into_outputs("frexp", (m, e), out)  # Note [Both outputs or neither] in _ufuncs.py


# ---- spacing ----

def spacing(x, /, out=None):
    """The distance from x to the adjacent float away from zero, with x's
    sign (Note [NumPy's spacing])."""
    views = numpy_views(x) if out is None else None
    if views is not None:  # Note [NumPy's loops for CPU tensors]
        return numpy_call(np.spacing, views)
    dt = _dt()
    x = _float_operand(x, "spacing")
    inf = dt.asarray(float("inf"), dtype=x.dtype, device=x.device)
    towards = inf if x.dtype == dt.float16 else dt.copysign(inf, x)
    r = dt.nextafter(x, towards) - x
    zero = dt.zeros((), dtype=x.dtype, device=x.device)
    r = dt.where(x == 0, dt.nextafter(zero, inf), r)
    r = dt.where(dt.isinf(x), float("nan"), r)
    return _into(r, out)


# ---- packbits, unpackbits ----

def _bit_axis(a, axis):
    """a with the packing axis last (flattened for axis=None), and a function
    that puts the result's last axis back."""
    dt = _dt()
    if axis is None or a.ndim == 0:  # NumPy's: a 0-d operand is 1-d along any axis
        return dt.reshape(a, (-1,)), lambda r: r
    from numpy.lib.array_utils import normalize_axis_index
    axis = normalize_axis_index(operator.index(axis), a.ndim)
    return dt.moveaxis(a, axis, -1), lambda r: dt.moveaxis(r, -1, axis)


def _weights(bitorder, device):
    dt = _dt()
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    w = [1 << k for k in range(8)]
    return dt.asarray(w[::-1] if bitorder == "big" else w, dtype=dt.uint8, device=device)


def packbits(a, /, axis=None, bitorder="big"):
    """Each run of 8 elements of a (true or non-zero: 1) along axis as the
    bits of a uint8, the first element the highest bit ('big') or the lowest
    ('little'); the last run padded with zeros (NumPy's packbits)."""
    views = numpy_views(a)
    if views is not None:  # Note [NumPy's loops for CPU tensors]
        return numpy_call(np.packbits, views, floats=False, axis=axis, bitorder=bitorder)
    dt = _dt()
    a = a if isinstance(a, TensorBase) else dt.asarray(a)
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    a, back = _bit_axis(a, axis)
    n = a.shape[-1]
    if n % 8 == 0:  # no padding: a != 0 gives bytes of 0 and 1 (a bool's may be any: Note [Bool bytes])
        padded = (a != 0).view(dt.uint8)
    else:
        padded = dt.zeros(a.shape[:-1] + (-(-n // 8) * 8,), dtype=dt.uint8, device=a.device)
        padded[..., :n] = a != 0
    # Note [Eight bits by one product]: a run's 8 bytes, each 0 or 1, read as
    # one little-endian uint64 v (x86's and GPUs' byte order), times
    # 0x8040201008040201 puts bit (7 - i) of byte i in the product's top
    # byte (times 0x0102040810204080: bit i), with no carries between them
    runs = padded.copy() if not padded.is_contiguous() else padded
    v = runs.view(dt.uint64)
    factor = 0x8040201008040201 if bitorder == "big" else 0x0102040810204080
    return back(((v * factor) >> 56).astype(dt.uint8))


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 tensor as uint8 0s and 1s, 8 per element along
    axis (flattened for axis=None), highest first ('big') or lowest first
    ('little'); count keeps that many (negative: drops that many from the
    end; more than there are: pads with zeros), NumPy's unpackbits."""
    views = numpy_views(a)
    if views is not None:  # Note [NumPy's loops for CPU tensors]
        return numpy_call(np.unpackbits, views, floats=False, axis=axis, count=count, bitorder=bitorder)
    dt = _dt()
    a = a if isinstance(a, TensorBase) else dt.asarray(a)
    if a.dtype != dt.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    weights = _weights(bitorder, a.device)
    a, back = _bit_axis(a, axis)
    bits = dt.reshape((a[..., None] & weights) != 0, a.shape[:-1] + (8 * a.shape[-1],))
    bits = bits.astype(dt.uint8)
    if count is not None:
        count = operator.index(count)
        n = bits.shape[-1]
        keep = count if count >= 0 else n + count
        if keep < 0:
            raise ValueError("-count larger than number of elements")
        if keep <= n:
            bits = bits[..., :keep]
        else:
            more = dt.zeros(bits.shape[:-1] + (keep - n,), dtype=dt.uint8, device=bits.device)
            bits = dt.concatenate([bits, more], axis=-1)
    return back(bits)


# NumPy's ufunc attributes for the four above
ldexp = FunctionUfunc(ldexp, 2, 1)
frexp = FunctionUfunc(frexp, 1, 2)
spacing = FunctionUfunc(spacing, 1, 1)

__all__ = ["ldexp", "frexp", "spacing", "packbits", "unpackbits"]
