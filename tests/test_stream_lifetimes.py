"""Stream and Event lifetimes (issue 7): no sequence of Python calls may use a
stream or an event after it is destroyed, or destroy it twice.  Each handle is
owned by one object (Note [Stream and event ownership] in
csrc/python/stream_type.c); _C._cuda_live_handles() counts the handles alive,
so every test can check that a handle goes exactly when its last reference
does.  Examples that crashed before the fix run in a subprocess."""
import copy
import gc
import os
import pickle
import threading
import weakref

import pytest

import devtensor as dt
from devtensor import _C
from helpers import cuda_count, given, no_cuda_reason, run_python, settings, st

import stream_model

pytestmark = pytest.mark.skipif(cuda_count() == 0, reason=no_cuda_reason())

TESTS = os.path.dirname(os.path.abspath(__file__))
KINDS = {"Stream": lambda: dt.cuda.Stream(0), "Event": lambda: dt.cuda.Event()}


def live():
    gc.collect()
    return _C._cuda_live_handles()


def run_ok(code):
    """Run code in a fresh interpreter (with this session's CUDA devices); it must exit 0."""
    r = run_python("import copy, gc, pickle, weakref\nimport devtensor as dt\n"
                   "from devtensor import _C\n" + code + "\nprint('ok')", remove=())
    assert r.returncode == 0 and r.stdout.endswith("ok\n"), (r.returncode, r.stdout, r.stderr)


# ---- the examples of the issue ----

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["copy", "deepcopy"])
def test_copy_and_delete_both_frees_once_in_a_subprocess(kind, how):
    run_ok(f"s = dt.cuda.{kind}({'0' if kind == 'Stream' else ''})\n"
           f"s2 = copy.{how}(s)\nassert s2 is s\ndel s, s2\ngc.collect()\n"
           "assert _C._cuda_live_handles() == (0, 0)")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, lambda o: copy.deepcopy([o, o])[1]])
def test_a_copy_is_the_object_itself(kind, how):
    base = live()
    o = KINDS[kind]()
    c = how(o)
    assert c is o
    del o
    c.synchronize()  # the copy is usable: it is the one owner
    assert c.query() is True
    assert live() != base
    del c
    assert live() == base


def test_deepcopy_of_an_event_then_use_in_a_subprocess():
    run_ok("e = copy.deepcopy(dt.cuda.Event())\ne.record()\ne.synchronize()\n"
           "assert e.query()\ns = copy.deepcopy(dt.cuda.Stream(0))\ne.record(s)\n"
           "s.wait_event(e)\ns.synchronize()\ndel e, s\ngc.collect()\n"
           "assert _C._cuda_live_handles() == (0, 0)")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickling_is_a_type_error(kind, protocol):
    o = KINDS[kind]()
    msg = (f"cannot pickle a devtensor.cuda.{kind}: "
           "it is a handle to device state in this process")
    with pytest.raises(TypeError) as info:
        pickle.dumps(o, protocol=protocol)
    assert str(info.value) == msg
    with pytest.raises(TypeError, match="cannot pickle"):
        o.__reduce__()
    o.synchronize()  # still usable


def test_pickling_a_stream_then_using_it_in_a_subprocess():
    run_ok("s = dt.cuda.Stream(0)\ntry:\n    pickle.loads(pickle.dumps(s))\n"
           "except TypeError as e:\n    assert 'cannot pickle' in str(e)\n"
           "else:\n    raise SystemExit('pickled')\ns.synchronize()\ndel s\ngc.collect()\n"
           "assert _C._cuda_live_handles() == (0, 0)")


def test_current_stream_keeps_the_stream_alive_in_a_subprocess():
    run_ok("with dt.cuda.stream(dt.cuda.Stream(0)):\n    cs = dt.cuda.current_stream(0)\n"
           "cs.synchronize()\nassert cs.query()\n"
           "assert dt.cuda.current_stream(0) is dt.cuda.default_stream(0)\n"
           "del cs\ngc.collect()\nassert _C._cuda_live_handles() == (0, 0)")


def test_current_stream_is_the_stream_object():
    base = live()
    s = dt.cuda.Stream(0)
    r = weakref.ref(s)
    with dt.cuda.stream(s):
        cs = dt.cuda.current_stream(0)
        assert cs is s and dt.cuda.current_stream() is s and dt.cuda.current_stream("cuda:0") is s
    assert dt.cuda.current_stream(0) is dt.cuda.default_stream(0)
    del s
    assert r() is cs  # cs keeps it alive
    cs.synchronize()
    del cs
    assert r() is None and live() == base


def test_a_stream_dropped_while_current_lives_until_replaced_in_a_subprocess():
    run_ok("s = dt.cuda.Stream(0)\nr = weakref.ref(s)\ns.__enter__()\ndel s\ngc.collect()\n"
           "cs = dt.cuda.current_stream(0)\nassert cs is r()\ncs.synchronize()\n"
           "assert (dt.ones(3, device='cuda:0') * 2).tolist() == [2.0] * 3\n"
           "cs.__exit__(None, None, None)\ndel cs\ngc.collect()\nassert r() is None\n"
           "assert (dt.ones(3, device='cuda:0') * 2).tolist() == [2.0] * 3\n"
           "dt.cuda.current_stream(0).synchronize()\n"
           "s = dt.cuda.Stream(0)\n_C._cuda_set_stream(s)\ndel s\ngc.collect()\n"
           "assert _C._cuda_live_handles() == (1, 0)\n"
           "_C._cuda_set_stream(dt.cuda.default_stream(0))\ngc.collect()\n"
           "assert _C._cuda_live_handles() == (0, 0)")


def test_a_stream_dropped_while_current():
    base = live()
    s = dt.cuda.Stream(0)
    r = weakref.ref(s)
    _C._cuda_set_stream(s)
    try:
        del s
        assert r() is not None and dt.cuda.current_stream(0) is r()
        x = dt.ones(5, device="cuda:0") + 1  # the core reads the raw current stream
        assert x.tolist() == [2.0] * 5
        ev = dt.cuda.Event()
        ev.record()  # on the current stream
        ev.synchronize()
    finally:
        _C._cuda_set_stream(dt.cuda.default_stream(0))
    assert r() is None
    del ev
    assert live() == base


# ---- handles never come from Python ----

def test_the_integer_handle_functions_are_gone():
    for name in ("_cuda_stream_create", "_cuda_stream_destroy", "_cuda_stream_synchronize",
                 "_cuda_stream_query", "_cuda_stream_wait_event", "_cuda_event_create",
                 "_cuda_event_destroy", "_cuda_event_record", "_cuda_event_synchronize",
                 "_cuda_event_query", "_cuda_event_elapsed"):
        assert not hasattr(_C, name), name
    assert not hasattr(dt.cuda.Stream(0), "_handle")
    assert not hasattr(dt.cuda.Event(), "_handle")


FORGED = [0xDEADBEEF, 1, -1, 1 << 62, 0]


@pytest.mark.parametrize("forged", FORGED)
@pytest.mark.parametrize("call, expected", [
    (lambda h: _C._cuda_set_stream(h), "expected a devtensor.cuda.Stream, got int"),
    (lambda h: dt.cuda.Stream(0).wait_event(h), "expected a devtensor.cuda.Event, got int"),
    (lambda h: dt.cuda.Stream(0).wait_stream(h), "expected a devtensor.cuda.Stream, got int"),
    (lambda h: dt.cuda.Stream(0).record_event(h),
     "expected a devtensor.cuda.Event or None, got int"),
    (lambda h: dt.cuda.Event().record(h), "expected a devtensor.cuda.Stream or None, got int"),
    (lambda h: dt.cuda.Event().wait(h), "expected a devtensor.cuda.Stream or None, got int"),
    (lambda h: dt.cuda.Event().elapsed_time(h), "expected a devtensor.cuda.Event, got int"),
    (lambda h: dt.cuda.stream(h), "expected a devtensor.cuda.Stream or None, got int"),
], ids=["set_stream", "wait_event", "wait_stream", "record_event", "record", "wait",
        "elapsed_time", "stream"])
def test_forged_handles_are_type_errors(call, expected, forged):
    with pytest.raises(TypeError) as info:
        call(forged)
    assert expected in str(info.value)


def test_a_stream_is_not_an_event_and_back():
    with pytest.raises(TypeError, match="expected a devtensor.cuda.Event, got devtensor.cuda.Stream"):
        dt.cuda.Stream(0).wait_event(dt.cuda.Stream(0))
    with pytest.raises(TypeError, match="expected a devtensor.cuda.Stream, got devtensor.cuda.Event"):
        _C._cuda_set_stream(dt.cuda.Event())


def test_every_cuda_function_survives_forged_arguments_in_a_subprocess():
    """Every _C._cuda_* function and every Stream/Event method, called with
    forged handles and junk: each raises or returns, the process survives."""
    run_ok("""
junk = [(), (0xdeadbeef,), (1,), (-1,), (1 << 62,), (None,), ('cuda:0',), (0, 0xdeadbeef),
        (0, 0xdeadbeef, 0xdeadbeef), (0xdeadbeef, 0xdeadbeef), (object(),), (2 ** 80,)]
fns = [getattr(_C, n) for n in dir(_C) if n.startswith('_cuda')]
objs = [dt.cuda.Stream(0), dt.cuda.Event(), dt.cuda.default_stream(0)]
fns += [getattr(o, n) for o in objs for n in dir(o)
        if not n.startswith('__') or n in ('__enter__', '__exit__', '__copy__', '__deepcopy__')]
calls = 0
for f in fns:
    if not callable(f):
        continue
    for a in junk:
        try:
            f(*a)
        except Exception:
            pass
        calls += 1
assert calls > 200, calls
for d in range(dt.cuda.device_count()):
    _C._cuda_set_stream(dt.cuda.default_stream(d))
del objs, fns, f
gc.collect()
assert _C._cuda_live_handles() == (0, 0), _C._cuda_live_handles()
assert (dt.ones(2, device='cuda:0') + 1).tolist() == [2.0, 2.0]""")


# ---- the types ----

@pytest.mark.parametrize("kind", KINDS)
def test_the_types_cannot_be_subclassed_or_made_without_a_handle(kind):
    cls = getattr(dt.cuda, kind)
    assert cls.__module__ == "devtensor.cuda" and cls.__name__ == kind
    with pytest.raises(TypeError):
        type("Sub", (cls,), {})
    with pytest.raises(TypeError):
        object.__new__(cls)
    o = cls.__new__(cls)  # a complete object, on the current device
    assert o.device_index == dt.cuda.current_device() and o.device == dt.device("cuda:0")


def test_attributes_equality_and_repr():
    s = dt.cuda.Stream(device="cuda:0", priority=-1)
    assert s.device == dt.device("cuda:0") and s.device_index == 0 and s.priority == -1
    assert s == s and s != dt.cuda.Stream(0) and hash(s) == hash(s)
    assert dt.cuda.default_stream(0) is dt.cuda.default_stream(0) == dt.cuda.current_stream(0)
    assert repr(dt.cuda.default_stream(0)) == "<devtensor.cuda.Stream device=cuda:0 (default)>"
    assert repr(s).startswith("<devtensor.cuda.Stream device=cuda:0 priority=-1 at 0x")
    e = dt.cuda.Event(enable_timing=True, device=0)
    assert e.device == dt.device("cuda:0") and "enable_timing=True" in repr(e)
    with pytest.raises(AttributeError):
        s.device_index = 1
    with pytest.raises(ValueError, match="CUDA device"):
        dt.cuda.Stream("cpu")
    with pytest.raises(RuntimeError, match="out of range"):
        dt.cuda.Event(device=99)
    d = dt.cuda.default_stream(0)
    assert d.query() is True and d.priority == 0
    d.synchronize()


def test_with_blocks_nest_and_restore():
    s, t = dt.cuda.Stream(0), dt.cuda.Stream(0)
    d = dt.cuda.default_stream(0)
    with s:
        with t:
            with s:
                assert dt.cuda.current_stream(0) is s
            assert dt.cuda.current_stream(0) is t
        assert dt.cuda.current_stream(0) is s
    assert dt.cuda.current_stream(0) is d
    with dt.cuda.stream(None) as none:
        assert none is None and dt.cuda.current_stream(0) is d
    with pytest.raises(RuntimeError, match="__exit__ without a matching __enter__"):
        s.__exit__(None, None, None)


@pytest.mark.skipif(cuda_count() < 2, reason="needs 2 CUDA devices")
def test_current_streams_are_per_device():
    s0, s1 = dt.cuda.Stream(0), dt.cuda.Stream(1)
    with dt.cuda.stream(s1):
        assert dt.cuda.current_stream(1) is s1 and dt.cuda.current_stream(0) is not s1
        with s0:
            assert dt.cuda.current_stream(0) is s0 and dt.cuda.current_stream(1) is s1
            assert dt.ones(2, device="cuda:1").tolist() == [1.0, 1.0]
    e = dt.cuda.Event(device=0)
    with pytest.raises(RuntimeError, match="cuda:1"):
        e.record(s1)
    s1.wait_stream(s0)  # across devices: allowed


def test_recording_on_the_default_stream_leaves_the_current_stream():
    s = dt.cuda.Stream(0)
    e = dt.cuda.Event()
    with s:
        e.record(dt.cuda.default_stream(0))
        assert dt.cuda.current_stream(0) is s
        dt.cuda.default_stream(0).wait_stream(s)
        assert dt.cuda.current_stream(0) is s
    ev = s.record_event()
    assert isinstance(ev, dt.cuda.Event) and ev.device_index == 0 and s.record_event(ev) is ev


def test_current_streams_are_per_thread_and_released_when_the_thread_ends():
    base = live()
    mine = dt.cuda.Stream(0)
    seen = {}

    def work():
        seen["start"] = dt.cuda.current_stream(0)
        own = dt.cuda.Stream(0)
        seen["own"] = weakref.ref(own)
        _C._cuda_set_stream(own)
        del own
        assert (dt.ones(3, device="cuda:0") * 2).tolist() == [2.0] * 3
        with mine:
            seen["inner"] = dt.cuda.current_stream(0)
        _C._cuda_set_stream(mine)  # left current when the thread ends

    with dt.cuda.stream(dt.cuda.Stream(0)) as outer:
        t = threading.Thread(target=work)
        t.start()
        t.join()
        assert dt.cuda.current_stream(0) is outer
    assert seen["start"] is dt.cuda.default_stream(0) and seen["inner"] is mine
    del seen["start"], seen["inner"], outer
    gc.collect()
    assert seen["own"]() is None  # dropped with the thread's state
    assert live() == (base[0] + 1, base[1])  # mine
    del mine
    assert live() == base


# ---- random programs (stream_model.py) ----

OP = st.tuples(st.integers(0, len(stream_model.OPS) - 1), st.integers(0, 1 << 16),
               st.integers(0, 1 << 16))


@settings(max_examples=60)
@given(st.lists(OP, max_size=40))
def test_random_programs(ops):
    stream_model.run_ops(ops)


@settings(max_examples=15)
@given(st.lists(OP, min_size=1, max_size=30))
def test_random_programs_each_in_a_subprocess(ops):
    r = run_python(f"import sys; sys.path.insert(0, {TESTS!r})\nimport stream_model\n"
                   f"stream_model.run_ops({ops!r})\nprint('ok')", remove=())
    assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stdout, r.stderr[-3000:])


def test_many_seeded_random_programs_in_a_subprocess():
    r = run_python(f"import sys, runpy; sys.argv = ['stream_model', '1000', '150', '60']\n"
                   f"runpy.run_path({os.path.join(TESTS, 'stream_model.py')!r}, "
                   f"run_name='__main__')", remove=())
    last = r.stdout.strip().splitlines()[-1:] or ["(nothing)"]
    assert r.returncode == 0 and last == ["ok"], (r.returncode, last, r.stderr[-3000:])
