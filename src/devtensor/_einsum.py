"""einsum and einsum_path: NumPy's Einstein summation, on the operands'
device, with NumPy's signature, subscripts (string or sublists, explicit or
implicit output, '...' broadcasting, repeated subscripts), result dtypes and
errors.

Note [einsum as matrix products]
    Each operand is first made a view with one axis per distinct subscript:
    a subscript repeated within an operand is its diagonal (one axis whose
    stride is the sum of the repeated ones'), and a length-1 axis meeting a
    longer one in another operand is broadcast (stride 0).  Subscripts that
    appear in one operand only and are not needed later (not in the output,
    nor in an operand still to come) are summed out of it first.  Two
    operands A and B are then contracted by one matmul: the subscripts both
    hold and still need are batch axes, those both hold and need no more are
    the k axis (merged into one), A's others the m axis and B's the n axis:
    (batch..., M, K) @ (batch..., K, N) -> (batch..., M, N), reshaped back to
    one axis per subscript.  So einsum('ij,jk->ik') and einsum('bij,bjk->bik')
    are one matrix product of views; only operands whose strides cannot be
    merged into (M, K) are copied, on their device.  A pair with nothing to
    sum (an outer or elementwise product) is a broadcast multiply instead.
    Everything is computed in the result dtype (NumPy's: the operands'
    promotion, or dtype=), so int8 sums wrap as NumPy's do.  With one
    operand, nothing to sum, no out= and no change of dtype, the result is a
    view (einsum('ii->i', a) is a's diagonal, writeable), as NumPy's is.

Note [Contraction order]
    optimize=False contracts left to right (NumPy then runs one loop over
    every subscript at once: the pairwise order is ours, the values are the
    same).  Any other optimize (True, 'greedy', 'optimal', an explicit path
    ['einsum_path', (0, 1), ...], or (kind, memory_limit)) asks
    numpy.einsum_path for the order, given zero-cost stand-ins of the
    operands' shapes (broadcast views of one element), and replays that
    path: as NumPy's, each step pops the operands it names and appends the
    result to the list.  So the path, and its errors, are NumPy's own.

Note [einsum's per-call path]
    Parsing the subscripts and planning the contraction cost far more than
    a small product.  Two tensors on one device with string subscripts and
    no out=, dtype=, casting= or order= (the common call) take a remembered
    plan per (subscripts, shapes, dtypes): the one matrix product the
    general path would make, applied as views (permutations of shapes and
    strides, reshape) around _C._matmul, laid out by the general path's own
    _layout.  optimize= is not consulted: two operands have one
    contraction.  One tensor ('ii', 'ij->ji', 'ij->j') takes a plan per
    (subscripts, shape): its diagonal view, a sum in its dtype, a
    permutation, as the general path computes them.  Calls the plans do
    not cover (a diagonal of two operands, a broadcast axis, a label summed
    out of one operand, an outer product, an error) take the general path,
    which raises NumPy's errors.

Note [einsum's errors]
    With optimize=False the subscript errors are those of NumPy's C
    einsum, word for word and in its order (including its "more
    operands"/"fewer operands", which name the opposite of what happened);
    with optimize set, numpy.einsum_path sees the subscripts first, so its
    errors are NumPy's optimize path's, and what it lets through then meets
    the C checks (NumPy's optimize path alone accepts a few malformed
    subscripts, such as a sublist with a bool or two ellipses).  Operand
    sizes that do not match are reported in the words of NumPy's optimize
    path in both modes (NumPy's C einsum uses its iterator's words), and an
    out= of the wrong shape gets the iterator's "non-broadcastable output
    operand" message.  One deliberate difference: NumPy returns its view of
    a single operand even when dtype= names another dtype, ignoring dtype=;
    here dtype= is honoured (a cast copy).
"""
import functools
import math
import operator

import numpy as np

from . import _C
from ._C import TensorBase
from ._manipulation import _as_tensors, broadcast_shapes
from ._reductions import sum as _sum
from ._structured import _same_device
from ._ufuncs import multiply
from ._views import _fmt, _view, permute_dims, reshape
from ._order import order_letter

__all__ = ["einsum", "einsum_path"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_BROADCAST = 1000  # labels of the axes '...' covers: _BROADCAST + j (letters are their ord)


# ---- parsing: subscripts as lists of labels ----

def _letters_term(term, where):
    """One operand's (or the output's) subscripts: (labels, position of
    '...' or None)."""
    labels, ellipsis, i = [], None, 0
    while i < len(term):
        c = term[i]
        if c == " ":
            i += 1
        elif c.isascii() and c.isalpha():
            labels.append(ord(c))
            i += 1
        elif c == ".":
            if term[i:i + 3] != "..." or ellipsis is not None:
                raise ValueError(f"einstein sum subscripts string contains a '.' that is not "
                                 f"part of an ellipsis ('...') in {where}")
            ellipsis = len(labels)
            i += 3
        else:
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                             f"subscripts must be letters")
    return labels, ellipsis


def _check_term(term, ndim, i):
    """NumPy's checks of operand i's subscripts against its dimensions."""
    named, ellipsis = term
    if len(named) > ndim:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for "
                         f"operand {i}")
    if ellipsis is None and len(named) < ndim:
        raise ValueError("operand has more dimensions than subscripts given in einstein sum, "
                         "but no '...' ellipsis provided to broadcast the extra dimensions.")
    return term


def _parse_string(subscripts, tensors):
    """The terms of a subscripts string: [(labels, ellipsis)] per operand,
    and the output's or None (implicit), with NumPy's C einsum's errors in
    its order (each operand's subscripts, then the counts, then '->')."""
    nop = len(tensors)
    arrow = subscripts.find("-")
    bad_arrow = arrow >= 0 and subscripts[arrow + 1:arrow + 2] != ">"
    if arrow >= 0:
        inputs, output = subscripts[:arrow], subscripts[arrow + 2:]
    else:
        inputs, output = subscripts, None
    terms = inputs.split(",")
    parsed = [_check_term(_letters_term(term, f"operand {i}"), t.ndim, i)
              for i, (term, t) in enumerate(zip(terms, tensors))]
    if len(terms) > nop:
        raise ValueError("more operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if len(terms) < nop:
        raise ValueError("fewer operands provided to einstein sum function than specified in "
                         "the subscripts string")
    if bad_arrow:
        raise ValueError("einstein sum subscript string does not contain proper '->' output "
                         "specified")
    if output is not None:
        for c in output:
            if c in "->":
                raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, "
                                 f"subscripts must be letters")
        output = _letters_term(output, "the output")
    return parsed, output


def _sublist_term(sublist):
    """A subscripts list (ints in [0, 52), one Ellipsis at most) as labels:
    0-25 are 'A'-'Z' and 26-51 'a'-'z', as in NumPy's C einsum."""
    labels, ellipsis = [], None
    for s in sublist:
        if s is Ellipsis:
            if ellipsis is not None:
                raise ValueError("each subscripts list may have only one ellipsis")
            ellipsis = len(labels)
            continue
        try:
            if isinstance(s, (bool, np.bool_)):
                raise TypeError
            s = operator.index(s)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") from None
        if not 0 <= s < 52:
            raise ValueError("subscript is not within the valid range [0, 52)")
        labels.append(ord("A") + s if s < 26 else ord("a") + s - 26)
    return labels, ellipsis


def _split_args(args):
    """(operands, [(labels, ellipsis)] per operand, output or None) from
    einsum's positional arguments, in either form."""
    if not args:
        raise ValueError("must specify the einstein sum subscripts string and at least one "
                         "operand, or at least one operand and its corresponding subscripts list")
    first = args[0]
    if isinstance(first, bytes):
        first = first.decode("ascii")
    if isinstance(first, str):
        operands = list(args[1:])
        if not operands:
            raise ValueError("must specify the einstein sum subscripts string and at least one "
                             "operand")
        terms, output = _parse_string(first, operands)
        return operands, terms, output
    nop = len(args) // 2
    if nop == 0:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    operands = list(args[0:2 * nop:2])
    terms = [_check_term(_sublist_term(s), t.ndim, i)
             for i, (t, s) in enumerate(zip(operands, args[1:2 * nop:2]))]
    output = _sublist_term(args[-1]) if len(args) % 2 else None
    return operands, terms, output


def _full_labels(tensors, terms, output, allow_summed_broadcast):
    """Each operand's label per axis ('...' expanded into broadcast labels,
    right-aligned across operands) and the output's labels."""
    counts, nbroadcast, labels = {}, 0, []
    for t, (named, ell) in zip(tensors, terms):
        for c in named:
            counts[c] = counts.get(c, 0) + 1
        nbroadcast = max(nbroadcast, t.ndim - len(named))
    for t, (named, ell) in zip(tensors, terms):
        n = t.ndim - len(named)
        bc = [_BROADCAST + nbroadcast - n + j for j in range(n)]
        labels.append(named if ell is None else named[:ell] + bc + named[ell:])
    broadcast = [_BROADCAST + j for j in range(nbroadcast)]
    if output is None:  # implicit: '...' then the subscripts seen once, in ASCII order
        return labels, broadcast + sorted(c for c, n in counts.items() if n == 1)
    named, ell = output
    seen = set()
    for c in named:
        if c not in counts:
            raise ValueError(f"einstein sum subscripts string included output subscript "
                             f"'{chr(c)}' which never appeared in an input")
        if c in seen:
            raise ValueError(f"einstein sum subscripts string includes output subscript "
                             f"'{chr(c)}' multiple times")
        seen.add(c)
    if ell is None:
        if nbroadcast and not allow_summed_broadcast:
            raise ValueError("output has more dimensions than subscripts given in einstein "
                             "sum, but no '...' ellipsis provided to broadcast the extra "
                             "dimensions.")
        return labels, named
    return labels, named[:ell] + broadcast + named[ell:]


def _label_name(label):
    return chr(label) if label < _BROADCAST else "..."


# ---- operands as views with one axis per label ----

def _collapse(t, labels, i, single):
    """t with each repeated label's axes made one (the diagonal, a view)."""
    if len(set(labels)) == len(labels):
        return t, labels
    unique = list(dict.fromkeys(labels))
    shape, strides = [], []
    for c in unique:
        axes = [d for d, label in enumerate(labels) if label == c]
        for d in axes[1:]:
            if t.shape[d] != t.shape[axes[0]]:
                where = "single operand" if single else f"operand {i}"
                raise ValueError(f"dimensions in {where} for collapsing index '{chr(c)}' don't "
                                 f"match ({t.shape[axes[0]]} != {t.shape[d]})")
        shape.append(t.shape[axes[0]])
        strides.append(sum(t.strides[d] for d in axes))  # the builtin (sum is _sum here)
    return _view(t, shape, strides), unique


def _ellipsis_shape(t, labels):
    return [n for c, n in zip(labels, t.shape) if c >= _BROADCAST]


def _sizes(tensors, labels):
    """Each label's size: equal in every operand, or 1 (broadcast)."""
    sizes = {}
    for i, (t, ls) in enumerate(zip(tensors, labels)):
        for c, n in zip(ls, t.shape):
            prev = sizes.get(c)
            if prev is None or prev == 1:
                sizes[c] = n
            elif n not in (1, prev):
                if c >= _BROADCAST:  # the '...' shapes, in NumPy's broadcasting words
                    broadcast_shapes(*map(_ellipsis_shape, tensors, labels))
                raise ValueError(f"Size of label '{_label_name(c)}' for operand {i} ({prev}) "
                                 f"does not match previous terms ({n}).")
    return sizes


def _broadcast(t, labels, sizes):
    """t with its length-1 axes stretched (stride 0) to their label's size."""
    if all(n == sizes[c] for c, n in zip(labels, t.shape)):
        return t
    shape = [sizes[c] for c in labels]
    strides = [s if n == sizes[c] else 0 for c, n, s in zip(labels, t.shape, t.strides)]
    return _view(t, shape, strides)


# ---- contractions ----

def _sum_out(t, labels, keep, dtype):
    """t summed over its labels not in keep (in the result dtype)."""
    axes = tuple(d for d, c in enumerate(labels) if c not in keep)
    if not axes:
        return t, labels
    return _sum(t, axis=axes, dtype=dtype), [c for c in labels if c in keep]


def _layout(la, lb, keep, size):
    """How a and b (labels la, lb) contract (Note [einsum as matrix
    products]): a's permutation to (batch, m, k), b's to (batch, k, n),
    the (batch..., M, K) and (batch..., K, N) shapes of the product, the
    result's shape and labels (batch, m, n), and whether anything is summed
    (k not empty; else the product is a broadcast multiply)."""
    batch = [c for c in la if c in lb and c in keep]
    k = [c for c in la if c in lb and c not in keep]
    m = [c for c in la if c not in lb]
    n = [c for c in lb if c not in la]
    bshape, mshape, nshape = ([size[c] for c in g] for g in (batch, m, n))
    K = math.prod(size[c] for c in k)
    return (tuple(la.index(c) for c in batch + m + k), tuple(lb.index(c) for c in batch + k + n),
            tuple(bshape + [math.prod(mshape), K]), tuple(bshape + [K, math.prod(nshape)]),
            tuple(bshape + mshape + nshape), batch + m + n, bool(k))


def _contract(a, la, b, lb, keep, dtype):
    """The product of a and b summed over their labels not in keep (Note
    [einsum as matrix products]): (tensor, its labels)."""
    a, la = _sum_out(a, la, set(lb) | keep, dtype)
    b, lb = _sum_out(b, lb, set(la) | keep, dtype)
    size = dict(zip(la, a.shape))
    size.update(zip(lb, b.shape))
    pa, pb, a3, b3, rshape, labels, summed = _layout(la, lb, keep, size)
    a, b = permute_dims(a, pa), permute_dims(b, pb)
    if not summed:  # a broadcast product of a (batch..., m...) and b (batch..., n...)
        nb = len(a3) - 2
        nm, nn = a.ndim - nb, b.ndim - nb
        a = reshape(a, list(a.shape) + [1] * nn)
        b = reshape(b, list(b.shape[:nb]) + [1] * nm + list(b.shape[nb:]))
        return multiply(a, b), labels
    r = _C._matmul(reshape(a, a3), reshape(b, b3), None)  # (batch..., M, N)
    return reshape(r, rshape), labels


def _run_path(ops, path, output, dtype):
    """Contract the (tensor, labels) operands step by step: each step pops
    the operands it names and appends their contraction (numpy.einsum_path's
    convention)."""
    ops = list(ops)
    for step in path:
        popped = {i: ops.pop(i) for i in sorted(step, reverse=True)}
        picked = [popped[i] for i in sorted(popped)]
        later = set(output).union(*(ls for _, ls in ops))
        t, ls = picked[0]
        if len(picked) == 1:
            t, ls = _sum_out(t, ls, later, dtype)
        for j in range(1, len(picked)):
            keep = later.union(*(rest for _, rest in picked[j + 1:]))
            t, ls = _contract(t, ls, picked[j][0], picked[j][1], keep, dtype)
        ops.append((t, ls))
    return ops


def _standins(args, first_is_subscripts):
    """einsum's arguments with each operand replaced by a NumPy stand-in of
    its shape that costs one element (Note [Contraction order])."""
    one = np.empty((), np.int8)
    stand = (lambda t: np.broadcast_to(one, t.shape))
    if first_is_subscripts:
        return [args[0]] + [stand(t) for t in args[1:]]
    # every tensor, wherever it stands (one left without its sublist must not
    # reach NumPy, whose dispatch would call devtensor's einsum again)
    return [stand(a) if isinstance(a, TensorBase) else a for a in args]


def _path(args, optimize):
    """numpy.einsum_path's order for these operands, remembered per
    subscripts, shapes and optimize (it costs more than a small product)."""
    if args and isinstance(args[0], str) and isinstance(optimize, (bool, str)):
        return _remembered_path(args[0], tuple(tuple(t.shape) for t in args[1:]), optimize)
    stand = _standins(args, bool(args) and isinstance(args[0], (str, bytes)))
    return np.einsum_path(*stand, optimize=optimize)[0][1:]


@functools.lru_cache(maxsize=256)
def _remembered_path(subscripts, shapes, optimize):
    one = np.empty((), np.int8)
    stand = [np.broadcast_to(one, s) for s in shapes]
    return tuple(np.einsum_path(subscripts, *stand, optimize=optimize)[0][1:])


def _with_tensors(args):
    """The positional arguments with their operands as tensors on one device
    (Note [Lists as inputs] in _manipulation.py)."""
    args = list(args)
    subscripts = bool(args) and isinstance(args[0], (str, bytes))
    if subscripts:
        idx = list(range(1, len(args)))
    else:
        idx = list(range(0, len(args) - len(args) % 2, 2))
    for i, t in zip(idx, _as_tensors([args[i] for i in idx])):
        args[i] = t
    return args, subscripts


# ---- the per-call fast path of two operands ----

class _Shape:
    """What the parser reads of an operand: its shape (a stand-in)."""
    __slots__ = ("shape", "ndim")

    def __init__(self, shape):
        self.shape, self.ndim = shape, len(shape)


@functools.lru_cache(maxsize=512)
def _pair_plan(subscripts, sa, sb, da, db):
    """Note [einsum's per-call path]: for subscripts over operands of shapes
    sa and sb and dtypes da and db, the one matrix product the general path
    would make, as (permutation of a, of b, a's (batch..., M, K) shape, b's
    (batch..., K, N), the product's shape per label, the permutation to the
    output, the dtype); None where the general path is needed."""
    try:
        _, terms, output = _split_args([subscripts, _Shape(sa), _Shape(sb)])
        (la, lb), output = _full_labels([_Shape(sa), _Shape(sb)], terms, output, False)
    except (ValueError, TypeError):
        return None  # the general path raises NumPy's error
    if len(set(la)) != len(la) or len(set(lb)) != len(lb):
        return None  # diagonals
    size = dict(zip(la, sa))
    if any(size.get(c, n) != n for c, n in zip(lb, sb)):
        return None  # broadcast length-1 axes, or mismatched sizes (the general path's error)
    size.update(zip(lb, sb))
    if any(c not in output and c not in lb for c in la) or \
            any(c not in output and c not in la for c in lb):
        return None  # a label summed out of one operand
    pa, pb, a3, b3, rshape, labels, summed = _layout(la, lb, set(output), size)
    if not summed:
        return None  # a broadcast product
    return (pa, pb, a3, b3, rshape, tuple(labels.index(c) for c in output),
            _C._promote_types(da, db))


@functools.lru_cache(maxsize=512)
def _single_plan(subscripts, shape):
    """Note [einsum's per-call path] for one operand: (the view's shape, the
    operand's axes merged into each view axis (a diagonal sums their
    strides), the view axes summed, the permutation to the output); None
    where the general path is needed."""
    try:
        _, terms, output = _split_args([subscripts, _Shape(shape)])
        (labels,), output = _full_labels([_Shape(shape)], terms, output, False)
    except (ValueError, TypeError):
        return None
    unique = list(dict.fromkeys(labels))
    groups = tuple(tuple(d for d, c in enumerate(labels) if c == u) for u in unique)
    if any(len({shape[d] for d in g}) != 1 for g in groups):
        return None  # a diagonal of unequal axes: the general path's error
    kept = [c for c in unique if c in output]
    return (tuple(shape[g[0]] for g in groups), groups,
            tuple(i for i, c in enumerate(unique) if c not in output),
            tuple(kept.index(c) for c in output))


def _single(plan, t):
    vshape, groups, summed, pout = plan
    strides = t.strides
    v = t._as_strided(vshape, tuple(sum(strides[d] for d in g) for g in groups), 0)
    if summed:
        v = _sum(v, axis=summed, dtype=t.dtype)
    return _permuted(v, pout)


def _permuted(t, perm):
    if perm == tuple(range(len(perm))):
        return t
    shape, strides = t.shape, t.strides
    return t._as_strided(tuple(shape[i] for i in perm), tuple(strides[i] for i in perm), 0)


def _pair(plan, a, b):
    pa, pb, a3, b3, rshape, pout, dtype = plan
    if a.dtype != dtype:
        a = a.astype(dtype)
    if b.dtype != dtype:
        b = b.astype(dtype)
    r = _C._matmul(_permuted(a, pa).reshape(a3), _permuted(b, pb).reshape(b3), None)
    return _permuted(r.reshape(rshape), pout)


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """einsum(subscripts, *operands, out=None, dtype=None, order='K',
    casting='safe', optimize=False), or einsum(op0, sublist0, op1, sublist1,
    ..., [sublistout], ...): NumPy's Einstein summation, on the operands'
    device, every contraction a matrix product (Note [einsum as matrix
    products]); optimize chooses the order (Note [Contraction order]).

    dtype= is the dtype computed in (each operand cast to it by `casting`),
    out= receives the result (cast by `casting`), order= asks a C or F
    layout of a computed result.  PyTorch's einsum(subscripts, [op0, op1, ...])
    takes the operands as one list."""
    if len(operands) == 2 and type(operands[0]) is str and isinstance(operands[1], (list, tuple)) and \
            operands[1] and all(isinstance(o, TensorBase) for o in operands[1]):
        operands = (operands[0],) + tuple(operands[1])
    if (out is None and dtype is None and order == "K" and casting == "safe" and
            type(operands[0] if operands else None) is str):
        if len(operands) == 3:
            a, b = operands[1], operands[2]
            if isinstance(a, TensorBase) and isinstance(b, TensorBase) and a.device == b.device:
                plan = _pair_plan(operands[0], a.shape, b.shape, a.dtype, b.dtype)
                if plan is not None:
                    return _pair(plan, a, b)
        elif len(operands) == 2 and isinstance(operands[1], TensorBase):
            plan = _single_plan(operands[0], operands[1].shape)
            if plan is not None:
                return _single(plan, operands[1])
    order = order_letter(order)
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         f"(got {casting!r})")
    if dtype is not None:
        dtype = dtype if isinstance(dtype, _C.dtype) else _C.dtype(dtype)
    args, _ = _with_tensors(operands)
    path = None
    if optimize is not False:
        path = _path(args, optimize)
    tensors, terms, output = _split_args(args)
    labels, output = _full_labels(tensors, terms, output, optimize is not False)
    single = len(tensors) == 1 and out is None and set(labels[0]) <= set(output)
    views = [_collapse(t, ls, i, single) for i, (t, ls) in enumerate(zip(tensors, labels))]
    sizes = _sizes([t for t, _ in views], [ls for _, ls in views])
    shape = [sizes[c] for c in output]
    if dtype is not None:
        for i, t in enumerate(tensors):
            if not _C._can_cast(t.dtype, dtype, casting):
                raise TypeError(f"Iterator operand {i} dtype could not be cast from "
                                f"dtype('{t.dtype}') to dtype('{dtype}') according to the "
                                f"rule '{casting}'")
    else:
        dtype = functools.reduce(_C._promote_types, [t.dtype for t in tensors])
    if out is not None:
        _check_out(out, shape, dtype, casting, tensors)
    ops = [(_broadcast(t.astype(dtype, copy=False), ls, sizes), ls) for t, ls in views]
    if path is None and len(ops) == 1:
        path = [(0,)]
    elif path is None:  # left to right: the next operand (first) with the result so far (last)
        path = [(0, 1)] + [(0, len(ops) - 1 - j) for j in range(1, len(ops) - 1)]
    [(t, ls)] = _run_path(ops, path, output, dtype)  # each step summed what none later needs
    result = permute_dims(t, [ls.index(c) for c in output])
    if out is not None:
        out._copy_from(result)
        return out
    if len(tensors) == 1 and result._same_storage(tensors[0]):
        return result  # NumPy's view, whatever the order
    if order == "C" and not result.is_contiguous():
        return result.copy()
    if order == "F" and not result.T.is_contiguous():
        return result.T.copy().T._own()
    return result


def _check_out(out, shape, dtype, casting, tensors):
    """NumPy's checks of einsum's out=."""
    if not isinstance(out, TensorBase):
        raise TypeError("keyword parameter out must be an array for einsum")
    _same_device(list(tensors) + [out])
    if out.ndim != len(shape):
        raise ValueError(f"out parameter does not have the correct number of dimensions, has "
                         f"{out.ndim} but should have {len(shape)}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"non-broadcastable output operand with shape {_fmt(out.shape)} "
                         f"doesn't match the broadcast shape {_fmt(shape)}")
    if not _C._can_cast(dtype, out.dtype, casting):
        raise TypeError(f"Iterator requested dtype could not be cast from dtype('{dtype}') to "
                        f"dtype('{out.dtype}'), the operand {len(tensors)} dtype, according to "
                        f"the rule '{casting}'")


def einsum_path(*operands, optimize="greedy"):
    """numpy.einsum_path for these operands' shapes: (path, report).  The
    operands are not read (Note [Contraction order])."""
    args, subscripts = _with_tensors(operands)
    return np.einsum_path(*_standins(args, subscripts), optimize=optimize)
