"""Shared test configuration for devtensor.

* Unless DEVTENSOR_TEST_DEVICES or DEVTENSOR_EMULATE_CUDA is set, two
  emulated CUDA devices are requested (DEVTENSOR_EMULATE_CUDA=2) *before*
  devtensor is imported, where devtensor._cuda_emu was built (the real CUDA
  backend executed on the CPU, csrc/emu), so that every device rule and
  every kernel runs on a machine without a GPU.  Where it was not built (no
  C++ compiler at install time) the suite runs on the cpu alone and the
  device tests skip, saying why.
* ``device`` fixture: parametrized over DEVTENSOR_TEST_DEVICES (comma
  separated, e.g. ``cpu,cuda:0,cuda:1``); by default cpu plus up to two
  CUDA devices that exist.
* ``requires_devices(n)``: skip unless at least n CUDA devices exist.
* ``gpu`` marker: the test needs a real CUDA device (emulated ones are not).
* HYPOTHESIS_PROFILE=thorough runs 1000 examples per property (default: 50).
"""
import importlib.machinery
import importlib.util
import os


def _emulation_built():
    """Whether devtensor._cuda_emu is installed, found without importing
    devtensor (find_spec of the submodule would import the package, and so
    _C, before the environment below is set)."""
    spec = importlib.util.find_spec("devtensor")
    folders = (spec.submodule_search_locations or []) if spec is not None else []
    return any(os.path.isfile(os.path.join(folder, "_cuda_emu" + suffix))
               for folder in folders for suffix in importlib.machinery.EXTENSION_SUFFIXES)


if not os.environ.get("DEVTENSOR_TEST_DEVICES") and not os.environ.get("DEVTENSOR_EMULATE_CUDA") \
        and _emulation_built():
    os.environ["DEVTENSOR_EMULATE_CUDA"] = "2"

import sys  # noqa: E402

import pytest  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from helpers import (  # noqa: E402
    ALL_DEVICES,
    HAS_REAL_GPU,
    cuda_count,
    no_cuda_reason,
)

try:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "devtensor",
        max_examples=50,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    settings.register_profile(
        "thorough",
        max_examples=1000,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "devtensor"))
except ImportError:  # pragma: no cover
    pass


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a real CUDA device (not an emulated one)")
    config.addinivalue_line("markers", "requires_devices(n): needs at least n CUDA devices")


def pytest_collection_modifyitems(config, items):
    skip_gpu = pytest.mark.skip(reason="needs a real CUDA device (none found, or emulated)")
    for item in items:
        if item.get_closest_marker("gpu") is not None and not HAS_REAL_GPU:
            item.add_marker(skip_gpu)
        m = item.get_closest_marker("requires_devices")
        if m is not None:
            n = m.args[0]
            if cuda_count() == 0:
                item.add_marker(pytest.mark.skip(reason=no_cuda_reason()))
            elif cuda_count() < n:
                item.add_marker(pytest.mark.skip(reason=f"needs {n} CUDA device(s), have {cuda_count()}"))


@pytest.fixture(params=ALL_DEVICES)
def device(request):
    """A device string from DEVTENSOR_TEST_DEVICES (default cpu, cuda:0, cuda:1)."""
    return request.param


MOVE_DEVICES = list(dict.fromkeys(["cpu"] + ALL_DEVICES))


@pytest.fixture(params=[(a, b) for a in MOVE_DEVICES for b in MOVE_DEVICES],
                ids=lambda p: f"{p[0]}->{p[1]}")
def device_pair(request):
    """(source, destination) device strings, including same-device pairs."""
    return request.param


def pytest_sessionfinish(session, exitstatus):
    """With DEVTENSOR_EMULATE_COVERAGE=FILE on emulated devices: add this run's
    kernel launch counts to FILE (JSON {name: launches}), for
    tools/kernel_coverage.py to check that every registered kernel ran."""
    path = os.environ.get("DEVTENSOR_EMULATE_COVERAGE")
    if not path or not os.environ.get("DEVTENSOR_EMULATE_CUDA"):
        return
    import json

    import devtensor as dt
    if not dt.cuda.is_available():
        return
    from devtensor import _cuda_emu
    dt.cuda.synchronize()
    counts = {}
    if os.path.exists(path):
        with open(path) as f:
            counts = json.load(f)
    for name, launches in _cuda_emu._kernel_launches():
        counts[name] = counts.get(name, 0) + launches
    with open(path, "w") as f:
        json.dump(counts, f, indent=0, sort_keys=True)
