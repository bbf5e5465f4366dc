"""nn's recurrent layers (nn/rnn.py) and packed sequences
(nn/utils/rnn.py) on every device, against a NumPy step-by-step loop
written here from PyTorch's documented equations."""
import warnings

import numpy as np
import pytest

import devtensor as dt
import devtensor.nn as nn
from devtensor.nn.utils import rnn as rnn_utils
from helpers import requires_devices, to_np

RNG = np.random.default_rng(41)


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def reference_step(mode, x, h, c, wih, whh, bih, bhh, whr=None):
    gx, gh = x @ wih.T + bih, h @ whh.T + bhh
    if mode == "LSTM":
        n = c.shape[-1]
        g = gx + gh
        i, f, cell, o = sigmoid(g[:, :n]), sigmoid(g[:, n:2 * n]), np.tanh(g[:, 2 * n:3 * n]), sigmoid(g[:, 3 * n:])
        c = f * c + i * cell
        h = o * np.tanh(c)
        return (h if whr is None else h @ whr.T), c
    if mode == "GRU":
        n = h.shape[-1]
        r, z = sigmoid(gx[:, :n] + gh[:, :n]), sigmoid(gx[:, n:2 * n] + gh[:, n:2 * n])
        candidate = np.tanh(gx[:, 2 * n:] + r * gh[:, 2 * n:])
        return (1 - z) * candidate + z * h, None
    pre = gx + gh
    return (np.maximum(pre, 0) if mode == "RNN_RELU" else np.tanh(pre)), None


def reference(m, x, h0, c0):
    """output, h_n, c_n of module m for time-major x (T, N, I), in float64."""
    directions = 2 if m.bidirectional else 1
    inp, h_n, c_n = x, [], []
    for layer in range(m.num_layers):
        outs = []
        for d in range(directions):
            suffix = f"_l{layer}" + ("_reverse" if d else "")
            w = [to_np(getattr(m, name + suffix)) for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
            if m.proj_size:
                w.append(to_np(getattr(m, "weight_hr" + suffix)))
            h, c = h0[layer * directions + d], None if c0 is None else c0[layer * directions + d]
            out = [None] * len(inp)
            for t in (range(len(inp)) if d == 0 else reversed(range(len(inp)))):
                h, c = reference_step(m.mode, inp[t], h, c, *w)
                out[t] = h
            outs.append(np.stack(out))
            h_n.append(h)
            c_n.append(c)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(h_n), (np.stack(c_n) if m.mode == "LSTM" else None)


LAYERS = [
    (nn.RNN, {}),
    (nn.RNN, dict(nonlinearity="relu", num_layers=2)),
    (nn.GRU, dict(num_layers=2, bidirectional=True)),
    (nn.GRU, dict(batch_first=True)),
    (nn.LSTM, dict(bidirectional=True)),
    (nn.LSTM, dict(num_layers=2, proj_size=3, batch_first=True)),
]


def initial_state(m, batch):
    directions = 2 if m.bidirectional else 1
    h0 = RNG.standard_normal((m.num_layers * directions, batch, m.proj_size or m.hidden_size))
    c0 = RNG.standard_normal((m.num_layers * directions, batch, m.hidden_size)) if m.mode == "LSTM" else None
    return h0, c0


def as_hx(h0, c0, device, batch=slice(None)):
    h = dt.asarray(h0[:, batch], device=device)
    return h if c0 is None else (h, dt.asarray(c0[:, batch], device=device))


@pytest.mark.parametrize("case", range(len(LAYERS)))
def test_recurrent_layers_against_numpy(device, case):
    cls, kwargs = LAYERS[case]
    m = cls(5, 6, dtype=dt.float64, **kwargs).to(device)
    x = RNG.standard_normal((4, 3, 5))
    h0, c0 = initial_state(m, 3)
    expected, h_n, c_n = reference(m, x, h0, c0)
    out, hidden = m(dt.asarray(x.swapaxes(0, 1) if m.batch_first else x, device=device), as_hx(h0, c0, device))
    np.testing.assert_allclose(to_np(out), expected.swapaxes(0, 1) if m.batch_first else expected, atol=1e-12)
    assert out.device == dt.device(device)
    if c0 is None:
        np.testing.assert_allclose(to_np(hidden), h_n, atol=1e-12)
    else:
        np.testing.assert_allclose(to_np(hidden[0]), h_n, atol=1e-12)
        np.testing.assert_allclose(to_np(hidden[1]), c_n, atol=1e-12)
    # an unbatched (T, I) sequence is one sample; hx defaults to zeros
    zeros = np.zeros_like(h0[:, :1]), (None if c0 is None else np.zeros_like(c0[:, :1]))
    single, _, _ = reference(m, x[:, :1], *zeros)
    out, hidden = m(dt.asarray(x[:, 0], device=device))
    np.testing.assert_allclose(to_np(out), single[:, 0], atol=1e-12)
    assert (hidden if c0 is None else hidden[0]).shape == h0[:, 0].shape


@pytest.mark.parametrize("case", [0, 2, 4, 5])
def test_packed_sequences_run_each_sequence_to_its_length(device, case):
    cls, kwargs = LAYERS[case]
    m = cls(5, 6, dtype=dt.float64, **kwargs).to(device)
    lengths = [4, 2, 3]
    x = RNG.standard_normal((3, 4, 5) if m.batch_first else (4, 3, 5))
    h0, c0 = initial_state(m, 3)
    packed = rnn_utils.pack_padded_sequence(dt.asarray(x, device=device), lengths, batch_first=m.batch_first,
                                            enforce_sorted=False)
    out, hidden = m(packed, as_hx(h0, c0, device))
    assert isinstance(out, rnn_utils.PackedSequence)
    padded, got_lengths = rnn_utils.pad_packed_sequence(out, batch_first=m.batch_first)
    assert got_lengths.tolist() == lengths
    time_major = to_np(padded.swapaxes(0, 1) if m.batch_first else padded)
    x = x.swapaxes(0, 1) if m.batch_first else x
    for b, n in enumerate(lengths):
        expected, h_n, _ = reference(m, x[:n, b:b + 1], h0[:, b:b + 1], None if c0 is None else c0[:, b:b + 1])
        np.testing.assert_allclose(time_major[:n, b], expected[:, 0], atol=1e-12)
        assert not time_major[n:, b].any()  # padding stays zero
        np.testing.assert_allclose(to_np(hidden if c0 is None else hidden[0])[:, b], h_n[:, 0], atol=1e-12)


def test_cells_against_numpy(device):
    for cls, mode in ((nn.RNNCell, "RNN_TANH"), (nn.GRUCell, "GRU"), (nn.LSTMCell, "LSTM")):
        cell = cls(4, 3, dtype=dt.float64).to(device)
        x, h, c = RNG.standard_normal((2, 4)), RNG.standard_normal((2, 3)), RNG.standard_normal((2, 3))
        w = [to_np(getattr(cell, n)) for n in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
        rh, rc = reference_step(mode, x, h, c if mode == "LSTM" else None, *w)
        if mode == "LSTM":
            got_h, got_c = cell(dt.asarray(x, device=device), (dt.asarray(h, device=device),
                                                               dt.asarray(c, device=device)))
            np.testing.assert_allclose(to_np(got_c), rc, atol=1e-12)
            assert cell(dt.asarray(x[0], device=device))[1].shape == (3,)
        else:
            got_h = cell(dt.asarray(x, device=device), dt.asarray(h, device=device))
            assert cell(dt.asarray(x[0], device=device)).shape == (3,)
        np.testing.assert_allclose(to_np(got_h), rh, atol=1e-12)
    relu = nn.RNNCell(4, 3, nonlinearity="relu", bias=False, dtype=dt.float64)
    assert repr(relu) == "RNNCell(4, 3, bias=False, nonlinearity=relu)"
    x = RNG.standard_normal((2, 4))
    np.testing.assert_allclose(to_np(relu(dt.asarray(x))), np.maximum(x @ to_np(relu.weight_ih).T, 0), atol=1e-12)


def test_parameters_initialisation_and_repr():
    dt.manual_seed(0)
    m = nn.LSTM(5, 6, 2, bidirectional=True, proj_size=2)
    assert list(m.state_dict())[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert list(m.state_dict())[-1] == "weight_hr_l1_reverse" and len(m.state_dict()) == 20
    assert [tuple(p.shape) for p in m.all_weights[2]] == [(24, 4), (24, 2), (24,), (24,), (2, 6)]
    assert repr(m) == "LSTM(5, 6, proj_size=2, num_layers=2, bidirectional=True)"
    assert all(float(abs(p).max()) <= 1 / 6 ** 0.5 for p in m.parameters())
    assert float(abs(m.weight_ih_l0).max()) > 0.3  # drawn from the whole range, not zeros
    gru = nn.GRU(3, 4, bias=False, batch_first=True)
    assert [n for n, _ in gru.named_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    assert repr(gru) == "GRU(3, 4, bias=False, batch_first=True)"
    m.flatten_parameters()
    assert [p.shape for p in m._flat_weights[:2]] == [(24, 5), (24, 2)] and len(m._flat_weights) == 20
    # a float64 input with float32 parameters computes in float64, as Linear does
    out, _ = nn.RNN(3, 4)(dt.ones((2, 1, 3)))
    assert out.dtype == dt.float64


def test_dropout_between_layers():
    dt.manual_seed(1)
    m = nn.GRU(3, 8, num_layers=2, dropout=0.5, dtype=dt.float64)
    x = dt.asarray(RNG.standard_normal((5, 2, 3)))
    m.eval()
    a, b = m(x)[0], m(x)[0]
    assert dt.array_equal(a, b)
    m.train()
    assert not dt.array_equal(m(x)[0], a)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nn.LSTM(3, 4, dropout=0.5)
    assert "non-zero dropout expects num_layers greater than 1" in str(caught[0].message)
    assert caught[0].filename == __file__


def test_recurrent_refusals():
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 5, got 4"):
        nn.LSTM(5, 6)(dt.ones((3, 2, 4)))
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(1, 2, 6\), got \[2, 2, 6\]"):
        nn.GRU(5, 6)(dt.ones((3, 2, 5)), dt.ones((2, 2, 6)))
    with pytest.raises(RuntimeError, match=r"Expected hidden\[1\] size \(1, 2, 6\), got \[1, 2, 5\]"):
        nn.LSTM(5, 6)(dt.ones((3, 2, 5)), (dt.ones((1, 2, 6)), dt.ones((1, 2, 5))))
    with pytest.raises(TypeError, match="LSTM's hx must be a tuple"):
        nn.LSTM(5, 6)(dt.ones((3, 2, 5)), dt.ones((1, 2, 6)))
    with pytest.raises(RuntimeError, match="For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"):
        nn.RNN(5, 6)(dt.ones((3, 5)), dt.ones((1, 2, 6)))
    with pytest.raises(ValueError, match="RNN: Expected input to be 2D or 3D, got 4D tensor instead"):
        nn.RNN(5, 6)(dt.ones((3, 2, 5, 1)))
    with pytest.raises(TypeError, match="input must be a devtensor.Tensor, not list"):
        nn.RNN(5, 6)([[1.0] * 5])
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        nn.LSTM(5, 6, proj_size=6)
    with pytest.raises(ValueError, match="Unknown nonlinearity 'gelu'"):
        nn.RNN(5, 6, nonlinearity="gelu")
    with pytest.raises(ValueError, match="dropout should be a number in range \\[0, 1\\]"):
        nn.LSTM(5, 6, dropout=1.5)
    with pytest.raises(ValueError, match="hidden_size must be greater than zero"):
        nn.GRU(5, 0)
    with pytest.raises(RuntimeError, match="input must have the type float32, got type int64 \\(an integer "
                                           "sequence needs an nn.Embedding first\\)"):
        nn.LSTM(4, 8)(dt.zeros((3, 2, 4), dtype=dt.int64))
    with pytest.raises(RuntimeError, match="Expected sequence length to be larger than 0 in RNN"):
        nn.LSTM(4, 8)(dt.zeros((0, 2, 4), dtype=dt.float32))
    with pytest.raises(RuntimeError, match="input must have the type float32, got type int32"):
        nn.GRUCell(4, 3)(dt.zeros((2, 4), dtype=dt.int32))
    with pytest.raises(RuntimeError, match="input has inconsistent input_size: got 5 expected 3"):
        nn.LSTMCell(3, 4)(dt.ones((2, 5)))
    with pytest.raises(RuntimeError, match=r"hidden has inconsistent hidden_size: got \[3, 4\], expected \[2, 4\]"):
        nn.GRUCell(3, 4)(dt.ones((2, 3)), dt.ones((3, 4)))


@requires_devices(1)
def test_recurrent_layers_refuse_a_second_device():
    m = nn.LSTM(3, 4)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        m(dt.ones((2, 1, 3), dtype=dt.float32, device="cuda:0"))
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        m(dt.ones((2, 1, 3), dtype=dt.float32), (dt.zeros((1, 1, 4), device="cuda:0"), dt.zeros((1, 1, 4))))


def test_pack_and_pad_round_trip(device):
    seqs = [dt.arange(1, 4.0, device=device), dt.arange(10, 15.0, device=device), dt.arange(20, 22.0, device=device)]
    packed = rnn_utils.pack_sequence(seqs, enforce_sorted=False)
    assert to_np(packed.data).tolist() == [10, 1, 20, 11, 2, 21, 12, 3, 13, 14]
    assert packed.batch_sizes.tolist() == [3, 3, 2, 1, 1] and packed.batch_sizes.device == dt.device("cpu")
    assert to_np(packed.sorted_indices).tolist() == [1, 0, 2] == to_np(packed.unsorted_indices).tolist()
    padded, lengths = rnn_utils.pad_packed_sequence(packed, batch_first=True, padding_value=-1, total_length=6)
    assert to_np(padded).tolist() == [[1, 2, 3, -1, -1, -1], [10, 11, 12, 13, 14, -1], [20, 21, -1, -1, -1, -1]]
    assert lengths.tolist() == [3, 5, 2]
    assert [to_np(s).tolist() for s in rnn_utils.unpack_sequence(packed)] == [to_np(s).tolist() for s in seqs]
    sorted_batch = rnn_utils.pack_sequence([seqs[1], seqs[0], seqs[2]])
    assert sorted_batch.sorted_indices is None and to_np(sorted_batch.data).tolist() == to_np(packed.data).tolist()
    assert rnn_utils.pack_padded_sequence(padded, dt.tensor([3, 5, 2]), batch_first=True,
                                          enforce_sorted=False).batch_sizes.tolist() == [3, 3, 2, 1, 1]
    with pytest.raises(RuntimeError, match="`lengths` array must be sorted in decreasing order"):
        rnn_utils.pack_sequence(seqs)
    with pytest.raises(RuntimeError, match="Length of all samples has to be greater than 0"):
        rnn_utils.pack_padded_sequence(padded, [3, 0, 2], batch_first=True, enforce_sorted=False)
    with pytest.raises(ValueError, match="Expected `len\\(lengths\\)` to be equal to batch_size"):
        rnn_utils.pack_padded_sequence(padded, [3, 2], batch_first=True)
    with pytest.raises(ValueError, match="Expected total_length to be at least the length of the longest"):
        rnn_utils.pad_packed_sequence(packed, total_length=4)


@requires_devices(1)
def test_packed_sequence_moves():
    packed = rnn_utils.pack_sequence([dt.ones(3), dt.ones(2)])
    moved = packed.to("cuda:0")
    assert moved.is_cuda and not packed.is_cuda and moved.batch_sizes.device == dt.device("cpu")
    assert packed.to("cpu") is packed and moved.cpu().data.device == dt.device("cpu")
    assert moved.double().data.dtype == dt.float64 and moved.double().is_cuda and not moved.is_pinned()
    assert packed.long().data.dtype == dt.int64 and packed.half().batch_sizes is packed.batch_sizes


def test_cell_and_packing_refusals():
    with pytest.raises(ValueError, match="LSTMCell: Expected input to be 1D or 2D, got 3D instead"):
        nn.LSTMCell(3, 4)(dt.ones((1, 2, 3), dtype=dt.float32))
    with pytest.raises(RuntimeError, match="GRUCell: Expected hidden to be 2D, got 1D instead"):
        nn.GRUCell(3, 4)(dt.ones((2, 3), dtype=dt.float32), dt.ones(4, dtype=dt.float32))
    with pytest.raises(TypeError, match="LSTMCell's hx must be a tuple"):
        nn.LSTMCell(3, 4)(dt.ones((2, 3), dtype=dt.float32), dt.ones((2, 4), dtype=dt.float32))
    with pytest.raises(ValueError, match="Unknown nonlinearity: gelu"):
        nn.RNNCell(3, 4, nonlinearity="gelu")
    with pytest.raises(ValueError, match="proj_size argument is only supported for LSTM"):
        nn.RNNBase("GRU", 3, 4, proj_size=2)
    with pytest.raises(TypeError, match="PackedSequence needs batch_sizes"):
        rnn_utils.PackedSequence(dt.ones(3))
    with pytest.raises(RuntimeError, match="Expected sequence length to be at most the padded length 2, but found "
                                           "a length of 3"):
        rnn_utils.pack_padded_sequence(dt.ones((2, 1)), [3])
