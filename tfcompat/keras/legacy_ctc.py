"""`tf.keras.backend`'s CTC functions (Keras's legacy backend): `ctc_batch_cost`, `ctc_decode`,
`ctc_label_dense_to_sparse`, over tfcompat's CTC ops as in Keras's legacy backend."""
import torch

from tfcompat.framework import errors
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.sparse import SparseTensor
from tfcompat.framework.tensor import storage
from tfcompat.keras.backend import epsilon
from tfcompat.ops.ctc_ops import ctc_beam_search_decoder_v1, ctc_greedy_decoder, ctc_loss_v1


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first `label_lengths[b]` labels of each row `b` of dense `labels` as a SparseTensor of `labels`' shape."""
    dense = input_storage(labels)
    lengths = input_storage(label_lengths).reshape(-1).to(torch.int64)
    mask = torch.arange(dense.shape[1], device=dense.device).unsqueeze(0) < lengths.to(dense.device).unsqueeze(1)
    indices = torch.nonzero(mask)
    return SparseTensor(wrap(indices), wrap(dense[mask]), list(dense.shape))


def _squeezed_lengths(x):
    t = input_storage(x)
    if t.ndim and t.shape[-1] != 1:
        raise errors.kernel_error(errors.InvalidArgumentError, f"Can not squeeze dim[{t.ndim - 1}], expected a "
                                  f"dimension of 1, got {t.shape[-1]}", "Squeeze")
    return t.squeeze(-1).to(torch.int32)


def _log_time_major(y_pred):
    p = input_storage(y_pred)
    return torch.log(p.transpose(0, 1) + epsilon())


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """CTC loss [batch, 1] of softmax outputs `y_pred` [batch, frames, classes] (the last class is the blank) for
    dense labels `y_true`, lengths given as [batch, 1]."""
    label_length = _squeezed_lengths(label_length)
    input_length = _squeezed_lengths(input_length)
    sparse = ctc_label_dense_to_sparse(y_true, wrap(label_length))
    labels = SparseTensor(sparse.indices, wrap(storage(sparse.values).to(torch.int32)), sparse.dense_shape)
    loss = ctc_loss_v1(inputs=wrap(_log_time_major(y_pred)), labels=labels, sequence_length=wrap(input_length))
    return wrap(storage(loss).unsqueeze(1))


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Greedy or beam search decoding of softmax outputs `y_pred` [batch, frames, classes]: ([int64 [batch, frames]
    labels padded with -1] (one per path), greedy's [batch, 1] negative sums of the frames' max log-probabilities or
    beam search's [batch, top_paths] log-probabilities)."""
    logp = _log_time_major(y_pred)
    frames, batch = logp.shape[0], logp.shape[1]
    lengths = wrap(input_storage(input_length).to(torch.int32))
    if greedy:
        decoded, log_prob = ctc_greedy_decoder(wrap(logp), lengths)
    else:
        decoded, log_prob = ctc_beam_search_decoder_v1(wrap(logp), lengths, beam_width=beam_width, top_paths=top_paths)
    dense = []
    for st in decoded:
        out = torch.full((batch, frames), -1, dtype=torch.int64)
        idx = storage(st.indices)
        if idx.numel():
            out[idx[:, 0], idx[:, 1]] = storage(st.values)
        dense.append(wrap(out))
    return dense, log_prob
