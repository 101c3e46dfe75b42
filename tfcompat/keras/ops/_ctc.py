"""`keras.ops.ctc_loss` and `keras.ops.ctc_decode`, as Keras 3's TF backend computes them (over `tf.nn`'s CTC ops)."""
import torch

from tfcompat.framework.tensor import _wrap
from tfcompat.keras.ops._common import _st
from tfcompat.ops import ctc_ops as _ctc_ops


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """CTC loss of batch-major logits `output` [batch, frames, classes] for int labels `target`, blank `mask_index`
    (float32, or float64 for float64 logits, computed in float32 as Keras's TF backend)."""
    t, o = _st(target), _st(output)
    tl, ol = _st(target_length), _st(output_length)
    result = torch.float64 if o.dtype is torch.float64 else torch.float32
    loss = _ctc_ops.ctc_loss(_wrap(t.to(torch.int32)), _wrap(o.to(torch.float32)), _wrap(tl), _wrap(ol),
                             logits_time_major=False, blank_index=mask_index)
    return _wrap(_st(loss).to(result))


def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """CTC decoding of batch-major `inputs`: ([top_paths, batch, frames] int32 labels padded with -1, scores: greedy's
    [batch, 1] negative sums of the frames' max logits or beam search's [batch, top_paths] log-probabilities)."""
    x = _st(inputs)
    batch, frames, classes = x.shape[0], x.shape[1], x.shape[2]
    x = x.transpose(0, 1)
    x = x if x.dtype is torch.float64 else x.to(torch.float32)
    lengths = _wrap(_st(sequence_lengths).to(torch.int32))
    if strategy == "greedy":
        decoded, scores = _ctc_ops.ctc_greedy_decoder(_wrap(x), lengths, merge_repeated=merge_repeated,
                                                      blank_index=mask_index)
    elif strategy == "beam_search":
        if mask_index is not None:      # Keras moves the mask class last, the beam decoder's blank (its slices
            m = mask_index              # as written: mask_index=-1 gives all the classes, then none)
            x = torch.cat([x[..., :m], x[..., m + 1:], x[..., m:m + 1]], -1)
        decoded, scores = _ctc_ops.ctc_beam_search_decoder(_wrap(x), lengths, beam_width=beam_width,
                                                           top_paths=top_paths)
    else:
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    dense = torch.full((len(decoded), batch, frames), -1, dtype=torch.int32)
    for i, st in enumerate(decoded):
        idx = _st(st.indices)
        if idx.numel():
            dense[i, idx[:, 0], idx[:, 1]] = _st(st.values).to(torch.int32)
    if strategy == "beam_search" and mask_index is not None:
        m = mask_index + classes if mask_index < 0 else mask_index
        dense = torch.where(dense >= m, dense + 1, dense)
    return _wrap(dense), scores
