"""devtensor.random.default_rng / Generator and NumPy's legacy random functions:
reproducibility on every device, the distributions against their exact laws
(chi-square with fixed seeds), shapes, devices, and NumPy's errors."""
import math

import numpy as np
import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, same_error, to_np


def rng(seed=1):
    return dt.random.default_rng(seed)


def chi_square_ok(samples, pmf, support):
    """samples (ints) follow pmf on support: the chi-square statistic over bins of
    expected count >= 20 (tails merged) stays below a loose bound (p ~ 1e-9)."""
    n = samples.size
    counts = np.array([np.count_nonzero(samples == k) for k in support], dtype=float)
    expected = np.array([pmf(k) for k in support]) * n
    outside = n - counts.sum()
    assert outside <= max(5, 1e-3 * n), f"{outside} samples outside the tested support"
    keep = expected >= 20
    obs = np.append(counts[keep], counts[~keep].sum() + outside)
    exp = np.append(expected[keep], n - expected[keep].sum())
    if exp[-1] < 20:
        obs, exp = obs[:-1], exp[:-1]
    stat = float(((obs - exp) ** 2 / exp).sum())
    df = len(obs) - 1
    bound = df + 8 * math.sqrt(2 * df) + 20
    assert stat < bound, (stat, bound, df)


def binomial_pmf(n, p):
    return lambda k: math.comb(n, k) * p ** k * (1 - p) ** (n - k) if 0 <= k <= n else 0.0


def poisson_pmf(lam):
    return lambda k: math.exp(-lam + k * math.log(lam) - math.lgamma(k + 1)) if lam else float(k == 0)


def sample_count(device):
    return 40000 if device == "cpu" else 10000


# ---- reproducibility ----
DRAWS = [
    ("random", lambda g, d: g.random(50, device=d)),
    ("random32", lambda g, d: g.random((5, 4), dtype=dt.float32, device=d)),
    ("standard_normal", lambda g, d: g.standard_normal(50, device=d)),
    ("uniform", lambda g, d: g.uniform(-2, 3, 50, device=d)),
    ("normal", lambda g, d: g.normal(1, 2, 50, device=d)),
    ("integers", lambda g, d: g.integers(-5, 5, 50, device=d)),
    ("integers8", lambda g, d: g.integers(100, size=50, dtype=dt.int8, device=d)),
    ("permutation", lambda g, d: g.permutation(50, device=d)),
    ("choice", lambda g, d: g.choice(10, 50, device=d)),
    ("choice_p", lambda g, d: g.choice(4, 50, p=[0.1, 0.2, 0.3, 0.4], device=d)),
    ("choice_noreplace", lambda g, d: g.choice(50, 20, replace=False, device=d)),
]


@pytest.mark.parametrize("name,draw", DRAWS, ids=[d[0] for d in DRAWS])
def test_one_seed_same_numbers_on_every_device(name, draw):
    values = [to_np(draw(rng(7), d)) for d in ["cpu"] + CUDA_DEVICES]
    for v in values[1:]:
        np.testing.assert_array_equal(v, values[0])
    again = to_np(draw(rng(7), "cpu"))
    np.testing.assert_array_equal(again, values[0])
    assert not np.array_equal(to_np(draw(rng(8), "cpu")), values[0])


def test_streams_advance_and_are_independent():
    g = rng(3)
    a, b = to_np(g.random(10)), to_np(g.random(10))
    assert not np.array_equal(a, b)
    h = rng(3)
    np.testing.assert_array_equal(to_np(h.random(10)), a)
    dt.random.seed(3)
    dt.random.random(10)  # the module's stream does not move a Generator's
    np.testing.assert_array_equal(to_np(h.random(10)), b)
    assert dt.random.default_rng(g) is g
    assert repr(g) == "Generator(Philox4x32-10) [devtensor]"
    sq = np.random.SeedSequence(5)
    np.testing.assert_array_equal(to_np(rng(sq).random(4)), to_np(rng(5).random(4)))


LEGACY = [lambda: dt.random.random(4), lambda: dt.random.choice(5, 3),
          lambda: dt.random.permutation(6), lambda: dt.random.binomial(10, 0.5, 4),
          lambda: dt.random.poisson(2.0, 4), lambda: dt.random.exponential(1.0, 3),
          lambda: dt.random.standard_normal(3)]


def test_legacy_functions_follow_seed():
    dt.random.seed(11)
    first = [to_np(f()) for f in LEGACY]
    dt.random.seed(11)
    again = [to_np(f()) for f in LEGACY]
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert dt.random.random_sample is dt.random.random
    x = dt.arange(10)
    dt.random.shuffle(x)
    assert sorted(to_np(x).tolist()) == list(range(10))


# ---- continuous draws ----
def test_continuous_moments(device):
    g = rng(2)
    n = sample_count(device)
    u = to_np(g.random(n, device=device))
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    v = to_np(g.uniform(-2, 6, n, device=device))
    assert v.min() >= -2 and v.max() < 6 and abs(v.mean() - 2) < 0.08
    z = to_np(g.normal(3, 2, n, device=device))
    assert abs(z.mean() - 3) < 0.06 and abs(z.std() - 2) < 0.05
    e = to_np(g.exponential(2.0, n, device=device))
    assert e.min() >= 0 and abs(e.mean() - 2) < 0.06 and abs(e.std() - 2) < 0.08
    s = to_np(g.standard_normal(n, dtype=dt.float32, device=device))
    assert s.dtype == np.float32 and abs(s.std() - 1) < 0.03


def test_array_parameters_broadcast_and_set_the_device(device):
    g = rng(4)
    lo = dt.asarray([0.0, 10.0, 100.0], device=device)
    u = g.uniform(lo, lo + 1, size=(2000, 3))
    assert u.device == dt.device(device) and u.shape == (2000, 3)
    h = to_np(u)
    assert np.all((h >= to_np(lo)) & (h < to_np(lo) + 1))
    z = g.normal(dt.asarray([0.0, 50.0], device=device), [1.0, 0.0])
    assert z.device == dt.device(device) and to_np(z)[1] == 50.0
    k = g.integers(dt.asarray([0, 100], device=device), [10, 200], size=(500, 2))
    hk = to_np(k)
    assert hk.dtype == np.int64 and hk[:, 0].max() < 10 and hk[:, 1].min() >= 100
    b = g.binomial(dt.asarray([5, 500], device=device), [0.5, 0.1])
    assert b.device == dt.device(device) and b.shape == (2,) and b.dtype == dt.int64


def test_out_and_dtypes(device):
    g = rng(5)
    out = dt.empty(6, dtype=dt.float32, device=device)
    assert g.random(dtype=dt.float32, out=out) is out and float(dt.max(out)) < 1
    assert g.standard_normal(size=6, out=out, dtype=dt.float32) is out
    with pytest.raises(TypeError, match="Supplied output array has the wrong type"):
        g.random(out=out)  # float64 into float32, as NumPy's message says
    with pytest.raises(ValueError, match="size must match out.shape"):
        g.random(size=5, dtype=dt.float32, out=out)


# ---- discrete distributions against their laws ----
@pytest.mark.parametrize("n,p", [(10, 0.3), (5, 0.95), (40, 0.2), (100, 0.5), (1000, 0.7),
                                 (3000, 0.01), (60, 0.9)])
def test_binomial_law(device, n, p):
    x = to_np(rng(n).binomial(n, p, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= n
    mean, sd = n * p, math.sqrt(n * p * (1 - p))
    support = range(max(0, int(mean - 8 * sd) - 2), min(n, int(mean + 8 * sd) + 2) + 1)
    chi_square_ok(x, binomial_pmf(n, p), support)


@pytest.mark.parametrize("lam", [0.0, 0.5, 3.0, 9.9, 10.0, 30.0, 1000.0])
def test_poisson_law(device, lam):
    x = to_np(rng(int(lam) + 1).poisson(lam, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 0
    sd = math.sqrt(lam)
    support = range(max(0, int(lam - 8 * sd) - 2), int(lam + 8 * sd) + 10)
    chi_square_ok(x, poisson_pmf(lam), support)


def test_binomial_and_poisson_edges(device):
    g = rng(6)
    assert to_np(g.binomial(0, 0.5, 5, device=device)).tolist() == [0] * 5
    assert to_np(g.binomial(7, 1.0, 3, device=device)).tolist() == [7] * 3
    assert to_np(g.binomial(7, 0.0, 3, device=device)).tolist() == [0] * 3
    assert to_np(g.binomial(5.9, 1.0, 2, device=device)).tolist() == [5, 5]  # n truncated
    assert to_np(g.poisson(0.0, 4, device=device)).tolist() == [0] * 4
    assert g.binomial(3, 0.5).shape == () and g.poisson(size=(2, 3)).shape == (2, 3)


# ---- choice and permutations ----
def test_choice_with_probabilities(device):
    p = [0.1, 0.2, 0.3, 0.4, 0.0]
    x = to_np(rng(9).choice(5, sample_count(device), p=p, device=device))
    chi_square_ok(x, lambda k: p[k], range(5))
    assert not np.any(x == 4)


def test_choice_without_replacement(device):
    g = rng(10)
    for _ in range(3):
        s = to_np(g.choice(20, 20, replace=False, device=device))
        assert sorted(s.tolist()) == list(range(20))
    # weighted without replacement: the heaviest item comes first most often
    p = np.array([0.7, 0.1, 0.1, 0.1])
    firsts = [int(to_np(g.choice(4, 2, replace=False, p=p, device=device))[0])
              for _ in range(200)]
    assert firsts.count(0) > 110
    picks = to_np(g.choice(4, 3, replace=False, p=[0.4, 0.3, 0.3, 0.0], device=device))
    assert sorted(picks.tolist()) == [0, 1, 2]


def test_choice_of_a_population(device):
    g = rng(12)
    pop = dt.asarray([[1, 2], [3, 4], [5, 6]], device=device)
    rows = g.choice(pop, 4)
    assert rows.shape == (4, 2) and rows.device == dt.device(device)
    assert all(r in ([1, 2], [3, 4], [5, 6]) for r in to_np(rows).tolist())
    cols = g.choice(pop, 3, axis=1)
    assert cols.shape == (3, 3)
    one = g.choice([10, 20, 30])
    assert one.shape == () and int(one) in (10, 20, 30)
    assert g.choice(5, (2, 3)).shape == (2, 3)


def test_permutations(device):
    g = rng(13)
    p = to_np(g.permutation(100, device=device))
    assert sorted(p.tolist()) == list(range(100)) and p.tolist() != list(range(100))
    x = dt.arange(12, device=device).reshape(3, 4)
    rows = to_np(g.permutation(x))
    assert sorted(map(tuple, rows.tolist())) == [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)]
    cols = to_np(g.permutation(x, axis=1))
    assert sorted(cols[0].tolist()) == [0, 1, 2, 3] and (cols[1] - cols[0]).tolist() == [4] * 4
    each = to_np(g.permuted(x, axis=1))
    assert all(sorted(r) == list(range(4 * i, 4 * i + 4)) for i, r in enumerate(each.tolist()))
    flat = to_np(g.permuted(x))
    assert sorted(flat.reshape(-1).tolist()) == list(range(12))
    out = dt.empty_like(x)
    assert g.permuted(x, axis=0, out=out) is out
    y = dt.arange(10.0, device=device)
    g.shuffle(y)
    assert sorted(to_np(y).tolist()) == list(range(10)) and y.device == dt.device(device)
    items = list("abcdef")
    g.shuffle(items)
    assert sorted(items) == list("abcdef")


# ---- NumPy's errors ----
ERRORS = [
    lambda g: g.choice(0, 2),
    lambda g: g.choice([], 2),
    lambda g: g.choice(5, 6, replace=False),
    lambda g: g.choice(3, p=[0.5, 0.5]),
    lambda g: g.choice(3, p=[0.5, 0.6, -0.1]),
    lambda g: g.choice(3, p=[0.5, 0.6, 0.1]),
    lambda g: g.choice(3, 3, replace=False, p=[0.5, 0.5, 0]),
    lambda g: g.choice(3, p=[[0.5, 0.5, 0]]),
    lambda g: g.choice(3, p=[np.nan, 0.5, 0.5]),
    lambda g: g.binomial(-1, 0.5),
    lambda g: g.binomial(3, 1.5),
    lambda g: g.binomial(3, np.nan),
    lambda g: g.poisson(-1),
    lambda g: g.poisson(1e20),
    lambda g: g.integers(5, 5),
    lambda g: g.integers(0, 300, dtype="int8"),
    lambda g: g.normal(0, -1),
    lambda g: g.exponential(-1),
    lambda g: g.uniform(0, np.inf),
    lambda g: g.random(dtype="int32"),
]


@pytest.mark.parametrize("call", ERRORS, ids=range(len(ERRORS)))
def test_errors_are_numpys(call):
    same_error(lambda: call(np.random.default_rng(0)), lambda: call(rng(0)))


def test_seed_errors():
    with pytest.raises(ValueError, match="expected non-negative integer"):
        dt.random.default_rng(-1)
    with pytest.raises(TypeError):
        dt.random.default_rng("seed")
    with pytest.raises(TypeError, match="shuffle\\(\\) expects a devtensor.Tensor or a list"):
        rng().shuffle((1, 2))
