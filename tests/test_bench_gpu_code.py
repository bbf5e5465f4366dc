"""The GPU benchmark functions of bench/run.py run only where a GPU is lent,
so a mistake in them would cost that rare run: here they run at small sizes
on an emulated device (the timings mean nothing; the code paths are what is
tested), without CuPy or PyTorch."""
import importlib.util
import os

import pytest

import devtensor as dt
from helpers import CUDA_DEVICES, EMULATED

pytestmark = pytest.mark.skipif(not (CUDA_DEVICES and EMULATED), reason="needs an emulated CUDA device")


def _bench():
    path = os.path.join(os.path.dirname(__file__), "..", "bench", "run.py")
    spec = importlib.util.spec_from_file_location("bench_run", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_gpu_reduction_and_gather_rows_run():
    run = _bench()
    table = run.Table()
    sync = dt.cuda.synchronize
    run.bench_gpu_reductions(table, 1, sync, None, None, None, None, lambda b, s: b / s / 1e9, 1.0, n=1 << 12,
                             side=64)
    run.bench_gpu_gather(table, 1, sync, None, None, None, None, n=1 << 12)
    run.bench_gpu_sort(table, 1, sync, None, None, None, None, n=1 << 12)
    cases = [r["case"] if isinstance(r, dict) else r[1] for r in table.rows]
    assert any("sum 2^12 float32" in c for c in cases) and any("cumsum 2^12" in c for c in cases), cases
    assert any("gather" in c for c in cases), cases
    assert any("sort 2^12 float32" in c for c in cases), cases


def test_gpu_product_and_fft_rows_run():
    run = _bench()
    table = run.Table()
    sync = dt.cuda.synchronize
    run.bench_gpu_matmul(table, 1, sync, None, None, None, None, side=32, batch=(2, 16), d2l=(3, 8))
    run.bench_gpu_fft(table, 1, sync, None, None, None, None, n=1 << 10, batch=(8, 64))
    run.bench_gpu_batched_linalg(table, 1, sync, None, None, None, None, batch=3, n=4)
    run.bench_gpu_ufunc_methods(table, 1, sync, None, None, None, None, n=256, bins=8)
    cases = [r["case"] for r in table.rows]
    assert "fft 2^10 complex64" in cases and "rfft of 8 rows of 64 float32" in cases, cases
    assert "linalg.svd 3 x (4x4) float32, batched" in cases, cases
    assert "add.at 256 float32 into 8 bins" in cases and "add.reduceat 256 float32, 8 segments" in cases, cases
    assert "maximum.accumulate 256 float32" in cases, cases


def test_gpu_nn_rows_run():
    run = _bench()
    table = run.Table()
    run.bench_nn(table, "cuda:0", 1, dt.cuda.synchronize, None, None, side=32, batch=4, quick=True,
                 d2l=8)
    cases = [r["case"] for r in table.rows]
    assert "nn.Linear(32, 32)(X) batch 4 float32 (per call)" in cases, cases
    assert any(c.startswith("D2L ex. 3: 100 x (8x8 product + norm)") for c in cases), cases
    assert all(r["ratio"] is not None and r["ratio"] > 0 for r in table.rows)

