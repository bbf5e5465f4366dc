"""devtensor.nn: PyTorch's module API (Module, Parameter, layers, losses,
functional, init) on devtensor tensors, on every device.

devtensor has no autograd yet: modules compute forward passes, parameters
carry a requires_grad flag, and zero_grad() does nothing (see Module).
"""
from . import functional, init, utils  # noqa: F401
from . import activation, adaptive, attention, container, conv, distance, linear, loss, normalization, padding, pooling, rnn, shape, sparse, transformer
from .activation import *  # noqa: F401,F403
from .adaptive import *  # noqa: F401,F403
from .attention import *  # noqa: F401,F403
from .container import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .distance import *  # noqa: F401,F403
from .linear import *  # noqa: F401,F403
from .loss import *  # noqa: F401,F403
from .lazy import LazyModuleMixin  # noqa: F401
from .module import Module  # noqa: F401
from .normalization import *  # noqa: F401,F403
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter  # noqa: F401
from .padding import *  # noqa: F401,F403
from .pooling import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .sparse import *  # noqa: F401,F403
from .transformer import *  # noqa: F401,F403

__all__ = (["Module", "Parameter", "UninitializedParameter", "UninitializedBuffer", "LazyModuleMixin", "functional", "init", "utils"] + activation.__all__ + adaptive.__all__ + attention.__all__ +
           container.__all__ + conv.__all__ + distance.__all__ + linear.__all__ + loss.__all__ + normalization.__all__ +
           padding.__all__ + pooling.__all__ + rnn.__all__ + shape.__all__ + sparse.__all__ + transformer.__all__)
