"""Planted faults on emulated CUDA devices (devtensor._cuda_emu): what the CPU
emulation of the real CUDA backend must catch, each in a fresh interpreter.

* a freed block reused while another stream still reads it gives a wrong
  answer, unless record_stream tells the caching allocator about that stream.
The missing __syncthreads, the divergent barrier and the bad shuffle mask are in
test_emu_kernels.py; a device-to-host copy read before its stream is
synchronised, and host reads of device memory, in test_emu_runtime.py (devtensor's
own device-to-host copies synchronise before they return).
"""
import importlib.util
import textwrap

import pytest

from helpers import run_python

pytestmark = pytest.mark.skipif(importlib.util.find_spec("devtensor._cuda_emu") is None,
                                reason="devtensor._cuda_emu was not built (no C++ compiler)")

# every queued operation starts 20 ms after it could: races become certain;
# the caching allocator on, also in the sanitizer run (which turns it off)
SLOW = {"DEVTENSOR_EMULATE_CUDA": "1", "DEVTENSOR_EMULATE_DELAY_US": "20000", "DEVTENSOR_CUDA_NO_CACHE": "0"}

REUSE = textwrap.dedent("""
    import devtensor as dt
    n = 1 << 16
    s = dt.cuda.Stream(0)
    a = dt.full(n, 1.0, device="cuda:0")
    s.wait_stream(dt.cuda.current_stream(0))
    with s:
        t = a
        for _ in range(10):      # keep s busy: its read of `a` comes ~200 ms late
            t = t + 0.0
        b = a * 1.0              # reads a's block on s
    if RECORD:
        a.record_stream(s)
    del a                        # the block goes back to the current stream's pool
    c = dt.full(n, 2.0, device="cuda:0")  # reuses it at once, unless recorded
    s.synchronize()
    print(sorted(set(b.tolist())))
""")


def _run(code, **subs):
    for k, v in subs.items():
        code = code.replace(k, repr(v))
    p = run_python(code, SLOW)
    assert p.returncode == 0, p.stderr
    return p.stdout.split()[0]


def test_freed_block_reused_too_early_gives_a_wrong_answer():
    assert _run(REUSE, RECORD=False) == "[2.0]"  # b read the new tensor's values


def test_record_stream_keeps_the_block_until_the_stream_is_done():
    assert _run(REUSE, RECORD=True) == "[1.0]"
