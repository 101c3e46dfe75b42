"""`tf.keras.backend`'s CTC functions (Keras's legacy backend): `ctc_batch_cost`, `ctc_decode`,
`ctc_label_dense_to_sparse`, thin wrappers over tfcompat's CTC ops as in Keras's legacy backend."""
import tfcompat as tf
from tfcompat.keras.backend import epsilon
from tfcompat.ops.ctc_ops import ctc_beam_search_decoder_v1, ctc_loss_v1


def ctc_label_dense_to_sparse(labels, label_lengths):
    """The first `label_lengths[b]` labels of each row `b` of dense `labels` as a SparseTensor of `labels`' shape."""
    labels = tf.convert_to_tensor(labels)
    shape = tf.shape(labels, out_type=tf.int64)
    mask = tf.sequence_mask(label_lengths, maxlen=shape[1])
    indices = tf.where(mask)
    return tf.SparseTensor(indices, tf.gather_nd(labels, indices), shape)


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """CTC loss [batch, 1] of softmax outputs `y_pred` [batch, frames, classes] (the last class is the blank) for
    dense labels `y_true`, lengths given as [batch, 1]."""
    label_length = tf.cast(tf.squeeze(label_length, axis=-1), tf.int32)
    input_length = tf.cast(tf.squeeze(input_length, axis=-1), tf.int32)
    sparse_labels = ctc_label_dense_to_sparse(y_true, label_length)
    sparse_labels = tf.SparseTensor(sparse_labels.indices, tf.cast(sparse_labels.values, tf.int32),
                                    sparse_labels.dense_shape)
    y_pred = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    return tf.expand_dims(ctc_loss_v1(inputs=y_pred, labels=sparse_labels, sequence_length=input_length), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """Greedy or beam search decoding of softmax outputs `y_pred` [batch, frames, classes]: ([int64 [batch, frames]
    labels padded with -1] (one per path), greedy's [batch, 1] negative sums of the frames' max log-probabilities or
    beam search's [batch, top_paths] log-probabilities)."""
    y_pred = tf.convert_to_tensor(y_pred)
    num_samples, num_steps = y_pred.shape[0], y_pred.shape[1]
    y_pred = tf.math.log(tf.transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    input_length = tf.cast(input_length, tf.int32)
    if greedy:
        decoded, log_prob = tf.nn.ctc_greedy_decoder(inputs=y_pred, sequence_length=input_length)
    else:
        decoded, log_prob = ctc_beam_search_decoder_v1(y_pred, input_length, beam_width=beam_width,
                                                       top_paths=top_paths)
    dense = [tf.sparse.to_dense(tf.SparseTensor(st.indices, st.values, (num_samples, num_steps)), default_value=-1)
             for st in decoded]
    return dense, log_prob
