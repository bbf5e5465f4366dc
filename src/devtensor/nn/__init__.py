"""devtensor.nn: PyTorch's module API (Module, Parameter, layers, losses,
functional, init) on devtensor tensors, on every device.

devtensor has no autograd yet: modules compute forward passes, parameters
carry a requires_grad flag, and zero_grad() does nothing (see Module).
"""
from . import functional, init  # noqa: F401
from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, SiLU, Sigmoid, Softmax, Softplus, Tanh  # noqa: F401
from .container import ModuleList, Sequential  # noqa: F401
from .linear import Identity, LazyLinear, Linear  # noqa: F401
from .loss import BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss  # noqa: F401
from .module import Module  # noqa: F401
from .parameter import Parameter, UninitializedParameter  # noqa: F401
from .shape import Dropout, Flatten  # noqa: F401

__all__ = ["Module", "Parameter", "UninitializedParameter", "Linear", "LazyLinear", "Identity",
           "Sequential", "ModuleList", "ReLU", "LeakyReLU", "SiLU", "Softplus", "Sigmoid", "Tanh", "GELU",
           "Softmax", "LogSoftmax", "Flatten", "Dropout", "MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss",
           "BCEWithLogitsLoss", "functional", "init"]
