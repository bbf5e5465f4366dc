"""NumPy's ufuncs applied to tensors (the __array_ufunc__ protocol).

np.exp(t), np.add(t, a, out=t) and ndarray-with-tensor operators run
devtensor's own function on the tensor's device and return tensors.  Ufuncs
and methods devtensor lacks (np.add.reduce, np.gcd) return NotImplemented,
so NumPy raises TypeError rather than silently copying device data to the
host.
"""
from . import _C

_OPS = _C.OPS


def array_ufunc(ufunc, method, inputs, kwargs):
    if ufunc.__name__ == "matmul" and method == "__call__" and len(inputs) == 2:
        if set(kwargs) - {"out", "dtype", "casting", "order", "subok"}:
            return NotImplemented  # axes=, axis=: not yet
        from ._products import matmul
        return matmul(*inputs, **kwargs)
    op = _OPS.get(ufunc.__name__)
    if method != "__call__" or op is None or ufunc.nin != len(inputs):
        return NotImplemented
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        out = out[0]
    if kwargs.pop("where", True) is not True or kwargs.pop("subok", True) is not True:
        return NotImplemented
    kwargs.pop("order", None)
    if set(kwargs) - {"dtype", "casting"}:
        return NotImplemented
    return _C._ufunc(op, *inputs, out=out, **kwargs)
