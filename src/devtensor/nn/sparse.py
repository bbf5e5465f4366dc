"""Embedding: a lookup table of num_embeddings rows of embedding_dim, with
PyTorch's N(0, 1) initialisation, padding_idx (a zero row) and
from_pretrained; EmbeddingBag, its sums, means or maxes over bags."""
import operator

from .. import _C
from .._C import Tensor
from .._creation import empty
from . import functional as F, init
from .module import Module
from .parameter import Parameter


def _padding_index(padding_idx, rows):
    """padding_idx checked and made non-negative (None stays None)."""
    if padding_idx is None:
        return None
    padding_idx = operator.index(padding_idx)
    if not -rows <= padding_idx < rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx % rows


def _make_weight(module, weight, device, dtype, requires_grad):
    """module.weight: the given tensor (shared), or a new one initialised by reset_parameters()."""
    if weight is None:
        module.weight = Parameter(empty((module.num_embeddings, module.embedding_dim),
                                        dtype=_C.float32 if dtype is None else dtype, device=device),
                                  requires_grad=requires_grad)
        module.reset_parameters()
        return
    if tuple(weight.shape) != (module.num_embeddings, module.embedding_dim):
        raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
    module.weight = Parameter(weight, requires_grad=requires_grad)


class Embedding(Module):
    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = operator.index(num_embeddings)
        self.embedding_dim = operator.index(embedding_dim)
        self.padding_idx = _padding_index(padding_idx, self.num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        _make_weight(self, _weight, device, dtype, not _freeze)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            self.weight.data[self.padding_idx] = 0

    def forward(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq, self.sparse)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        """An Embedding whose weight is embeddings (a 2-d tensor, shared)."""
        if not isinstance(embeddings, Tensor) or embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse, _weight=embeddings,
                   _freeze=freeze)

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse:
            s += ", sparse=True"
        return s


class EmbeddingBag(Module):
    """The sum, mean or max of the embedding rows of each bag of indices
    (F.embedding_bag), with Embedding's N(0, 1) initialisation."""

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = operator.index(num_embeddings)
        self.embedding_dim = operator.index(embedding_dim)
        if mode not in ("sum", "mean", "max"):
            raise ValueError(f"mode has to be one of sum, mean or max, got {mode!r}")
        self.padding_idx = _padding_index(padding_idx, self.num_embeddings)
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset
        _make_weight(self, _weight, device, dtype, True)

    reset_parameters = Embedding.reset_parameters

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset,
                               self.padding_idx)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        """An EmbeddingBag whose weight is embeddings (a 2-d tensor, shared)."""
        if not isinstance(embeddings, Tensor) or embeddings.ndim != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(rows, cols, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings, include_last_offset,
                  padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def extra_repr(self):
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s


__all__ = ["Embedding", "EmbeddingBag"]
