"""devtensor.utils: PyTorch's torch.utils namespace (data: datasets and loaders)."""
from . import data  # noqa: F401

__all__ = ["data"]
