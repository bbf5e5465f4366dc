"""python -m devtensor: the devices found, then the D2L "GPUs" section on them."""
import time

import devtensor as dt


def main():
    print(f"devtensor {dt.__version__}")
    print("devices: cpu" + "".join(f", cuda:{i}" for i in range(dt.cuda.device_count())))
    dt.cuda.smi()
    if dt.cuda.is_emulated():
        print("(emulated CUDA devices: DEVTENSOR_EMULATE_CUDA is set; the CUDA backend runs on "
              "the CPU)")
    print()

    print("# Dive into Deep Learning, 'GPUs': computing devices")
    print(">>> dt.device('cpu'), dt.device('cuda'), dt.device('cuda:1')")
    print(dt.device("cpu"), dt.device("cuda"), dt.device("cuda:1"), sep=", ")
    print(">>> dt.num_gpus(), dt.try_gpu(), dt.try_gpu(10), dt.try_all_gpus()")
    print(dt.num_gpus(), repr(dt.try_gpu()), repr(dt.try_gpu(10)), dt.try_all_gpus())

    print("\n# tensors and devices")
    x = dt.tensor([1, 2, 3])
    print(">>> x = dt.tensor([1, 2, 3]); x.device")
    print(repr(x.device))
    X = dt.ones(2, 3, device=dt.try_gpu())
    print(">>> X = dt.ones(2, 3, device=dt.try_gpu()); X")
    print(X)
    Y = dt.rand(2, 3, device=dt.try_gpu(1))
    print(">>> Y = dt.rand(2, 3, device=dt.try_gpu(1)); Y")
    print(Y)
    if dt.num_gpus() >= 2:
        Z = X.cuda(1)
        print(">>> Z = X.cuda(1); Y + Z")
        print(Y + Z)
        print(">>> Z.cuda(1) is Z")
        print(Z.cuda(1) is Z)
    else:
        print("(fewer than two GPUs: Y lives on", Y.device, "so X + Y works directly)")
        print(X + Y)
    if dt.num_gpus() >= 1:
        try:
            X + dt.ones(2, 3)
        except RuntimeError as e:
            print(">>> X + dt.ones(2, 3)   # cuda:0 and cpu")
            print("RuntimeError:", e)

    devices = dt.try_all_gpus() + ([dt.device("cpu")] if dt.num_gpus() else [])
    print("\n# exercise 1: one large matrix product against many small operations")
    for dev in devices:
        a = dt.rand(1000, 1000, device=dev)
        _sync(dev)
        t0 = time.perf_counter()
        for _ in range(10):
            c = a @ a
        _sync(dev)
        t1 = time.perf_counter()
        b = dt.rand(10, device=dev)
        for _ in range(1000):
            b = b * 1.0001 + 0.5
        _sync(dev)
        t2 = time.perf_counter()
        print(f"{str(dev):>7}: 10 products 1000x1000 {1e3 * (t1 - t0):8.2f} ms "
              f"({20 / (t1 - t0):6.1f} GFLOP/s); 1000 ops on 10 elements {1e3 * (t2 - t1):7.2f} ms")
    del c

    print("\n# exercise 3: 1000 products of 100x100, the Frobenius norm logged each step "
          "or kept on the device")
    for dev in devices:
        a, b = dt.rand(100, 100, device=dev), dt.rand(100, 100, device=dev)
        t0 = time.perf_counter()
        logged = [float(dt.linalg.norm(a @ b)) for _ in range(1000)]   # a host read each step
        t1 = time.perf_counter()
        kept = dt.stack([dt.linalg.norm(a @ b) for _ in range(1000)]).cpu()   # one transfer
        t2 = time.perf_counter()
        assert abs(logged[-1] - float(kept[-1])) <= 1e-9 * logged[-1]
        print(f"{str(dev):>7}: logged each step {1e3 * (t1 - t0):8.2f} ms; kept on the device "
              f"{1e3 * (t2 - t1):8.2f} ms")

    if dt.num_gpus() >= 2:
        print("\n# exercise 4: two products on two GPUs at once against both on one GPU")
        n = 400 if dt.cuda.is_emulated() else 4000  # emulated products are reference loops
        x0 = dt.rand(n, n, device="cuda:0")
        x1 = dt.rand(n, n, device="cuda:1")
        for x in (x0, x1):
            x @ x
            _sync(x.device)
        t0 = time.perf_counter()
        x0 @ x0, x0 @ x0
        _sync(x0.device)
        t1 = time.perf_counter()
        x0 @ x0, x1 @ x1
        _sync(x0.device), _sync(x1.device)
        t2 = time.perf_counter()
        print(f"one GPU, one after the other {1e3 * (t1 - t0):8.2f} ms; two GPUs "
              f"{1e3 * (t2 - t1):8.2f} ms")


def _sync(dev):
    if dev.type == "cuda":
        dt.cuda.synchronize(dev)

if __name__ == "__main__":
    main()
