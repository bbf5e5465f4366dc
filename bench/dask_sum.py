"""da.sum of 10**8 float32 on a two-worker dask.distributed LocalCluster,
with devtensor chunks against NumPy chunks, measured in the same run:

    python bench/dask_sum.py [--n N] [--chunks K] [--repeat R] [--json FILE]

Both arrays are made on the workers (da.random, each backend's generator)
and persisted first, so the timings are of the reduction alone: Dask's
graph, the per-chunk sums in the workers, and the combine.  Each timing is
the best of R runs, the two kinds alternating.  The ratio is NumPy's time
over devtensor's (above 1: devtensor faster).  The chunks' devices follow
--device (cpu by default; cuda:0 with a GPU).
"""
import argparse
import datetime
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def best_time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv=None):
    import dask
    import dask.array as da
    import numpy as np
    from distributed import Client, LocalCluster, wait

    import devtensor as dt

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**8)
    parser.add_argument("--chunks", type=int, default=0,
                        help="number of chunks (default: Dask's automatic chunk size, 128 MiB)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    chunk = -(-args.n // args.chunks) if args.chunks else "auto"

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        x_np = da.random.default_rng(0).random(args.n, chunks=chunk, dtype=np.float32)
        meta = dt.empty((), device=args.device)
        with dask.config.set({"array.backend": "devtensor"}):
            x_dt = da.random.default_rng(0).random(args.n, chunks=chunk, dtype=np.float32)
        if args.device != "cpu":
            x_dt = x_dt.to_backend("devtensor", device=args.device)
        x_np, x_dt = client.persist([x_np, x_dt])
        wait([x_np, x_dt])
        assert isinstance(x_dt._meta, dt.Tensor) and x_dt._meta.device == meta.device
        assert x_dt.chunks == x_np.chunks
        nchunks = x_np.numblocks[0]
        s_np, s_dt = x_np.sum().compute(), x_dt.sum().compute()
        # each sum against float64 sums of the same chunks (different generators, different data)
        ref_np = x_np.astype(np.float64).sum().compute()
        ref_dt = float(x_dt.astype(np.float64).sum().compute())
        assert abs(float(s_np) - ref_np) <= 1e-5 * ref_np and abs(float(s_dt) - ref_dt) <= 1e-5 * ref_dt
        t_np = t_dt = float("inf")
        for _ in range(args.repeat):
            t_np = min(t_np, best_time(lambda: x_np.sum().compute(), 1))
            t_dt = min(t_dt, best_time(lambda: x_dt.sum().compute(), 1))
        threads = client.run(lambda: __import__("devtensor").get_num_threads())

    row = {"n": args.n, "chunks": nchunks, "device": args.device, "numpy_s": t_np,
           "devtensor_s": t_dt, "ratio_numpy_over_devtensor": t_np / t_dt,
           "devtensor_threads_per_worker": sorted(set(threads.values())),
           "sum_numpy_chunks": float(s_np), "sum_devtensor_chunks": float(s_dt)}
    print(f"da.sum of {args.n:.0e} float32 in {nchunks} chunks, two workers, one thread each")
    print(f"  NumPy chunks      {t_np * 1e3:8.1f} ms")
    print(f"  devtensor chunks  {t_dt * 1e3:8.1f} ms  ({args.device}; devtensor threads per "
          f"worker: {row['devtensor_threads_per_worker']})")
    print(f"  ratio NumPy / devtensor: {row['ratio_numpy_over_devtensor']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": datetime.date.today().isoformat(), "machine": platform.machine(),
                       "cpus": os.cpu_count(), "numpy": np.__version__, "dask": dask.__version__,
                       "rows": [row]}, f, indent=1)


if __name__ == "__main__":
    main()
