"""devtensor.lib.stride_tricks: NumPy's numpy.lib.stride_tricks on tensors:
as_strided and sliding_window_view are views on the tensor's device
(devtensor/_views.py), broadcast_to and broadcast_arrays devtensor's.

NumPy's own as_strided cannot be handed a device tensor (it has no
__array_function__ dispatch): it would apply the strides given to a compact
host copy.  This module's is the one `import devtensor as np` code reaches.
"""
from .._manipulation import broadcast_arrays  # noqa: F401
from .._views import as_strided, broadcast_to, sliding_window_view  # noqa: F401

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays"]
