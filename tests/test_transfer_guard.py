"""devtensor.transfer_guard (Note [Implicit transfers]): implicit device-to-host
transfers allowed, logged at the call site, or refused; explicit ones always
work; CPU tensors are never affected."""
import pickle
import threading
import warnings

import numpy as np
import pytest

import devtensor as dt
from helpers import requires_devices

IMPLICIT = [
    ("float()", lambda t: float(t.sum())),
    ("int()", lambda t: int(t.sum())),
    ("bool()", lambda t: bool(t.sum())),
    ("operator.index()", lambda t: [0, 1, 2, 3, 4][t.sum().astype(dt.int64)]),
    ("complex()", lambda t: complex(t.sum())),
    ("format()", lambda t: format(t.sum(), ".1f")),
    ("printing", lambda t: repr(t)),
    ("printing", lambda t: str(t)),
    ("__array__ (np.asarray and NumPy functions)", lambda t: np.asarray(t)),
]
EXPLICIT = [
    lambda t: t.cpu(), lambda t: t.to("cpu"), lambda t: t.get(), lambda t: t.numpy(force=True),
    lambda t: t.sum().item(), lambda t: t.tolist(), lambda t: pickle.dumps(t),
]


def test_modes():
    assert dt.get_transfer_guard() == "allow"
    with dt.transfer_guard("log"):
        assert dt.get_transfer_guard() == "log"
        with dt.transfer_guard("disallow"):
            assert dt.get_transfer_guard() == "disallow"
        assert dt.get_transfer_guard() == "log"
    assert dt.get_transfer_guard() == "allow"
    with pytest.raises(ValueError, match="transfer guard mode must be one of 'allow', 'log', "
                                         "'disallow', got 'never'"):
        with dt.transfer_guard("never"):
            pass
    with pytest.raises(ValueError):
        dt.set_transfer_guard("no")
    with pytest.raises(KeyError), dt.transfer_guard("disallow"):
        raise KeyError  # the mode is restored when the block raises
    assert dt.get_transfer_guard() == "allow"


@requires_devices(1)
@pytest.mark.parametrize("what,call", IMPLICIT, ids=[f"{i}-{w}" for i, (w, _) in
                                                     enumerate(IMPLICIT)])
def test_implicit_transfers(what, call):
    t = dt.ones(3, device="cuda:0")
    call(t)  # allowed by default
    with dt.transfer_guard("disallow"):
        with pytest.raises(dt.TransferGuardError) as info:
            call(t)
        assert str(info.value) == (f"implicit transfer of a tensor on cuda:0 to the host by "
                                   f"{what}; make it explicit with .cpu(), .item() or "
                                   f".numpy(force=True)")
        assert isinstance(info.value, RuntimeError)
        call(dt.ones(3))  # CPU tensors are not transfers
    with dt.transfer_guard("log"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(t)
    logged = [w for w in caught if w.category is dt.TransferWarning]
    assert logged and logged[0].filename == __file__  # the call site, this file


INTERNAL_READS = [  # functions whose implementation reads a scalar (a NaN check, a count, a bound)
    lambda g: dt.nanmean(g), lambda g: dt.nanmax(g), lambda g: dt.nanargmax(g), lambda g: dt.average(g, weights=g),
    lambda g: dt.isin(g, [1.0]), lambda g: dt.intersect1d(g, g), lambda g: dt.setdiff1d(g, g[:2]),
    lambda g: dt.digitize(g, g[:2]), lambda g: dt.histogram(g, bins=3),
    lambda g: dt.bincount(g.astype(dt.int64)), lambda g: dt.unravel_index(g.astype(dt.int64), (2, 3)),
    lambda g: dt.linalg.svd(dt.eye(3, device=g.device)), lambda g: dt.linalg.pinv(dt.eye(2, device=g.device)),
    lambda g: dt.linalg.matrix_rank(dt.eye(2, device=g.device)),
    lambda g: dt.linalg.lstsq(dt.eye(3, device=g.device), g[:3]),
    lambda g: dt.polyfit(g, g * 2, 1), lambda g: dt.roots(g[1:4]),
    lambda g: dt.random.default_rng(0).normal(loc=g), lambda g: dt.split(g, g[:2].astype(dt.int64)),
]


@requires_devices(1)
@pytest.mark.parametrize("call", INTERNAL_READS, ids=range(len(INTERNAL_READS)))
def test_devtensor_own_scalar_reads_pass_the_guard(call):
    """Note [Implicit transfers]: the scalar reads inside devtensor's
    functions are their synchronisations (as unique's count) and pass; the
    user's own stay guarded, and devtensor's whole-tensor ones too."""
    g = dt.arange(5.0, device="cuda:0")
    with dt.transfer_guard("disallow"), warnings.catch_warnings():
        warnings.simplefilter("error", dt.TransferWarning)
        call(g)
        with pytest.raises(dt.TransferGuardError, match="by bool"):
            bool(g[0])
        with pytest.raises(dt.TransferGuardError, match="by __array__"):
            dt.vectorize(lambda x: x + 1)(g)  # a whole tensor through NumPy: guarded


@requires_devices(1)
def test_user_level_reads_in_devtensor_code_stay_guarded():
    """Tensor's Python protocol methods and the factories read the user's
    tensors: guarded, though their code is devtensor's (_USER_LEVEL)."""
    import math
    f = dt.asarray(2.5, device="cuda:0")
    v = dt.asarray([1, 2, 3], device="cuda:0")
    with dt.transfer_guard("disallow"):
        for call in (lambda: round(f), lambda: math.trunc(f), lambda: math.floor(f), lambda: 2 in v,
                     lambda: dt.zeros(dt.asarray(2, device="cuda:0"))):
            with pytest.raises(dt.TransferGuardError):
                call()


@requires_devices(1)
@pytest.mark.parametrize("call", EXPLICIT, ids=range(len(EXPLICIT)))
def test_explicit_transfers_always_work(call):
    t = dt.ones(3, device="cuda:0")
    with dt.transfer_guard("disallow"), warnings.catch_warnings():
        warnings.simplefilter("error")
        call(t)


@requires_devices(1)
def test_modes_are_per_thread_and_default_is_global():
    seen = []

    def probe():
        seen.append(dt.get_transfer_guard())
        try:
            float(dt.ones(1, device="cuda:0"))
            seen.append("ok")
        except dt.TransferGuardError:
            seen.append("refused")

    with dt.transfer_guard("disallow"):
        worker = threading.Thread(target=probe)
        worker.start()
        worker.join()
    dt.set_transfer_guard("disallow")
    try:
        worker = threading.Thread(target=probe)
        worker.start()
        worker.join()
        assert dt.get_transfer_guard() == "disallow"
    finally:
        dt.set_transfer_guard("allow")
    assert seen == ["allow", "ok", "disallow", "refused"]
