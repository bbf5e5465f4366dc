"""Several devices in one process (issue 14): work on two devices overlaps,
and copies between devices order correctly against work still queued on
either, with and without peer access.  Run on two emulated devices whose
every operation waits DEVTENSOR_EMULATE_DELAY_US before it runs (Note
[Workers] in csrc/emu/emu_runtime.cpp), so that queued work really is
pending when the next call is made; timings are in units of that delay."""
import pytest

from helpers import requires_emulation, run_python

DELAY_US = 200_000  # large beside what issuing costs, even under the sanitizers

SCRIPT = r"""
import os, time, numpy as np, devtensor as dt
D = {delay} / 1e6
a = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
x0 = dt.asarray(a, device="cuda:0")
dt.cuda.synchronize("all")
t0 = time.perf_counter()
y0 = x0 @ x0               # queued on cuda:0
y1 = y0.to("cuda:1")       # after the product ...
issued = time.perf_counter() - t0
y0 += 1000.0               # ... and before this write to its source
z1 = y1 * 2                # on cuda:1, after the copy
np.testing.assert_allclose(z1.cpu().numpy(), 2 * (a @ a), rtol=1e-4, atol=1e-3)
np.testing.assert_allclose(y0.cpu().numpy(), a @ a + 1000, rtol=1e-4, atol=1e-3)
back = z1.to("cuda:0") - 1  # and back again, behind cuda:1's work
np.testing.assert_allclose(back.cpu().numpy(), 2 * (a @ a) - 1, rtol=1e-4, atol=1e-3)
print("peer", dt.cuda.can_device_access_peer(0, 1), dt.cuda.can_device_access_peer(1, 0))
print("issued", issued / D)
n = 128
x0, x1 = dt.ones((n, n), device="cuda:0"), dt.ones((n, n), device="cuda:1")
dt.cuda.synchronize("all")
t0 = time.perf_counter(); p0 = x0 @ x0; p1 = x1 @ x1; launch = time.perf_counter() - t0
dt.cuda.synchronize("all"); both = time.perf_counter() - t0
t0 = time.perf_counter(); q0 = x0 @ x0; q1 = x0 @ x0; dt.cuda.synchronize(0); one = time.perf_counter() - t0
assert float(p0[0, 0]) == n and float(p1[5, 7]) == n and float(q1[1, 1]) == n
print("launch", launch / D, "two_devices", both / D, "one_device", one / D)
"""


def run(peer):
    r = run_python(SCRIPT.format(delay=DELAY_US), remove=(), timeout=120, env_update={
        "DEVTENSOR_EMULATE_CUDA": "2", "DEVTENSOR_EMULATE_DELAY_US": str(DELAY_US),
        "DEVTENSOR_EMULATE_CUDA_PEER": peer})
    assert r.returncode == 0, r.stdout + r.stderr
    values = {}
    for line in r.stdout.splitlines():
        words = line.split()
        for k in range(0, len(words) - 1):
            try:
                values[words[k]] = float(words[k + 1])
            except ValueError:
                pass
    return r.stdout, values


@requires_emulation
def test_copies_between_peers_are_stream_ordered_and_do_not_block():
    out, v = run("all")
    assert "peer True True" in out
    assert v["issued"] < 0.5, out   # the product and the copy were only queued


@requires_emulation
def test_copies_without_peer_access_are_staged_and_still_ordered():
    out, v = run("none")
    assert "peer False False" in out
    assert v["issued"] >= 1.0, out  # staged through the host: waited for the product


@requires_emulation
@pytest.mark.parametrize("peer", ["all", "none"])
def test_products_on_two_devices_overlap(peer):
    """D2L exercise 4's claim, on emulated devices: two products on two
    devices from one thread take about as long as one; on one device, twice."""
    out, v = run(peer)
    assert v["launch"] < 0.5, out
    assert v["two_devices"] < 1.6, out
    assert v["one_device"] > 1.8, out
