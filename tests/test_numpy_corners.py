"""Smaller differences from NumPy found by hostile input (issue 7): round's
decimals, arange's lengths and values, huge slice steps, __index__ objects,
too many dimensions, byte order, NUL in device strings, the environment,
out of memory with gc disabled, copying, pickling and formatting."""
import copy
import math
import pickle
import textwrap
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import NUMPY_DTYPE_NAMES, assert_same, requires_emulation, run_python, same_error, to_np

INF, NAN = math.inf, math.nan


# ---- round ----

def test_round_decimals_must_be_an_integer():
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        dt.round(dt.ones(2), 1.5)
    assert_same(dt.round(dt.tensor([1.25, 2.5]), np.int64(1)), np.round([1.25, 2.5], 1))


@pytest.mark.parametrize("decimals", [400, -400, 309, -309, 308, 40, -40])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_round_huge_decimals_give_numpys_nan(device, dtype, decimals):
    a = np.array([1.5, -2.25, 0.0], dtype=dtype)
    with np.errstate(all="ignore"):
        expected = np.round(a, decimals)
    assert_same(dt.round(dt.asarray(a, device=device), decimals), expected)


# ---- arange ----

ARANGE_CASES = [
    (0.5, 5, 1.5, "int32"), (0.5, 5, 1.5, "uint8"), (-0.5, 5, 1.5, "int32"),
    (10, 0, -0.7, "int16"), (-3.7, 2, 1.1, "int32"), (0.2, 0.9, 0.3, "int64"),
    (0, 10, INF, None), (0, -10, INF, None), (0, -10, -INF, None), (5, 10, -INF, None),
    (0, 0, INF, None), (0, 1e-300, INF, None), (-0.0, 10, INF, None), (3, 3, 1.0, None),
    (0.5, 5, 1.5, "float32"), (0, 5, 1, "float16"), (0, 2, 1, "bool"), (1, 2, 1, "bool"),
    (0, 2, 1.0, "bool"), (True, 3, 1, None), (-5, 5, 3, None), (5, -5, -3, "int8"),
]


@pytest.mark.parametrize("start,stop,step,dtype", ARANGE_CASES, ids=repr)
def test_arange_matches_numpy(device, start, stop, step, dtype):
    expected = np.arange(start, stop, step, dtype=dtype)
    got = dt.arange(start, stop, step, dtype=dtype, device=device)
    assert got.dtype == dt.dtype(expected.dtype)
    np.testing.assert_array_equal(to_np(got), expected, strict=True)
    assert np.signbit(to_np(got)).tolist() == np.signbit(expected).tolist()


@pytest.mark.parametrize("args,kwargs,exc,msg", [
    ((3,), {"dtype": "bool"}, TypeError, "at most length 2"),
    ((0, INF, 1), {}, ValueError, "Maximum allowed size exceeded"),
    ((0, NAN), {}, ValueError, "cannot compute length"),
    ((0, 1, 0), {}, ZeroDivisionError, "division by zero"),
    ((0, "1"), {}, TypeError, "real numbers"),
], ids=repr)
def test_arange_errors(args, kwargs, exc, msg):
    with pytest.raises(exc, match=msg):
        dt.arange(*args, **kwargs)
    with pytest.raises(exc):
        np.arange(*args, **kwargs)


@pytest.mark.parametrize("args,kwargs", [
    ((0, 1, 0), {}), ((0.0, 1, 0.0), {}), ((5,), {"step": 0}), ((2 ** 70,), {}), ((), {"stop": 2 ** 70}),
    ((0, INF, 1), {}), ((0, NAN), {}), ((1, 2, 3), {"step": 4}), ((5,), {"start": 1}),
    ((), {"start": 5}), ((), {}), ((3,), {"dtype": "bool"}),
], ids=repr)
def test_arange_errors_in_numpys_words(args, kwargs):
    same_error(lambda: np.arange(*args, **kwargs), lambda: dt.arange(*args, **kwargs))


# ---- indexing ----

@pytest.mark.parametrize("key", [slice(None, None, 2**62), slice(None, None, -2**62),
                                 slice(1, None, 2**63 - 1), slice(None, None, -(2**63) + 1),
                                 slice(3, 4, 2**62)], ids=repr)
def test_huge_slice_steps(device, key):
    a = np.arange(10)
    t = dt.arange(10, device=device)[key]
    assert_same(t, a[key])
    assert t.strides == a[key].strides  # NumPy's int64 wrap-around for a moot stride


def test_stride_overflow_names_the_strides():
    with pytest.raises(OverflowError, match=r"entry 0 of the strides \(18446744073709551616\)"):
        dt.ones(3)._as_strided((2,), (2**64,), 0)
    with pytest.raises(OverflowError, match=r"entry 1 of the shape"):
        dt.ones(3)._as_strided((1, 2**64), (8, 8), 0)


class Index:
    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


def test_index_objects_are_indices(device):
    a = np.arange(12).reshape(3, 4)
    t = dt.asarray(a, device=device)
    assert_same(t[Index(2)], a[Index(2)])
    assert_same(t[Index(-1), Index(1)], a[Index(-1), Index(1)])
    assert_same(t[Index(0):Index(2)], a[0:2])
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        t[Index(5)]
    t[Index(1)] = 0
    a[Index(1)] = 0
    assert_same(t, a)


def test_too_many_new_axes_is_an_index_error(device):
    t = dt.arange(5, device=device)
    with pytest.raises(IndexError, match=r"must be within \[0, 64\], indexing result would "
                                         r"have 71"):
        t[(None,) * 70]
    with pytest.raises(IndexError):
        np.arange(5)[(None,) * 70]
    assert t[(None,) * 63].ndim == 64


# ---- devices ----

@pytest.mark.parametrize("bad", ["cpu\x00junk", "cuda:0\x00", "\x00cpu"])
def test_device_strings_with_nul_are_refused(bad):
    with pytest.raises(RuntimeError, match="NUL"):
        dt.device(bad)
    with pytest.raises(RuntimeError, match="NUL"):
        dt.ones(2, device=bad)


# ---- the environment (each in a fresh interpreter) ----

@pytest.mark.parametrize("var,value,expect", [
    ("DEVTENSOR_NUM_THREADS", "abc", "DEVTENSOR_NUM_THREADS='abc' is not a whole number"),
    ("DEVTENSOR_NUM_THREADS", "0", "from 1 to"),
    ("DEVTENSOR_NUM_THREADS", "-3", "ignored"),
    ("DEVTENSOR_NUM_THREADS", " 2", "ignored"),
    ("DEVTENSOR_CPU_CACHE_BYTES", "-1", "DEVTENSOR_CPU_CACHE_BYTES='-1'"),
    ("DEVTENSOR_CPU_CACHE_BYTES", "1e9", "whole number of bytes"),
    ("DEVTENSOR_CUDA_NO_CACHE", "yes", "is not 0 or 1"),
    ("DEVTENSOR_CUDA_STAGING", "off", "DEVTENSOR_CUDA_STAGING='off' is not 0 or 1"),
    ("DEVTENSOR_CUDA_OWN_SORT", "own", "DEVTENSOR_CUDA_OWN_SORT='own' is not 0 or 1"),
])
def test_malformed_settings_warn_and_use_the_default(var, value, expect):
    code = textwrap.dedent("""
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            import devtensor as dt
        print("|".join(str(x.message) for x in w if x.category is RuntimeWarning))
        print(dt.get_num_threads() >= 1, (dt.ones(3) + 1).tolist())
    """)
    p = run_python(code, {var: value})
    assert p.returncode == 0, p.stderr
    warned, works = p.stdout.strip().splitlines()
    assert expect in warned
    assert works == "True [2.0, 2.0, 2.0]"


def test_valid_settings_do_not_warn():
    p = run_python("import warnings; warnings.simplefilter('error'); import devtensor as dt; "
                   "print(dt.get_num_threads())", {"DEVTENSOR_NUM_THREADS": "2",
                                                   "DEVTENSOR_CPU_CACHE_BYTES": "0",
                                                   "DEVTENSOR_CUDA_NO_CACHE": "1", "DEVTENSOR_CUDA_OWN_SORT": "1"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "2"


@pytest.mark.parametrize("var,value,instead", [
    ("DEVTENSOR_SIMULATE_CUDA", "2", "use DEVTENSOR_EMULATE_CUDA=N for N CUDA devices emulated"),
    ("DEVTENSOR_SIMULATE_CUDA_MEMORY", "1000000", "use DEVTENSOR_EMULATE_CUDA=N with "
                                                 "DEVTENSOR_EMULATE_CUDA_MEMORY=size"),
])
def test_retired_simulation_settings_warn_and_name_the_emulation(var, value, instead):
    # Note [Retired variables] in csrc/python/module.c
    code = textwrap.dedent("""
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            import devtensor as dt
        print("|".join(str(x.message) for x in w if x.category is RuntimeWarning))
        print(dt.cuda.is_emulated(), (dt.ones(3) + 1).tolist())
    """)
    p = run_python(code, {var: value})
    assert p.returncode == 0, p.stderr
    warned, works = p.stdout.strip().splitlines()
    assert f"{var}='{value}' is ignored: devtensor's simulated CUDA devices were removed" in warned
    assert instead in warned
    assert works == "False [2.0, 2.0, 2.0]"
    p = run_python("import devtensor", {var: value})  # shown under the default filters
    assert p.returncode == 0 and f"RuntimeWarning: {var}='{value}' is ignored" in p.stderr, p.stderr


@requires_emulation
def test_retired_simulation_setting_beside_the_emulation_only_warns():
    p = run_python("import devtensor as dt; print(dt.cuda.device_count())",
                   {"DEVTENSOR_SIMULATE_CUDA": "1", "DEVTENSOR_EMULATE_CUDA": "2"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "2" and "DEVTENSOR_SIMULATE_CUDA='1' is ignored" in p.stderr


@requires_emulation
def test_out_of_memory_retry_collects_garbage_with_gc_disabled():
    code = textwrap.dedent("""
        import gc
        import devtensor as dt
        gc.disable()
        class Holder:
            pass
        h = Holder()
        h.me = h                            # a cycle only the collector frees
        h.t = dt.empty(24 * 2**20, dtype=dt.uint8, device="cuda:0")
        del h
        t = dt.empty(24 * 2**20, dtype=dt.uint8, device="cuda:0")  # needs the cycle's memory
        print("ok", gc.isenabled())
    """)
    # a 40 MiB device: two 24 MiB blocks (their own segments, Note [Caching
    # allocator] in csrc/cuda/cuda_alloc.c) do not fit at once
    p = run_python(code, {"DEVTENSOR_EMULATE_CUDA": "1", "DEVTENSOR_EMULATE_CUDA_MEMORY": "40M"})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "ok False"


# ---- copying, pickling, formatting ----

DTYPES = ["bool", "int8", "uint16", "int64", "float16", "bfloat16", "float32", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_pickle_round_trip(device, dtype):
    t = dt.arange(6, device=device).reshape(2, 3).astype(dtype)[:, ::2]
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        u = pickle.loads(pickle.dumps(t, protocol=protocol))
        assert (u.dtype, u.device, u.shape) == (t.dtype, t.device, t.shape)
        assert u.tolist() == t.tolist()
        assert not dt.may_share_memory(u, t) and u.flags.writeable


def test_copy_and_deepcopy_copy_the_values(device):
    t = dt.arange(4.0, device=device)
    for c in (copy.copy(t), copy.deepcopy(t), copy.deepcopy({"w": [t]})["w"][0]):
        assert (c.device, c.dtype, c.tolist()) == (t.device, t.dtype, t.tolist())
        c[0] = 9
        assert t.tolist()[0] == 0.0
    r, _ = dt.asarray(np.frombuffer(b"\x01\x02", np.uint8)), None
    assert copy.copy(r).flags.writeable  # a copy of read-only memory is writeable, as NumPy's


def test_map_location_moves_unpickled_tensors(device):
    blob = pickle.dumps({"w": dt.ones(3, device=device)})
    with dt.map_location("cpu"):
        assert pickle.loads(blob)["w"].device == dt.device("cpu")
    assert pickle.loads(blob)["w"].device == dt.device(device)


def test_unpickling_a_cuda_tensor_without_cuda_says_how():
    blob = pickle.dumps(dt.ones(3, device="cuda:1")) if dt.cuda.device_count() > 1 else None
    if blob is None:
        pytest.skip("needs two CUDA devices")
    code = textwrap.dedent(f"""
        import pickle, devtensor as dt
        blob = {blob!r}
        try:
            pickle.loads(blob)
        except RuntimeError as e:
            print(e)
        with dt.map_location("cpu"):
            print(pickle.loads(blob).tolist())
    """)
    p = run_python(code)  # no emulated devices in the child
    assert p.returncode == 0, p.stderr
    err, values = p.stdout.strip().splitlines()
    assert "cannot load a tensor onto cuda:1 in this process" in err
    assert "devtensor.map_location('cpu')" in err
    assert values == "[1.0, 1.0, 1.0]"


def test_zero_d_tensors_format_like_numpy_scalars(device):
    for value, spec in ((3.14159, ".2f"), (3.14159, "e"), (42, "05d"), (2.5, ""),
                        (True, ""), (1 + 2j, ".1f")):
        t = dt.tensor(value, device=device)
        assert format(t, spec) == format(np.array(value)[()], spec)
    assert f"{dt.tensor(2.0, device=device):.3f}" == "2.000"
    with pytest.raises(TypeError, match="unsupported format string"):
        format(dt.tensor([1.0]), ".2f")
    assert format(dt.tensor([1.0]), "") == str(dt.tensor([1.0]))


# ---- float -> integer casts (Note [Float to integer casts] in csrc/core/ops.h) ----

CAST_VALUES = [-57.3, -1.0, -0.5, -255.9, -3e4, 0.0, 57.3, 200.9, 300.7, 65504.0, -65504.0,
               70000.5, -70000.7, -3e9, 3e9, 5e9, -9.3e18, 9.3e18, 1.8e19, 2e19, -1e19,
               NAN, INF, -INF]


@pytest.mark.parametrize("to", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                "uint64"])
@pytest.mark.parametrize("src", ["float16", "float32", "float64", "complex128"])
def test_float_to_integer_casts_agree_on_every_device(device, src, to):
    with warnings.catch_warnings():  # NumPy's ComplexWarning and invalid-cast warnings
        warnings.simplefilter("ignore")
        a = np.array(CAST_VALUES, dtype=src)
        expected = a.astype(to)
        wrapped = np.array([-57.3], src).astype(to)[0]
    if to == "uint32":
        # NumPy's uint32 loop converts with the CPU's vector unit where it can: outside
        # int32 its values depend on the instruction set; compare where they do not
        real = a.real.astype(np.float64)
        keep = (real >= -2**31) & (real < 2**32)
        a, expected = a[keep], expected[keep]
    assert_same(dt.asarray(a, device=device).astype(to), expected)
    # the example: -57.3 wraps (x86 and NumPy), a GPU's conversion would saturate
    assert dt.asarray(np.array([-57.3], src), device=device).astype(to).tolist()[0] == wrapped


def test_a_0d_tensor_pickles_as_0d(device):
    """Pickles and distributed's frames share Tensor._host_values: 0-d stays 0-d."""
    import pickle
    t = dt.asarray(2.5, device=device)
    back = pickle.loads(pickle.dumps(t))
    assert back.shape == () and back.device == t.device and float(back) == 2.5


def test_comparing_with_none_is_elementwise(device):
    """NumPy's t == None: all False (t != None all True), shaped as t, on its
    device; the ordering comparisons still raise TypeError."""
    t = dt.arange(6, device=device).reshape(2, 3)
    for got, want in [(t == None, np.zeros((2, 3), bool)), (None != t, np.ones((2, 3), bool)),  # noqa: E711
                      (t[:0] == None, np.zeros((0, 3), bool)), (dt.asarray(1.5, device=device) != None,  # noqa: E711
                                                               np.True_)]:
        assert got.device == t.device and got.dtype == dt.bool
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    with pytest.raises(TypeError, match="not supported between instances"):
        t < None


class _EqualsEverything:
    def __eq__(self, other):
        return "its own answer"


def test_comparing_with_what_no_element_equals(device):
    """t == "a", t != b"a", t == object(): NumPy's elementwise all-False (or
    all-True) answer on t's device, from either side; a class with an __eq__
    of its own still answers; ordering a tensor against a str raises."""
    t = dt.arange(6, device=device).reshape(2, 3)
    a = np.arange(6).reshape(2, 3)
    for got, want in [(t == "a", a == "a"), (t != b"a", a != b"a"), ("a" != t, "a" != a),
                      (t == object(), a == object())]:
        assert got.device == t.device and got.dtype == dt.bool
        np.testing.assert_array_equal(got.cpu().numpy(), want)
    assert (t == _EqualsEverything()) == "its own answer"
    with pytest.raises(TypeError):
        t < "a"


# ---- byteswap ----

@pytest.mark.parametrize("dtype", NUMPY_DTYPE_NAMES)
@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed", "0-d"])
def test_byteswap(dtype, layout, device):
    """Each value's bytes reversed (each part's for complex), as NumPy's,
    on the tensor's device; inplace=True writes them back."""
    a = (np.arange(12) * 37 + 5).astype(dtype).reshape(3, 4)
    pick = {"contiguous": lambda x: x, "strided": lambda x: x[::-1, 1::2],
            "transposed": lambda x: x.T, "0-d": lambda x: x[1, 2]}[layout]
    want = pick(a).byteswap()
    got = pick(dt.asarray(a, device=device)).byteswap()
    assert got.device == dt.device(device) and got.dtype == want.dtype and got.shape == want.shape
    assert to_np(got).tobytes() == np.ascontiguousarray(want).tobytes()
    t = dt.asarray(a, device=device)
    assert t[::2].byteswap(inplace=True).shape == (2, 4)
    a[::2].byteswap(inplace=True)
    assert to_np(t).tobytes() == a.tobytes()
    t.flags.writeable = False
    a.flags.writeable = False
    same_error(lambda: a.byteswap(inplace=True), lambda: t.byteswap(inplace=True))
    assert to_np(t).tobytes() == a.tobytes()  # nothing written
    assert to_np(t.byteswap()).tobytes() == a.byteswap().tobytes()  # a copy is fine


def test_errors_in_numpys_words(device):
    """Messages a program's except clause or log shows: NumPy's text."""
    f, i = dt.ones(2, device=device), dt.arange(3, device=device)
    z6, m23 = dt.zeros(6, device=device), dt.zeros((2, 3), device=device)
    for shape in [(-1, 4), (4, -1), (4,), (-1, 4, 2), (5, -1, 2)]:
        same_error(lambda: np.zeros(6).reshape(shape), lambda: z6.reshape(shape))
    for out, other in [((3, 3), 1), ((3,), 1), ((1, 3), 1), ((2, 3), np.zeros(4)), ((3, 3), np.zeros(3))]:
        same_error(lambda: np.add(np.zeros((2, 3)), other, out=np.empty(out)),
                   lambda: dt.add(m23, other if np.isscalar(other) else dt.asarray(other, device=device),
                                  out=dt.empty(out, device=device)))
    same_error(lambda: np.negative(np.zeros((2, 3)), out=np.empty((3, 3))),
               lambda: dt.negative(m23, out=dt.empty((3, 3), device=device)))
    same_error(lambda: len(np.asarray(5.0)), lambda: len(dt.asarray(5.0, device=device)))
    same_error(lambda: np.array([[1, 2], [3]]), lambda: dt.array([[1, 2], [3]], device=device))
    same_error(lambda: np.ones(2) << 1, lambda: f << 1)
    same_error(lambda: np.ones(2) & 1, lambda: f & 1)
    same_error(lambda: np.bitwise_or(np.ones(2), np.ones(2)), lambda: dt.bitwise_or(f, f))
    same_error(lambda: np.zeros(-1), lambda: dt.zeros(-1, device=device))
    same_error(lambda: np.eye(-1), lambda: dt.eye(-1, device=device))
    same_error(lambda: np.empty((2, -3)), lambda: dt.empty((2, -3), device=device))
    same_error(lambda: np.searchsorted(np.arange(3), 1, side="middle"),
               lambda: dt.searchsorted(i, 1, side="middle"))


# ---- found by running NumPy's own test suite against devtensor ----

def test_nan_reductions_of_complex_data(device):
    """nanvar/nanstd keep a complex dtype= (as var does), and nanmedian skips
    complex elements with NaN in either part, as NumPy's."""
    a = np.eye(3)
    a[0, 1] = np.nan
    t = dt.asarray(a, device=device)
    for name in ("nanvar", "nanstd"):
        for dtype in (None, np.float32, np.complex64, np.complex128):
            for axis in (None, 0):
                assert_same(getattr(dt, name)(t, axis=axis, dtype=dtype), getattr(np, name)(a, axis=axis, dtype=dtype),
                            device, exact=False, rtol=1e-6)
    c = np.array([[1 + 1j, complex(NAN, NAN), 3 + 0j, 2 + 5j],
                  [complex(NAN, 0), 4 - 1j, complex(1, NAN), 2 + 2j]])
    for axis in (None, 0, 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            assert_same(dt.nanmedian(dt.asarray(c, device=device), axis=axis), np.nanmedian(c, axis=axis), device)


def test_ravel_multi_index_into_an_empty_shape(device):
    """Every mode refuses coordinates into a shape with a zero: no index fits."""
    coords = tuple(dt.asarray([0], device=device) for _ in range(2))
    for mode in ("raise", "clip", "wrap"):
        same_error(lambda: np.ravel_multi_index(([0], [0]), (0, 2), mode=mode),
                   lambda: dt.ravel_multi_index(coords, (0, 2), mode=mode))
        assert dt.ravel_multi_index((dt.asarray([], dtype=dt.int64, device=device),), (0,), mode=mode).shape == (0,)


def test_joins_take_sequences_not_generators(device):
    """NumPy refuses a generator (it would be read before the checks)."""
    for name in ("stack", "hstack", "vstack", "dstack", "column_stack", "concatenate"):
        same_error(lambda: getattr(np, name)(np.arange(2) for _ in range(2)),
                   lambda: getattr(dt, name)(dt.arange(2, device=device) for _ in range(2)))
        assert_same(getattr(dt, name)((dt.arange(2, device=device),) * 2), getattr(np, name)((np.arange(2),) * 2),
                    device)
