"""The array API namespace entry points: __array_namespace__,
__array_api_version__, __array_namespace_info__() and astype."""
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, to_np


def test_namespace_and_version(device):
    t = dt.ones(2, device=device)
    assert t.__array_namespace__() is dt
    for v in ("2021.12", "2023.12", "2025.12"):
        assert t.__array_namespace__(api_version=v) is dt
    with pytest.raises(ValueError, match="Unrecognized array API version: '2020.01'"):
        t.__array_namespace__(api_version="2020.01")
    assert dt.__array_api_version__ == "2025.12"


def test_namespace_info():
    info = dt.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True,
                                   "max dimensions": 64}
    assert info.default_device() == dt.device("cpu")
    with dt.device(ALL_DEVICES[-1]):
        assert info.default_device() == dt.device(ALL_DEVICES[-1])
    assert isinstance(info.devices(), tuple)
    assert [str(d) for d in info.devices()] == ["cpu"] + [
        f"cuda:{i}" for i in range(dt.cuda.device_count())]
    assert info.default_dtypes() == {"real floating": dt.float64, "complex floating":
                                     dt.complex128, "integral": dt.int64, "indexing": dt.int64}
    assert list(info.dtypes(kind="signed integer")) == ["int8", "int16", "int32", "int64"]
    assert list(info.dtypes(kind=("bool", "complex floating"))) == ["bool", "complex64",
                                                                    "complex128"]
    assert len(info.dtypes()) == 13 and "bfloat16" not in info.dtypes()
    with pytest.raises(ValueError, match="is not one of"):
        info.dtypes(device="cuda:9")
    for d in ALL_DEVICES:  # a device's name too, as every device= of devtensor takes it
        assert info.dtypes(device=d) == info.dtypes() and info.default_dtypes(device=str(d))["integral"] == dt.int64
    if len(ALL_DEVICES) > 1:
        assert info.dtypes(device="cuda") == info.dtypes()  # the current CUDA device
    for bad in ("gpu", 3.5, object()):
        with pytest.raises(ValueError, match="is not one of"):
            info.default_dtypes(device=bad)


def test_astype(device):
    t = dt.arange(3.0, device=device)
    i = dt.astype(t, dt.int32)
    assert i.dtype == dt.int32 and i.device == t.device and to_np(i).tolist() == [0, 1, 2]
    assert dt.astype(t, "float64", copy=False) is t
    c = dt.astype(t, dt.float64)
    assert c is not t and not c._same_storage(t)
    moved = dt.astype(t, dt.float32, device="cpu")
    assert moved.device == dt.device("cpu") and moved.dtype == dt.float32
    with pytest.raises(TypeError, match="expects a devtensor.Tensor"):
        dt.astype([1, 2], dt.int8)


def test_creation_shape_is_positional_or_keyword():
    import inspect
    for f in (dt.zeros, dt.ones, dt.empty):
        first = next(iter(inspect.signature(f).parameters.values()))
        assert first.name == "shape" and first.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert f(shape=(2, 3)).shape == f(2, 3).shape == f((2, 3)).shape == (2, 3)
    assert dt.ones(3, "float32").dtype == dt.float32  # NumPy's positional dtype still works
    with pytest.raises(TypeError):
        dt.zeros()


def test_finfo_fields_are_python_numbers():
    for d in (dt.float16, dt.float32, dt.float64, dt.complex64, dt.bfloat16):
        info = dt.finfo(d)
        for f in ("eps", "max", "min", "smallest_normal", "resolution", "tiny"):
            assert type(getattr(info, f)) is float, (d, f)
        assert type(info.bits) is int
    assert dt.finfo(dt.float32).eps == float(__import__("numpy").finfo("float32").eps)
