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

    print("\n# exercise 1: one large computation against many small ones")
    for dev in dt.try_all_gpus() + ([dt.device("cpu")] if dt.num_gpus() else []):
        a = dt.rand(1000, 1000, device=dev)
        t0 = time.perf_counter()
        for _ in range(10):
            a = a * 1.0001 + 0.5
        dt.cuda.synchronize(dev) if dev.type == "cuda" else None
        t1 = time.perf_counter()
        b = dt.rand(10, device=dev)
        for _ in range(1000):
            b = b * 1.0001 + 0.5
        t2 = time.perf_counter()
        print(f"{str(dev):>7}: 10 ops on 10^6 elements {1e3 * (t1 - t0):7.2f} ms;"
              f" 2000 ops on 10 elements {1e3 * (t2 - t1):7.2f} ms")


if __name__ == "__main__":
    main()
