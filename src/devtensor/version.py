"""devtensor.version: devtensor's version, and the CUDA runtime its CUDA
backend was built against, under the names PyTorch's torch.version and
NumPy's numpy.version give them (PyTorch code reads torch.version.cuda;
before this module, devtensor.version fell through to numpy.version)."""
__version__ = version = full_version = short_version = "0.1.0"
release = True
hip = None


def _cuda_version():
    """"13.0" from the CUDA backend's build, or None without one (as
    torch.version.cuda is None in a CPU-only build)."""
    try:
        from . import _cuda
    except ImportError:
        return None
    return getattr(_cuda, "CUDA_VERSION", None)


cuda = _cuda_version()
