"""`keras.ops.ctc_loss` and `keras.ops.ctc_decode`, as Keras 3's TF backend computes them (over `tf.nn`'s CTC ops)."""
import torch

from tfcompat.framework.export import partial_api
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


@partial_api("strategy='beam_search' is not supported")
def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1, merge_repeated=True,
               mask_index=0):
    """Greedy CTC decoding of batch-major `inputs`: ([1, batch, frames] int32 labels padded with -1, [batch, 1]
    negative sums of the frames' max logits)."""
    x = _st(inputs)
    if strategy == "beam_search":
        raise NotImplementedError("tfcompat: keras.ops.ctc_decode(strategy='beam_search') is not supported")
    if strategy != "greedy":
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and 'beam_search'.")
    batch, frames = x.shape[0], x.shape[1]
    x = x.transpose(0, 1)
    x = x if x.dtype is torch.float64 else x.to(torch.float32)
    lengths = _st(sequence_lengths).to(torch.int32)
    decoded, scores = _ctc_ops.ctc_greedy_decoder(_wrap(x), _wrap(lengths), merge_repeated=merge_repeated,
                                                  blank_index=mask_index)
    dense = torch.full((1, batch, frames), -1, dtype=torch.int32)
    idx = _st(decoded[0].indices)
    if idx.numel():
        dense[0, idx[:, 0], idx[:, 1]] = _st(decoded[0].values).to(torch.int32)
    return _wrap(dense), scores
