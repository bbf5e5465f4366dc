"""The device helpers of Dive into Deep Learning's GPU section (d2l.try_gpu & co)."""
from . import cuda
from ._C import device


def num_gpus():
    """The number of CUDA devices (0 without a GPU)."""
    return cuda.device_count()


def try_gpu(i=0):
    """cuda:i if it exists, otherwise the cpu."""
    if num_gpus() >= i + 1:
        return device(f"cuda:{i}")
    return device("cpu")


def try_all_gpus():
    """Every CUDA device, or [cpu] if there is none."""
    devices = [device(f"cuda:{i}") for i in range(num_gpus())]
    return devices if devices else [device("cpu")]
