"""Advanced indexing (integer arrays, boolean masks, and any mix with basic
items) on every device, NumPy as the oracle for values, shapes, dtypes and
errors: getitem gathers and setitem scatters on the device itself
(devtensor/_advanced.py, csrc/core/gather.c, csrc/cuda/cuda_index.cu).
Index expressions come from ndindex's hypothesis strategies."""
import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, CUDA_DEVICES, assert_same, given, requires_cuda, sanity, settings, st, to_np

try:
    from hypothesis import assume
    from ndindex.tests.helpers import ndindices, short_shapes
except ImportError:  # the GPU machine may lack them: the property tests skip there
    ndindices = short_shapes = None

needs_ndindex = pytest.mark.skipif(ndindices is None, reason="ndindex or hypothesis is not installed")
MAX_ELEMENTS = 4096  # the emulated device runs every kernel thread on the CPU


@pytest.fixture(autouse=True, params=["fast", "general"])
def index_path(request):
    """Every test runs twice, once per path a key can take: on the cpu, small
    keys through NumPy (fast, the default) and through the CPU backend's
    index kernels (general, which big keys take: Note [Big indices on the
    CPU] in devtensor/_views.py); on a device, common keys parsed in C
    (fast, the default: Note [Advanced keys in C] in
    csrc/python/advanced_key.c) and every key through devtensor._advanced
    (general, where the rare keys go)."""
    device = request.getfixturevalue("device") if "device" in request.fixturenames else "cpu"
    if request.param == "general":
        if device == "cpu":
            before = dt._C._cpu_index_kernels_from(0)  # every key to the kernels
            request.addfinalizer(lambda: dt._C._cpu_index_kernels_from(before))
        else:
            before = dt._C._advanced_keys_in_c(False)
            request.addfinalizer(lambda: dt._C._advanced_keys_in_c(before))
    return request.param


def pair(shape, device, dtype="int64"):
    a = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return dt.array(a, device=device), a  # a copy: asarray would share a on the cpu


def on_device(key, device, data):
    """key with some of its NumPy arrays made tensors on `device` (drawn)."""
    def conv(k):
        if isinstance(k, np.ndarray) and data.draw(st.booleans(), label="as tensor"):
            return dt.asarray(k, device=device)
        return k
    return tuple(map(conv, key)) if isinstance(key, tuple) else conv(key)


def same_outcome(np_call, dt_call):
    """Both raise the same exception type and message, or both return; the values are returned."""
    try:
        want = np_call()
    except Exception as e:  # noqa: BLE001  (the oracle's exception, compared below)
        with pytest.raises(type(e)) as got:
            dt_call()
        assert str(got.value) == str(e)
        return None, None
    return want, dt_call()


# ---- property tests over ndindex's index expressions ----

@needs_ndindex
@settings(max_examples=150)
@given(data=st.data())
def test_getitem_matches_numpy_for_any_index(device, data):
    shape = data.draw(short_shapes, label="shape")
    assume(int(np.prod(shape)) <= MAX_ELEMENTS)
    idx = data.draw(ndindices, label="index")
    x, a = pair(shape, device, dtype="int32")
    key = on_device(idx, device, data)
    want, got = same_outcome(lambda: a[idx], lambda: x[key])
    if want is not None:
        assert_same(got, np.asarray(want), device=device)


@needs_ndindex
@settings(max_examples=150)
@given(data=st.data())
def test_setitem_matches_numpy_for_any_index(device, data):
    """Values in the order NumPy writes them, so repeated indices show that the
    last write wins; an index NumPy refuses writes nothing."""
    shape = data.draw(short_shapes, label="shape")
    assume(int(np.prod(shape)) <= MAX_ELEMENTS)
    idx = data.draw(ndindices, label="index")
    x, a = pair(shape, device, dtype="float64")
    key = on_device(idx, device, data)
    try:
        target = a[idx].shape
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e)) as got:
            x[key] = 1.0
        assert str(got.value) == str(e)
        assert_same(x, a)
        return
    values = -np.arange(1, int(np.prod(target)) + 1, dtype="float64").reshape(target)
    a[idx] = values
    x[key] = dt.asarray(values, device=device) if data.draw(st.booleans()) else values
    assert_same(x, a)


# ---- the rules, one at a time ----

ADVANCED_KEYS = [
    [0, 2], [-1, -3, 0], [[0, 1], [2, 0]], (slice(None), [1, 0]), ([0, 2], slice(None), [3, 1]),
    (Ellipsis, [4, 0]), ([1], 2), (0, slice(None), [0, 2]), (None, [2], None, [1, 0]),
    (slice(None, None, -1), [[0], [2]], slice(1, None)), True, False, (True, 1), ([1, 0], True),
    (np.array([True, False, True]),), (np.array([[True, False, True, True]] * 3),),
    (slice(None), np.array([False, True, False, True])), (np.ones((3, 4, 5), bool),),
    (np.zeros((3, 4), bool), 2), ([], ), (np.array([], np.int64), slice(None)),
    (np.array([2, 0], np.uint8),), (np.array([1], np.int8), np.array([3], np.uint64)),
]


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=repr)
def test_getitem_and_setitem(device, key):
    x, a = pair((3, 4, 5), device)
    assert_same(x[key], a[key], device=device)
    x[key] = -7
    a[key] = -7
    assert_same(x, a)


def test_tensor_indices_on_the_device_and_on_the_host(device):
    x, a = pair((6, 3), device)
    for idx in (dt.asarray([5, 0, 5], device=device), dt.asarray([5, 0, 5]), np.array([5, 0, 5])):
        assert_same(x[idx], a[[5, 0, 5]], device=device)
    assert_same(x[x > 10], a[a > 10], device=device)
    assert_same(x[x[:, 0] > 4], a[a[:, 0] > 4], device=device)
    x[x > 10] = 0
    a[a > 10] = 0
    assert_same(x, a)


def test_separated_advanced_indices_go_first(device):
    x, a = pair((2, 3, 4, 5), device)
    for key in [([0, 1], slice(None), [1, 2]), (0, slice(None), [1, 2]), (slice(None), 0, slice(None), [[1], [2]])]:
        assert x[key].shape == a[key].shape
        assert_same(x[key], a[key], device=device)


def test_last_write_wins_and_augmented_assignment_does_not_accumulate(device):
    """Many duplicates across many blocks of the scatter kernels."""
    n = 300
    x, a = pair((n,), device, dtype="float32")
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 7, size=20000)
    vals = np.arange(idx.size, dtype="float32")
    x[idx] = vals
    a[idx] = vals
    assert_same(x, a)
    x[idx] += 1
    a[idx] += 1
    assert_same(x, a)
    assert_same(x[idx], a[idx], device=device)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "float32", "float64", "complex64", "complex128"])
def test_every_element_size(device, dtype):
    a = (np.arange(24) % 5).astype("float32").reshape(4, 6)
    x = dt.asarray(a, device=device).astype(dtype)
    want = to_np(x)
    idx = [3, 0, 3, 1]
    assert_same(x[idx], want[idx], device=device)
    assert_same(x[:, [5, 0]], want[:, [5, 0]], device=device)
    x[[2, 0]] = x[[1, 3]]
    want[[2, 0]] = want[[1, 3]]
    assert_same(x, want)
    # two indexed axes: the offsets pass, then the loops that read offsets
    rows, cols = [3, 0, 3], [5, 1, 5]
    assert_same(x[rows, cols], want[rows, cols], device=device)
    x[rows, cols] = x[[0, 1, 2], [0, 0, 0]]
    want[rows, cols] = want[[0, 1, 2], [0, 0, 0]]
    assert_same(x, want)


def test_complex64_at_a_4_byte_address(device):
    """complex64 needs only 4-byte alignment (NumPy's): a view at such an address."""
    a = np.zeros(17, np.float32)[1:].view(np.complex64)
    a[...] = np.arange(8) + 1j * np.arange(8)
    x = dt.asarray(a, device=device)
    if device == "cpu":
        assert x.data_ptr() % 8 == 4
    assert_same(x[[7, 0, 3]], a[[7, 0, 3]], device=device)
    x[[1, 1, 6]] = dt.asarray([9.0, 10.0, 11.0j], dtype=dt.complex64, device=device)
    a[[1, 1, 6]] = [9.0, 10.0, 11.0j]
    assert_same(x, a)


def test_sparse_view_scatter_goes_through_a_copy(device):
    x, a = pair((20000,), device, dtype="int32")
    v, w = x[::1000], a[::1000]
    v[[3, 1, 3]] = dt.asarray([-1, -2, -3], dtype=dt.int32, device=device)
    w[[3, 1, 3]] = [-1, -2, -3]
    assert_same(x, a)


def test_value_overlapping_the_target_is_read_first(device):
    x, a = pair((8,), device)
    x[[0, 1, 2, 3]] = x[::-1][:4]
    a[[0, 1, 2, 3]] = a[::-1][:4].copy()
    assert_same(x, a)
    x, a = pair((8,), device)
    x[x > 5] = x[:2]
    a[a > 5] = a[:2].copy()
    assert_same(x, a)


def test_big_masks_cross_many_blocks(device):
    """Counts and compaction over more than one block and tile, in order."""
    rng = np.random.default_rng(1)
    a = rng.random(50001)
    x = dt.asarray(a, device=device)
    for m in (a > 0.3, a > 2, a >= 0):
        assert_same(x[dt.asarray(m, device=device)], a[m], device=device)


@pytest.mark.parametrize("key, value", [
    ("mask", np.zeros(3)), ("mask", np.zeros((2, 4))), ("mask2d", np.zeros(3)), ("mask2d", np.zeros((1, 3))),
    ((slice(None), np.array([True, False, True, False])), np.zeros(3)), ([0, 1], np.zeros(3)),
], ids=repr)
def test_setitem_value_shape_errors(device, key, value):
    a = np.arange(8.0)
    if isinstance(key, str):
        if key == "mask2d":
            a = a.reshape(2, 4)
        key = a > 3
    else:
        a = a.reshape(2, 4)
    x = dt.asarray(a, device=device)
    with pytest.raises(Exception) as want:
        a[key] = value
    with pytest.raises(want.type) as got:
        x[key] = dt.asarray(value, device=device)
    assert str(got.value) == str(want.value)
    assert_same(x, a)


def test_casting_on_advanced_setitem(device):
    x, a = pair((5,), device)
    x[[0, 1]] = np.array([1.9, -2.9])
    a[[0, 1]] = np.array([1.9, -2.9])
    assert_same(x, a)
    with pytest.raises(ValueError, match="NaN"):
        x[[2]] = float("nan")
    assert_same(x, a)


# ---- errors: NumPy's type and message, and nothing written ----

BAD_KEYS = [
    [5], [-6], ([0], [4]), (slice(None), [7]), ([0, 1], [0, 1, 2]), np.array([True, False]),
    (slice(None), np.ones((3,), bool)), [1.5], (np.array([0.0]),), ([0], [0], [0], [0]),
    (0, [9]), ([0], 9), (Ellipsis, Ellipsis, [0]), ("a", [0]),
]


@pytest.mark.parametrize("key", BAD_KEYS, ids=repr)
def test_bad_keys_raise_numpys_errors_and_write_nothing(device, key):
    x, a = pair((5, 4), device)
    with pytest.raises(Exception) as want:
        a[key]
    with pytest.raises(want.type) as got:
        x[key]
    assert str(got.value) == str(want.value)
    with pytest.raises(want.type):
        x[key] = 0
    assert_same(x, a)
    sanity()


def test_mask_shapes_are_checked_before_integer_bounds(device):
    """NumPy checks every boolean index's shape before any integer's bounds."""
    x, a = pair((2, 3), device)
    m = np.array([True, False])
    for key, np_key in [((5, m), (5, m)), ((5, dt.asarray(m, device=device)), (5, m)), (([5], m), ([5], m)),
                        ((9, m, None), (9, m, None))]:
        with pytest.raises(IndexError) as want:
            a[np_key]
        assert "boolean index did not match" in str(want.value)
        with pytest.raises(IndexError) as got:
            x[key]
        assert str(got.value) == str(want.value)
        with pytest.raises(IndexError, match="boolean index did not match"):
            x[key] = 1
    assert_same(x, a)


@requires_cuda
@pytest.mark.parametrize("device", CUDA_DEVICES)
def test_out_of_range_device_indices_leave_the_context_usable(device):
    x, a = pair((5, 4), device)
    for idx in ([3, 7, 9], [-6], [[0, 1], [2, 40]]):
        t = dt.asarray(idx, device=device)
        with pytest.raises(IndexError) as want:
            a[np.array(idx)]
        with pytest.raises(IndexError) as got:
            x[t]
        assert str(got.value) == str(want.value)
        with pytest.raises(IndexError):
            x[t] = 1
        with pytest.raises(IndexError, match="axis 1 with size 4"):
            x[:, t] = 1
    assert_same(x, a)
    assert_same(x[dt.asarray([4, 0], device=device)] + 1, a[[4, 0]] + 1, device=device)
    dt.cuda.synchronize(device)


@requires_cuda
def test_indices_from_another_device_are_refused():
    x = dt.arange(4, device="cuda:0")
    other = "cuda:1" if len(CUDA_DEVICES) > 1 else None
    if other is None:
        pytest.skip("needs two CUDA devices")
    with pytest.raises(RuntimeError, match="same device"):
        x[dt.asarray([0], device=other)]
    with pytest.raises(RuntimeError, match="same device"):
        x[dt.asarray([True, False, True, True], device=other)]
    x[[0]] = dt.asarray([9], device=other)  # a value is copied over (Note [Values from another device])
    assert x.tolist() == [9, 1, 2, 3] and x.device == dt.device("cuda:0")


@requires_cuda
def test_a_cpu_tensor_refuses_device_indices_whatever_path():
    """PyTorch's rule and words, through NumPy's path for small keys and the
    index kernels' for big ones (Note [Big indices on the CPU])."""
    dev = CUDA_DEVICES[0]
    for n in (4, 1 << 17):
        x = dt.arange(2.0 * n)
        i, m = dt.arange(n, device=dev), dt.arange(2 * n, device=dev) > 1
        for f in (lambda: x[i], lambda: x[m], lambda: x.__setitem__(i, 1.0), lambda: dt.take(x, i),
                  lambda: x[i, None], lambda: dt.put(x, i, 0.0)):
            with pytest.raises(RuntimeError, match=rf"indices should be either on cpu or on the same device as "
                                                   rf"the indexed tensor \(cpu\), not on {dev}"):
                f()
        assert x[-1].item() == 2.0 * n - 1 and x[0].item() == 0.0  # nothing written
    y = dt.arange(4.0, device=dev)
    assert y[dt.asarray([1, 2])].tolist() == [1.0, 2.0]  # a device tensor takes CPU indices


def test_read_only_tensors_are_refused(device):
    x = dt.broadcast_to(dt.arange(3, device=device), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        x[[0]] = 1


def test_private_entry_points_check_their_arguments(device):
    """_take/_put refuse what would reach outside the memory they were given."""
    from devtensor import _C
    x = dt.arange(4.0, device=device)
    idx = dt.asarray([0, 1], device=device)
    out = dt.empty(2, device=device)
    src = dt.broadcast_to(x[:1], (2,))
    with pytest.raises(ValueError, match="outside the tensor's memory"):
        _C._take(out, src, 0, (idx,), (400,), (8,), (0,))
    for length, stride in ((2**62, 2**62), (2**40, -(2**40)), (3, 2**63 - 1)):
        with pytest.raises(ValueError, match="outside the tensor's memory"):
            _C._take(out, src, 0, (idx,), (length,), (stride,), (0,))
    with pytest.raises(ValueError, match="negative length"):
        _C._put(src.copy(), out, 0, (idx,), (-1,), (8,), (0,))
    with pytest.raises(ValueError, match="int64"):
        _C._take(out, src, 0, (idx.astype(dt.int32),), (4,), (8,), (0,))
    with pytest.raises(ValueError, match="shape or dtype"):
        _C._take(dt.empty(3, device=device), src, 0, (idx,), (4,), (8,), (0,))
    # any tensor: a float one, a strided one (cast to a contiguous bool copy first)
    assert_same(_C._nonzero_positions(x), np.flatnonzero(np.arange(4.0)))
    assert_same(_C._nonzero_positions(dt.asarray([[0, 1, 0], [2, 0, 3]], device=device).T),
                np.flatnonzero(np.array([[0, 1, 0], [2, 0, 3]]).T))
    with pytest.raises(TypeError, match="the mask must be a tensor"):
        _C._nonzero_positions(np.arange(4.0))
    sanity()


def test_big_cpu_keys_split_across_threads(index_path):
    """Keys big enough for the CPU index kernels' thread split (Note [Big
    indices on the CPU]): the ordered scatter's shares of the targets, the
    gather's chunks and the mask's blocks, against NumPy."""
    if index_path != "fast":
        pytest.skip("the size picks the kernels by itself")
    before = dt.get_num_threads()
    dt.set_num_threads(2)
    try:
        _big_cpu_keys()
    finally:
        dt.set_num_threads(before)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["int8", "float16", "float32", "float64", "complex128"])
def test_cpu_index_kernels_contiguous_loops(threads, dtype, index_path):
    """Note [Contiguous index loops] (csrc/cpu/cpu_index.c): the gather and
    the ordered scatter of a contiguous key and value, for every element
    size, with negative indices, repeated targets (the last write wins) and
    bad indices in the middle of a row and of the key: NumPy's IndexError
    for the first bad one, and nothing written."""
    if index_path != "fast":
        pytest.skip("every key goes to the kernels here")
    before = dt.get_num_threads(), dt._C._cpu_index_kernels_from(0)
    dt.set_num_threads(threads)
    try:
        rng = np.random.default_rng(11)
        a = (rng.random(50_000) * 100).astype(dtype)
        x = dt.array(a)
        idx = rng.integers(-50_000, 50_000, size=70_000)  # more than one chunk of 16384
        assert_same(x[idx], a[idx])
        assert_same(dt.take(x, dt.asarray(idx)), np.take(a, idx))
        vals = (np.arange(idx.size) % 97).astype(dtype)
        x[dt.asarray(idx)] = dt.asarray(vals)
        a[idx] = vals
        assert_same(x, a)
        for bad in ([20_000, 50_000, 40_000], [69_999], [0, 16_384]):
            key = idx.copy()
            key[bad] = [50_000 + k for k in range(len(bad))] if len(bad) > 1 else -50_001
            want = f"index {key[bad[0]]} is out of bounds for axis 0 with size 50000"
            with pytest.raises(IndexError, match=want):
                x[key]
            with pytest.raises(IndexError, match=want):
                x[dt.asarray(key)] = dt.asarray(vals)
            assert_same(x, a)
    finally:
        dt.set_num_threads(before[0])
        dt._C._cpu_index_kernels_from(before[1])


def _big_cpu_keys():
    rng = np.random.default_rng(5)
    a = rng.random(300_000)
    x = dt.array(a)
    idx = rng.integers(-300, 300, size=200_000)
    assert_same(x[idx], a[idx])
    vals = np.arange(idx.size, dtype=np.float64)
    x[idx] = vals
    a[idx] = vals
    assert_same(x, a)
    m = a > 0.5
    assert_same(x[m], a[m])
    assert_same(x[dt.asarray(m)], a[m])
    x[dt.asarray(m)] = -1.0
    a[m] = -1.0
    assert_same(x, a)
    for dtype in ("int8", "float16", "float32", "float64", "complex128"):  # Note [One value scattered]
        b = (a * 100).astype(dtype)
        y = dt.array(b)
        y[idx] = 3
        y[dt.asarray(idx[::-1].copy())] = dt.asarray(np.array(-2, dtype=dtype))
        b[idx] = 3
        b[idx[::-1]] = -2
        assert_same(y, b)
    two = rng.integers(0, 500, size=(2, 100_000))
    b = a.reshape(600, 500).copy()
    y = dt.array(b)
    assert_same(y[two[0] % 600, two[1]], b[two[0] % 600, two[1]])
    y[two[0] % 600, two[1]] = 7.0
    b[two[0] % 600, two[1]] = 7.0
    assert_same(y, b)
    with pytest.raises(IndexError, match="index 300000 is out of bounds for axis 0 with size 300000"):
        x[np.r_[idx, 300_000]]
    with pytest.raises(IndexError, match="index 300000 is out of bounds"):
        x[np.r_[idx, 300_000]] = 1.0
    assert_same(x, a)


@pytest.mark.parametrize("nones, index", [(64, [0]), (63, [[0]]), (70, [0]), (63, [0])])
def test_result_dimensions_past_the_limit(device, nones, index):
    x, a = pair((3,), device)
    key = (None,) * nones + (index,)
    try:
        want = a[key]
    except IndexError as e:
        with pytest.raises(IndexError) as got:
            x[key]
        assert str(got.value) == str(e)
        return
    assert_same(x[key], want, device=device)


def test_small_cpu_keys_go_to_numpy_from_c(index_path):
    """Note [Small advanced keys on the CPU] (csrc/python/index.c): CPU keys
    and values in every form NumPy takes, results that are copies, NumPy's
    errors, and no reference left behind."""
    import sys
    if index_path != "fast":
        pytest.skip("the fast variant is the one under test")
    a = np.arange(24.0).reshape(4, 6)
    t = dt.array(a)
    i = np.array([3, 0, 3])
    keys = [i, dt.asarray(i), [1, 2], (i, slice(None, None, 2)), (dt.asarray(a[:, 0] > 5), None, 1),
            (Ellipsis, dt.asarray(np.array([[5], [0]]))), True, (np.bool_(False), 2), (slice(1, 3), [0, -1])]
    for key in keys:
        np_key = tuple(k.numpy() if isinstance(k, dt.Tensor) else k for k in key) if isinstance(key, tuple) else (
            key.numpy() if isinstance(key, dt.Tensor) else key)
        got = t[key]
        assert_same(got, a[np_key])
        if got.size:
            assert not np.shares_memory(got.numpy(), t.numpy())
    for value in (7, 2.5, np.float32(1.5), np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), dt.arange(6.0)):
        b = a.copy()
        u = dt.array(b)
        u[dt.asarray(i)] = value
        b[i] = value.numpy() if isinstance(value, dt.Tensor) else value
        assert_same(u, b)
    key = dt.asarray(i)
    before = sys.getrefcount(t), sys.getrefcount(key)
    for _ in range(100):
        t[key]
        t[key] = 1.0
    assert (sys.getrefcount(t), sys.getrefcount(key)) == before
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
        t[dt.asarray(np.array([9]))]
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        t[dt.asarray(np.array([1.0]))]
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        dt.arange(4)[[1]] = float("nan")
    r = dt.array(a)
    r.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        r[[0]] = 1.0
    assert_same(r, a)
    # a 0-d integer tensor is an integer (a view), as through Python
    assert t[dt.asarray(np.array(2)), [1]].shape == (1,)


# ---- Note [Advanced keys in C] (csrc/python/advanced_key.c) ----

def _keys_parsed_in_c(device):
    """Keys the C path takes on a device (lists, NumPy arrays, tensors on the
    device or the cpu, device masks over axes C order can merge)."""
    i = np.array([3, 0, 3, 1])
    di = dt.asarray(i, device=device)
    return [
        (di, i), ([2, 0, 2], [2, 0, 2]), (i, i), (dt.asarray(i), i),
        ((slice(None), [2, 0]), (slice(None), [2, 0])),
        ((Ellipsis, dt.asarray([[1], [2]], device=device)), (Ellipsis, np.array([[1], [2]]))),
        ((di, slice(1, None), [0, -1, 2, 4]), (i, slice(1, None), [0, -1, 2, 4])),
        ((1, slice(None), [4, 0]), (1, slice(None), [4, 0])),           # separated: B goes first
        ((slice(None), 2, [4, 0]), (slice(None), 2, [4, 0])),           # together, an int among them
        ((None, [1, 0], None), (None, [1, 0], None)),
        ((slice(None, None, -1), np.array([[1], [0]], np.int32)), (slice(None, None, -1), np.array([[1], [0]]))),
        ("mask", None), ("mask01", None), ("mask12", None), ("mask0", None),
    ]


def _mask_key(name, x, a):
    if name == "mask":
        return x > 30, a > 30
    if name == "mask01":
        return x[:, :, 0] % 3 == 0, a[:, :, 0] % 3 == 0
    if name == "mask12":
        m = (a[0] % 2 == 1)
        return (slice(None), dt.asarray(m, device=x.device)), (slice(None), m)
    m = np.array([True, False, True, True])
    return (dt.asarray(m, device=x.device), 1), (m, 1)


@pytest.mark.parametrize("case", range(15))
def test_common_device_keys_are_parsed_in_c(device, index_path, case, monkeypatch):
    """Common keys never reach devtensor._advanced on a device, and give
    NumPy's values and shapes through C, for getitem and for setitem of a
    scalar and of a tensor."""
    if device == "cpu" or index_path != "fast":
        pytest.skip("the C path of device keys")
    from devtensor import _advanced

    def python_path(*args):
        raise AssertionError("went through devtensor._advanced")
    monkeypatch.setattr(_advanced, "getitem", python_path)
    monkeypatch.setattr(_advanced, "setitem", python_path)
    x, a = pair((4, 3, 5), device, dtype="float32")
    key, np_key = _keys_parsed_in_c(device)[case]
    if isinstance(key, str):
        key, np_key = _mask_key(key, x, a)
    got = x[key]
    assert got.shape == a[np_key].shape
    assert_same(got, a[np_key], device=device)
    x[key] = -2.5
    a[np_key] = -2.5
    assert_same(x, a)
    if not isinstance(key, tuple) or not any(isinstance(k, dt.Tensor) and k.dtype == dt.bool for k in key):
        if not (isinstance(key, dt.Tensor) and key.dtype == dt.bool):
            vals = np.arange(a[np_key].size, dtype=np.float32).reshape(a[np_key].shape)
            x[key] = dt.asarray(vals, device=device)
            a[np_key] = vals
            assert_same(x, a)
            x[key] = dt.asarray(vals[..., :1], device=device)  # broadcast along the last axis
            a[np_key] = vals[..., :1]
            assert_same(x, a)


def test_rare_device_keys_still_go_to_python(device, index_path, monkeypatch):
    """Masks C order cannot merge, host masks, 0-d index tensors and values
    that need NumPy's casting reach devtensor._advanced, and are right."""
    if device == "cpu" or index_path != "fast":
        pytest.skip("the C path of device keys")
    from devtensor import _advanced
    seen = []
    real_get, real_set = _advanced.getitem, _advanced.setitem
    monkeypatch.setattr(_advanced, "getitem", lambda *a: seen.append("get") or real_get(*a))
    monkeypatch.setattr(_advanced, "setitem", lambda *a: seen.append("set") or real_set(*a))
    x, a = pair((4, 6), device)
    cases = [(x.T > 10, a.T > 10, x.T, a.T), (a > 10, a > 10, x, a),
             ((dt.asarray(2, device=device), [1, 0]), (2, [1, 0]), x, a)]
    for key, np_key, xs, as_ in cases:
        assert_same(xs[key], as_[np_key], device=device)
        xs[key] = 7
        as_[np_key] = 7
        assert_same(x, a)
    x[[1, 2]] = np.array([[1.5] * 6, [2.5] * 6])  # NumPy's unsafe cast, through Python
    a[[1, 2]] = np.array([[1.5] * 6, [2.5] * 6])
    assert_same(x, a)
    assert seen.count("get") == 3 and seen.count("set") == 4


def test_device_keys_in_c_errors_and_references(device, index_path):
    """Out-of-range indices raise NumPy's IndexError from the kernels and
    write nothing; keys that would raise elsewhere get Python's messages;
    no reference is left on the key, its items or the value."""
    import sys
    if device == "cpu":
        pytest.skip("the C path of device keys")
    x, a = pair((4, 6), device)
    idx = dt.asarray([1, 9], device=device)
    lst = [1, 0]
    val = dt.asarray(np.arange(12.0).reshape(2, 6), device=device).astype(dt.int64)
    before = [sys.getrefcount(o) for o in (x, idx, lst, val)]
    for _ in range(3):
        with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
            x[idx]
        with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with size 4"):
            x[idx] = val
        with pytest.raises(IndexError, match="index 9 is out of bounds for axis 1 with size 6"):
            x[:, [9]] = 0
        with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be broadcast"):
            x[[0, 1], [0, 1, 2]]
        with pytest.raises(IndexError, match="too many indices for array"):
            x[[0], [0], [0]]
        with pytest.raises(ValueError, match="could not be broadcast to indexing result"):
            x[lst] = dt.zeros(5, dtype=dt.int64, device=device)
        assert_same(x[lst], a[lst], device=device)
        x[lst] = val
        a[lst] = np.arange(12).reshape(2, 6)
        assert_same(x, a)
    assert [sys.getrefcount(o) for o in (x, idx, lst, val)] == before
    sanity()


@requires_cuda
def test_index_loops_of_more_than_24_dimensions(index_path):
    """A gather, claim and scatter whose loop keeps 25 dimensions after
    coalescing (a broadcast index whose strides alternate with zeros):
    cuda_index.cu runs them as one launch per index of the dimensions past
    kMaxDims (run_strided_index; Note [Offset calculator] in cuda_loops.cu).
    2^25 elements, one device, one path: the emulation takes seconds."""
    if index_path != "fast":
        pytest.skip("one path is enough for the launch split")
    device = CUDA_DEVICES[0]
    shape = (2,) * 25
    idx = np.random.default_rng(3).integers(-7, 7, size=tuple(2 if d % 2 == 0 else 1 for d in range(25)))
    a = np.arange(7, dtype=np.int8)
    x = dt.asarray(a, device=device)
    key = dt.broadcast_to(dt.asarray(idx, device=device), shape)
    before = _launches()
    assert_same(x[key], a[np.broadcast_to(idx, shape)], device=device)
    x[key] = dt.asarray(np.int8(5), device=device)
    a[np.broadcast_to(idx, shape)] = 5
    assert_same(x, a)
    counts = _launches()
    if counts is not None:  # emulated: each kernel ran as two launches, one per outer index
        assert {k: counts[k] - before.get(k, 0) for k in ("k_gather", "k_claim", "k_scatter")} == \
            {"k_gather": 2, "k_claim": 2, "k_scatter": 2}


def _launches():
    """Launches per kernel family on the emulated devices (None on a GPU)."""
    if not dt.cuda.is_emulated():
        return None
    from devtensor import _cuda_emu
    counts = {}
    for name, n in _cuda_emu._kernel_launches():
        family = name.split("::")[-1].split("<")[0]
        counts[family] = counts.get(family, 0) + n
    return counts


def test_zero_d_integer_keys_are_integers(device):
    """Note [0-d integer keys] (csrc/python/index.c): a 0-d integer CPU tensor
    indexes as its value, in C, on a tensor of any device: views, element
    copies, assignment and in-place updates as with Python ints, NumPy's
    errors; 0-d tensors of other kinds keep their meaning."""
    a = np.arange(24.0).reshape(4, 6)
    t = dt.asarray(a.copy(), device=device)
    idx = dt.arange(6)
    i, j = idx[2], idx[3]  # 0-d int64 CPU tensors
    assert float(t[i, j]) == a[2, 3] and t[i].shape == (6,) and dt.shares_memory(t[i], t)
    assert t[i, j].shape == () and t[-idx[1], j].tolist() == a[-1, 3]
    t[i, j] = -1.0
    t[i, j] += 10.0
    assert float(t[2, 3]) == 9.0
    assert t[i, 1:j].tolist() == a[2, 1:3].tolist() and t[None, i].shape == (1, 6)
    for dtype in (dt.uint8, dt.int16, dt.uint64):
        assert t[dt.asarray(1, dtype=dtype), 0].tolist() == a[1, 0]
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
        t[dt.asarray(7)]
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 4"):
        t[np.int64(7)]
    big = dt.asarray(2**64 - 1, dtype=dt.uint64)
    with pytest.raises((IndexError, OverflowError)):
        t[big]
    assert t[dt.asarray(True)].shape == (1, 4, 6)  # a 0-d bool is a mask, as NumPy's
    with pytest.raises(IndexError):
        t[dt.asarray(1.0)]



@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced", "strided"])
def test_masks_over_mergeable_and_other_axes(device, layout):
    """Note [Masks over mergeable axes]: a mask of several axes, over axes
    that merge (one flat index) or not (a coordinate per axis), reads and
    writes NumPy's elements in NumPy's order."""
    rng = np.random.default_rng(17)
    base = rng.standard_normal((4, 5, 6))
    view = {"contiguous": lambda b: b, "transposed": lambda b: b.transpose(2, 0, 1),
            "sliced": lambda b: b[1:, :, 1:5], "strided": lambda b: b[:, ::2, :]}[layout]
    a, t = view(base.copy()), view(dt.asarray(base, device=device))
    whole, tail, head = a > 0.3, a[0] > 0, a[:, :, 0] > 0  # over all axes, the last two, the first two
    for key in ((whole,), (slice(None), tail), (slice(1, 3), tail), (Ellipsis, tail), (head,), (head, 1)):
        dkey = tuple(dt.asarray(k, device=device) if isinstance(k, np.ndarray) else k for k in key)
        np.testing.assert_array_equal(to_np(t[dkey]), a[key])
        copy_t, copy_a = t.copy(), a.copy()
        copy_t[dkey] = -1.0
        copy_a[key] = -1.0
        np.testing.assert_array_equal(to_np(copy_t), copy_a)
        values = np.arange(a[key].size, dtype=float).reshape(a[key].shape)
        copy_t[dkey] = dt.asarray(values, device=device)
        copy_a[key] = values
        np.testing.assert_array_equal(to_np(copy_t), copy_a)


def test_range_objects_index_as_sequences(device):
    """NumPy and PyTorch take a range as an integer sequence (D2L's
    y_hat[range(len(y_hat)), y] and weight[range(i), range(o), :, :] = k)."""
    a = np.arange(24.0).reshape(4, 6)
    t = dt.asarray(a, device=device)
    for key in (range(3), (range(3), range(3)), (slice(None), range(0, 6, 2)), (range(2), 1), range(0),
                (range(4), dt.asarray([5, 0, 2, 1], device=device))):
        np_key = tuple(k.cpu().numpy() if isinstance(k, dt.Tensor) else k for k in key) \
            if isinstance(key, tuple) else key
        np.testing.assert_array_equal(to_np(t[key]), a[np_key])
    b = a.copy()
    b[range(3), range(3)] = -1
    t[range(3), range(3)] = -1
    np.testing.assert_array_equal(to_np(t), b)
    b[range(3, 0, -1)] = a[:3]
    t[range(3, 0, -1)] = dt.asarray(a[:3], device=device)
    np.testing.assert_array_equal(to_np(t), b)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        t[range(2, 5)]
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        t[range(2, 5)] = 0
    np.testing.assert_array_equal(to_np(t), b)  # nothing written
    with pytest.raises(IndexError, match="only integers, slices"):  # too long for an index array, as NumPy's
        t[range(10**20)]
