"""Host memory: big blocks are 2 MiB-aligned and reused by exact size
(Note [Host block cache]); reuse must never leak old values or alias live
tensors."""
import os

import numpy as np

import devtensor as dt
from helpers import run_python

BIG = (8 << 20) // 8  # 8 MiB of float64


CACHE_ON = os.environ.get("DEVTENSOR_CPU_CACHE_BYTES", "") != "0"


def test_reused_block_is_filled_afresh():
    a = dt.full((BIG,), 7.0)
    ptr = a.data_ptr()
    del a
    b = dt.zeros(BIG)
    if CACHE_ON:
        assert b.data_ptr() == ptr  # the freed block came back from the cache
    assert float(dt.maximum(b, 0).numpy().max()) == 0.0


def test_live_tensors_never_share_a_cached_block():
    ts = [dt.ones(BIG) * i for i in range(4)]
    assert len({t.data_ptr() for t in ts}) == 4
    for i, t in enumerate(ts):
        np.testing.assert_array_equal(t.numpy()[:3], [i, i, i])


def test_big_blocks_are_huge_page_aligned():
    assert dt.empty(BIG).data_ptr() % (2 << 20) == 0


def test_cache_can_be_turned_off():
    code = ("import devtensor as dt\n"
            "a = dt.ones(1 << 20); p = a.data_ptr(); del a\n"
            "b = dt.ones(1 << 20) + 1\n"
            "print(float(b.numpy().sum()))\n")
    r = run_python(code, env_update={"DEVTENSOR_CPU_CACHE_BYTES": "0"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(2.0 * (1 << 20))
