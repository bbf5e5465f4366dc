"""MultiheadAttention, PyTorch's module: its parameters (in_proj_weight,
in_proj_bias, out_proj; q/k/v_proj_weight when kdim or vdim differ) and
state-dict keys, its initialisation, masks (attn_mask and
key_padding_mask: True means "do not attend", the opposite of
scaled_dot_product_attention's bool mask) and (output, averaged weights)
result, batch_first or sequence-first; add_bias_kv appends a learned key
and value (bias_k, bias_v), add_zero_attn a zero one, the masks padded
with unmasked columns, as PyTorch's."""
import math

from .. import _C
from .._C import Tensor
from .._creation import empty, zeros
from . import functional as F, init
from .linear import NonDynamicallyQuantizableLinear
from .module import Module
from .parameter import Parameter


def _mask_as_bias(mask, dtype, name):
    """A bool mask (True: masked) or a float mask (added) as an additive bias."""
    if not isinstance(mask, Tensor):
        raise TypeError(f"{name} must be a devtensor.Tensor, not {type(mask).__name__}")
    if mask.dtype == _C.bool:
        from .. import where
        return where(mask, -math.inf, 0.0).astype(dtype)
    if not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    return mask.astype(dtype, copy=False)


def _unmasked_extra(bias, extra):
    """An additive mask bias with `extra` columns of 0 (the appended keys
    are never masked, as PyTorch pads its masks)."""
    if not extra:
        return bias
    from .. import concatenate
    return concatenate([bias, zeros(bias.shape[:-1] + (extra,), dtype=bias.dtype, device=bias.device)], axis=-1)


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and "
                             f"num_heads={num_heads} instead")
        if embed_dim % num_heads:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self.embed_dim, self.num_heads, self.dropout = embed_dim, num_heads, dropout
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.head_dim, self.batch_first = embed_dim // num_heads, batch_first
        dtype = _C.float32 if dtype is None else dtype
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty((3 * embed_dim, embed_dim), dtype=dtype, device=device))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(empty((embed_dim, embed_dim), dtype=dtype, device=device))
            self.k_proj_weight = Parameter(empty((embed_dim, self.kdim), dtype=dtype, device=device))
            self.v_proj_weight = Parameter(empty((embed_dim, self.vdim), dtype=dtype, device=device))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(zeros(3 * embed_dim, dtype=dtype, device=device))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, device=device, dtype=dtype)
        if add_bias_kv:  # one more key and value, learned (PyTorch's bias_k, bias_v)
            self.bias_k = Parameter(empty((1, 1, embed_dim), dtype=dtype, device=device))
            self.bias_v = Parameter(empty((1, 1, embed_dim), dtype=dtype, device=device))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn  # one more key and value of zeros
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.zeros_(self.in_proj_bias)
            init.zeros_(self.out_proj.bias)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def _projections(self):
        E = self.embed_dim
        if self._qkv_same_embed_dim:
            w = self.in_proj_weight
            weights = (w[:E], w[E:2 * E], w[2 * E:])
        else:
            weights = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        b = self.in_proj_bias
        biases = (None,) * 3 if b is None else (b[:E], b[E:2 * E], b[2 * E:])
        return weights, biases

    def _extra_keys(self, k, v):
        """The projected keys and values (N, S, E) with bias_k/bias_v and then
        a zero key and value appended along the sequence (add_bias_kv,
        add_zero_attn), and how many were appended."""
        from .. import broadcast_to, concatenate
        extra = 0
        N, E = k.shape[0], self.embed_dim
        if self.bias_k is not None:
            k = concatenate([k, broadcast_to(self.bias_k.astype(k.dtype), (N, 1, E))], axis=1)
            v = concatenate([v, broadcast_to(self.bias_v.astype(v.dtype), (N, 1, E))], axis=1)
            extra += 1
        if self.add_zero_attn:
            k = concatenate([k, zeros((N, 1, E), dtype=k.dtype, device=k.device)], axis=1)
            v = concatenate([v, zeros((N, 1, E), dtype=v.dtype, device=v.device)], axis=1)
            extra += 1
        return k, v, extra

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        for t, what in ((query, "query"), (key, "key"), (value, "value")):
            if not isinstance(t, Tensor):
                raise TypeError(f"{what} must be a devtensor.Tensor, not {type(t).__name__}")
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint.")
        batched = query.ndim == 3
        if query.ndim not in (2, 3) or key.ndim != query.ndim or value.ndim != query.ndim:
            raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received "
                                 f"{query.ndim}-D query tensor")
        if not batched:
            query, key, value = query[None], key[None], value[None]
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask[None]
        elif not self.batch_first:
            query, key, value = (t.swapaxes(0, 1) for t in (query, key, value))
        if query.shape[-1] != self.embed_dim:
            raise AssertionError(f"was expecting embedding dimension of {self.embed_dim}, but got {query.shape[-1]}")
        N, L, S, H, d = query.shape[0], query.shape[1], key.shape[1], self.num_heads, self.head_dim
        if key.shape[:2] != value.shape[:2] or key.shape[0] != N:
            raise AssertionError(f"query, key and value must have the same batch size and sequence length of key "
                                 f"and value, got query {tuple(query.shape)}, key {tuple(key.shape)} and value "
                                 f"{tuple(value.shape)} (batch first)")
        (wq, wk, wv), (bq, bk, bv) = self._projections()
        q = F.linear(query, wq, bq).reshape(N, L, H, d).swapaxes(1, 2)
        k, v, extra = self._extra_keys(F.linear(key, wk, bk), F.linear(value, wv, bv))
        k = k.reshape(N, S + extra, H, d).swapaxes(1, 2)
        v = v.reshape(N, S + extra, H, d).swapaxes(1, 2)
        scores = (q @ k.swapaxes(-1, -2)) * (1 / math.sqrt(d))  # (N, H, L, S)
        if attn_mask is not None:
            bias = _mask_as_bias(attn_mask, scores.dtype, "attn_mask")
            if bias.ndim == 3:
                if bias.shape != (N * H, L, S):
                    raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(bias.shape)}, but should be "
                                       f"{(N * H, L, S)}.")
                bias = bias.reshape(N, H, L, S)
            elif bias.shape != (L, S):
                raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(bias.shape)}, but should be {(L, S)}.")
            scores = scores + _unmasked_extra(bias, extra)
        if key_padding_mask is not None:
            pad = _mask_as_bias(key_padding_mask, scores.dtype, "key_padding_mask")
            if pad.shape != (N, S):
                raise AssertionError(f"expecting key_padding_mask shape of {(N, S)}, but got {tuple(pad.shape)}")
            scores = scores + _unmasked_extra(pad, extra)[:, None, None, :]
        weights = F.softmax(scores, -1)
        if self.dropout > 0 and self.training:
            weights = F.dropout(weights, self.dropout, True)
        out = (weights @ v).swapaxes(1, 2).reshape(N, L, self.embed_dim)
        out = self.out_proj(out)
        if batched and not self.batch_first:
            out = out.swapaxes(0, 1)
        if not need_weights:
            return (out if batched else out[0]), None
        if average_attn_weights:
            weights = weights.mean(axis=1)
        return (out if batched else out[0]), (weights if batched else weights[0])


__all__ = ["MultiheadAttention"]
