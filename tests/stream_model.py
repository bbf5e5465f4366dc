"""A model of Stream and Event lifetimes, for test_stream_lifetimes.py.

A program is a list of (op, a, b) integer triples; `run_ops` executes it
against devtensor.cuda and against a model of what must hold, checking after
every step that the current stream of each device is the object the model
expects and that the backend handles alive are exactly those of the objects
the program still references (Note [Stream and event ownership] in
csrc/python/stream_type.c: one handle, one object, destroyed once).  The
integers index into the pools of live objects modulo their size, so every
triple is a valid step and hypothesis can shrink programs freely.

Run as a script (python stream_model.py SEED COUNT STEPS) it executes COUNT
random programs in this process and prints "ok": a crash is the process
dying, which the calling test sees.
"""
import copy
import gc
import pickle
import sys

import devtensor as dt
from devtensor import _C

OPS = ("stream", "event", "copy", "pickle", "drop", "enter", "exit", "set", "current",
       "default", "use", "tensor", "gc")


class World:
    def __init__(self):
        self.ndev = min(dt.cuda.device_count(), 2)
        gc.collect()
        self.base = _C._cuda_live_handles()
        self.held = []        # references the program holds (duplicates allowed)
        self.entered = []     # (stream, previous current stream) of open `with` blocks
        self.current = {d: dt.cuda.default_stream(d) for d in range(self.ndev)}

    # -- what must hold --

    def expected_live(self):
        objs = {id(o): o for o in self.held}
        for s, prev in self.entered:
            objs[id(s)], objs[id(prev)] = s, prev
        for s in self.current.values():
            objs[id(s)] = s
        defaults = {id(dt.cuda.default_stream(d)) for d in range(self.ndev)}
        n_streams = sum(1 for k, o in objs.items() if isinstance(o, dt.cuda.Stream)
                        and k not in defaults)
        n_events = sum(1 for o in objs.values() if isinstance(o, dt.cuda.Event))
        return self.base[0] + n_streams, self.base[1] + n_events

    def check(self):
        for d in range(self.ndev):
            cs = dt.cuda.current_stream(d)
            assert cs is self.current[d], (d, cs, self.current[d])
        live = _C._cuda_live_handles()
        assert live == self.expected_live(), (live, self.expected_live())

    # -- helpers --

    def pick(self, kind, a):
        pool = [o for o in self.held if isinstance(o, kind)]
        return pool[a % len(pool)] if pool else None

    def any_stream(self, a):
        """A held stream, or (when a is even) a default stream."""
        s = self.pick(dt.cuda.Stream, a // 2)
        if s is None or a % 2 == 0:
            return dt.cuda.default_stream(a % self.ndev)
        return s

    # -- the steps --

    def step(self, op, a, b):
        name = OPS[op % len(OPS)]
        getattr(self, "op_" + name)(a, b)
        self.check()

    def op_stream(self, a, b):
        self.held.append(dt.cuda.Stream(a % self.ndev, priority=-(b % 2)))

    def op_event(self, a, b):
        self.held.append(dt.cuda.Event(enable_timing=bool(b % 2), device=a % self.ndev))

    def op_copy(self, a, b):
        if not self.held:
            return
        o = self.held[a % len(self.held)]
        c = (copy.copy, copy.deepcopy)[b % 2](o)
        assert c is o
        self.held.append(c)

    def op_pickle(self, a, b):
        if not self.held:
            return
        o = self.held[a % len(self.held)]
        try:
            pickle.dumps(o, protocol=b % (pickle.HIGHEST_PROTOCOL + 1))
        except TypeError as e:
            assert "cannot pickle a devtensor.cuda." in str(e)
        else:
            raise AssertionError("pickled a handle")

    def op_drop(self, a, b):
        if self.held:
            del self.held[a % len(self.held)]

    def op_enter(self, a, b):
        s = self.any_stream(a)
        prev = self.current[s.device_index]
        assert s.__enter__() is s
        self.entered.append((s, prev))
        self.current[s.device_index] = s

    def op_exit(self, a, b):
        if not self.entered:
            return
        s, prev = self.entered.pop()
        assert s.__exit__(None, None, None) is False
        self.current[s.device_index] = prev

    def op_set(self, a, b):
        s = self.any_stream(a)
        _C._cuda_set_stream(s)
        self.current[s.device_index] = s

    def op_current(self, a, b):
        self.held.append(dt.cuda.current_stream(a % self.ndev))

    def op_default(self, a, b):
        self.held.append(dt.cuda.default_stream(a % self.ndev))

    def op_use(self, a, b):
        if not self.held:
            return
        o = self.held[a % len(self.held)]
        if isinstance(o, dt.cuda.Stream):
            k = b % 5
            if k == 0:
                o.synchronize()
            elif k == 1:
                # work may still be running (really so on emulated devices and GPUs);
                # after a synchronisation it is done
                assert o.query() in (True, False)
                o.synchronize()
                assert o.query() is True
            elif k == 2:
                e = self.pick(dt.cuda.Event, b)
                if e is not None:
                    self.expect_ok_or_device_error(o.wait_event, e)
            elif k == 3:
                o.wait_stream(self.any_stream(b))
            else:
                self.held.append(o.record_event())
            return
        k = b % 5
        if k == 0:
            s = None if b % 2 else self.any_stream(b)
            self.expect_ok_or_device_error(o.record, s)
        elif k == 1:
            assert o.query() in (True, False)  # its work may still run, as on a GPU
            o.synchronize()
            assert o.query() is True
        elif k == 2:
            o.synchronize()
        elif k == 3:
            self.expect_ok_or_device_error(o.wait, None if b % 2 else self.any_stream(b))
        else:
            end = self.pick(dt.cuda.Event, b) or o
            try:
                assert isinstance(o.elapsed_time(end), float)  # negative if end came first
            except RuntimeError as e:
                assert "enable_timing" in str(e) or "recorded" in str(e) or "are on cuda:" in str(e), e

    @staticmethod
    def expect_ok_or_device_error(f, *args):
        """Events and streams of different devices may be refused, clearly."""
        try:
            f(*args)
        except RuntimeError as e:
            assert "cuda:" in str(e), e

    def op_tensor(self, a, b):
        d = a % self.ndev
        x = dt.ones(4, device=f"cuda:{d}") * (b % 7)
        assert x.tolist() == [float(b % 7)] * 4

    def op_gc(self, a, b):
        gc.collect()

    def finish(self):
        while self.entered:
            self.op_exit(0, 0)
        for d in range(self.ndev):
            _C._cuda_set_stream(dt.cuda.default_stream(d))
            self.current[d] = dt.cuda.default_stream(d)
        self.held.clear()
        gc.collect()
        self.check()
        assert _C._cuda_live_handles() == self.base
        assert (dt.ones(2) + 1).tolist() == [2.0, 2.0]  # the interpreter is healthy


def run_ops(ops):
    w = World()
    for op, a, b in ops:
        w.step(op, a, b)
    w.finish()


def random_ops(rng, steps):
    return [(rng.randrange(len(OPS)), rng.randrange(1 << 16), rng.randrange(1 << 16))
            for _ in range(steps)]


if __name__ == "__main__":
    import random

    seed, count, steps = (int(x) for x in sys.argv[1:4])
    for k in range(count):
        print("program", seed + k, flush=True)
        run_ops(random_ops(random.Random(seed + k), steps))
    print("ok")
