"""devtensor.testing: NumPy's numpy.testing for tensors, what `import devtensor as np; np.testing` is.

Note [Test assertions on tensors]
NumPy's assert_equal, assert_almost_equal and friends single out ndarray (isinstance checks, then `if not
desired == actual:` for everything else), and a Tensor is not one: on tensors they raised "truth value
... ambiguous" or failed equal values (assert_equal(t.sum(), 3)).  Here every function that compares or
prints values (assert_equal, assert_allclose, ..., assert_, build_err_msg, print_assert_equal) first
turns the tensors among its arguments, inside lists, tuples and dicts too, into NumPy arrays, and then is
NumPy's own, with NumPy's messages.  Reading device data to the host is what an assertion is for, so it
is an explicit copy (t.cpu().numpy(), not an implicit transfer that transfer_guard governs); bfloat16,
which NumPy lacks, is compared as float32.  The functions that take a callable and its arguments
(assert_raises, assert_warns, assert_no_warnings, run_threaded, ...) pass the arguments on untouched, so
they are NumPy's as they are, as are the other names (suppress_warnings, TestCase, IS_PYPY, overrides).
"""
import functools

import numpy.testing as _numpy_testing

from ._C import bfloat16, float32
from ._numpy_dispatch import _walk

__all__ = list(_numpy_testing.__all__)


def _to_numpy(t):
    t = t.cpu()
    return (t.astype(float32) if t.dtype == bfloat16 else t).numpy()


def _on_the_host(fn):
    """NumPy's fn with the tensors in its arguments as NumPy arrays (Note [Test assertions on tensors])."""
    @functools.wraps(fn)
    def on_the_host(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the caller's line, as for NumPy's own
        return fn(*_walk(args, _to_numpy), **_walk(kwargs, _to_numpy))
    on_the_host.__module__ = __name__
    on_the_host.__doc__ = (f"NumPy's {fn.__name__}, given tensors as NumPy arrays (Note [Test assertions on "
                           f"tensors] in devtensor/testing.py).\n\n" + (fn.__doc__ or ""))
    return on_the_host


assert_ = _on_the_host(_numpy_testing.assert_)
assert_allclose = _on_the_host(_numpy_testing.assert_allclose)
assert_almost_equal = _on_the_host(_numpy_testing.assert_almost_equal)
assert_approx_equal = _on_the_host(_numpy_testing.assert_approx_equal)
assert_array_almost_equal = _on_the_host(_numpy_testing.assert_array_almost_equal)
assert_array_almost_equal_nulp = _on_the_host(_numpy_testing.assert_array_almost_equal_nulp)
assert_array_compare = _on_the_host(_numpy_testing.assert_array_compare)
assert_array_equal = _on_the_host(_numpy_testing.assert_array_equal)
assert_array_less = _on_the_host(_numpy_testing.assert_array_less)
assert_array_max_ulp = _on_the_host(_numpy_testing.assert_array_max_ulp)
assert_equal = _on_the_host(_numpy_testing.assert_equal)
assert_string_equal = _on_the_host(_numpy_testing.assert_string_equal)
build_err_msg = _on_the_host(_numpy_testing.build_err_msg)
print_assert_equal = _on_the_host(_numpy_testing.print_assert_equal)


def __getattr__(name):
    """numpy.testing's other names, as they are (assert_raises, suppress_warnings, TestCase, ...)."""
    if name.startswith("__"):  # not numpy.testing's __path__, __file__, ...: this is a module of its own
        raise AttributeError(f"module 'devtensor.testing' has no attribute {name!r}")
    try:
        return getattr(_numpy_testing, name)
    except AttributeError:
        raise AttributeError(f"module 'devtensor.testing' has no attribute {name!r}") from None


def __dir__():
    return sorted(set(globals()) | set(__all__))
