"""Aliasing is about memory, not storage objects (Note [Overlap is about memory]):
two wraps of one buffer overlap; setitem, out= and in-place operators read what
they overwrite first, with NumPy's results; may_share_memory and shares_memory
follow NumPy's."""
import numpy as np
import pytest

import devtensor as dt
from helpers import assert_same, to_np

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None


def two_wraps(n=10):
    """(t, u, a): two tensors over one NumPy buffer, made separately."""
    a = np.arange(float(n))
    return dt.asarray(a), dt.from_dlpack(a), a


def test_the_issue_example_setitem_through_a_second_wrap():
    t = dt.arange(10.0)
    u = dt.asarray(t.numpy())
    assert not u._same_storage(t)
    t[1:] = u[:-1]
    assert t.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]


@pytest.mark.parametrize("case", [
    ("setitem", lambda x, y: x.__setitem__(slice(1, None), y[:-1])),
    ("setitem-rev", lambda x, y: x.__setitem__(Ellipsis, y[::-1])),
    ("setitem-bcast", lambda x, y: x.__setitem__(slice(2, 8), y[3])),
    ("out", lambda x, y: np.add(y[:-1], 1, out=x[1:])),
    ("out-rev", lambda x, y: np.multiply(y, y[::-1], out=x)),
    ("iadd-rev", lambda x, y: x.__iadd__(y[::-1])),
    ("iadd-shift", lambda x, y: x[2:].__iadd__(y[:-2])),
    ("isub-same", lambda x, y: x.__isub__(y)),
], ids=lambda c: c[0])
def test_overlapping_writes_match_numpy(case):
    _, f = case
    t, u, _ = two_wraps()
    f(t, u)
    a = np.arange(10.0)
    f(a, a)
    np.testing.assert_array_equal(to_np(t), a)


def test_overlap_within_one_tensor_on_every_device(device):
    t = dt.arange(10.0, device=device)
    t[1:] = t[:-1]
    a = np.arange(10.0)
    a[1:] = a[:-1]
    assert_same(t, a)
    t = dt.arange(10.0, device=device)
    dt.add(t[:-2], t[2:], out=t[1:-1])
    a = np.arange(10.0)
    np.add(a[:-2], a[2:], out=a[1:-1])
    assert_same(t, a)


def test_overlapping_cast_setitem():
    a = np.arange(8, dtype=np.int32)
    t = dt.asarray(a)
    v = dt.asarray(a.view(np.int16))  # the same bytes seen as int16
    t[:4] = v[2:6]
    a2 = np.arange(8, dtype=np.int32)
    a2[:4] = a2.view(np.int16)[2:6].copy()
    np.testing.assert_array_equal(to_np(t), a2)


def test_disjoint_views_are_not_copied_needlessly():
    t, u, _ = two_wraps()
    assert not dt.may_share_memory(t[:5], u[5:])
    t[:5] = u[5:]
    assert t.tolist()[:5] == [5.0, 6.0, 7.0, 8.0, 9.0]


# ---- may_share_memory / shares_memory ----

def test_may_share_memory_is_a_bounds_test():
    t = dt.arange(10.0)
    assert dt.may_share_memory(t[::2], t[1::2])          # bounds overlap
    assert not dt.shares_memory(t[::2], t[1::2])         # but no element is shared
    assert dt.shares_memory(t[:5], t[4:])
    assert not dt.may_share_memory(t[:5], t[5:])
    assert not dt.may_share_memory(t, dt.arange(10.0))
    assert dt.may_share_memory(t[::2], t[1::2], max_work=-1) is False  # exact, as NumPy


def test_shares_memory_across_wraps_and_devices(device):
    t, u, _ = two_wraps()
    assert dt.shares_memory(t, u) and dt.may_share_memory(t[3:4], u[3:4])
    d = dt.arange(6.0, device=device)
    assert dt.shares_memory(d[1:4], d[3:])
    assert not dt.shares_memory(d[:3], d[3:])
    assert not dt.shares_memory(dt.zeros(0, device=device), d)
    if device != "cpu":
        assert not dt.may_share_memory(d, d.cpu())


def test_shares_memory_accepts_arrays_and_lists():
    a = np.arange(4)
    assert dt.shares_memory(a, dt.asarray(a))
    assert not dt.shares_memory([1, 2], [1, 2])


if given is not None:
    @st.composite
    def slices(draw, n):
        start = draw(st.integers(-n - 2, n + 2))
        stop = draw(st.integers(-n - 2, n + 2))
        step = draw(st.integers(1, 4)) * draw(st.sampled_from([1, -1]))
        return slice(start, stop, step)

    @given(st.data())
    def test_shares_memory_matches_numpy(data):
        a = np.arange(24.0).reshape(4, 6)
        k1 = (data.draw(slices(4)), data.draw(slices(6)))
        k2 = (data.draw(slices(4)), data.draw(slices(6)))
        t = dt.asarray(a)
        u = dt.from_dlpack(a)
        assert dt.shares_memory(t[k1], u[k2]) == np.shares_memory(a[k1], a[k2])
        assert dt.may_share_memory(t[k1], u[k2]) == np.may_share_memory(a[k1], a[k2])

    @given(st.data())
    def test_overlapping_setitem_matches_numpy(data):
        a = np.arange(30.0)
        k1 = data.draw(slices(30))
        n = len(range(*k1.indices(30)))
        start = data.draw(st.integers(0, 30))
        step = data.draw(st.sampled_from([1, -1, 2, -2]))
        k2 = slice(start, None, step)
        src = a[k2][:n]
        if src.shape[0] not in (n, 1):
            return
        t = dt.asarray(a.copy())
        u = dt.asarray(t.numpy())
        t[k1] = u[k2][:n]
        # as if the source were read first (NumPy's ufunc rule).  NumPy's own 1-D
        # setitem skips that check when both strides have one sign and can
        # differ (a[0:-1:2] = a[:15] smears); devtensor does not.
        expected = a.copy()
        expected[k1] = expected[k2][:n].copy()
        np.testing.assert_array_equal(to_np(t), expected)
