"""Backend switches, with PyTorch's names:

    devtensor.backends.cuda.matmul.allow_tf32 = True

lets float32 (and complex64) matrix products on CUDA devices use
TensorFloat-32 tensor-core arithmetic (about 10 bits of mantissa in the
products, sums in float32): much faster on Ampere and later, less precise.
It is off by default, so products keep float32's precision and NumPy's
answers, as PyTorch's default is since 1.12.  The CPU ignores it.
"""
from . import _C


def _get_tf32(self):
    return _C._allow_tf32()


def _set_tf32(self, value):
    _C._allow_tf32(bool(value))


class _MatmulSettings:
    """devtensor.backends.cuda.matmul"""
    allow_tf32 = property(_get_tf32, _set_tf32)

    def __repr__(self):
        return f"<devtensor.backends.cuda.matmul allow_tf32={self.allow_tf32}>"


class _CudaSettings:
    """devtensor.backends.cuda"""
    matmul = _MatmulSettings()


cuda = _CudaSettings()


class _CudnnSettings:
    """devtensor.backends.cudnn: PyTorch's flags that seeding and setup code
    sets.  devtensor calls no cuDNN: benchmark and deterministic are kept
    and change nothing (its kernels pick no algorithm by timing, and runs
    repeat: Note [Deterministic algorithms]); allow_tf32 is the matmul switch
    (cuDNN's convolutions are devtensor's matrix products)."""
    enabled = True
    benchmark = False
    deterministic = False
    allow_tf32 = property(_get_tf32, _set_tf32)  # the matmul switch

    @staticmethod
    def is_available():
        return False

    @staticmethod
    def version():
        return None


cudnn = _CudnnSettings()
