"""Random numbers: seeding, reproducibility across devices, ranges and moments."""
import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, to_np

N = 100_000


def test_rand_shapes_and_defaults(device):
    for args, shape in (((2, 3), (2, 3)), (((2, 3),), (2, 3)), ((5,), (5,)), ((), ())):
        t = dt.rand(*args, device=device)
        assert t.shape == shape
        assert t.dtype == dt.float64
        assert t.device == dt.device(device)
    assert dt.randn(4, 2, device=device).shape == (4, 2)
    assert dt.randn(4, device=device).dtype == dt.float64


def test_top_level_is_random_module():
    dt.random.seed(123)
    a = to_np(dt.rand(10))
    dt.random.seed(123)
    b = to_np(dt.random.rand(10))
    np.testing.assert_array_equal(a, b)
    dt.random.seed(9)
    a = to_np(dt.randn(10))
    dt.random.seed(9)
    b = to_np(dt.random.randn(10))
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("fn", ["rand", "randn"])
def test_same_seed_same_numbers(fn, device):
    f = getattr(dt.random, fn)
    dt.random.seed(42)
    a = to_np(f(1000, device=device))
    b = to_np(f(1000, device=device))
    dt.random.seed(42)
    c = to_np(f(1000, device=device))
    np.testing.assert_array_equal(a, c)
    assert not np.array_equal(a, b), "the stream must advance"
    dt.random.seed(43)
    d = to_np(f(1000, device=device))
    assert not np.array_equal(a, d)


def _draw_all(device, seed=2024):
    dt.random.seed(seed)
    out = {}
    out["rand"] = to_np(dt.random.rand(3, 333, device=device))
    out["randint"] = to_np(dt.random.randint(-50, 50, size=(777,), device=device))
    out["uniform"] = to_np(dt.random.uniform(-2.0, 3.0, size=(500,), device=device))
    out["randn"] = to_np(dt.random.randn(1001, device=device))
    out["normal"] = to_np(dt.random.normal(1.5, 2.0, size=(999,), device=device))
    out["rand2"] = to_np(dt.rand(17, device=device))
    return out


@pytest.mark.parametrize("other", CUDA_DEVICES or ["cpu"])
def test_same_numbers_on_every_device(other):
    ref = _draw_all("cpu")
    got = _draw_all(other)
    for k in ("rand", "randint", "uniform", "rand2"):
        assert got[k].dtype == ref[k].dtype
        np.testing.assert_array_equal(got[k], ref[k], err_msg=k, strict=True)  # bit for bit
    # Box-Muller through log and cos: a GPU's math library may differ from the CPU's
    # by an ulp or two, and normal's mean + std * z cancels near zero, so the
    # difference is bounded in units of std (2.0 for normal, 1 for randn), not ulps
    for k, std in (("randn", 1.0), ("normal", 2.0)):
        assert got[k].dtype == ref[k].dtype
        np.testing.assert_allclose(got[k], ref[k], rtol=0, atol=std * 1e-12, err_msg=k)


def test_rand_range_and_moments(device):
    dt.random.seed(0)
    x = to_np(dt.rand(N, device=device))
    assert x.min() >= 0.0 and x.max() < 1.0
    assert abs(x.mean() - 0.5) < 0.01
    assert abs(x.var() - 1 / 12) < 0.005
    assert len(np.unique(x)) > N * 0.99


def test_rand_float32_below_one():
    dt.random.seed(1)
    x = to_np(dt.rand(N, dtype=dt.float32))
    assert x.dtype == np.float32
    assert x.min() >= 0.0 and x.max() < 1.0


def test_randn_moments(device):
    dt.random.seed(1)
    x = to_np(dt.randn(N, device=device))
    assert np.isfinite(x).all()
    assert abs(x.mean()) < 0.02
    assert abs(x.std() - 1.0) < 0.02
    assert 0.66 < np.mean(np.abs(x) < 1) < 0.70  # ~68.3%


def test_normal_moments(device):
    dt.random.seed(2)
    x = to_np(dt.random.normal(5.0, 3.0, size=(N,), device=device))
    assert x.shape == (N,) and x.dtype == np.float64
    assert abs(x.mean() - 5.0) < 0.06
    assert abs(x.std() - 3.0) < 0.06


def test_uniform_range_and_moments(device):
    dt.random.seed(3)
    x = to_np(dt.random.uniform(-2.0, 6.0, size=(N,), device=device))
    assert x.dtype == np.float64
    assert x.min() >= -2.0 and x.max() < 6.0
    assert abs(x.mean() - 2.0) < 0.06
    assert abs(x.var() - 64 / 12) < 0.15


def test_uniform_normal_shape_forms(device):
    assert dt.random.uniform(0, 1, size=(2, 3), device=device).shape == (2, 3)
    assert dt.random.uniform(0, 1, size=4, device=device).shape == (4,)
    assert dt.random.normal(0, 1, size=(3,), device=device).shape == (3,)


def test_uniform_and_normal_broadcast_array_parameters(device):
    # the legacy functions broadcast arrays of parameters, as NumPy's do (noise added to a signal)
    dt.random.seed(9)
    signal = dt.linspace(0, 1, 5, device=device)
    noisy = dt.random.normal(signal, 0.1)
    assert noisy.shape == (5,) and noisy.device == dt.device(device)
    assert float(abs(noisy - signal).max()) < 1.0
    spread = to_np(dt.random.normal(0, [1.0, 100.0], size=(4000, 2), device=device))
    assert abs(spread[:, 0].std() - 1) < 0.1 and abs(spread[:, 1].std() - 100) < 10
    zero = to_np(dt.random.normal(dt.asarray([3.0, -2.0], device=device), 0.0))
    assert zero.tolist() == [3.0, -2.0]
    u = to_np(dt.random.uniform(dt.asarray([0.0, 10.0], device=device), [1.0, 20.0], size=(3000, 2)))
    assert u[:, 0].min() >= 0 and u[:, 0].max() < 1 and u[:, 1].min() >= 10 and u[:, 1].max() < 20
    backwards = to_np(dt.random.uniform(2.0, np.array([1.0, 1.5]), size=(1000, 2)))  # high < low: NumPy's legacy
    assert backwards[:, 0].min() > 1.0 and backwards[:, 0].max() <= 2.0
    assert dt.random.normal([0.0, 1.0], 1.0, dtype=dt.float32).dtype == dt.float32
    with pytest.raises(ValueError, match="scale < 0"):
        dt.random.normal(0, [1.0, -1.0])
    with pytest.raises(ValueError, match="shape mismatch"):
        dt.random.normal(0, [1.0, 1.0], size=3)


@pytest.mark.parametrize("low,high", [(0, 10), (-5, 5), (100, 103), (0, 2), (-(2 ** 40), 2 ** 40)])
def test_randint_range(low, high, device):
    dt.random.seed(4)
    x = to_np(dt.randint(low, high, size=(20_000,), device=device))
    assert x.dtype == np.int64
    assert x.min() >= low and x.max() < high
    if high - low <= 10:
        assert set(np.unique(x).tolist()) == set(range(low, high))  # every value hit


def test_randint_single_bound(device):
    dt.random.seed(5)
    x = to_np(dt.randint(3, size=(1000,), device=device))
    assert set(np.unique(x).tolist()) == {0, 1, 2}
    y = to_np(dt.random.randint(7, size=(2, 5), device=device))
    assert y.shape == (2, 5) and y.min() >= 0 and y.max() < 7


def test_randint_uniformity():
    dt.random.seed(6)
    x = to_np(dt.randint(0, 6, size=(60_000,)))
    counts = np.bincount(x, minlength=6)
    assert np.all(np.abs(counts - 10_000) < 500)


def test_randint_dtype():
    x = dt.randint(0, 100, size=(10,), dtype=dt.int32)
    assert x.dtype == dt.int32
    assert 0 <= to_np(x).min() and to_np(x).max() < 100


@pytest.mark.parametrize("low,high", [(5, 2), (3, 3), (0, None)])
def test_randint_empty_range(low, high):
    with pytest.raises(ValueError):
        dt.randint(low, high, size=(3,))
    dt.ones(1)


def test_counts_may_be_0d_integer_tensors(device):
    """np.sum and np.argmax of integers give 0-d tensors, which NumPy code
    passes on as counts: rand(n), randn(n, n), choice(n, k), permutation(n)."""
    n = dt.sum(dt.asarray([1, 2], device=device))
    assert dt.random.rand(n, device=device).shape == (3,)
    assert dt.random.randn(n, n, device=device).shape == (3, 3)
    assert dt.random.rand((2, n), device=device).shape == (2, 3)
    assert dt.random.choice(n, 2, device=device).shape == (2,)
    assert sorted(dt.random.permutation(n, device=device).tolist()) == [0, 1, 2]
    rng = dt.random.default_rng(0)
    assert sorted(rng.permutation(n, device=device).tolist()) == [0, 1, 2]
    assert rng.choice(n, 2, replace=False, device=device).shape == (2,)
    assert dt.random.RandomState(0).rand(n).shape == (3,)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        dt.random.rand(2.0)
    with pytest.raises(TypeError):
        dt.random.rand(dt.asarray(2.0, device=device))  # a float tensor is no count, as in NumPy
    with pytest.raises(ValueError, match="a must be a sequence or an integer"):
        dt.random.choice(dt.asarray(3.0, device=device), 2)


def test_random_bad_shapes():
    with pytest.raises(ValueError):
        dt.rand(-1)
    with pytest.raises(TypeError):
        dt.rand(2.5)


def test_seed_bad_type():
    with pytest.raises(TypeError):
        dt.random.seed("abc")


def test_random_is_independent_of_shape_split():
    # Counter-based: one (n,) draw equals the same elements reshaped
    dt.random.seed(11)
    a = to_np(dt.rand(6))
    dt.random.seed(11)
    b = to_np(dt.rand(2, 3))
    np.testing.assert_array_equal(a.reshape(2, 3), b)


def philox4x32_10(counter, key):
    """Philox4x32-10 in Python: counter {lo, hi, 0, 0} of a 64-bit counter,
    key {lo, hi} of a 64-bit seed (philox.h's layout)."""
    m0, m1, w0, w1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
    c = [counter & 0xFFFFFFFF, counter >> 32, 0, 0]
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    for _ in range(10):
        p0, p1 = m0 * c[0], m1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
        k0, k1 = (k0 + w0) & 0xFFFFFFFF, (k1 + w1) & 0xFFFFFFFF
    return c


def test_philox_reference_known_answer():
    # Random123's known-answer vector for a zero counter and key
    assert philox4x32_10(0, 0) == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]


@pytest.mark.parametrize("n", [1, 7, 8, 9, 16, 24, 29, 100, 4099])
def test_generation_matches_reference_philox(device, n):
    # every backend's draws against the Python reference, across the
    # AVX-512 blocks of 16, the AVX2 blocks of eight and their tails (Note
    # [Philox in blocks]: 24 is one of each, 29 adds a scalar tail), and a
    # counter whose low word carries into the high one
    import math
    for seed, offset in ((0, 0), (2**63 + 12345, 2**32 - 5)):
        words = [philox4x32_10((offset + i) % 2**64, seed) for i in range(n)]
        first = [w[0] << 32 | w[1] for w in words]

        def draw(kind, dtype, a, b):
            t = dt._C._empty((n,), dtype, device)
            t._generate_(kind, a, b, seed, offset)
            return to_np(t)
        low, high = -2**62, 2**62
        want = [low + ((x * (high - low)) >> 64) for x in first]
        np.testing.assert_array_equal(draw(dt._C.GEN_RANDINT, dt.int64, low, high), np.array(want, np.int64))
        np.testing.assert_array_equal(draw(dt._C.GEN_UNIFORM, dt.float64, 0.0, 1.0),
                                      np.array([(x >> 11) * 2.0**-53 for x in first]))
        np.testing.assert_array_equal(draw(dt._C.GEN_UNIFORM, dt.float32, -1.0, 3.0),
                                      np.array([-1.0 + 4.0 * ((x >> 40) * 2.0**-24) for x in first], np.float32))
        def normal(w):
            u1 = (((w[0] << 32 | w[1]) >> 11) + 1) * 2.0**-53
            u2 = ((w[2] << 32 | w[3]) >> 11) * 2.0**-53
            return math.sqrt(-2.0 * math.log(u1)) * math.cos(6.283185307179586 * u2)
        np.testing.assert_allclose(draw(dt._C.GEN_NORMAL, dt.float64, 0.0, 1.0), list(map(normal, words)), rtol=1e-13, atol=1e-15)


def test_seed_takes_numpys_keyword():
    dt.random.seed(seed=7)
    a = dt.random.random(3)
    dt.random.seed(7)
    assert np.array_equal(to_np(a), to_np(dt.random.random(3)))


def test_generators_pickle_and_copy(device):
    """Generators, their Philox and RandomState pickle and deep-copy as
    NumPy's do: the copy continues the stream from the same point,
    independently; objects sharing a stream share it in one pickle."""
    import copy
    import pickle
    g = dt.random.default_rng(7)
    g.random(5, device=device)
    for clone in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert isinstance(clone, dt.random.Generator) and isinstance(clone.bit_generator, dt.random.Philox)
        assert clone.bit_generator.state == g.bit_generator.state
        want = to_np(clone.random(6, device=device))
        assert clone.bit_generator.state != g.bit_generator.state  # independent streams
    np.testing.assert_array_equal(to_np(g.random(6, device=device)), want)
    both = pickle.loads(pickle.dumps([g, g.bit_generator]))
    both[0].random(3)
    assert both[1].state == both[0].bit_generator.state and both[1] is both[0].bit_generator
    r = dt.random.RandomState(3)
    r.rand(2)
    r2 = pickle.loads(pickle.dumps(r))
    np.testing.assert_array_equal(to_np(r.randn(4, device=device)), to_np(r2.randn(4, device=device)))
    torch_style = dt.Generator().manual_seed(11)
    twin = copy.deepcopy(torch_style)
    np.testing.assert_array_equal(to_np(dt.rand(5, generator=torch_style)), to_np(dt.rand(5, generator=twin)))
