"""devtensor.transfer_guard: what happens when a CUDA tensor is copied to
the host implicitly.

Note [Implicit transfers]
NumPy code moves data without saying so: np.asarray(t), float(t), `if t:`,
printing, format().  On a GPU each such move waits for the device and is a
common, silent cost (D2L's exercise 3 measures one).  The guard's mode is
"allow" (the default), "log" (a TransferWarning naming the call site) or
"disallow" (TransferGuardError before anything is copied).  Explicit moves
always work: t.cpu(), t.to("cpu"), t.get(), t.numpy(force=True), t.item(),
t.tolist().  CPU tensors are never affected.  The mode is a context
variable: `with devtensor.transfer_guard("disallow"):` applies to this
thread (and task) only; devtensor.set_transfer_guard(mode) sets the default
that every thread starts from.  The scalar reads of devtensor's own code
(bool(), int(), float() of a count or a NaN check inside nanmean, svd,
isin, ...) are its functions' synchronisations, as the counts inside unique
and boolean indexing are, and pass; a whole tensor that devtensor itself
sends to NumPy (np.asarray, as vectorize does) is still guarded, and so
are the reads that Tensor's Python methods (round(), `in`) and the
factories (zeros(t)) make of the user's tensors (_USER_LEVEL).
"""
import contextlib
import contextvars
import sys
import warnings

_MODES = ("allow", "log", "disallow")
_default = ["allow"]
_mode = contextvars.ContextVar("devtensor_transfer_guard", default=None)


class TransferWarning(UserWarning):
    """An implicit device-to-host transfer under transfer_guard("log")."""


class TransferGuardError(RuntimeError):
    """An implicit device-to-host transfer under transfer_guard("disallow")."""


def _checked(mode):
    if mode not in _MODES:
        raise ValueError(f"transfer guard mode must be one of {', '.join(map(repr, _MODES))}, "
                         f"got {mode!r}")
    return mode


def get_transfer_guard():
    """The mode in effect here: 'allow', 'log' or 'disallow'."""
    mode = _mode.get()
    return _default[0] if mode is None else mode


def set_transfer_guard(mode):
    """Set the default mode (what every thread has outside a transfer_guard block)."""
    _default[0] = _checked(mode)


@contextlib.contextmanager
def transfer_guard(mode):
    """Within the block, implicit device-to-host transfers are allowed, logged
    or refused (Note [Implicit transfers])."""
    token = _mode.set(_checked(mode))
    try:
        yield
    finally:
        _mode.reset(token)


# devtensor's modules whose scalar reads are the user's: Tensor's Python
# protocol methods (round(), math.trunc(), `in`) and the factories' reading
# of their arguments (zeros(t), arange(t))
_USER_LEVEL = frozenset({"devtensor._tensor", "devtensor._creation"})


def check(tensor, what, stacklevel=1):
    """Called before an implicit transfer of `tensor` (a device tensor) by `what`;
    stacklevel: the Python frames between this call and the user's code (1
    from C, 2 from a Tensor method)."""
    mode = get_transfer_guard()
    if mode == "allow":
        return
    if stacklevel == 1:
        module = sys._getframe(1).f_globals.get("__name__", "")
        if module.startswith("devtensor.") and module not in _USER_LEVEL:
            return  # a scalar read by devtensor's own code (the Note)
    text = (f"implicit transfer of a tensor on {tensor.device} to the host by {what}; make it "
            f"explicit with .cpu(), .item() or .numpy(force=True)")
    if mode == "log":
        warnings.warn(text, TransferWarning, stacklevel=stacklevel + 1)
        return
    raise TransferGuardError(text)


__all__ = ["transfer_guard", "set_transfer_guard", "get_transfer_guard", "TransferWarning",
           "TransferGuardError"]
