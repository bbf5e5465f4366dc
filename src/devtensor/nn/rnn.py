"""Recurrent layers: RNN, LSTM and GRU (stacked, bidirectional,
batch_first, between-layer dropout, LSTM's proj_size, PackedSequence input)
and the single-step RNNCell, LSTMCell and GRUCell, with PyTorch's parameter
names (weight_ih_l0, bias_hh_l1_reverse, weight_hr_l0, ...), gate order
(LSTM: i, f, g, o; GRU: r, z, n), initialisation U(-1/sqrt(hidden),
1/sqrt(hidden)), shapes and errors.

Note [Recurrence]
    Each layer and direction multiplies the whole sequence by W_ih once (one
    (T * N, I) x (I, G) product, b_ih added) and then steps through time with
    one (N, H) x (H, G) product and the gate arithmetic per step.  A packed
    batch is sorted longest first (Note [Packed sequences] in
    utils/rnn.py), so the sequences still running at step t are the first
    batch_sizes[t] rows: the step updates those rows and keeps the others'
    state, which is the final state of the sequences that have ended or,
    going backwards, the initial state of those not yet begun.
"""
import math
import numbers
import operator
import warnings

from .. import _C, _ufuncs
from .._creation import empty, zeros
from . import functional as F, init
from .functional import _same_device, _tensor
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _dt():
    import devtensor
    return devtensor


def _step(mode, gx, h, c, w_hh_t, b_hh, w_hr_t):
    """One time step: the new (h, c) from the input's projection gx (b_ih
    included) and the state (c is None except for the LSTM)."""
    gh = _dt().matmul(h, w_hh_t)
    if b_hh is not None:
        gh = gh + b_hh
    if mode == "LSTM":
        gates = gx + gh
        n = c.shape[-1]
        i, f = F.sigmoid(gates[..., :n]), F.sigmoid(gates[..., n:2 * n])
        g, o = _ufuncs.tanh(gates[..., 2 * n:3 * n]), F.sigmoid(gates[..., 3 * n:])
        c = f * c + i * g
        h = o * _ufuncs.tanh(c)
        if w_hr_t is not None:
            h = _dt().matmul(h, w_hr_t)
        return h, c
    if mode == "GRU":
        n = h.shape[-1]
        r = F.sigmoid(gx[..., :n] + gh[..., :n])
        z = F.sigmoid(gx[..., n:2 * n] + gh[..., n:2 * n])
        candidate = _ufuncs.tanh(gx[..., 2 * n:] + r * gh[..., 2 * n:])
        return candidate + z * (h - candidate), None
    pre = gx + gh
    return (_ufuncs.tanh(pre) if mode == "RNN_TANH" else F.relu(pre)), None


def _direction(mode, x, sizes, h, c, weights, reverse):
    """One layer in one direction over x (rows, I) laid out by the batch
    sizes per step (Note [Recurrence]); the outputs (rows, H_out) in x's
    order and the final (h, c)."""
    dt = _dt()
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    projected = dt.matmul(x, w_ih.T)
    if b_ih is not None:
        projected = projected + b_ih
    w_hh_t, w_hr_t = w_hh.T, (None if w_hr is None else w_hr.T)
    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    outputs = [None] * len(sizes)
    batch = h.shape[0]
    for t in (reversed(range(len(sizes))) if reverse else range(len(sizes))):
        size = sizes[t]
        gx = projected[starts[t]:starts[t + 1]]
        if size == batch:
            h, c = _step(mode, gx, h, c, w_hh_t, b_hh, w_hr_t)
            outputs[t] = h
        else:
            new_h, new_c = _step(mode, gx, h[:size], None if c is None else c[:size], w_hh_t, b_hh, w_hr_t)
            outputs[t] = new_h
            h = dt.concatenate([new_h, h[size:]])
            c = None if c is None else dt.concatenate([new_c, c[size:]])
    return dt.concatenate(outputs), h, c


class RNNBase(Module):
    """The stacked recurrent layer shared by RNN, LSTM and GRU."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size, self.hidden_size = operator.index(input_size), operator.index(hidden_size)
        self.num_layers, self.proj_size = operator.index(num_layers), operator.index(proj_size)
        self.bias, self.batch_first, self.bidirectional = bool(bias), bool(batch_first), bool(bidirectional)
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        self.dropout = float(dropout)
        if dropout > 0 and self.num_layers == 1:
            warnings.warn(f"dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", UserWarning, stacklevel=3)
        if self.hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if self.num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if self.proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if self.proj_size >= self.hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if self.proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        dtype = _C.float32 if dtype is None else dtype
        gate_size = _GATES[mode] * self.hidden_size
        real_hidden = self.proj_size or self.hidden_size
        directions = 2 if self.bidirectional else 1
        self._flat_weights_names = []
        for layer in range(self.num_layers):
            layer_input = self.input_size if layer == 0 else real_hidden * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction else "")
                shapes = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, real_hidden))]
                if self.bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if self.proj_size:
                    shapes.append(("weight_hr", (self.proj_size, self.hidden_size)))
                for name, shape in shapes:
                    setattr(self, name + suffix, Parameter(empty(shape, dtype=dtype, device=device)))
                    self._flat_weights_names.append(name + suffix)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.hidden_size)
        for weight in self.parameters():
            init.uniform_(weight, -bound, bound)

    @property
    def _flat_weights(self):
        """The parameters in PyTorch's order (third-party code reads this)."""
        return [getattr(self, name) for name in self._flat_weights_names]

    def flatten_parameters(self):
        """A no-op: there is no cuDNN weight buffer to compact."""

    @property
    def all_weights(self):
        """The parameters of each layer and direction, as lists in PyTorch's order."""
        per = len(self._flat_weights_names) // (self.num_layers * (2 if self.bidirectional else 1))
        weights = self._flat_weights
        return [weights[i:i + per] for i in range(0, len(weights), per)]

    def _weights(self, layer, direction, dtype):
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        get = (lambda name: getattr(self, name + suffix).astype(dtype, copy=False))
        return (get("weight_ih"), get("weight_hh"), get("bias_ih") if self.bias else None,
                get("bias_hh") if self.bias else None, get("weight_hr") if self.proj_size else None)

    def _check_hidden(self, h, expected, what):
        _tensor(h, what)
        if tuple(h.shape) != expected:
            raise RuntimeError(f"Expected {what} size {expected}, got {list(h.shape)}")

    def forward(self, input, hx=None):
        dt = _dt()
        lstm = self.mode == "LSTM"
        name = {"RNN_TANH": "RNN", "RNN_RELU": "RNN"}.get(self.mode, self.mode)
        packed = isinstance(input, PackedSequence)
        batched = True
        if packed:
            x, sizes = input.data, input.batch_sizes.tolist()
            batch = sizes[0]
        else:
            _tensor(input)
            if input.ndim not in (2, 3):
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D tensor instead")
            batched = input.ndim == 3
            seq = input if batched else input[:, None]
            if self.batch_first and batched:
                seq = seq.swapaxes(0, 1)
            steps, batch = seq.shape[:2]
            x, sizes = seq.reshape(steps * batch, seq.shape[2]), [batch] * steps
        first = self.weight_ih_l0
        _same_device(x, first)
        if not (x.dtype.is_floating_point or x.dtype.is_complex):
            raise RuntimeError(f"input must have the type {first.dtype}, got type {x.dtype} (an integer "
                               f"sequence needs an nn.Embedding first)")
        if not sizes or not sizes[0]:
            raise RuntimeError(f"Expected sequence length to be larger than 0 in RNN, got input of size "
                               f"{list(input.data.shape if packed else input.shape)}")
        if x.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{x.shape[-1]}")
        dtype = _dt().result_type(x, first)  # promoted, as Linear's and the convolutions'
        x = x.astype(dtype, copy=False)
        directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size or self.hidden_size
        h_shape = (self.num_layers * directions, batch, real_hidden)
        c_shape = (self.num_layers * directions, batch, self.hidden_size)
        h0, c0 = self._initial_state(hx, lstm, batched, packed, input, h_shape, c_shape, x)
        layer_input = x
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                k = layer * directions + direction
                out, h, c = _direction(self.mode, layer_input, sizes, h0[k], None if c0 is None else c0[k],
                                       self._weights(layer, direction, dtype), direction == 1)
                outs.append(out)
                h_n.append(h)
                c_n.append(c)
            layer_input = outs[0] if directions == 1 else dt.concatenate(outs, axis=-1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        h_n = dt.stack(h_n)
        c_n = dt.stack(c_n) if lstm else None
        if packed:
            if input.unsorted_indices is not None:
                h_n = h_n[:, input.unsorted_indices]
                c_n = None if c_n is None else c_n[:, input.unsorted_indices]
            output = PackedSequence(layer_input, input.batch_sizes, input.sorted_indices, input.unsorted_indices)
        else:
            output = layer_input.reshape(len(sizes), batch, layer_input.shape[-1])
            if not batched:
                output, h_n = output[:, 0], h_n[:, 0]
                c_n = None if c_n is None else c_n[:, 0]
            elif self.batch_first:
                output = output.swapaxes(0, 1)
        return output, ((h_n, c_n) if lstm else h_n)

    def _initial_state(self, hx, lstm, batched, packed, input, h_shape, c_shape, x):
        """(h0, c0) in the layout the layers step with (c0 None unless LSTM)."""
        if hx is None:
            h0 = zeros(h_shape, dtype=x.dtype, device=x.device)
            return h0, (zeros(c_shape, dtype=x.dtype, device=x.device) if lstm else None)
        if lstm:
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError("LSTM's hx must be a tuple (h_0, c_0)")
            h0, c0 = hx
            _tensor(h0, "hidden[0]")
            _tensor(c0, "hidden[1]")
        else:
            h0, c0 = hx, None
            _tensor(h0, "hx")
        want = 3 if batched else 2
        for h in (h0, c0):
            if h is not None and h.ndim != want:
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got {h.ndim}-D "
                                   f"tensor" if lstm else f"For {kind} input, hx should also be {want}-D but got "
                                   f"{h.ndim}-D tensor")
        if not batched:
            h0 = h0[:, None]
            c0 = None if c0 is None else c0[:, None]
        _same_device(x, h0, c0)
        self._check_hidden(h0, h_shape, "hidden[0]" if lstm else "hidden")
        if lstm:
            self._check_hidden(c0, c_shape, "hidden[1]")
        if packed and input.sorted_indices is not None:
            h0 = h0[:, input.sorted_indices]
            c0 = None if c0 is None else c0[:, input.sorted_indices]
        h0 = h0.astype(x.dtype, copy=False)
        return h0, (None if c0 is None else c0.astype(x.dtype, copy=False))

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s


class RNN(RNNBase):
    """h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu), stacked."""

    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size, hidden_size,
                         num_layers, bias, batch_first, dropout, bidirectional, device=device, dtype=dtype)


class LSTM(RNNBase):
    """Long short-term memory: returns output, (h_n, c_n)."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device, dtype)


class GRU(RNNBase):
    """Gated recurrent unit: returns output, h_n."""

    def __init__(self, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, device=None, dtype=None):
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype)


class RNNCellBase(Module):
    """One step of a recurrent layer: weight_ih, weight_hh, bias_ih, bias_hh."""
    _mode = ""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = operator.index(input_size), operator.index(hidden_size), bias
        if self.hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        dtype = _C.float32 if dtype is None else dtype
        gate_size = _GATES[self._mode] * self.hidden_size
        self.weight_ih = Parameter(empty((gate_size, self.input_size), dtype=dtype, device=device))
        self.weight_hh = Parameter(empty((gate_size, self.hidden_size), dtype=dtype, device=device))
        if bias:
            self.bias_ih = Parameter(empty(gate_size, dtype=dtype, device=device))
            self.bias_hh = Parameter(empty(gate_size, dtype=dtype, device=device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def _run(self, input, hx, cx):
        _tensor(input)
        if input.ndim not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        batched = input.ndim == 2
        x = input if batched else input[None]
        _same_device(x, self.weight_ih)
        if x.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {x.shape[1]} expected {self.input_size}")
        if not (x.dtype.is_floating_point or x.dtype.is_complex):
            raise RuntimeError(f"input must have the type {self.weight_ih.dtype}, got type {x.dtype}")
        dtype = _dt().result_type(x, self.weight_ih)
        x = x.astype(dtype, copy=False)
        cast = (lambda t: None if t is None else t.astype(dtype, copy=False))
        states = []
        for s in ((hx, cx) if self._mode == "LSTM" else (hx,)):
            if s is None:
                states.append(zeros((x.shape[0], self.hidden_size), dtype=x.dtype, device=x.device))
                continue
            _tensor(s, "hx")
            if s.ndim != input.ndim:
                raise RuntimeError(f"{type(self).__name__}: Expected hidden to be {input.ndim}D, got {s.ndim}D "
                                   f"instead")
            s = s if batched else s[None]
            _same_device(x, s)
            if tuple(s.shape) != (x.shape[0], self.hidden_size):
                raise RuntimeError(f"hidden has inconsistent hidden_size: got {list(s.shape)}, expected "
                                   f"{[x.shape[0], self.hidden_size]}")
            states.append(s.astype(x.dtype, copy=False))
        gx = _dt().matmul(x, cast(self.weight_ih).T)
        if self.bias_ih is not None:
            gx = gx + cast(self.bias_ih)
        h, c = _step(self._mode, gx, states[0], states[1] if self._mode == "LSTM" else None, cast(self.weight_hh).T,
                     cast(self.bias_hh), None)
        if not batched:
            h, c = h[0], (None if c is None else c[0])
        return h, c

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            s += ", bias=False"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(input_size, hidden_size, bias, device, dtype)

    def forward(self, input, hx=None):
        return self._run(input, hx, None)[0]


class LSTMCell(RNNCellBase):
    _mode = "LSTM"

    def forward(self, input, hx=None):
        """(h', c') from input and hx = (h, c) (zeros when None)."""
        if hx is None:
            return self._run(input, None, None)
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise TypeError("LSTMCell's hx must be a tuple (h_0, c_0)")
        return self._run(input, hx[0], hx[1])


class GRUCell(RNNCellBase):
    _mode = "GRU"

    def forward(self, input, hx=None):
        return self._run(input, hx, None)[0]


__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]
