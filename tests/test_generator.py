"""devtensor.random.default_rng / Generator and NumPy's legacy random functions:
reproducibility on every device, the distributions against their exact laws
(chi-square for counts, Kolmogorov-Smirnov against CDFs written with math for
floats, fixed seeds), shapes, devices, and NumPy's errors."""
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
    # normals: Box-Muller's log and cos are libmvec's on the CPU, the C
    # library's or CUDA's on a device (Note [Normals through vector math] in
    # cpu_random.c): a few ulp of the unit-scale z, so absolutely (z crosses 0)
    same_numbers_on_every_device(draw, atol=1e-13 if name in ("standard_normal", "normal") else 0.0)


def same_numbers_on_every_device(draw, rtol=0.0, atol=0.0):
    """draw(generator, device) gives the same numbers on every device: bit for bit,
    or to rtol/atol where log/exp/cos round differently on the cpu and on a GPU."""
    values = [to_np(draw(rng(7), d)) for d in ["cpu"] + CUDA_DEVICES]
    for v in values[1:]:
        if rtol or atol:
            np.testing.assert_allclose(v, values[0], rtol=rtol, atol=atol)
        else:
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


# ---- NumPy's further laws: exact CDFs written with math (no SciPy) ----
def ks_ok(samples, cdf, points=400):
    """samples follow the continuous cdf: the Kolmogorov-Smirnov distance, taken
    at `points` order statistics (ties counted), stays below 2.5 / sqrt(n)
    (p ~ 1e-5; the seeds are fixed, so a wrong law fails every run)."""
    x = np.sort(np.asarray(samples, dtype=np.float64).ravel())
    n = x.size
    assert not np.isnan(x).any()
    at = x[np.unique(np.linspace(0, n - 1, points).astype(int))]
    f = np.array([cdf(float(v)) for v in at])
    below = np.searchsorted(x, at, side="left") / n
    upto = np.searchsorted(x, at, side="right") / n
    distance = max(np.abs(f - below).max(), np.abs(f - upto).max())
    assert distance < 2.5 / math.sqrt(n), (distance, 2.5 / math.sqrt(n))


def normal_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2))


def gamma_cdf(a, x):
    """The regularised lower incomplete gamma P(a, x): series below a + 1,
    Lentz's continued fraction for 1 - P above."""
    if x <= 0:
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-16:
            k += 1
            term *= x / k
            total += term
        return total * math.exp(log_front)
    b, c, d = x + 1 - a, 1e300, 1 / (x + 1 - a)
    h = d
    for i in range(1, 10000):
        an = -i * (i - a)
        b += 2
        d = 1 / (an * d + b or 1e-300)
        c = b + an / c or 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return 1 - math.exp(log_front) * h


def _beta_fraction(a, b, x):
    c, d = 1.0, 1 / (1 - (a + b) * x / (a + 1) or 1e-300)
    h = d
    for m in range(1, 10000):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 / (1 + aa * d or 1e-300)
            c = 1 + aa / c or 1e-300
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def beta_cdf(a, b, x):
    """The regularised incomplete beta I_x(a, b) (continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) +
                     b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_cdf(nu, t):
    tail = 0.5 * beta_cdf(nu / 2, 0.5, nu / (nu + t * t))
    return 1 - tail if t > 0 else tail


def wald_cdf(mu, lam, x):
    if x <= 0:
        return 0.0
    r = math.sqrt(lam / x)
    return normal_cdf(r * (x / mu - 1)) + math.exp(2 * lam / mu) * normal_cdf(-r * (x / mu + 1))


def triangular_cdf(a, c, b, x):
    if x <= a:
        return 0.0
    if x >= b:
        return 1.0
    if x <= c:
        return (x - a) ** 2 / ((b - a) * (c - a))
    return 1 - (b - x) ** 2 / ((b - a) * (b - c))


def laplace_cdf(mu, s, x):
    return 0.5 * math.exp((x - mu) / s) if x < mu else 1 - 0.5 * math.exp(-(x - mu) / s)


CONTINUOUS = [
    ("standard_exponential", lambda g, n, d: g.standard_exponential(n, device=d),
     lambda x: -math.expm1(-x) if x > 0 else 0.0),
    ("standard_gamma_0.05", lambda g, n, d: g.standard_gamma(0.05, n, device=d),
     lambda x: gamma_cdf(0.05, x)),
    ("gamma_0.3", lambda g, n, d: g.gamma(0.3, 2.0, n, device=d), lambda x: gamma_cdf(0.3, x / 2)),
    ("gamma_1", lambda g, n, d: g.gamma(1.0, 0.5, n, device=d), lambda x: gamma_cdf(1.0, x / 0.5)),
    ("gamma_7.5", lambda g, n, d: g.gamma(7.5, 3.0, n, device=d), lambda x: gamma_cdf(7.5, x / 3)),
    ("gamma_500", lambda g, n, d: g.gamma(500.0, 1.0, n, device=d), lambda x: gamma_cdf(500.0, x)),
    ("beta_0.5_0.5", lambda g, n, d: g.beta(0.5, 0.5, n, device=d), lambda x: beta_cdf(0.5, 0.5, x)),
    ("beta_2_5", lambda g, n, d: g.beta(2.0, 5.0, n, device=d), lambda x: beta_cdf(2.0, 5.0, x)),
    ("beta_0.2_3", lambda g, n, d: g.beta(0.2, 3.0, n, device=d), lambda x: beta_cdf(0.2, 3.0, x)),
    ("chisquare_3", lambda g, n, d: g.chisquare(3, n, device=d), lambda x: gamma_cdf(1.5, x / 2)),
    ("f_5_8", lambda g, n, d: g.f(5, 8, n, device=d),
     lambda x: beta_cdf(2.5, 4.0, 5 * x / (5 * x + 8)) if x > 0 else 0.0),
    ("standard_t_1", lambda g, n, d: g.standard_t(1, n, device=d), lambda x: 0.5 + math.atan(x) / math.pi),
    ("standard_t_5.5", lambda g, n, d: g.standard_t(5.5, n, device=d), lambda x: t_cdf(5.5, x)),
    ("lognormal", lambda g, n, d: g.lognormal(0.5, 0.8, n, device=d),
     lambda x: normal_cdf((math.log(x) - 0.5) / 0.8) if x > 0 else 0.0),
    ("laplace", lambda g, n, d: g.laplace(1.0, 2.0, n, device=d), lambda x: laplace_cdf(1.0, 2.0, x)),
    ("logistic", lambda g, n, d: g.logistic(-1.0, 0.5, n, device=d),
     lambda x: 1 / (1 + math.exp(-(x + 1) / 0.5))),
    ("gumbel", lambda g, n, d: g.gumbel(2.0, 3.0, n, device=d), lambda x: math.exp(-math.exp(-(x - 2) / 3))),
    ("weibull", lambda g, n, d: g.weibull(1.7, n, device=d),
     lambda x: -math.expm1(-x ** 1.7) if x > 0 else 0.0),
    ("pareto", lambda g, n, d: g.pareto(2.5, n, device=d), lambda x: 1 - (1 + x) ** -2.5 if x > 0 else 0.0),
    ("power", lambda g, n, d: g.power(0.4, n, device=d), lambda x: min(max(x, 0.0), 1.0) ** 0.4),
    ("rayleigh", lambda g, n, d: g.rayleigh(1.5, n, device=d),
     lambda x: -math.expm1(-x * x / (2 * 1.5 ** 2)) if x > 0 else 0.0),
    ("wald_1_2", lambda g, n, d: g.wald(1.0, 2.0, n, device=d), lambda x: wald_cdf(1.0, 2.0, x)),
    ("wald_3_0.5", lambda g, n, d: g.wald(3.0, 0.5, n, device=d), lambda x: wald_cdf(3.0, 0.5, x)),
    ("triangular", lambda g, n, d: g.triangular(-1.0, 0.5, 3.0, n, device=d),
     lambda x: triangular_cdf(-1.0, 0.5, 3.0, x)),
    ("triangular_at_left", lambda g, n, d: g.triangular(0.0, 0.0, 1.0, n, device=d),
     lambda x: triangular_cdf(0.0, 0.0, 1.0, x) if x < 1 else 1.0),
]


@pytest.mark.parametrize("name,draw,cdf", CONTINUOUS, ids=[c[0] for c in CONTINUOUS])
def test_continuous_law(device, name, draw, cdf):
    x = draw(rng(len(name)), 200000 if device == "cpu" else 10000, device)  # KS finds a 3% scale error
    assert x.device == dt.device(device) and x.dtype == dt.float64
    ks_ok(to_np(x), cdf)


def test_array_parameters_keep_their_elements(device):
    """Each column gets its own parameters through the rejection rounds."""
    g = rng(21)
    n = sample_count(device) // 4
    shapes = dt.asarray([0.3, 4.0, 1.0], device=device)
    x = to_np(g.gamma(shapes, [1.0, 2.0, 0.5], size=(n, 3)))
    for column, (a, s) in enumerate([(0.3, 1.0), (4.0, 2.0), (1.0, 0.5)]):
        ks_ok(x[:, column], lambda v: gamma_cdf(a, v / s))
    k = to_np(g.negative_binomial(dt.asarray([[1.5], [40.0]], device=device), 0.4, size=(2, n)))
    for row, r in enumerate([1.5, 40.0]):
        mean = r * 0.6 / 0.4
        chi_square_ok(k[row], negative_binomial_pmf(r, 0.4), range(int(mean + 12 * math.sqrt(mean / 0.4)) + 10))


def test_tiny_shapes_do_not_underflow_to_nan(device):
    g = rng(22)
    b = to_np(g.beta(1e-3, 2e-3, 4000, device=device))
    assert not np.isnan(b).any() and b.min() >= 0 and b.max() <= 1
    assert abs(np.mean(b > 0.5) - 1 / 3) < 0.04  # P(X > 1/2) -> a / (a + b) as a, b -> 0
    d = to_np(g.dirichlet([1e-3, 1e-3, 2e-3], 2000, device=device))
    assert not np.isnan(d).any()
    np.testing.assert_allclose(d.sum(axis=-1), 1.0, rtol=1e-12)
    assert to_np(g.standard_gamma(0.0, 3, device=device)).tolist() == [0.0] * 3
    assert to_np(g.weibull(0.0, 2, device=device)).tolist() == [0.0] * 2
    assert np.isnan(to_np(g.gamma(np.nan, size=2, device=device))).all()


def geometric_pmf(p):
    return lambda k: p * (1 - p) ** (k - 1) if k >= 1 else 0.0


def negative_binomial_pmf(r, p):
    return lambda k: math.exp(math.lgamma(k + r) - math.lgamma(r) - math.lgamma(k + 1) + r * math.log(p) +
                              k * math.log1p(-p))


@pytest.mark.parametrize("p", [0.02, 0.3, 0.75, 1.0])
def test_geometric_law(device, p):
    x = to_np(rng(int(100 * p)).geometric(p, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 1
    chi_square_ok(x, geometric_pmf(p), range(1, int(40 / p) + 2))


@pytest.mark.parametrize("r,p", [(0.5, 0.9), (2.5, 0.3), (60.0, 0.5), (1.0, 1.0)])
def test_negative_binomial_law(device, r, p):
    x = to_np(rng(int(10 * r)).negative_binomial(r, p, sample_count(device), device=device))
    assert x.dtype == np.int64 and x.min() >= 0
    mean = r * (1 - p) / p
    chi_square_ok(x, negative_binomial_pmf(r, p) if p < 1 else (lambda k: float(k == 0)),
                  range(int(mean + 12 * math.sqrt(mean / p)) + 10))


def test_dirichlet_law(device):
    alpha = [0.5, 2.0, 3.5]
    n = sample_count(device) // 4
    x = rng(23).dirichlet(dt.asarray(alpha, device=device), n)
    assert x.shape == (n, 3) and x.device == dt.device(device)
    h = to_np(x)
    np.testing.assert_allclose(h.sum(axis=-1), 1.0, rtol=1e-12)
    for i, a in enumerate(alpha):  # each marginal is Beta(a_i, sum - a_i)
        ks_ok(h[:, i], lambda v: beta_cdf(a, sum(alpha) - a, v))


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_law(device, method):
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, -0.4], [0.6, 1.0, 0.3], [-0.4, 0.3, 1.5]])
    n = sample_count(device) // 2
    x = rng(24).multivariate_normal(mean, dt.asarray(cov, device=device), n, method=method)
    assert x.shape == (n, 3) and x.device == dt.device(device) and x.dtype == dt.float64
    h = to_np(x)
    for w in ([1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.3, 1.0, -1.0], [1.0, -2.0, 0.5]):
        w = np.array(w)  # w . X is normal with mean w . mean and variance w' cov w
        m, s = float(w @ mean), math.sqrt(float(w @ cov @ w))
        ks_ok(h @ w, lambda v: normal_cdf((v - m) / s))


def multinomial_pmf(n, p):
    def pmf(code):
        a, b = divmod(code, n + 1)
        c = n - a - b
        if c < 0:
            return 0.0
        return math.factorial(n) / (math.factorial(a) * math.factorial(b) * math.factorial(c)) * \
            p[0] ** a * p[1] ** b * p[2] ** c
    return pmf


def test_multinomial_law(device):
    g = rng(25)
    n = sample_count(device) // 2
    p = [0.2, 0.3, 0.5]
    x = to_np(g.multinomial(5, p, n, device=device))
    assert x.dtype == np.int64 and x.shape == (n, 3) and (x.sum(axis=-1) == 5).all()
    chi_square_ok(x[:, 0] * 6 + x[:, 1], multinomial_pmf(5, p), range(36))  # the joint law
    big = to_np(g.multinomial(1000, [0.1, 0.6, 0.3], n // 4, device=device))
    assert (big.sum(axis=-1) == 1000).all()
    for i, q in enumerate([0.1, 0.6, 0.3]):  # marginals: Binomial(1000, p_i), the last one too
        mean, sd = 1000 * q, math.sqrt(1000 * q * (1 - q))
        chi_square_ok(big[:, i], binomial_pmf(1000, q), range(int(mean - 8 * sd), int(mean + 8 * sd)))
    edge = to_np(g.multinomial([0, 3], [[0.5, 0.5, 0.0], [0.0, 1.0, 0.0]], device=device))
    assert edge.tolist() == [[0, 0, 0], [0, 3, 0]]


LAWS = [
    ("standard_exponential", lambda g, d: g.standard_exponential(20, device=d)),
    ("standard_gamma", lambda g, d: g.standard_gamma([0.5, 3.0], (10, 2), device=d)),
    ("gamma", lambda g, d: g.gamma(2.0, 3.0, 20, device=d)),
    ("beta", lambda g, d: g.beta(0.5, 2.0, 20, device=d)),
    ("chisquare", lambda g, d: g.chisquare(3.0, 20, device=d)),
    ("f", lambda g, d: g.f(3.0, 7.0, 20, device=d)),
    ("standard_t", lambda g, d: g.standard_t(4.0, 20, device=d)),
    ("lognormal", lambda g, d: g.lognormal(1.0, 0.5, 20, device=d)),
    ("laplace", lambda g, d: g.laplace(1.0, 2.0, 20, device=d)),
    ("logistic", lambda g, d: g.logistic(1.0, 2.0, 20, device=d)),
    ("gumbel", lambda g, d: g.gumbel(1.0, 2.0, 20, device=d)),
    ("weibull", lambda g, d: g.weibull(1.5, 20, device=d)),
    ("pareto", lambda g, d: g.pareto(3.0, 20, device=d)),
    ("power", lambda g, d: g.power(3.0, 20, device=d)),
    ("rayleigh", lambda g, d: g.rayleigh(2.0, 20, device=d)),
    ("wald", lambda g, d: g.wald(1.0, 2.0, 20, device=d)),
    ("triangular", lambda g, d: g.triangular(0.0, 1.0, 3.0, 20, device=d)),
    ("geometric", lambda g, d: g.geometric(0.3, 20, device=d)),
    ("negative_binomial", lambda g, d: g.negative_binomial([2.5, 30.0], 0.4, (10, 2), device=d)),
    ("dirichlet", lambda g, d: g.dirichlet([0.5, 1.0, 4.0], 6, device=d)),
    ("multivariate_normal", lambda g, d: g.multivariate_normal([1.0, 2.0], [[2.0, 1.0], [1.0, 2.0]], 8,
                                                                device=d)),
    ("multinomial", lambda g, d: g.multinomial(30, [0.2, 0.3, 0.5], 8, device=d)),
]


@pytest.mark.parametrize("name,draw", LAWS, ids=[d[0] for d in LAWS])
def test_further_laws_same_numbers_on_every_device(name, draw):
    exact = name in ("geometric", "negative_binomial", "multinomial")  # counts: bit for bit
    same_numbers_on_every_device(draw, rtol=0.0 if exact else 1e-12)


def test_further_laws_shapes_and_devices(device):
    g = rng(26)
    col = dt.asarray([1.0, 2.0], device=device)
    row = dt.asarray([[1.0], [3.0], [5.0]], device=device)
    cases = [
        (g.gamma(col, 2.0, size=(4, 2)), (4, 2)), (g.beta(col, row), (3, 2)), (g.f(row, col), (3, 2)),
        (g.standard_gamma(col), (2,)), (g.chisquare(row, size=(2, 3, 1)), (2, 3, 1)),
        (g.standard_t(col, size=(5, 2)), (5, 2)), (g.lognormal(col, row), (3, 2)),
        (g.laplace(row, col), (3, 2)), (g.logistic(col), (2,)), (g.gumbel(0.0, row), (3, 1)),
        (g.weibull(row, size=(3, 4)), (3, 4)), (g.pareto(col), (2,)), (g.power(row), (3, 1)),
        (g.rayleigh(col), (2,)), (g.wald(col, row), (3, 2)), (g.triangular(0.0, col, row + 2.0), (3, 2)),
        (g.dirichlet(col, size=(2, 3)), (2, 3, 2)), (g.multinomial(row, [0.5, 0.5]), (3, 1, 2)),
        (g.multinomial(4, dt.asarray([[0.5, 0.5], [0.1, 0.9]], device=device), size=(3, 2)), (3, 2, 2)),
        (g.multivariate_normal(col, dt.eye(2, device=device), size=(2, 3)), (2, 3, 2)),
        (g.geometric(dt.asarray([0.5, 0.2], device=device)), (2,)),
        (g.negative_binomial(row, 0.5, size=(2, 3, 4)), (2, 3, 4)),
    ]
    for values, shape in cases:
        assert values.shape == shape and values.device == dt.device(device), (values.shape, shape)
    for draw in (lambda: g.gamma(2.0), lambda: g.wald(1.0, 1.0), lambda: g.geometric(0.5)):
        assert draw().shape == ()  # scalars in, a 0-d tensor out (as the existing laws)
    assert g.dirichlet([1.0, 2.0]).shape == (2,) and g.multinomial(3, [0.5, 0.5]).shape == (2,)
    assert g.multivariate_normal([0.0, 0.0], np.eye(2)).shape == (2,)
    assert g.standard_exponential(5, device=device).device == dt.device(device)
    assert g.geometric(0.5, 3, device=device).dtype == dt.int64
    assert g.multinomial(3, [0.5, 0.5], 0, device=device).shape == (0, 2)


def test_further_laws_out_and_dtypes(device):
    g = rng(27)
    out = dt.empty(4, dtype=dt.float32, device=device)
    assert g.standard_exponential(dtype=dt.float32, out=out) is out and float(dt.min(out)) >= 0
    assert g.standard_gamma(2.0, dtype=dt.float32, out=out) is out
    assert g.standard_gamma(2.0, size=5, dtype=dt.float32).dtype == dt.float32
    assert g.standard_exponential(size=(2, 3), method="inv").shape == (2, 3)
    with pytest.raises(ValueError, match="size must match out.shape"):
        g.standard_gamma(1.0, size=3, dtype=dt.float32, out=out)
    with pytest.raises(TypeError, match="Supplied output array has the wrong type"):
        g.standard_exponential(out=out)


def test_multivariate_normal_check_valid():
    g = rng(28)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning, match="covariance is not symmetric positive-semidefinite"):
        g.multivariate_normal([0.0, 0.0], bad)
    assert g.multivariate_normal([0.0, 0.0], bad, check_valid="ignore", method="eigh").shape == (2,)
    tolerated = g.multivariate_normal([0.0, 0.0], [[1.0, 0.0], [0.0, -1e-7]], check_valid="raise", tol=1e-6)
    assert tolerated.shape == (2,)
    with pytest.raises(TypeError):  # NumPy's Cython says "unsliceable", Python "not subscriptable"
        g.multivariate_normal([0.0, 0.0], np.eye(2), size=1.5)


FURTHER_ERRORS = [
    lambda g: g.standard_gamma(-1), lambda g: g.standard_gamma(-0.0), lambda g: g.standard_gamma([1, -1]),
    lambda g: g.standard_gamma(1, dtype="int32"), lambda g: g.standard_exponential(dtype="int32"),
    lambda g: g.gamma(-1), lambda g: g.gamma(1, -1), lambda g: g.gamma([1, 2], 1, size=3),
    lambda g: g.beta(0, 1), lambda g: g.beta(1, [1, -1]), lambda g: g.chisquare(0),
    lambda g: g.f(0, 1), lambda g: g.f(1, [1, 0]), lambda g: g.standard_t(-1),
    lambda g: g.lognormal(0, -1), lambda g: g.laplace(0, -1), lambda g: g.logistic(0, [1, -1]),
    lambda g: g.gumbel(0, -1), lambda g: g.weibull(-1), lambda g: g.pareto(0), lambda g: g.power(-1),
    lambda g: g.rayleigh(-1), lambda g: g.wald(0, 1), lambda g: g.wald(1, [1, 0]),
    lambda g: g.triangular(1, 0, 2), lambda g: g.triangular(0, 3, 2), lambda g: g.triangular(1, 1, 1),
    lambda g: g.triangular(0, [0.5, 3], [1, 2]),
    lambda g: g.geometric(0), lambda g: g.geometric(1.5), lambda g: g.geometric([0.5, np.nan]),
    lambda g: g.negative_binomial(0, 0.5), lambda g: g.negative_binomial(np.nan, 0.5),
    lambda g: g.negative_binomial(1, 0), lambda g: g.negative_binomial(1e20, 1e-20),
    lambda g: g.dirichlet([-1, 1]), lambda g: g.dirichlet(1),
    lambda g: g.multinomial(-1, [0.5, 0.5]), lambda g: g.multinomial([3, -1], [0.5, 0.5]),
    lambda g: g.multinomial(3, [0.6, 0.6, 0.1]), lambda g: g.multinomial(3, [[0.6, 0.6, 0.1]]),
    lambda g: g.multinomial(3, np.array([0.6, 0.4 + 1e-7, 0.0], dtype=np.float32)),
    lambda g: g.multinomial(3, [1.5, -0.5]), lambda g: g.multinomial(3, [np.nan, 0.5]),
    lambda g: g.multinomial(3, []), lambda g: g.multinomial(3, 0.5),
    lambda g: g.multinomial([3, 4], [0.2, 0.8], size=3),
    lambda g: g.multinomial([[3], [4]], [0.2, 0.8], size=(1,)),
    lambda g: g.multivariate_normal([0, 0], [[1, 0], [0, 1], [1, 1]]),
    lambda g: g.multivariate_normal([0, 0], np.eye(3)), lambda g: g.multivariate_normal([[0, 0]], np.eye(2)),
    lambda g: g.multivariate_normal([0, 0], np.eye(2), method="lu"),
    lambda g: g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="raise"),
    lambda g: g.multivariate_normal([0, 0], [[1, 0], [1e-7, 1]], check_valid="raise"),
    lambda g: g.multivariate_normal([0, 0], [[1, 0], [0, -1e-7]], check_valid="raise", method="eigh"),
    lambda g: g.multivariate_normal([0, 0], [[1, 2], [2, 1]], check_valid="no"),
    lambda g: g.multivariate_normal([0, 0], [[1, 2], [2, 1]], method="cholesky"),
    lambda g: g.multivariate_normal([0, 0], [[1j, 0], [0, 1]]),
    lambda g: g.binomial(np.nan, 0.5), lambda g: g.binomial([1, np.inf], 0.5),  # they used to hang
    lambda g: g.multinomial(np.nan, [0.5, 0.5]), lambda g: g.multinomial([2, np.inf], [0.5, 0.5]),
]


@pytest.mark.parametrize("call", FURTHER_ERRORS, ids=range(len(FURTHER_ERRORS)))
def test_further_laws_errors_are_numpys(call):
    same_error(lambda: call(np.random.default_rng(0)), lambda: call(rng(0)))


LEGACY_LAWS = ["standard_exponential", "standard_gamma", "gamma", "beta", "chisquare", "f", "standard_t",
               "lognormal", "laplace", "logistic", "gumbel", "weibull", "pareto", "power", "rayleigh", "wald",
               "triangular", "geometric", "negative_binomial", "dirichlet", "multivariate_normal",
               "multinomial"]
LEGACY_ARGS = {"standard_gamma": (2.0,), "gamma": (2.0,), "beta": (1.0, 2.0), "chisquare": (3.0,),
               "f": (2.0, 3.0), "standard_t": (3.0,), "weibull": (1.5,), "pareto": (2.0,), "power": (2.0,),
               "wald": (1.0, 1.0), "triangular": (0.0, 0.5, 1.0), "geometric": (0.3,),
               "negative_binomial": (2.0, 0.5), "dirichlet": ([1.0, 2.0],),
               "multivariate_normal": ([0.0, 1.0], np.eye(2)), "multinomial": (10, [0.3, 0.7])}


def test_legacy_further_laws_follow_seed(device):
    def draw_all():
        dt.random.seed(31)
        return [to_np(getattr(dt.random, name)(*LEGACY_ARGS.get(name, ()), size=3, device=device))
                for name in LEGACY_LAWS]
    first, again = draw_all(), draw_all()
    for name, a, b in zip(LEGACY_LAWS, first, again):
        assert hasattr(np.random, name)
        assert len(a) == 3, name
        np.testing.assert_array_equal(a, b)
    same_error(lambda: np.random.gamma(-1.0), lambda: dt.random.gamma(-1.0))
    same_error(lambda: np.random.dirichlet([0.0, 1.0]), lambda: dt.random.dirichlet([0.0, 1.0]))  # legacy: > 0


def test_uniform_refuses_high_below_low(device):
    """NumPy's Generator.uniform raises for high < low, scalars or any element
    of arrays (its legacy np.random.uniform allows it, and so does devtensor's)."""
    g, ng = dt.random.default_rng(0), np.random.default_rng(0)
    same_error(lambda: ng.uniform(1, 0), lambda: g.uniform(1, 0, device=device))
    same_error(lambda: ng.uniform([1, 2], [0, 3]),
               lambda: g.uniform(dt.asarray([1.0, 2.0], device=device), dt.asarray([0.0, 3.0], device=device)))
    assert g.uniform(dt.asarray([1.0, 2.0], device=device), 3.0).device == dt.device(device)
    assert dt.random.uniform(1, 0, 3).shape == np.random.uniform(1, 0, 3).shape


def test_a_normal_does_not_depend_on_where_it_sits(device):
    """Note [Normals through vector math]: a draw split in pieces gives the
    same numbers to the bit as one draw (every element takes one path: no
    scalar tail beside the vector body), and a longer draw begins with them."""
    whole = to_np(rng(7).standard_normal(20, device=device))
    g = rng(7)
    pieces = np.concatenate([to_np(g.standard_normal(n, device=device)) for n in (5, 3, 1, 11)])
    np.testing.assert_array_equal(pieces, whole)
    np.testing.assert_array_equal(to_np(rng(7).standard_normal(4099, device=device))[:20], whole)


def test_multinomial_of_no_samples_returns_at_once(device):
    """An empty batch makes no pass per category (2**40 categories hung)."""
    g = dt.random.default_rng(0)
    r = g.multinomial(2, np.zeros((0, 2**40)), device=device)
    assert r.shape == (0, 2**40) and r.dtype == dt.int64 and r.device == dt.device(device)
    assert g.multinomial(5, [0.5, 0.5], size=(0, 3), device=device).shape == (0, 3, 2)
