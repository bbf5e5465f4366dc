"""devtensor.nn.utils.rnn: pad_sequence, PyTorch's."""

__all__ = ["pad_sequence"]


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Tensors of lengths L_i (and equal trailing dims) stacked into one of
    the longest length, padded with padding_value: (L, B, *) or with
    batch_first (B, L, *)."""
    from ... import full, result_type
    seqs = list(sequences)
    if not seqs:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    trailing = seqs[0].shape[1:]
    if any(s.shape[1:] != trailing for s in seqs):
        raise RuntimeError("The size of the sequences must match except in the first dimension")
    longest = max(s.shape[0] for s in seqs)
    out = full((len(seqs), longest) + tuple(trailing), padding_value, dtype=result_type(*seqs),
               device=seqs[0].device)
    for i, s in enumerate(seqs):
        n = s.shape[0]
        if padding_side == "right":
            out[i, :n] = s
        else:
            out[i, longest - n:] = s
    return out if batch_first else out.swapaxes(0, 1)
