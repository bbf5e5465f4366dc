"""devtensor used from several Python threads at once: the first CUDA use
racing another thread's (Note [Loading from several threads] in
csrc/core/backend.c), one Stream entered in two threads (stream_type.c),
errstate per thread (as NumPy 2's), and threads that end freeing their
caches (Note [Per-thread caches end with their thread] in thread_exit.c)."""
import os
import sys
import textwrap
import threading

import pytest

import devtensor as dt
from helpers import cuda_count, requires_emulation, run_python


@requires_emulation
def test_first_cuda_use_while_another_thread_loads_it():
    """A thread asking for CUDA while another one's first use is importing the
    backend waits for it, rather than being told CUDA is not available (a
    slow import is forced, so the second thread always arrives meanwhile)."""
    code = textwrap.dedent("""
        import importlib.abc, sys, threading, time
        import devtensor as dt
        class Slow(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name in ("devtensor._cuda_emu", "devtensor._cuda"):
                    time.sleep(0.3)
        sys.meta_path.insert(0, Slow())
        out = {}
        def first():
            out["A"] = str(dt.ones(2, device="cuda:0").device)
        def second():
            time.sleep(0.1)
            try:
                out["B"] = str(dt.ones(2, device="cuda:1").device)
            except RuntimeError as e:
                out["B"] = str(e)
            out["available"] = dt.cuda.is_available()
        ts = [threading.Thread(target=first), threading.Thread(target=second)]
        [t.start() for t in ts]; [t.join() for t in ts]
        print(out["A"], out["B"], out["available"])
    """)
    r = run_python(code, env_update={"DEVTENSOR_EMULATE_CUDA": "2"}, remove=())
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["cuda:0", "cuda:1", "True"], r.stdout


@pytest.mark.skipif(cuda_count() == 0, reason="needs CUDA devices (real or emulated)")
def test_a_stream_entered_in_two_threads_restores_each_threads_own():
    """`with dt.cuda.stream(s)` open in two threads at once (s the shared
    default stream): each thread gets its own previous stream back."""
    default = dt.cuda.default_stream(0)
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    got = {}

    def a():
        mine = dt.cuda.Stream(device="cuda:0")
        with dt.cuda.stream(mine):
            with dt.cuda.stream(default):
                a_in.set()
                b_in.wait(10)
            got["a"] = dt.cuda.current_stream(0) is mine
        a_out.set()

    def b():
        a_in.wait(10)
        with dt.cuda.stream(default):
            b_in.set()
            a_out.wait(10)
        got["b"] = dt.cuda.current_stream(0) is default

    ts = [threading.Thread(target=a), threading.Thread(target=b)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert got == {"a": True, "b": True}
    with pytest.raises(RuntimeError, match="without a matching __enter__ in this thread"):
        default.__exit__(None, None, None)


def test_errstate_is_per_thread():
    """Overlapping errstate blocks in two threads see their own settings and
    leave the defaults behind, as NumPy 2's."""
    before = dt.geterr()
    a_in, b_in, b_out = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def a():
        with dt.errstate(divide="ignore"):
            a_in.set()
            b_in.wait(10)
            seen["a"] = dt.geterr()["divide"]
            b_out.wait(10)  # b closes its block first
        seen["a after"] = dt.geterr()["divide"]

    def b():
        a_in.wait(10)
        with dt.errstate(divide="raise"):
            b_in.set()
            seen["b"] = dt.geterr()["divide"]
        b_out.set()

    ts = [threading.Thread(target=a), threading.Thread(target=b)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert seen == {"a": "ignore", "b": "raise", "a after": "warn"}
    assert dt.geterr() == before
    once = dt.errstate(over="ignore")  # as NumPy's, an errstate is entered once
    with once:
        with pytest.raises(TypeError, match="Cannot enter `errstate` twice"):
            once.__enter__()
        assert dt.geterr()["over"] == "ignore"
    assert dt.geterr() == before

    @dt.errstate(over="raise")  # a decorator: a fresh errstate per call, in any thread
    def over():
        b_in.wait(10)
        return dt.geterr()["over"]

    b_in.clear()
    results = []
    ts = [threading.Thread(target=lambda: results.append(over())) for _ in range(2)]
    [t.start() for t in ts]
    b_in.set()
    [t.join() for t in ts]
    assert results == ["raise", "raise"] and dt.geterr() == before


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", "") or "ASAN_OPTIONS" in os.environ,
                    reason="AddressSanitizer keeps freed memory in its quarantine: RSS says nothing")
def test_threads_that_end_free_their_caches():
    """Short threads each making tensors and reductions leave (almost) nothing
    behind: 4,000 of them grew the process by 17 MB before their spare
    storages and reduction loops were freed at their end."""
    code = textwrap.dedent("""
        import gc, threading
        import devtensor as dt
        def job():
            xs = [dt.ones(10) + i for i in range(20)]
            [float(x.sum()) for x in xs]
        def rss_kib():
            return int(open("/proc/self/statm").read().split()[1]) * 4
        def run(n):
            for _ in range(n):
                t = threading.Thread(target=job); t.start(); t.join()
        run(200); gc.collect(); start = rss_kib()
        run(4000); gc.collect()
        print(rss_kib() - start)
    """)
    r = run_python(code, timeout=300)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) < 4096, f"{r.stdout.strip()} KiB kept by 4000 ended threads"
