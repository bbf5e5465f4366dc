"""t.base and t.flags.owndata, NumPy's (Note [A view's base] in
csrc/python/tensor_type.c): a view's base is the tensor that owns the
memory it shares (never a chain of views), the owner lives as long as its
views, copies own their memory, and a tensor over memory lent by NumPy has
no base and owns that memory only when nothing else refers to the array."""
import gc
import sys
import weakref

import numpy as np
import pytest

import devtensor as dt
from devtensor import nn

# each makes a view of a (a 3x4 float64 tensor), and NumPy's base of the same
# view of a NumPy array is that array too
VIEWS = {
    "slice": lambda a: a[1:],
    "slice of a slice": lambda a: a[1:][:, ::2],
    "ellipsis": lambda a: a[...],
    "newaxis": lambda a: a[None],
    "row": lambda a: a[1],
    "0-d view": lambda a: a[1, 2, ...],
    "T": lambda a: a.T,
    "mT": lambda a: a.mT,
    "transpose": lambda a: a.transpose(1, 0),
    "swapaxes": lambda a: a.swapaxes(0, 1),
    "reshape": lambda a: a.reshape(4, 3),
    "ravel": lambda a: a.ravel(),
    "squeeze": lambda a: a[None].squeeze(),
    "expand_dims": lambda a: dt.expand_dims(a, 0),
    "broadcast_to": lambda a: dt.broadcast_to(a, (2, 3, 4)),
    "diagonal": lambda a: a.diagonal(),
    "view(dtype)": lambda a: a.view(dt.int64),
    "real of complex": lambda a: a.astype(dt.complex128).real,
}


@pytest.mark.parametrize("make", VIEWS.values(), ids=VIEWS.keys())
def test_a_view_has_its_owner_as_base(device, make):
    a = dt.zeros((3, 4), device=device)
    assert a.base is None and a.flags.owndata and a.flags["OWNDATA"] and a.flags["O"]
    v = make(a)
    owner = a if make is not VIEWS["real of complex"] else v.base
    assert v.base is owner and not v.flags.owndata and owner.base is None
    assert v[None].base is owner  # a view of a view: the owner, never a chain
    if device == "cpu":
        assert np.shares_memory(np.asarray(v), np.asarray(owner))
        na = np.zeros((3, 4))
        assert make(na).base is not None  # NumPy's view too


COPIES = {
    "copy": lambda a: a.copy(),
    "element": lambda a: a[1, 2],
    "integer index": lambda a: a[[0, 2]],
    "mask": lambda a: a[a >= 0],
    "arithmetic": lambda a: a + 1,
    "astype": lambda a: a.astype(dt.float32),
    "sum": lambda a: a.sum(0),
    "flatten": lambda a: a.flatten(),
    # copies made in another memory order (Tensor._own)
    "copy('F')": lambda a: a.copy("F"),
    "copy of a transposed": lambda a: dt.copy(a.T),
    "copy('K') of a transposed": lambda a: a.T.copy("K"),
    "asfortranarray": lambda a: dt.asfortranarray(a),
    "astype of a transposed": lambda a: a.T.astype(dt.float32),
    "array of a transposed": lambda a: dt.array(a.T),
    "zeros_like of a transposed": lambda a: dt.zeros_like(a.T),
    "zeros order F": lambda a: dt.zeros((3, 4), order="F", device=a.device),
    "empty order F": lambda a: dt.empty((2, 3, 4), order="F", device=a.device),
    "to(dtype) of a transposed": lambda a: a.T.to(dt.float32),
}


@pytest.mark.parametrize("make", COPIES.values(), ids=COPIES.keys())
def test_a_copy_owns_its_memory(device, make):
    a = dt.zeros((3, 4), device=device)
    c = make(a)
    assert c.base is None and c.flags.owndata
    assert c[None].base is c
    if c.ndim > 1 and not c.is_contiguous():
        assert c.T.is_contiguous()  # the Fortran order asked for, or kept


def test_moves_own_their_memory_and_identity_moves_keep_the_base(device_pair):
    src, dst = device_pair
    a = dt.arange(6.0, device=src)
    v = a[2:]
    m = v.to(dst)
    if src == dst:
        assert m is v and m.base is a
    else:
        assert m.base is None and m.flags.owndata


def test_the_owner_lives_as_long_as_its_views(device):
    a = dt.arange(5.0, device=device)
    owner = weakref.ref(a)
    v = a[1:]
    del a
    gc.collect()
    assert owner() is v.base and v.base.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    w = v[1:]
    del v
    assert w.base is owner()
    del w
    assert owner() is None  # freed with its last view, no collection needed


def test_views_take_and_give_back_one_reference():
    a = dt.zeros(8)
    before = sys.getrefcount(a)
    views = [a[i:] for i in range(5)]
    assert sys.getrefcount(a) == before + 5
    del views
    assert sys.getrefcount(a) == before


def test_recycled_tensors_start_without_a_base():
    a = dt.zeros(8)
    for _ in range(40):  # fills the free list with views that had a base
        v = a[1:]
        del v
    fresh = [dt.zeros(2) for _ in range(40)]
    assert all(f.base is None and f.flags.owndata for f in fresh)
    assert all(f[1:].base is f for f in fresh)


def test_memory_lent_by_numpy_is_owned_only_when_nothing_else_sees_it():
    n = np.arange(6.0)
    t = dt.asarray(n)
    assert t.base is None and not t.flags.owndata  # n still sees it
    assert t[1:].base is t and not t[1:].flags.owndata
    del t  # asarray's same-array memo keeps the tensor's shell; reviving it keeps the rule
    t = dt.asarray(n)
    assert t.base is None and t[2:].base is t and not t.flags.owndata
    del n
    assert t.flags.owndata and not t[2:].flags.owndata
    assert not dt.asarray(np.arange(6.0)[1:]).flags.owndata  # NumPy's view owns nothing
    f = dt.frombuffer(b"\x00" * 16, dtype=dt.uint8)
    assert f.base is None and not f.flags.owndata


def test_reshape_that_copies_is_a_view_of_its_copy_as_in_numpy(device):
    a = dt.zeros((3, 4), device=device)
    r = a.T.reshape(-1)
    assert np.zeros((3, 4)).T.reshape(-1).base is not None
    assert r.base is not None and r.base is not a and r.base.base is None


def test_memory_from_dlpack_is_not_owned():
    n = np.arange(4.0)
    t = dt.from_dlpack(n)
    assert not t.flags.owndata
    assert t[1:].base is t


def test_a_parameter_shares_and_takes_the_base_of_its_data(device):
    w = dt.zeros((2, 3), device=device)
    p = nn.Parameter(w)
    assert p.base is w and not p.flags.owndata
    assert p.T.base is w
    x = dt.ones(4, device=device)
    p.data = x
    assert p.base is x and p.tolist() == [1.0] * 4


def test_a_parameter_holding_its_own_view_is_collected():
    # a Parameter is garbage-collected; its views' base is the plain tensor
    # that owns the memory, so this cycle is one the collector can see
    p = nn.Parameter(dt.zeros(3))
    p.half_view = p[1:]
    ref = weakref.ref(p)
    del p
    gc.collect()
    assert ref() is None


def test_require_copies_only_what_does_not_own_its_memory():
    m = dt.zeros((3, 4))
    for req in (["O"], ["F", "O"], ["C", "O"]):
        r = dt.require(m.T, requirements=req)
        assert r.flags.owndata and r.base is None
    assert dt.require(m, requirements=["F", "O"]).flags.f_contiguous
    a = dt.arange(6.0)
    assert dt.require(a, requirements="O") is a
    v = a[::2]
    r = dt.require(v, requirements="O")
    assert r is not v and r.flags.owndata and r.tolist() == [0.0, 2.0, 4.0]
    c = dt.require(a[1:], requirements=["C", "O"])
    assert c.flags.owndata and c.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_flags_repr_lists_owndata():
    a = dt.zeros(3)
    assert "OWNDATA : True" in repr(a.flags)
    assert "OWNDATA : False" in repr(a[1:].flags)


def test_base_cannot_be_set():
    a = dt.zeros(3)
    with pytest.raises(AttributeError):
        a.base = dt.zeros(3)
    with pytest.raises(AttributeError):
        a.flags.owndata = False


def test_iteration_calls_a_subclass_getitem():
    class Doubled(dt.Tensor):
        def __getitem__(self, key):
            return super().__getitem__(key) * 2

    d = dt.arange(3.0)._alias_as(Doubled)
    assert [x.item() for x in d] == [0.0, 2.0, 4.0]
    assert [x.item() for x in reversed(d)] == [4.0, 2.0, 0.0]
