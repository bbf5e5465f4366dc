"""devtensor.emath: NumPy's np.emath (numpy.lib.scimath) on tensors: sqrt, log, log2, log10, logn, power,
arccos, arcsin and arctanh, whose results are complex where the real function leaves its domain
(emath.sqrt(-4) is 2j where sqrt(-4) is nan).  They run on the tensor's device with devtensor's own
ufuncs, and NumPy's np.emath.sqrt(t) comes here too (_NAMESPACES in _numpy_dispatch.py).

Note [Out of the real domain]
NumPy's rule, followed here dtype for dtype: a real input is made complex only when some element of it
is out of the real domain (x < 0 for sqrt, the logs and power's base; |x| > 1 for arccos, arcsin and
arctanh); otherwise the function is the real one.  So emath.sqrt of a float64 tensor is complex128 when
it holds a negative number and float64 when it does not, and the dtype of the result depends on the
data.  Deciding it takes one reduction on the tensor's device whose one bool is read to the host (an
explicit .item(): a device synchronisation, not an implicit transfer that transfer_guard governs).  No
read is made where the answer is known from the dtype (bool, unsigned integers for x < 0, complex) or
the tensor is empty.  The complex dtype is NumPy's choice: complex64 for int8, uint8, int16, uint16,
float32 (and bfloat16, which NumPy lacks, widened to float32 as devtensor.fft widens it), complex128
for the rest, float16 included.  power's exponent, when an integer one holds a negative number, becomes
float64 (NumPy's p * 1.0), so integers are never raised to negative integer powers.

Arguments that are not tensors (Python scalars, lists, NumPy arrays) become tensors on the device of
those that are, as NumPy makes them arrays: a 0-d int64 or float64 that takes part in type promotion,
so emath.power(float32 tensor, 2) is float64 as NumPy's is.
"""
from . import _ufuncs
from ._C import bfloat16, complex64, complex128, float32, float64, int8, int16, uint8, uint16
from ._operands import as_tensor, operands_device
from ._reductions import any as _any

_TO_COMPLEX64 = (int8, uint8, int16, uint16, float32, bfloat16, complex64)


def _tensors(*args):
    """args as tensors on the device of those that are (_operands.py)."""
    device = operands_device(*args)
    return [as_tensor(a, device) for a in args]


def _some(mask):
    """Whether any element of the bool tensor mask is True: one value read to the host."""
    return mask.size > 0 and _any(mask).item()


def _to_complex(x):
    return x.astype(complex64 if x.dtype in _TO_COMPLEX64 else complex128)


def _complex_if_negative(x):
    """x, complex if any element is below 0 (NumPy's _fix_real_lt_zero)."""
    if x.dtype.kind in "if" and _some(x < 0):
        return _to_complex(x)
    return x


def _float_if_negative(p):
    """p, float64 if it is of integers and any is below 0 (NumPy's _fix_int_lt_zero)."""
    if p.dtype.kind == "i" and _some(p < 0):
        return p.astype(float64)
    return p


def _complex_if_beyond_one(x):
    """x, complex if any element's absolute value is above 1 (NumPy's _fix_real_abs_gt_1)."""
    if x.dtype.kind in "iuf" and _some(_ufuncs.absolute(x) > 1):
        return _to_complex(x)
    return x


def sqrt(x):
    """The square root of x, complex where x < 0 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.sqrt(_complex_if_negative(x))


def log(x):
    """The natural logarithm of x, complex where x < 0 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.log(_complex_if_negative(x))


def log10(x):
    """The base-10 logarithm of x, complex where x < 0 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.log10(_complex_if_negative(x))


def log2(x):
    """The base-2 logarithm of x, complex where x < 0 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.log2(_complex_if_negative(x))


def logn(n, x):
    """The base-n logarithm of x, log(x) / log(n), complex where x < 0 or n < 0 (Note [Out of the real domain])."""
    x, n = _tensors(x, n)
    return _ufuncs.log(_complex_if_negative(x)) / _ufuncs.log(_complex_if_negative(n))


def power(x, p):
    """x to the power p, complex where x < 0; integer exponents below 0 are made float64 (Note [Out of the
    real domain])."""
    x, p = _tensors(x, p)
    return _ufuncs.power(_complex_if_negative(x), _float_if_negative(p))


def arccos(x):
    """The inverse cosine of x, complex where |x| > 1 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.arccos(_complex_if_beyond_one(x))


def arcsin(x):
    """The inverse sine of x, complex where |x| > 1 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.arcsin(_complex_if_beyond_one(x))


def arctanh(x):
    """The inverse hyperbolic tangent of x, complex where |x| > 1 (Note [Out of the real domain])."""
    x, = _tensors(x)
    return _ufuncs.arctanh(_complex_if_beyond_one(x))


__all__ = ["sqrt", "log", "log2", "logn", "log10", "power", "arccos", "arcsin", "arctanh"]
