"""devtensor.cuda: CUDA devices, memory, streams and events.

Everything here works on a machine without a GPU: is_available() is False,
device_count() is 0, why_unavailable() says why, and nothing is printed.
With DEVTENSOR_EMULATE_CUDA=N set before import, N emulated devices (the
CUDA backend executed on the CPU, devtensor._cuda_emu, for tests) take the
place of real ones.
"""
from . import _C
from ._C import OutOfMemoryError, device as _device_type  # noqa: F401

__all__ = [
    "is_available", "device_count", "why_unavailable", "is_emulated", "current_device",
    "set_device", "synchronize", "get_device_name", "get_device_properties",
    "get_device_capability", "can_device_access_peer", "device", "memory_allocated",
    "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats",
    "reset_peak_memory_stats", "empty_cache", "mem_get_info", "memory_summary", "Stream",
    "Event", "current_stream", "default_stream", "stream", "smi", "OutOfMemoryError",
    "manual_seed", "manual_seed_all", "is_bf16_supported", "amp",
]


def is_available():
    """True if at least one CUDA device can be used."""
    return _C._cuda_device_count() > 0


def device_count():
    """The number of CUDA devices (0, quietly, without a GPU)."""
    return _C._cuda_device_count()


def why_unavailable():
    """None when CUDA is available; otherwise why not (built without CUDA,
    no driver, or no device)."""
    return _C._cuda_why_unavailable()


def is_emulated():
    """True when DEVTENSOR_EMULATE_CUDA runs the real CUDA backend on the CPU
    (devtensor._cuda_emu): its devices' memory is host memory too."""
    return _C._cuda_is_emulated()


def _index(device):
    """A CUDA device index from None (current), an int, 'cuda:N' or a device."""
    if device is None:
        return current_device()
    if isinstance(device, int) and not isinstance(device, bool):
        d = _device_type("cuda", device)
    else:
        d = _device_type(device)
    if d.type != "cuda":
        raise ValueError(f"expected a CUDA device, got {d}")
    return current_device() if d.index is None else d.index


def current_device():
    """The index of the current CUDA device of this thread."""
    return _C._cuda_current_device()


def set_device(device):
    """Make `device` the current CUDA device of this thread (a negative index
    changes nothing, as PyTorch's)."""
    if isinstance(device, int) and not isinstance(device, bool) and device < 0:
        return
    _C._cuda_set_device(_index(device))


def synchronize(device=None):
    """Wait for all work queued on the device: the current one for None (as
    PyTorch), every device for "all" (work on several GPUs at once)."""
    if isinstance(device, str) and device == "all":
        for index in range(device_count()):
            _C._cuda_synchronize(index)
        return
    _C._cuda_synchronize(_index(device))


class _DeviceProperties:
    __slots__ = ("name", "total_memory", "multi_processor_count", "major", "minor")

    def __init__(self, name, total_memory, multi_processor_count, major, minor):
        self.name = name
        self.total_memory = total_memory
        self.multi_processor_count = multi_processor_count
        self.major = major
        self.minor = minor

    def __repr__(self):
        return (f"_DeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // 2**20}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None):
    """Name, total memory, multiprocessor count and compute capability."""
    return _DeviceProperties(*_C._cuda_device_properties(_index(device)))


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


def is_bf16_supported(including_emulation=True):
    """Whether the current device computes in bfloat16: every CUDA device
    devtensor runs on does (its bfloat16 kernels compute in float32, as
    PyTorch's do where the hardware has no bfloat16 units); False without
    a device, as PyTorch's."""
    return is_available()


class amp:
    """devtensor.cuda.amp: PyTorch's autocast, changing nothing (devtensor
    has no automatic mixed precision), for scripts that use it."""

    @staticmethod
    def autocast(enabled=True, dtype=None, cache_enabled=True):
        from ._torch_setup import autocast
        return autocast("cuda", dtype=dtype, enabled=enabled)


def can_device_access_peer(device, peer_device):
    return _C._cuda_can_access_peer(_index(device), _index(peer_device))


class device:
    """Context manager that makes `idx` the current CUDA device, then restores it."""

    def __init__(self, idx):
        self.idx = None if idx is None or (isinstance(idx, int) and idx < 0) else _index(idx)
        self.prev = None

    def __enter__(self):
        if self.idx is not None:
            self.prev = current_device()
            set_device(self.idx)
        return self

    def __exit__(self, *exc):
        if self.prev is not None:
            set_device(self.prev)
        return False


# ---- memory ----

def memory_stats(device=None):
    """The caching allocator's counters for a device: allocated_bytes,
    reserved_bytes and their max_ forms, num_alloc, num_device_alloc, and
    the same figures under PyTorch's keys ("allocated_bytes.all.current",
    "allocated_bytes.all.peak", "reserved_bytes.all.current",
    "reserved_bytes.all.peak"); without CUDA none, as PyTorch's (an empty
    dict, and 0 from memory_allocated and its kin, so logging code runs)."""
    if not is_available():
        return {}
    stats = _C._cuda_memory_stats(_index(device))
    for ours, theirs in (("allocated_bytes", "allocated_bytes.all"), ("reserved_bytes", "reserved_bytes.all")):
        stats[theirs + ".current"] = stats[ours]
        stats[theirs + ".peak"] = stats["max_" + ours]
    return stats


def memory_allocated(device=None):
    """Bytes held by live tensors on the device."""
    return memory_stats(device).get("allocated_bytes", 0)


def max_memory_allocated(device=None):
    return memory_stats(device).get("max_allocated_bytes", 0)


def memory_reserved(device=None):
    """Bytes devtensor holds from the device, cached blocks included."""
    return memory_stats(device).get("reserved_bytes", 0)


def max_memory_reserved(device=None):
    return memory_stats(device).get("max_reserved_bytes", 0)


def reset_peak_memory_stats(device=None):
    _C._cuda_reset_peak_memory_stats(_index(device))


def empty_cache():
    """Return cached, unused blocks of every device to the driver."""
    _C._cuda_empty_cache()


def mem_get_info(device=None):
    """(free, total) bytes of the device, as the driver reports them."""
    return _C._cuda_mem_get_info(_index(device))


def _mib(n):
    return f"{n / 2**20:10.1f} MiB"


def memory_summary(device=None):
    """A short table of the device's memory statistics."""
    i = _index(device)
    s = memory_stats(i)
    free, total = mem_get_info(i)
    rows = [
        ("allocated (live tensors)", s["allocated_bytes"]),
        ("allocated, peak", s["max_allocated_bytes"]),
        ("reserved (with cache)", s["reserved_bytes"]),
        ("reserved, peak", s["max_reserved_bytes"]),
        ("device free", free),
        ("device total", total),
    ]
    lines = [f"devtensor memory summary, cuda:{i} ({get_device_name(i)})"]
    lines += [f"  {name:<26}{_mib(value)}" for name, value in rows]
    lines.append(f"  {'allocations':<26}{s['num_alloc']:>14} ({s['num_device_alloc']} from the device)")
    return "\n".join(lines)


def manual_seed(seed):
    """PyTorch's torch.cuda.manual_seed: devtensor's one generator serves every
    device (counter-based streams, the same numbers everywhere), so this is
    devtensor.manual_seed."""
    from ._torch_names import manual_seed as seed_all
    seed_all(seed)


manual_seed_all = manual_seed


# ---- streams and events ----

# Stream and Event are C types that own their backend handles: see
# Note [Stream and event ownership] in csrc/python/stream_type.c.  A handle
# is destroyed exactly once, when its object goes; a current stream is kept
# alive by its device's current-stream slot; copies are the object itself
# and pickling raises TypeError.
Stream = _C._CudaStream
Event = _C._CudaEvent


def current_stream(device=None):
    """The current stream of a device in this thread: the Stream object made
    current (by `with stream(s)`), else the device's default stream."""
    return _C._cuda_current_stream(_index(device))


def default_stream(device=None):
    """The default stream of a device (one object per device)."""
    return _C._cuda_default_stream(_index(device))


class stream:
    """Context manager that makes `s` the current stream of its device and,
    as PyTorch's torch.cuda.stream, its device the current device while it
    is open (None: no-op)."""

    def __init__(self, s):
        if s is not None and not isinstance(s, Stream):
            raise TypeError(f"stream(s): expected a devtensor.cuda.Stream or None, "
                            f"got {type(s).__name__}")
        self.s = s
        self.prev_device = None

    def __enter__(self):
        if self.s is not None:
            here, there = current_device(), self.s.device.index
            self.s.__enter__()
            if there != here:
                set_device(there)
                self.prev_device = here
        return self.s

    def __exit__(self, *exc):
        if self.s is not None:
            if self.prev_device is not None:
                set_device(self.prev_device)
                self.prev_device = None
            self.s.__exit__(*exc)
        return False


# ---- the device table ----

class _Utilization:
    """GPU utilisation from NVML, loaded at run time only where the driver
    ships it (libnvidia-ml); None everywhere else.  NVML numbers devices in
    PCI order, as CUDA does unless CUDA_VISIBLE_DEVICES or
    CUDA_DEVICE_ORDER reorder them; then utilisation is not shown."""

    _lib = None
    _tried = False

    @classmethod
    def _load(cls):
        import ctypes
        import os
        cls._tried = True
        if os.environ.get("CUDA_VISIBLE_DEVICES") or \
                os.environ.get("CUDA_DEVICE_ORDER", "PCI_BUS_ID") != "PCI_BUS_ID":
            return
        try:
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            if lib.nvmlInit_v2() == 0:
                cls._lib = lib
        except (OSError, AttributeError):
            pass

    @classmethod
    def percent(cls, index):
        import ctypes
        if not cls._tried:
            cls._load()
        if cls._lib is None:
            return None

        class Rates(ctypes.Structure):
            _fields_ = [("gpu", ctypes.c_uint), ("memory", ctypes.c_uint)]

        handle, rates = ctypes.c_void_p(), Rates()
        if cls._lib.nvmlDeviceGetHandleByIndex_v2(index, ctypes.byref(handle)) != 0 or \
                cls._lib.nvmlDeviceGetUtilizationRates(handle, ctypes.byref(rates)) != 0:
            return None
        return rates.gpu


def smi(file=None):
    """Print a table of the CUDA devices with what nvidia-smi shows that
    matters: index, name, memory used and total, devtensor's own allocated
    and reserved memory, and utilisation where NVML reports it."""
    import sys
    out = file or sys.stdout
    n = device_count()
    if n == 0:
        print(f"CUDA: not available ({why_unavailable()})", file=out)
        return
    print(f"{'idx':>3}  {'name':<44} {'used / total MiB':>20} {'dt alloc / reserved MiB':>25}"
          f" {'util':>5}", file=out)
    for i in range(n):
        p = get_device_properties(i)
        free, total = mem_get_info(i)
        s = memory_stats(i)
        used = (total - free) / 2**20
        util = None if is_emulated() else _Utilization.percent(i)
        print(f"{i:>3}  {p.name[:44]:<44} {used:>9.0f} / {total / 2**20:<8.0f} "
              f"{s['allocated_bytes'] / 2**20:>12.1f} / {s['reserved_bytes'] / 2**20:<10.1f}"
              f" {('-' if util is None else f'{util}%'):>5}", file=out)
