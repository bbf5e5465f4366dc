"""NumPy's ufuncs and functions applied to tensors (the __array_ufunc__ and
__array_function__ protocols).

np.exp(t), np.add(t, a, out=t) and ndarray-with-tensor operators run
devtensor's own function on the tensor's device and return tensors.  Ufuncs
and methods devtensor lacks (np.add.reduce, np.gcd) return NotImplemented,
so NumPy raises TypeError rather than silently copying device data to the
host.
"""
import numpy as np

from . import _C
from ._creation import NotNumbers

_OPS = _C.OPS


# devtensor's functions of its ufuncs (_ufuncs.py, _bits.py)
_FUNCTION_UFUNCS = {"divmod", "modf", "float_power", "ldexp", "frexp", "spacing"}


# NumPy's gufuncs: devtensor's functions of the matrix product (_products.py)
# and the keywords they take
_GUFUNCS = {"matmul": {"out", "dtype", "casting", "order", "subok"},
            "matvec": {"out", "dtype", "casting", "order", "subok"},
            "vecmat": {"out", "dtype", "casting", "order", "subok"},
            "vecdot": {"out", "dtype", "casting", "order", "subok", "axis"}}


# Note [NumPy arrays as out=]
# `a += t` (a an ndarray, t a tensor) is np.add(a, t, out=(a,)), which NumPy
# hands to the tensor; Python then binds `a` to what comes back, so it must
# be the ndarray itself.  With every tensor involved on the CPU, the out
# arrays are seen as zero-copy tensors (an array devtensor cannot share
# memory with is refused), devtensor's ufunc writes through them, and the
# arrays themselves are returned, as NumPy returns its out=.  A tensor on a
# device cannot write into host memory in place: TypeError, saying so.
# NumPy's functions do the same with an array as out= (np.sum(t, out=a)) or
# as copyto's destination (np.copyto(a, t)); a ufunc whose inputs are
# arrays and numbers, with a tensor as out=, computes on zero-copy views of
# the arrays when out is on the CPU (np.add(a, 1, out=t)).
def _ndarray_outs(ufunc, method, inputs, kwargs):
    out = kwargs["out"]
    outs = out if isinstance(out, tuple) else (out,)
    elsewhere = [t.device for t in (*inputs, *outs) if isinstance(t, _C.TensorBase) and t.device.type != "cpu"]
    if elsewhere:
        raise TypeError(f"{ufunc.__name__}{'' if method == '__call__' else '.' + method}: out= is a NumPy "
                        f"array in host memory and an operand is on {elsewhere[0]}; pass a tensor on "
                        f"{elsewhere[0]} as out=, or move the operands with .cpu()")
    views = [_writable_view(o, ufunc.__name__) if type(o) is np.ndarray else o for o in outs]
    r = array_ufunc(ufunc, method, inputs, dict(kwargs, out=tuple(views) if isinstance(out, tuple) else views[0]))
    if r is NotImplemented or len(outs) == 1:
        return r if r is NotImplemented else outs[0]
    return tuple(got if o is None else o for o, got in zip(outs, r))  # out=(q, None): a new second


def _direct_ufunc_ops():
    """NumPy's ufunc -> (devtensor's op, nin) for the ufuncs array_ufunc
    below sends straight to _C._ufunc when called with no keywords."""
    direct = {}
    for name, op in _OPS.items():
        f = getattr(np, name, None)
        if isinstance(f, np.ufunc) and name not in _FUNCTION_UFUNCS and name not in _GUFUNCS:
            direct[f] = (op, f.nin)
    direct[np.degrees], direct[np.radians] = (_OPS["rad2deg"], 1), (_OPS["deg2rad"], 1)
    return direct


# np.exp(t), np.add(t, 1.0): Tensor.__array_ufunc__ calls _C._ufunc itself
# for these when there are no keywords (1.66 -> 1.05 us; NumPy's override
# machinery alone takes 0.74), else array_ufunc
direct_ufunc_ops = _direct_ufunc_ops()
# np.maximum.accumulate(t) with no keywords: _C._scan_fast along axis 0
# (2.9 -> 0.9 us), or None for accumulate's own errors (a 0-d tensor)
direct_scan_ops = {np.add: _C.REDUCE_OPS.index("sum"), np.multiply: _C.REDUCE_OPS.index("prod"),
                   np.minimum: _C.REDUCE_OPS.index("min"), np.maximum: _C.REDUCE_OPS.index("max")}


def array_ufunc(ufunc, method, inputs, kwargs):
    out = kwargs.get("out")
    if out is not None and any(type(o) is np.ndarray for o in (out if isinstance(out, tuple) else (out,))):
        return _ndarray_outs(ufunc, method, inputs, kwargs)  # Note [NumPy arrays as out=]
    if out is not None and not any(isinstance(i, _C.TensorBase) for i in inputs):  # np.add(a, 1, out=t)
        target = next(o for o in (out if isinstance(out, tuple) else (out,)) if isinstance(o, _C.TensorBase))
        if target.device.type != "cpu" and any(type(i) is np.ndarray for i in inputs):
            raise TypeError(f"{ufunc.__name__}: a NumPy array input is in host memory and out= is on "
                            f"{target.device}; move it there first (devtensor.asarray(a, device=...))")
        # arrays (zero-copy on the CPU) and lists as tensors on out's device; numbers stay numbers
        inputs = tuple(_C.asarray(i, device=target.device) if isinstance(i, (np.ndarray, list, tuple)) else i
                       for i in inputs)
        if not any(isinstance(i, _C.TensorBase) for i in inputs):  # numbers only: the first one
            inputs = (_C.asarray(inputs[0], device=target.device),) + inputs[1:]
    name = ufunc.__name__
    if name in _GUFUNCS and method == "__call__" and len(inputs) == 2:
        if set(kwargs) - _GUFUNCS[name]:
            return NotImplemented  # axes=: not yet
        from . import _products
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            kwargs = dict(kwargs, out=out[0])
        return getattr(_products, name)(*inputs, **kwargs)
    if name in _FUNCTION_UFUNCS and (method in ("__call__", "outer") and not set(kwargs) - {"out"} or
                                     method in ("reduce", "accumulate", "reduceat", "at")):
        import devtensor
        out = kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            kwargs = dict(kwargs, out=out[0])
        ours = getattr(devtensor, name)
        return ours(*inputs, **kwargs) if method == "__call__" else getattr(ours, method)(*inputs, **kwargs)
    op = _OPS.get(name)
    if op is None and name in ("degrees", "radians"):  # NumPy's aliases, ufuncs of their own
        name = {"degrees": "rad2deg", "radians": "deg2rad"}[name]
        op = _OPS[name]
    if method != "__call__" and op is not None:  # Note [ufunc methods] in _ufunc_methods.py
        import devtensor
        ours = getattr(devtensor, name, None)
        if isinstance(ours, _C.ufunc) and hasattr(ours, method):
            return getattr(ours, method)(*inputs, **kwargs)
        return NotImplemented
    if op is None and name not in _FUNCTION_UFUNCS and name not in _GUFUNCS:
        return _other_ufunc(ufunc, method, inputs, kwargs)
    if op is None or ufunc.nin != len(inputs):
        return NotImplemented
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    if isinstance(out, tuple):
        if len(out) != 1:
            return NotImplemented
        out = out[0]
    order, subok = kwargs.pop("order", "K"), kwargs.pop("subok", True)
    if set(kwargs) - {"dtype", "casting", "where"}:
        return NotImplemented
    if kwargs.get("where", True) is not True or order != "K" or subok is not True:
        # devtensor's ufunc has where=, order= and subok=
        import devtensor
        return getattr(devtensor, name)(*inputs, out=out, order=order, subok=subok, **kwargs)
    return _C._ufunc(op, *inputs, out=out, **kwargs)


# Note [Other ufuncs on tensors]
# A ufunc devtensor has no kernel for (np.frompyfunc's, scipy.special's)
# runs as NumPy's functions that devtensor lacks do (Note [NumPy names
# devtensor lacks]): NumPy's own on zero-copy views when every tensor
# involved is on the CPU, arrays in the result back as tensors (an object
# array as NumPy made it), out= tensors written in place and returned; a
# tensor on a device raises TypeError naming the ufunc.
def _other_ufunc(ufunc, method, inputs, kwargs):
    from ._numpy_fallback import _host
    what = ufunc.__name__ if method == "__call__" else f"{ufunc.__name__}.{method}"
    refuse_device_tensors(f"ufunc {what}", inputs, kwargs)
    result = getattr(ufunc, method)(*_host(inputs), **_host(kwargs))
    out = kwargs.get("out")
    if out is None:
        return _as_tensors(result, "cpu")
    outs = out if isinstance(out, tuple) else (out,)
    results = result if isinstance(result, tuple) else (result,)
    kept = tuple(o if isinstance(o, _C.TensorBase) else _as_tensors(r, "cpu") for o, r in zip(outs, results))
    return kept if isinstance(result, tuple) else kept[0]


# ---- NumPy's functions applied to tensors (NEP 18, __array_function__) ----

# Note [NumPy functions on tensors]
# np.concatenate([t, t]), np.sum(t), np.linalg.norm(t): NumPy asks the
# tensor (Tensor.__array_function__) and devtensor runs its own function of
# the same name and module, so the result is a tensor on the operands'
# device.  The look-up is by the NumPy function's module (numpy,
# numpy.linalg, numpy.fft) and name, remembered per function object; once
# found, a call whose arrays are all exact tensors goes from
# Tensor.__array_function__ straight to it (np.sum(t): 0.97 -> 0.65 us, of
# which NumPy's dispatch takes 0.58).
# Functions devtensor lacks run NumPy's own implementation on zero-copy
# views when every tensor involved is on the CPU, and NumPy arrays in the
# result come back as tensors (zero-copy); a tensor on a device raises
# TypeError naming the function and how to move the data, rather than
# copying it to the host behind the caller's back.  A function devtensor
# has under NumPy's name but with another meaning would be left to NumPy
# (_NOT_NUMPYS; devtensor.save is NumPy's when called in NumPy's order,
# Note [NumPy's files] in _serialization.py, so np.save(f, t) writes .npy).
_NAMESPACES = {"numpy": "devtensor", "numpy.linalg": "devtensor.linalg",
               "numpy.fft": "devtensor.fft", "numpy.lib.stride_tricks": "devtensor._views",
               "numpy.lib.scimath": "devtensor.emath"}
_NOT_NUMPYS = frozenset()
_implementations = {}
direct_implementations = {}  # those called as they are: not like= creators (Tensor.__array_function__)


def _implementation_of(func):
    try:
        return _implementations[func]
    except KeyError:
        pass
    import sys
    impl = None
    target = _NAMESPACES.get(getattr(func, "__module__", None))
    name = getattr(func, "__name__", None)
    if target is not None and name not in _NOT_NUMPYS:
        # the module's own names only: not devtensor.__getattr__'s wrappers of NumPy's
        # (kept among the module's attributes once asked for)
        impl = vars(sys.modules[target]).get(name)
        if not callable(impl) or isinstance(impl, type) or hasattr(impl, "_numpy_fallback"):
            impl = None
    _implementations[func] = impl
    if impl is not None and not (func.__module__ == "numpy" and name in _LIKE_CREATORS):
        direct_implementations[func] = impl
    return impl


def _rebuild(seq, items):
    """A list, tuple or named tuple like seq holding items."""
    if isinstance(seq, list):
        return items
    return type(seq)(*items) if hasattr(seq, "_fields") else tuple(items)


def _walk(obj, fn):
    """obj with fn applied to every tensor inside lists, tuples and dicts."""
    if isinstance(obj, _C.TensorBase):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [_walk(o, fn) for o in obj])
    if isinstance(obj, dict):
        return {k: _walk(v, fn) for k, v in obj.items()}
    return obj


def _created_like(impl, args, kwargs, like):
    """A creation function called with like=: its result on like's device."""
    import inspect
    try:
        takes_device = "device" in inspect.signature(impl).parameters
    except (TypeError, ValueError):
        takes_device = False
    kwargs = {k: v for k, v in kwargs.items() if k != "device"}
    if takes_device:
        return impl(*args, device=like.device, **kwargs)
    result = impl(*args, **kwargs)
    return result.to(like.device) if isinstance(result, _C.TensorBase) else result


def _devices(obj, found):
    if isinstance(obj, _C.TensorBase):
        found.add(obj.device)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            _devices(o, found)
    elif isinstance(obj, dict):
        for o in obj.values():
            _devices(o, found)
    return found


def refuse_device_tensors(what, args, kwargs, alternative=""):
    """The devices of the tensors in args and kwargs, where NumPy's own
    `what` is to run on host views: TypeError when one is off the CPU
    (nothing is copied to the host behind the caller's back)."""
    devices = _devices(kwargs, _devices(args, set()))
    elsewhere = sorted(str(d) for d in devices if d.type != "cpu")
    if elsewhere:
        raise TypeError(f"devtensor has no {what} for tensors on {', '.join(elsewhere)}: move them to "
                        f"the host first (t.cpu(), or t.numpy(force=True)) to use NumPy's{alternative}")
    return devices


def _as_tensors(result, device="cpu"):
    """NumPy arrays in a fallback's result as tensors: zero-copy CPU tensors
    when NumPy ran on CPU tensors (device "cpu"), on the default device when
    no tensor went in (device None: np.loadtxt, np.r_[0:3] make data as the
    factories do)."""
    import numpy as np
    if isinstance(result, np.ndarray):
        from ._creation import asarray
        try:
            return asarray(result, device=device)
        except TypeError:  # a dtype devtensor does not have (object, str, datetime)
            return result
    if isinstance(result, (list, tuple)):
        return _rebuild(result, [_as_tensors(r, device) for r in result])
    return result


# Note [NumPy's like= on tensors]
# np.asarray(x, like=t), np.zeros(3, like=t), ... (NEP 35) reach
# t.__array_function__ with `like` removed from the arguments.  CuPy makes
# such arrays on its current device; devtensor makes them on t's device, so
# code (Dask's, among others) that creates arrays "like" a chunk keeps them
# where the chunk is.  Creation functions that take like= are recognised by
# name; t not being among their arguments says like= was used.
_LIKE_CREATORS = frozenset({
    "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "require", "zeros",
    "ones", "empty", "full", "arange", "identity", "eye", "tri", "frombuffer", "fromiter",
    "fromfunction", "fromstring", "fromfile", "loadtxt", "genfromtxt",
})


def _contains(obj, target):
    if obj is target:
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains(o, target) for o in obj)
    if isinstance(obj, dict):
        return any(_contains(o, target) for o in obj.values())
    return False


# Note [NumPy's answer for data that is not numbers]
# NumPy's functions take data devtensor has no dtype for: matplotlib's bar()
# calls np.broadcast_arrays(x, height, ..., None), whose None NumPy makes an
# object array.  When devtensor's implementation meets such data (its
# conversion raises NotNumbers) and every tensor is on the CPU, NumPy's own
# implementation runs on zero-copy views, as for the functions devtensor
# lacks, and arrays of dtypes devtensor lacks come back as NumPy's; with a
# device tensor the error stands (no host copy behind the caller's back).


def _host_memory_views(what, arrays, args, kwargs):
    """Zero-copy CPU tensors of the NumPy arrays that a NumPy function is to
    write into (out=, copyto's dst), after checking that every tensor is on
    the CPU (Note [NumPy arrays as out=])."""
    elsewhere = sorted(str(d) for d in _devices((args, kwargs), set()) if d.type != "cpu")
    if elsewhere:
        raise TypeError(f"{what}: the destination is a NumPy array in host memory and a tensor is on "
                        f"{elsewhere[0]}; pass a tensor on {elsewhere[0]}, or move the tensors with .cpu()")
    return [_writable_view(a, what) for a in arrays]


def _writable_view(a, what):
    """A zero-copy CPU tensor of the NumPy array a, which devtensor is to write."""
    try:
        return _C.asarray(a, copy=False)
    except ValueError:
        raise TypeError(f"{what}: devtensor cannot write into a NumPy array of dtype {a.dtype} in place") from None


def array_function(func, types, args, kwargs, like=None):
    import numpy as np
    for t in types:
        if not issubclass(t, (_C.TensorBase, np.ndarray)):
            return NotImplemented
    impl = _implementation_of(func)
    if impl is not None and type(kwargs.get("out")) is np.ndarray:  # np.sum(t, out=array)
        (view,) = _host_memory_views(f"{func.__name__}(out=)", [kwargs["out"]], args, kwargs)
        impl(*args, **dict(kwargs, out=view))
        return kwargs["out"]
    if impl is not None and func is np.copyto and args and type(args[0]) is np.ndarray:  # np.copyto(array, t)
        (view,) = _host_memory_views("copyto", [args[0]], args[1:], kwargs)
        return impl(view, *args[1:], **kwargs)
    if impl is not None:
        if (like is not None and func.__module__ == "numpy" and func.__name__ in _LIKE_CREATORS
                and kwargs.get("device") is None and not _contains((args, kwargs), like)):
            return _created_like(impl, args, kwargs, like)
        try:
            return impl(*args, **kwargs)
        except NotNumbers as e:
            return numpy_s_for_not_numbers(func, args, kwargs, e)
    return _numpy_s_on_host_views(func, args, kwargs)


def numpy_s_for_not_numbers(func, args, kwargs, e):
    """Note [NumPy's answer for data that is not numbers]: NumPy's own
    function after devtensor's met data that is not numbers (NotNumbers e)."""
    if any(d.type != "cpu" for d in _devices((args, kwargs), set())):
        raise NotNumbers(f"{e}; NumPy's own {func.__module__}.{func.__name__} takes such data, "
                         "but runs on host memory: pass the tensors' .cpu() copies "
                         "(matplotlib's bar() needs that too)") from None
    return _numpy_s_on_host_views(func, args, kwargs)


def _numpy_s_on_host_views(func, args, kwargs):
    refuse_device_tensors(f"{func.__module__}.{func.__name__}", args, kwargs, ", or use a devtensor function")
    host = _walk(args, lambda t: t._host_view()), _walk(kwargs, lambda t: t._host_view())
    return _as_tensors(func._implementation(*host[0], **host[1]))
