"""Read-only tensors (Note [Read-only tensors] in csrc/core/tensor.h): a tensor
over memory its owner lets us read only is read-only, as are broadcast views and
x.imag of a real x; every write path raises NumPy's ValueError and writes
nothing.  tensor() always copies."""
import array

import numpy as np
import pytest

import devtensor as dt
from helpers import ALL_DEVICES, to_np

READ_ONLY = "assignment destination is read-only"
READ_ONLY_OUTPUT = "output array is read-only"  # NumPy's words for out= and in-place operators


# ---- sources of read-only tensors: (name, make) -> (tensor, check_unchanged) ----

def _from_bytes():
    b = bytes(range(8))
    t = dt.asarray(b, dtype=dt.uint8)
    return t, lambda: b == bytes(range(8))


def _from_readonly_memoryview():
    buf = bytearray(range(8))
    t = dt.asarray(memoryview(buf).toreadonly(), dtype=dt.uint8)
    return t, lambda: buf == bytearray(range(8))


def _from_frombuffer():
    a = np.frombuffer(b"\x01\x02\x03\x04\x05\x06\x07\x08", dtype=np.uint8)
    return dt.asarray(a), lambda: a.tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


def _from_setflags():
    a = np.arange(8.0)
    a.setflags(write=False)
    return dt.asarray(a), lambda: a.tolist() == list(range(8))


def _from_readonly_dlpack():
    a = np.arange(8, dtype=np.int32)
    a.setflags(write=False)
    t = dt.from_dlpack(a)  # a versioned capsule with DLPack's read-only flag
    return t, lambda: a.tolist() == list(range(8))


def _broadcast(device):
    base = dt.arange(4.0, device=device)
    return dt.broadcast_to(base, (2, 4)), lambda: to_np(base).tolist() == [0, 1, 2, 3]


def _imag_of_real(device):
    return dt.ones(4, device=device).imag, lambda: True


HOST_SOURCES = {
    "bytes": _from_bytes, "readonly-memoryview": _from_readonly_memoryview,
    "frombuffer": _from_frombuffer, "setflags": _from_setflags,
    "readonly-dlpack": _from_readonly_dlpack,
}

# ---- write paths: each must raise before writing anything ----

WRITES = {
    "setitem-int": lambda t: t.__setitem__(0, 1),
    "setitem-slice": lambda t: t.__setitem__(slice(1, 3), 1),
    "setitem-ellipsis": lambda t: t.__setitem__(Ellipsis, 1),
    "setitem-tensor": lambda t: t.__setitem__(Ellipsis, dt.zeros(t.shape, dtype=t.dtype,
                                                                   device=t.device)),
    "setitem-view": lambda t: t[1:].__setitem__(0, 1),
    "setitem-advanced": lambda t: t.__setitem__([0, 1], 1),
    "setitem-mask": lambda t: t.__setitem__(dt.ones(t.shape, dtype=dt.bool), 1),
    "iadd": lambda t: t.__iadd__(1),
    "imul": lambda t: t.__imul__(2),
    "out=": lambda t: dt.add(t, 1, out=t),
    "out=tuple": lambda t: dt.negative(t, out=(t,)),
    "fill": lambda t: t._fill_(3),
}
ADVANCED = {"setitem-advanced", "setitem-mask"}  # advanced indexing: cpu tensors only (for now)
OUTPUTS = {"iadd", "imul", "out=", "out=tuple"}


def _check_write_refused(t, unchanged, write):
    before = to_np(t)
    with pytest.raises(ValueError, match=READ_ONLY_OUTPUT if write in OUTPUTS else READ_ONLY):
        WRITES[write](t)
    np.testing.assert_array_equal(to_np(t), before)
    assert unchanged()


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("source", list(HOST_SOURCES))
def test_host_read_only_memory_is_never_written(source, write):
    t, unchanged = HOST_SOURCES[source]()
    assert t.flags.writeable is False
    _check_write_refused(t, unchanged, write)


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("make", [_broadcast, _imag_of_real], ids=["broadcast_to", "imag"])
def test_read_only_views_on_every_device(device, make, write):
    if write in ADVANCED and device != "cpu":
        pytest.skip("advanced indexing on devices is issue 9")
    t, unchanged = make(device)
    assert t.flags.writeable is False
    _check_write_refused(t, unchanged, write)


@pytest.mark.parametrize("source", list(HOST_SOURCES))
def test_read_only_memory_is_shared_not_copied(source):
    t, _ = HOST_SOURCES[source]()
    assert not t.flags["WRITEABLE"]
    assert t[1:].flags.writeable is False        # views too
    assert t.reshape(2, 4).flags.writeable is False
    assert t.numpy().flags.writeable is False    # and NumPy's view of it
    c = t.copy()                                 # a copy is writeable
    c[0] = 9
    assert c.flags.writeable and c.tolist()[0] == 9


def test_the_issue_example_bytes_constant_is_untouched():
    b = bytes(4)
    t = dt.asarray(b, dtype=dt.uint8)
    with pytest.raises(ValueError, match=READ_ONLY):
        t[0] = 9
    assert b == b"\x00\x00\x00\x00"


def test_read_only_tensor_reads_and_computes():
    t, _ = _from_setflags()
    np.testing.assert_array_equal(to_np(t + 1), np.arange(8.0) + 1)
    np.testing.assert_array_equal(to_np(t.to("cpu", copy=True)), np.arange(8.0))
    assert t.to("cpu", copy=True).flags.writeable


def test_writeable_flag_can_be_cleared_and_restored():
    t = dt.arange(4.0)
    t.flags.writeable = False
    with pytest.raises(ValueError, match=READ_ONLY_OUTPUT):
        t += 1
    t.flags["W"] = True
    t += 1
    assert t.tolist() == [1.0, 2.0, 3.0, 4.0]


@pytest.mark.parametrize("make", [lambda: _from_bytes()[0],
                                  lambda: dt.broadcast_to(dt.ones(3), (2, 3)),
                                  lambda: dt.ones(3).imag],
                         ids=["bytes", "broadcast_to", "imag"])
def test_writeable_cannot_be_set_where_memory_forbids(make):
    t = make()
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        t.flags.writeable = True
    assert t.flags.writeable is False


def test_flags_attributes():
    t = dt.ones((2, 3))
    assert t.flags.c_contiguous and not t.flags.f_contiguous
    assert t.T.flags.f_contiguous and not t.T.flags.c_contiguous
    assert t.flags["C_CONTIGUOUS"] and t.flags["F"] is False
    with pytest.raises(KeyError):
        t.flags["OWNDATA_OR_NOT"]
    with pytest.raises(KeyError, match="only WRITEABLE"):
        t.flags["C"] = False
    assert t.flags.aligned and t.flags["ALIGNED"] and "ALIGNED : True" in repr(t.flags)


def test_flags_aligned_as_numpy():
    """A tensor over NumPy's misaligned memory says so, as NumPy's flags."""
    a = np.frombuffer(b"\0" * 9, dtype=np.int16, count=4, offset=1)
    t = dt.asarray(a)
    assert t.flags.aligned is False and a.flags.aligned is False
    with pytest.raises(ValueError, match="mis-aligned"):
        t.setflags(align=True)


def test_setflags():
    t = dt.ones(3)
    t.setflags(write=False)
    assert t.flags.writeable is False
    with pytest.raises(ValueError, match=READ_ONLY):
        t[0] = 2
    t.setflags(write=True, align=True, uic=False)
    t[0] = 2
    assert to_np(t).tolist() == [2.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="WRITEBACKIFCOPY"):
        t.setflags(uic=True)
    r, unchanged = _from_bytes()
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        r.setflags(write=True)
    assert unchanged()


# ---- DLPack and read-only memory ----

def test_legacy_dlpack_export_of_read_only_refused():
    t, _ = _from_bytes()
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__()


def test_versioned_dlpack_export_carries_read_only_flag():
    t, _ = _from_setflags()
    a = np.from_dlpack(t)  # NumPy asks for DLPack 1.x
    assert a.flags.writeable is False
    np.testing.assert_array_equal(a, np.arange(8.0))
    assert dt.from_dlpack(t).flags.writeable is False


def test_versioned_dlpack_round_trip_of_writeable_tensor_stays_writeable():
    t = dt.arange(4.0)
    u = dt.from_dlpack(t)
    assert u.flags.writeable
    u[0] = 7
    assert t.tolist()[0] == 7  # zero-copy


def test_dlpack_copy_of_read_only_is_writeable():
    t, _ = _from_setflags()
    cap = t.__dlpack__(copy=True, max_version=(1, 0))
    u = dt._C._from_dlpack(cap)
    assert u.flags.writeable
    u[0] = 5
    assert t.tolist()[0] == 0


# ---- tensor() always copies (torch.tensor) ----

@pytest.mark.parametrize("make", [
    lambda: bytearray(b"\x01\x02\x03"),
    lambda: array.array("d", [1.0, 2.0, 3.0]),
    lambda: memoryview(bytearray(b"\x01\x02\x03")),
    lambda: np.array([1.0, 2.0, 3.0]),
    lambda: dt.tensor([1.0, 2.0, 3.0]),
], ids=["bytearray", "array.array", "memoryview", "ndarray", "tensor"])
@pytest.mark.parametrize("target", ALL_DEVICES)
def test_tensor_always_copies(make, target):
    src = make()
    before = bytes(memoryview(src).cast("B")) if not isinstance(src, dt.Tensor) else src.tolist()
    t = dt.tensor(src, device=target)
    t[0] = 9
    after = bytes(memoryview(src).cast("B")) if not isinstance(src, dt.Tensor) else src.tolist()
    assert after == before
    assert t.flags.writeable


def test_asarray_shares_writeable_buffers_as_numpy_does():
    buf = bytearray(b"\x01\x02\x03")
    t = dt.asarray(buf, dtype=dt.uint8)
    t[0] = 9
    assert buf[0] == 9  # np.asarray(bytearray) shares too
    assert dt.asarray(buf, dtype=dt.uint8, copy=True)._may_share_memory(t) is False


def test_asarray_copy_false_of_read_only_array_shares():
    a = np.arange(3.0)
    a.setflags(write=False)
    t = dt.asarray(a, copy=False)
    assert not t.flags.writeable
    assert dt.shares_memory(t, dt.asarray(a))


# out= and in-place methods of NumPy's functions: NumPy's error and words
# for a read-only output (where NumPy's own words are not its internals')
OUT_WRITES = {
    "sum": lambda xp, o, a: xp.sum(xp.ones((3, 3)), axis=0, out=o),
    "max": lambda xp, o, a: xp.max(xp.ones((3, 3)), axis=0, out=o),
    "mean": lambda xp, o, a: xp.mean(xp.ones((3, 3)), axis=0, out=o),
    "var": lambda xp, o, a: xp.var(xp.ones((3, 3)), axis=0, out=o),
    "nansum": lambda xp, o, a: xp.nansum(xp.ones((3, 3)), axis=0, out=o),
    "cumsum": lambda xp, o, a: xp.cumsum(xp.ones(3), out=o),
    "add.reduce": lambda xp, o, a: xp.add.reduce(xp.ones((3, 3)), out=o),
    "add.accumulate": lambda xp, o, a: xp.add.accumulate(xp.ones(3), out=o),
    "matmul": lambda xp, o, a: xp.matmul(xp.ones((3, 3)), xp.ones(3), out=o),
    "matmul-broadcast": lambda xp, o, a: xp.matmul(xp.ones((3, 3)), xp.ones((3, 3)), out=a),
    "vecdot": lambda xp, o, a: xp.vecdot(xp.ones((3, 2)), xp.ones((3, 2)), out=o),
    "dot": lambda xp, o, a: xp.dot(xp.ones((3, 3)), xp.ones(3), out=o),
    "median": lambda xp, o, a: xp.median(xp.ones((3, 3)), axis=0, out=o),
    "quantile": lambda xp, o, a: xp.quantile(xp.ones((3, 3)), 0.5, axis=0, out=o),
    "nanmedian": lambda xp, o, a: xp.nanmedian(xp.ones((3, 3)), axis=0, out=o),
    "put": lambda xp, o, a: xp.put(o, [0], 1),
    "putmask": lambda xp, o, a: xp.putmask(o, o == 0, 1),
    "sort": lambda xp, o, a: o.sort(),
    "partition": lambda xp, o, a: o.partition(1),
}


@pytest.mark.parametrize("write", list(OUT_WRITES))
def test_read_only_out_as_numpy(write):
    def outputs(xp):
        o, a = xp.zeros(3), xp.zeros((2, 3, 3))
        o.flags.writeable = False
        a.flags.writeable = False
        return o, a
    o_np, a_np = outputs(np)
    with pytest.raises(ValueError) as want:
        OUT_WRITES[write](np, o_np, a_np)
    o, a = outputs(dt)
    with pytest.raises(ValueError) as got:
        OUT_WRITES[write](dt, o, a)
    assert str(got.value) == str(want.value)
    assert to_np(o).tolist() == [0, 0, 0] and not to_np(a).any()
