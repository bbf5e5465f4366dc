"""A chunked computation larger than one worker's share of memory, on a
two-worker dask.distributed cluster with devtensor chunks, timed against
the same with NumPy chunks and against NumPy in one process:

    python examples/dask.py [--rows N] [--cols K] [--device DEV] [--quick]

The data: N x K float32 samples drawn on the workers, chunked by rows, each
worker drawing and holding about half of the chunks: neither holds the
whole array, as on a larger cluster.  The work: standardise every column
(mean and standard deviation: a pass over the data), then the K x K
correlation matrix y.T @ y / N (a second pass and a product per chunk,
summed across chunks), which only the final sum brings to one place.
The correlation matrix's diagonal is 1 whatever the numbers drawn, which
checks each result; the three runs draw different numbers (different
generators), so only that and the shape are compared.  Drawing the numbers
(persisted on the workers first) and the correlation are timed apart.
"""
import argparse
import os
import sys
import time

# this file is named dask.py: its folder must not shadow the dask package
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))


def correlation(x):
    """The correlation matrix of x's columns, for a NumPy-like x."""
    y = (x - x.mean(axis=0)) / x.std(axis=0)
    return (y.T @ y) / x.shape[0]


def check(name, corr, cols, drawn, seconds):
    import numpy as np
    c = corr.cpu().numpy() if hasattr(corr, "cpu") else np.asarray(corr)
    assert c.shape == (cols, cols), c.shape
    diag_error = float(np.abs(np.diag(c) - 1).max())
    assert diag_error < 1e-2, (name, diag_error)  # float32 products over millions of rows
    off = float(np.abs(c - np.diag(np.diag(c))).max())
    print(f"  {name:<30} draw {drawn * 1e3:8.1f} ms, correlation {seconds * 1e3:8.1f} ms; "
          f"diagonal within {diag_error:.1e} of 1, largest correlation {off:.3f}")
    return drawn, seconds


def main(argv=None):
    import dask
    import dask.array as da
    import numpy as np
    from distributed import Client, LocalCluster, wait

    import devtensor as dt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=4_000_000)
    parser.add_argument("--cols", type=int, default=32)
    parser.add_argument("--device", default="cpu", help="the chunks' device (cuda:0 with a GPU)")
    parser.add_argument("--quick", action="store_true", help="a small run (tests use it)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows = 200_000
    rows, cols = args.rows, args.cols
    nbytes = rows * cols * 4
    chunk_rows = max(1, rows // 16)
    print(f"{rows} x {cols} float32 ({nbytes / 2**20:.0f} MiB) in {-(-rows // chunk_rows)} chunks; "
          f"two workers, one thread each, each holding about half of them")

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        rows_out = []
        for kind in ("devtensor", "numpy"):
            with dask.config.set({"array.backend": kind}):
                x = da.random.default_rng(0).standard_normal(
                    (rows, cols), chunks=(chunk_rows, cols), dtype=np.float32)
            if kind == "devtensor" and args.device != "cpu":
                x = x.to_backend("devtensor", device=args.device)
            start = time.perf_counter()
            x = client.persist(x)
            wait(x)
            drawn = time.perf_counter() - start
            start = time.perf_counter()
            c = correlation(x).compute()
            took = time.perf_counter() - start
            assert isinstance(c, dt.Tensor) == (kind == "devtensor")
            where = f" ({args.device})" if kind == "devtensor" else ""
            rows_out.append(check(f"Dask, {kind} chunks{where}", c, cols, drawn, took))
            client.cancel(x)  # free the workers' memory for the next kind
            del x

    start = time.perf_counter()
    a = np.random.default_rng(0).standard_normal((rows, cols), dtype=np.float32)
    drawn = time.perf_counter() - start
    start = time.perf_counter()
    c = correlation(a)
    rows_out.append(check("NumPy in this process", c, cols, drawn, time.perf_counter() - start))
    (d_draw, d_work), (n_draw, n_work), (o_draw, o_work) = rows_out
    print(f"  the correlation, NumPy chunks / devtensor chunks: {n_work / d_work:.2f}; "
          f"NumPy in one process / devtensor chunks: {o_work / d_work:.2f}")
    print(f"  drawing the numbers, NumPy chunks / devtensor chunks: {n_draw / d_draw:.2f} "
          f"(NumPy's ziggurat against devtensor's Philox and Box-Muller)")


if __name__ == "__main__":
    main()
