"""Helpers shared by the test modules (imported after conftest sets the env)."""
import importlib.util
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import devtensor as dt


# Note [Stable test ids]
# pytest-xdist runs the suite only where every worker collected the same test
# ids; a parameter's repr that holds its address (object()) differs between
# processes, so ids=stable_repr leaves the address out.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def stable_repr(value):
    return _ADDRESS.sub("", repr(value))


def cuda_count():
    try:
        return dt.cuda.device_count() if dt.cuda.is_available() else 0
    except Exception:  # pragma: no cover - a broken cuda module is a test failure elsewhere
        return 0


def _is_emulated():
    """The real CUDA backend executed on the CPU (DEVTENSOR_EMULATE_CUDA)."""
    return cuda_count() > 0 and dt.cuda.is_emulated()


EMULATED = _is_emulated()
HAS_REAL_GPU = cuda_count() > 0 and not EMULATED
# devtensor._cuda_emu was built (a C++ compiler was found at install time)
HAS_EMULATION = importlib.util.find_spec("devtensor._cuda_emu") is not None
requires_emulation = pytest.mark.skipif(
    not HAS_EMULATION,
    reason="devtensor._cuda_emu was not built (no C++ compiler at install, or DEVTENSOR_NO_EMULATION=1)")


def no_cuda_reason():
    """Why a test that needs CUDA devices skips: none exist, and why not."""
    return f"needs CUDA devices (real or emulated): {dt.cuda.why_unavailable()}"


def _default_devices():
    env = os.environ.get("DEVTENSOR_TEST_DEVICES")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    return ["cpu"] + [f"cuda:{i}" for i in range(min(cuda_count(), 2))]


ALL_DEVICES = _default_devices()
CUDA_DEVICES = [d for d in ALL_DEVICES if d.startswith("cuda")]


def requires_devices(n):
    """Marker: skip unless at least n CUDA devices exist."""
    return pytest.mark.requires_devices(n)


requires_cuda = requires_devices(1)


def to_np(t):
    """Host NumPy copy of a tensor (on any device)."""
    return np.asarray(t.cpu().numpy()).copy()


def assert_same(t, expected, device=None, exact=True, rtol=1e-7, atol=0):
    """t is a dt.Tensor equal to the NumPy array `expected` (dtype, shape, values)."""
    expected = np.asarray(expected)
    assert isinstance(t, dt.Tensor), type(t)
    assert t.dtype == expected.dtype, (t.dtype, expected.dtype)
    assert t.shape == expected.shape, (t.shape, expected.shape)
    if device is not None:
        assert t.device == dt.device(device), (t.device, device)
    got = to_np(t)
    assert got.dtype == expected.dtype
    if exact:
        np.testing.assert_array_equal(got, expected, strict=True)
    else:
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)


def run_python(code, env_update=None, remove=("DEVTENSOR_EMULATE_CUDA",), timeout=120):
    """Run `code` in a fresh interpreter; returns CompletedProcess.  By default
    the child has no emulated devices; remove=() keeps this session's.  The
    retired DEVTENSOR_SIMULATE_CUDA* variables are never passed on (import
    warns about them, test_numpy_corners.py) unless env_update sets them."""
    env = dict(os.environ)
    for k in tuple(remove) + ("DEVTENSOR_SIMULATE_CUDA", "DEVTENSOR_SIMULATE_CUDA_MEMORY"):
        env.pop(k, None)
    env.update(env_update or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=timeout)


def sanity():
    """A normal operation still works (the interpreter is healthy)."""
    r = dt.ones(2, 3) + 1
    assert r.tolist() == [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]


NUMPY_DTYPE_NAMES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]
ALL_DTYPE_NAMES = NUMPY_DTYPE_NAMES[:10] + ["bfloat16"] + NUMPY_DTYPE_NAMES[10:]


# ---- hypothesis, optional: the GPU machine may not have it ----
try:
    from hypothesis import given, settings, strategies as st  # noqa: F401
    from hypothesis.extra import numpy as hnp  # noqa: F401
except ImportError:  # property tests skip; every other test still runs
    class _NoHypothesis:
        """Stands in for hypothesis' strategies when it is not installed."""

        def __getattr__(self, name):
            return self

        def __call__(self, *args, **kwargs):
            return self  # also as a decorator: st.composite functions become stubs

    st = hnp = _NoHypothesis()

    def settings(*args, **kwargs):
        return lambda f: f

    def given(*args, **kwargs):
        return lambda f: pytest.mark.skip(reason="hypothesis is not installed")(f)


def same_error(np_call, dt_call):
    """dt_call raises NumPy's exception type with NumPy's message."""
    with pytest.raises(Exception) as want:
        np_call()
    with pytest.raises(want.type) as got:
        dt_call()
    assert str(got.value) == str(want.value)
