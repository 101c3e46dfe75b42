"""tf.nn.ctc_loss (dense and sparse labels), ctc_greedy_decoder, ctc_unique_labels and Keras's CTC against TF 2.21.

Dense labels reproduce TF's batched forward-backward, including its finite loss (~700) for an impossible alignment;
sparse labels give TF's CTCLoss kernel's inf there.
"""
import numpy as np
import pytest

import tfcompat as tf
import tfcompat.keras as keras

inf = float("inf")
# TF 2.21: (losses, d(sum(loss * [1, 2, 0.5]))/d logits) for logits np.random.RandomState(1).randn(6, 3, 5)
GOLD = {
    'dense0': ([6.619908, 5.92973, 711.944214], [[[-0.275116, -0.095483, 0.06607, 0.038318, 0.266211], [-0.11917, 1.355449, 0.110594, -1.531384, 0.18451], [-0.049759, 0.007115, 0.040445, 0.038027, -0.035842]], [[-0.051486, -0.625236, 0.036138, 0.235765, 0.404818], [-0.004436, 0.48143, 0.49014, -1.456914, 0.48978], [-0.05505, 0.104143, 0.046196, 0.090086, -0.185373]], [[-0.083991, -0.149508, -0.125927, 0.164121, 0.195305], [-0.130572, -0.058758, 0.254431, -0.487798, 0.422698], [-0.169461, 0.025113, 0.0289, 0.331442, -0.216009]], [[-0.037155, 0.093907, -0.288068, 0.087492, 0.143824], [-0.270719, -0.305156, 0.164067, -0.00553, 0.417338], [-0.126547, 0.111218, 0.121949, 0.063949, -0.170564]], [[-0.839607, 0.436838, 0.106733, 0.092629, 0.203408], [-0.156177, -1.389782, 0.515303, 1.002762, 0.027895], [-0.053023, 0.052179, 0.101411, 0.207537, -0.308116]], [[0.014007, 0.112255, -0.644865, 0.19192, 0.326684], [0.0, 0.0, 0.0, 0.0, 0.0], [-0.056507, 0.034929, 0.099639, 0.077154, -0.155225]]]),
    'dense_b2': ([8.399689, 5.350449, 712.168335], [[[0.568629, -0.91563, 0.042472, 0.038318, 0.266211], [0.023701, 1.355449, -0.597197, -0.966464, 0.18451], [0.240921, 0.007115, -0.054083, 0.038027, -0.231994]], [[0.075244, 0.144919, -0.860746, 0.235765, 0.404818], [0.066187, 0.497233, -0.161179, -0.892021, 0.48978], [0.059437, 0.104143, -0.04757, 0.090086, -0.2061]], [[0.191359, -0.686981, 0.136195, 0.164121, 0.195305], [0.19873, -0.108718, -0.202154, -0.310556, 0.422698], [0.050358, 0.025113, -0.126324, 0.331442, -0.280574]], [[0.041034, 0.02355, -0.2959, 0.087492, 0.143824], [0.69434, -0.955068, -0.147003, -0.009607, 0.417338], [0.086412, 0.111218, -0.133789, 0.063949, -0.127779]], [[0.058692, -0.396077, 0.041349, 0.092629, 0.203408], [0.104519, -0.77112, -0.364055, 1.002762, 0.027895], [0.02039, 0.052179, -0.129181, 0.207537, -0.15093]], [[0.020182, -0.257554, -0.281231, 0.19192, 0.326684], [0.0, 0.0, 0.0, 0.0, 0.0], [0.076938, 0.034929, -0.060568, 0.077154, -0.128466]]]),
    'dense_bm1': ([5.460933, 5.286753, 710.52887], [[[0.568629, -0.230792, 0.06607, 0.038318, -0.442225], [0.023701, 1.355449, 0.110594, -0.709602, -0.780142], [0.240921, 0.007115, 0.040445, -0.051862, -0.236607]], [[0.075244, -0.319842, 0.032003, 0.235765, -0.02317], [0.066187, 0.58813, 0.49014, -0.836465, -0.307991], [0.059437, 0.104143, 0.046196, -0.065111, -0.144656]], [[0.191359, -0.205383, -0.123487, 0.164121, -0.02661], [0.19873, 0.001862, 0.254431, -0.322794, -0.132229], [0.050358, 0.025113, 0.0289, -0.087429, -0.016933]], [[0.041034, 0.093907, -0.230791, 0.087492, 0.008358], [0.69434, -0.391409, 0.164067, -0.125093, -0.341905], [0.086412, 0.111218, 0.12195, -0.113268, -0.206301]], [[0.058692, 0.436838, 0.094946, 0.092629, -0.683105], [0.104519, -1.577414, 0.515303, 1.002762, -0.045169], [0.02039, 0.052179, 0.101411, -0.110754, -0.063235]], [[0.020182, 0.112255, -0.585117, 0.19192, 0.26076], [0.0, 0.0, 0.0, 0.0, 0.0], [0.076938, 0.034929, 0.099639, -0.056565, -0.154936]]]),
    'sparse_b0': ([6.619909, 5.929729, inf], [[[-0.275116, -0.095483, 0.06607, 0.038318, 0.266211], [-0.11917, 1.355449, 0.110594, -1.531383, 0.18451], [0.240921, 0.007115, 0.040445, 0.038027, 0.173492]], [[-0.051486, -0.625236, 0.036138, 0.235765, 0.404818], [-0.004436, 0.48143, 0.49014, -1.456914, 0.48978], [0.059437, 0.104143, 0.046196, 0.090086, 0.200138]], [[-0.083991, -0.149508, -0.125927, 0.164121, 0.195305], [-0.130572, -0.058758, 0.254431, -0.487797, 0.422698], [0.050358, 0.025113, 0.0289, 0.331442, 0.064187]], [[-0.037155, 0.093907, -0.288068, 0.087492, 0.143824], [-0.270719, -0.305156, 0.164067, -0.005529, 0.417338], [0.086412, 0.111218, 0.121949, 0.063949, 0.116471]], [[-0.839608, 0.436838, 0.106733, 0.092629, 0.203408], [-0.156177, -1.389782, 0.515303, 1.002762, 0.027895], [0.02039, 0.052179, 0.101411, 0.207537, 0.118484]], [[0.014007, 0.112255, -0.644866, 0.19192, 0.326684], [0.0, 0.0, 0.0, 0.0, 0.0], [0.076938, 0.034929, 0.099639, 0.077154, 0.21134]]]),
    'sparse_b3': ([7.425741, 4.37663, 5.702404], [[[0.568629, -0.675814, 0.06607, -0.225096, 0.266211], [0.023701, 1.355449, 0.110594, -0.744989, -0.744755], [0.240921, 0.007115, 0.040445, -0.151355, -0.137126]], [[0.075244, -0.284509, -0.11724, -0.078312, 0.404818], [0.066187, 0.372119, 0.49014, -0.138459, -0.789986], [0.059437, 0.104143, 0.046196, -0.093211, -0.116565]], [[0.191359, 0.010585, -0.224062, -0.173187, 0.195305], [0.19873, -0.053071, 0.254431, -0.251179, -0.148911], [0.050358, 0.025113, 0.0289, 0.02489, -0.129261]], [[0.041034, 0.093907, -0.187045, -0.09172, 0.143824], [0.69434, -0.872907, 0.164067, -0.211123, 0.225623], [0.086412, 0.111218, 0.121949, -0.207799, -0.111781]], [[0.058692, 0.436838, -0.043229, -0.655708, 0.203408], [0.104519, -0.463606, 0.515303, -0.184111, 0.027895], [0.02039, 0.052179, 0.101411, -0.113231, -0.060748]], [[0.020182, 0.112255, -0.544022, 0.084901, 0.326684], [0.0, 0.0, 0.0, 0.0, 0.0], [0.076938, 0.034929, 0.099639, -0.261016, 0.04951]]]),
    'dense_short': ([708.649231, 6.903386, 5.240964], [[[-0.317352, 0.004414, 0.008383, 0.038318, 0.266211], [-0.129398, 1.355449, 0.110594, -1.521156, 0.18451], [0.240921, 0.007115, 0.040445, 0.038027, -0.326508]], [[-0.293407, -0.118694, -0.228513, 0.235765, 0.404818], [0.001937, 0.55465, 0.49014, -1.536508, 0.48978], [-0.440563, 0.104143, 0.046196, 0.090086, 0.200138]], [[0.0, 0.0, 0.0, 0.0, 0.0], [-0.040418, -0.007706, 0.254431, -0.629005, 0.422698], [0.050358, 0.025113, 0.0289, 0.331442, -0.435813]], [[0.0, 0.0, 0.0, 0.0, 0.0], [-0.111156, -0.093377, 0.164067, -0.376873, 0.417338], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [-0.138135, -0.993591, 0.515303, 0.588528, 0.027895], [0.0, 0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [-0.475366, -0.941305, 0.434263, 0.543017, 0.439391], [0.0, 0.0, 0.0, 0.0, 0.0]]]),
}
LABELS = np.array([[1, 2, 2, 0], [3, 1, 0, 0], [4, 4, 4, 4]], np.int32)
LABEL_LEN = np.array([3, 2, 4], np.int32)
LOGIT_LEN = np.array([6, 5, 6], np.int32)


def _logits():
    return np.random.RandomState(1).randn(6, 3, 5).astype(np.float32)


def _run(logits=None, **kwargs):
    v = tf.Variable(_logits() if logits is None else logits)
    with tf.GradientTape() as tape:
        loss = tf.nn.ctc_loss(logits=v, **kwargs)
        total = tf.reduce_sum(loss * tf.constant([1.0, 2.0, 0.5]))
    return loss, tape.gradient(total, v)


def _check(key, loss, grad):
    want_loss, want_grad = GOLD[key]
    np.testing.assert_allclose(loss.numpy(), want_loss, rtol=2e-6, atol=1e-5)
    np.testing.assert_allclose(grad.numpy(), want_grad, rtol=1e-4, atol=2e-6)


@pytest.mark.parametrize("key,blank", [("dense0", None), ("dense_b2", 2), ("dense_bm1", -1)])
def test_ctc_loss_dense(key, blank):
    loss, grad = _run(labels=LABELS, label_length=LABEL_LEN, logit_length=LOGIT_LEN, blank_index=blank)
    assert loss.dtype == tf.float32 and loss.shape == (3,)
    _check(key, loss, grad)


def test_ctc_loss_dense_batch_major_and_short_logits():
    x = np.transpose(_logits(), (1, 0, 2))
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.nn.ctc_loss(LABELS, v, LABEL_LEN, LOGIT_LEN, logits_time_major=False)
        total = tf.reduce_sum(loss * tf.constant([1.0, 2.0, 0.5]))
    grad = tape.gradient(total, v)
    _check("dense0", loss, tf.transpose(grad, [1, 0, 2]))
    loss, grad = _run(labels=np.array([[1, 2, 2], [3, 1, 0], [4, 4, 0]], np.int32), label_length=np.array([3, 2, 2]),
                      logit_length=np.array([2, 6, 3], np.int32))
    _check("dense_short", loss, grad)


def test_ctc_loss_sparse():
    loss, grad = _run(labels=tf.sparse.from_dense(tf.constant(LABELS)), label_length=None, logit_length=LOGIT_LEN,
                      blank_index=0)
    _check("sparse_b0", loss, grad)
    sp = tf.sparse.from_dense(tf.constant([[1, 2, 2], [4, 1, 0], [0, 4, 0]], tf.int32))
    loss, grad = _run(labels=sp, label_length=None, logit_length=LOGIT_LEN, blank_index=3)
    _check("sparse_b3", loss, grad)


def test_ctc_loss_errors_and_dtypes():
    short = tf.sparse.from_dense(tf.constant([[1, 2, 2], [3, 1, 0], [4, 4, 0]], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Not enough time for target transition sequence "
                       r"\(required: 3, available: 2\)0You can turn this error into a warning"):
        tf.nn.ctc_loss(short, _logits(), None, np.array([2, 6, 3], np.int32), blank_index=0)
    with pytest.raises(ValueError, match="Argument `blank_index` must be provided when `labels` is a `SparseTensor`."):
        tf.nn.ctc_loss(short, _logits(), None, LOGIT_LEN)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a double tensor but is a float tensor"):
        tf.nn.ctc_loss(LABELS, _logits().astype(np.float64), LABEL_LEN, LOGIT_LEN)     # TF's dense path
    x16 = tf.nn.ctc_loss(LABELS, _logits().astype(np.float16), LABEL_LEN, LOGIT_LEN)
    assert x16.dtype == tf.float16
    np.testing.assert_allclose(x16.numpy().astype(np.float64), [6.621, 5.93, 712.0], rtol=2e-3)   # TF 2.21
    got = tf.nn.ctc_loss(LABELS.astype(np.int64), _logits(), LABEL_LEN.astype(np.int64), LOGIT_LEN)
    np.testing.assert_allclose(got.numpy(), GOLD["dense0"][0], rtol=2e-6)


def _decoder_input():
    x = np.random.RandomState(2).randn(6, 2, 4).astype(np.float32)
    x[1, 0] = x[0, 0]
    x[2, 1, 3] = 9
    return x


@pytest.mark.parametrize("kwargs,indices,values,shape", [
    ({}, [[0, 0], [1, 0]], [1, 2], [2, 1]),
    ({"merge_repeated": False}, [[0, 0], [0, 1], [1, 0], [1, 1]], [1, 1, 2, 2], [2, 2]),
    ({"blank_index": 0}, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [3, 1, 3, 2, 3], [2, 3]),
    ({"blank_index": -2}, [[0, 0], [0, 1], [0, 2], [1, 0]], [3, 1, 3, 3], [2, 3])])
def test_ctc_greedy_decoder(kwargs, indices, values, shape):
    decoded, neg_sum = tf.nn.ctc_greedy_decoder(_decoder_input(), [6, 4], **kwargs)   # TF 2.21 values
    d = decoded[0]
    assert isinstance(d, tf.SparseTensor) and d.values.dtype == tf.int64
    assert d.indices.numpy().tolist() == indices and d.values.numpy().tolist() == values
    assert d.dense_shape.numpy().tolist() == shape
    np.testing.assert_allclose(neg_sum.numpy(), [[-7.310177803039551], [-12.273306846618652]], rtol=1e-6)


def test_ctc_greedy_decoder_edges_and_errors():
    decoded, neg_sum = tf.nn.ctc_greedy_decoder(_decoder_input(), [0, 0])
    assert decoded[0].dense_shape.numpy().tolist() == [2, 0] and decoded[0].indices.shape == (0, 2)
    assert neg_sum.numpy().tolist() == [[0.0], [0.0]] and not np.signbit(neg_sum.numpy()).any()
    _, s64 = tf.nn.ctc_greedy_decoder(_decoder_input().astype(np.float64), [6, 4])
    assert s64.dtype == tf.float64
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"len\(sequence_length\) != batch_size.  "
                       r"len\(sequence_length\):  1 batch_size: 2 \[Op:CTCGreedyDecoder\]$"):
        tf.nn.ctc_greedy_decoder(_decoder_input(), [6])
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 6"):
        tf.nn.ctc_greedy_decoder(_decoder_input(), [7, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="blank_index expected to be between -4 and 3 but was 4"):
        tf.nn.ctc_greedy_decoder(_decoder_input(), [6, 4], blank_index=4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="inputs is not a 3-Tensor"):
        tf.nn.ctc_greedy_decoder(_decoder_input()[0], [1])


def test_ctc_unique_labels():
    ids, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3], [1, 0, 0, 0], [0, 2, 0, 2]])
    assert ids.dtype == tf.int64 and idx.dtype == tf.int32
    assert ids.numpy().tolist() == [[3, 4, 0, 0], [1, 0, 0, 0], [0, 2, 0, 0]]      # TF 2.21
    assert idx.numpy().tolist() == [[0, 1, 1, 0], [0, 1, 1, 1], [0, 1, 0, 1]]
    loss = tf.nn.ctc_loss(LABELS, _logits(), LABEL_LEN, LOGIT_LEN, unique=tf.nn.ctc_unique_labels(LABELS))
    np.testing.assert_allclose(loss.numpy(), GOLD["dense0"][0], rtol=2e-6)


def _keras_inputs():
    yp = np.random.RandomState(3).randn(2, 5, 4).astype(np.float32)
    return np.array([[1, 2, 0], [3, 3, 1]], np.int32), yp


def test_keras_ctc_loss_and_decode():
    yt, yp = _keras_inputs()
    # TF 2.21 / Keras 3.15
    np.testing.assert_allclose(keras.ops.ctc_loss(yt, yp, np.array([2, 3]), np.array([5, 5])).numpy(),
                               [2.636168, 6.818808], rtol=1e-5)
    assert keras.ops.ctc_loss(yt, yp.astype(np.float64), np.array([2, 3]), np.array([5, 5])).dtype == tf.float64
    np.testing.assert_allclose(keras.losses.ctc(yt, yp).numpy(), [2.636168, 6.818808], rtol=1e-5)
    loss = keras.losses.CTC()
    assert loss.name == "ctc" and loss.get_config() == {"name": "ctc", "reduction": "sum_over_batch_size"}
    np.testing.assert_allclose(loss(yt, yp).numpy(), 4.727488, rtol=1e-5)
    np.testing.assert_allclose(keras.losses.CTC(reduction="sum")(yt, yp, sample_weight=np.array([1., 2.])).numpy(),
                               16.273785, rtol=1e-5)
    assert tf.keras.losses.CTC is keras.losses.CTC
    d, s = keras.ops.ctc_decode(yp, np.array([5, 3]))
    assert d.dtype == tf.int32 and d.numpy().tolist() == [[[2, 3, 1, 2, -1], [2, 3, -1, -1, -1]]]
    np.testing.assert_allclose(s.numpy(), [[-5.28245], [-4.087504]], rtol=1e-5)
    d, s = keras.ops.ctc_decode(yp, np.array([5, 3]), merge_repeated=False, mask_index=2)
    assert d.numpy().tolist() == [[[0, 3, 1, -1, -1], [3, -1, -1, -1, -1]]]
    with pytest.raises(ValueError, match="Invalid strategy x. Supported values are 'greedy' and 'beam_search'."):
        keras.ops.ctc_decode(yp, np.array([5, 3]), strategy="x")


def test_keras_ctc_errors():
    yt, yp = _keras_inputs()
    with pytest.raises(ValueError, match=r"Targets `y_true` are expected to be a tensor of shape `\(batch_size, "
                       r"max_length\)` in integer format. Received: y_true.shape=\(3,\)"):
        keras.losses.ctc(yt[0], yp)
    with pytest.raises(ValueError, match=r"Received: y_pred.shape=\(5, 4\)"):
        keras.losses.ctc(yt, yp[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ConcatOp : Dimension 1 in both shapes must be equal: "
                       r"shape\[0\] = \[5,2,3\] vs. shape\[1\] = \[5,1,4\]"):
        keras.ops.ctc_loss(yt, yp[:1], np.array([2, 3]), np.array([5, 5]))


def test_keras_ctc_trains():
    yt, _ = _keras_inputs()
    x = np.random.RandomState(0).randn(2, 5, 3).astype(np.float32)
    model = keras.Sequential([keras.Input((5, 3)), keras.layers.Dense(4)])
    model.compile(loss=keras.losses.CTC(), optimizer="sgd")
    history = model.fit(x, yt, epochs=3, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < losses[0]


def test_compat_v1_ctc_loss():
    v1 = tf.compat.v1.nn
    sp = tf.sparse.from_dense(tf.constant([[1, 2, 2, 0], [3, 1, 1, 1], [2, 2, 2, 2]], tf.int32))
    x = _logits()
    # TF 2.21: the blank is the last class; a label sequence longer than its logits is ignored (loss 0) on request
    got = v1.ctc_loss(sp, np.transpose(x, (1, 0, 2)), np.array([6, 3, 6], np.int32), time_major=False,
                      ignore_longer_outputs_than_inputs=True)
    np.testing.assert_allclose(got.numpy(), [5.460933, 0.0, inf], rtol=1e-5)
    got = v1.ctc_loss(sp, x, np.array([6, 5, 6], np.int32), preprocess_collapse_repeated=True)
    np.testing.assert_allclose(got.numpy(), [4.199444, 5.286753, 5.903664], rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\(required: 4, available: 3\)1You can turn"):
        v1.ctc_loss(sp, x, np.array([6, 3, 6], np.int32), preprocess_collapse_repeated=True)
    with pytest.raises(TypeError, match="Expected argument `labels` to be a SparseTensor. Received labels=\\[\\[1\\]\\] "
                                        "of type: list"):
        v1.ctc_loss([[1]], x, np.array([6, 3, 6], np.int32))
    bad = tf.sparse.from_dense(tf.constant([[4, 1, 0], [1, 0, 0], [1, 0, 0]], tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Saw a non-null label \(index >= num_classes - 1\) "
                                                             r"following a null label, batch: 0 num_classes: 5 labels: "
                                                             r"4,1 labels seen so far:  \[Op:CTCLoss\]"):
        v1.ctc_loss(bad, x, np.array([6, 6, 6], np.int32))
    with pytest.raises(NotImplementedError, match="ctc_merge_repeated"):
        v1.ctc_loss(sp, x, np.array([6, 6, 6], np.int32), ctc_merge_repeated=False)


def test_keras_legacy_backend_ctc():
    K = tf.keras.backend
    yp = np.random.RandomState(7).rand(2, 6, 5).astype(np.float32)
    yp /= yp.sum(-1, keepdims=True)
    yt = np.array([[1, 2, 3], [0, 0, 9]], np.int32)
    s = K.ctc_label_dense_to_sparse(yt, tf.constant([3, 1]))
    assert s.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [1, 0]] and s.values.dtype == tf.int32
    assert s.values.numpy().tolist() == [1, 2, 3, 0] and s.dense_shape.numpy().tolist() == [2, 3]
    v = tf.Variable(yp)
    with tf.GradientTape() as tape:
        loss = K.ctc_batch_cost(yt, v, np.array([[6], [5]]), np.array([[3], [1]]))
        total = tf.reduce_sum(loss)
    assert loss.shape == (2, 1)
    np.testing.assert_allclose(loss.numpy(), [[4.968464], [5.496789]], rtol=1e-5)          # TF 2.21
    np.testing.assert_allclose(tape.gradient(total, v).numpy()[0][:2], [[1.0, -0.88943, 1.0, 1.0, -0.556755],
                               [0.999999, -1.439326, 0.208653, 0.999999, -0.201432]], rtol=1e-4, atol=2e-6)
    decoded, log_prob = K.ctc_decode(yp, np.array([6, 4]))
    assert decoded[0].dtype == tf.int64
    assert decoded[0].numpy().tolist() == [[0, 1, 3, 1, 2, -1], [1, 0, 2, -1, -1, -1]]
    np.testing.assert_allclose(log_prob.numpy(), [[6.831936], [4.987693]], rtol=1e-5)


# TF 2.21: ((seed, (frames, batch, classes), beam_width, top_paths), TF2 decodes, log-probabilities, TF1 values)
# for logits np.random.RandomState(seed).randn(...) * 2, the last batch element 2 frames shorter
BEAM_GOLD = [
    ((0, (6, 2, 4), 3, 2), [([[0, 0], [1, 0], [1, 1], [1, 2]], [0, 0, 2, 1], [2, 3]), ([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [0, 0, 0, 2, 0], [2, 3])], [[-0.99111, -1.98582], [-1.47272, -1.52324]], [[0, 0, 2, 1], [0, 0, 2, 0]]),
    ((1, (8, 3, 5), 10, 3), [([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [2, 0], [2, 1], [2, 2], [2, 3]], [0, 1, 2, 1, 0, 1, 1, 3, 0, 3, 2, 0, 3, 2, 3], [3, 6]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]], [0, 2, 1, 0, 1, 1, 3, 2, 0, 3, 2], [3, 5]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [2, 0], [2, 1], [2, 2]], [0, 2, 1, 2, 0, 1, 1, 3, 0, 3, 1, 0, 3, 3], [3, 6])], [[-3.71794, -3.71854, -3.74354], [-2.7189, -3.7621, -3.88088], [-2.65469, -2.76417, -2.79286]], [[0, 1, 2, 1, 0, 1, 1, 3, 0, 3, 2, 0, 3, 2, 3], [0, 2, 1, 0, 1, 1, 3, 2, 0, 3, 2], [0, 2, 1, 2, 0, 1, 1, 3, 0, 3, 1, 0, 3]]),
    ((2, (5, 1, 3), 1, 1), [([[0, 0], [0, 1]], [1, 0], [1, 2])], [[-0.44333]], [[1, 0]]),
    ((3, (12, 2, 6), 100, 4), [([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]], [0, 1, 2, 3, 1, 3, 1, 4, 1, 0, 3, 1, 3, 2], [2, 7]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5]], [0, 1, 2, 3, 1, 3, 0, 4, 1, 0, 3, 1, 2], [2, 7]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 6]], [0, 1, 2, 3, 1, 3, 1, 0, 0, 1, 0, 3, 1, 3, 2], [2, 8]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7], [1, 0], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5]], [0, 1, 2, 3, 1, 3, 1, 2, 0, 1, 0, 3, 1, 2], [2, 8])], [[-4.20933, -4.31798, -4.3765, -4.8887], [-3.2204, -3.68198, -4.07453, -4.53612]], [[0, 1, 2, 3, 1, 3, 1, 4, 1, 0, 3, 1, 3, 2], [0, 1, 2, 3, 1, 3, 0, 4, 1, 0, 3, 1, 2], [0, 1, 2, 3, 1, 3, 1, 0, 0, 1, 0, 3, 1, 3, 2], [0, 1, 2, 3, 1, 3, 1, 2, 0, 1, 0, 3, 1, 2]]),
    ((4, (7, 2, 3), 2, 2), [([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]], [1, 0, 1, 0, 0, 1, 1], [2, 4]), ([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [1, 3]], [1, 0, 0, 0, 1, 0, 1], [2, 4])], [[-1.35613, -2.34502], [-1.08543, -1.28185]], [[1, 0, 1, 0, 0, 1], [1, 0, 0, 1, 0, 1]]),
    ((5, (10, 1, 4), 4, 4), [([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5]], [2, 1, 0, 1, 0, 2], [1, 6]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5]], [2, 1, 0, 1, 1, 2], [1, 6]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], [2, 1, 1, 0, 2], [1, 5]), ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], [2, 1, 0, 1, 0], [1, 5])], [[-1.97378, -3.13705, -3.16174, -3.32159]], [[2, 1, 0, 1, 0, 2], [2, 1, 0, 1, 2], [2, 1, 0, 2], [2, 1, 0, 1, 0]]),
]


@pytest.mark.parametrize("case", BEAM_GOLD, ids=lambda c: f"seed{c[0][0]}")
def test_ctc_beam_search_decoder(case):
    (seed, shape, beam_width, top_paths), decodes, log_probs, v1_values = case
    x = np.random.RandomState(seed).randn(*shape).astype(np.float32) * 2
    seq = np.full([shape[1]], shape[0], np.int32)
    seq[-1] = shape[0] - 2
    decoded, got = tf.nn.ctc_beam_search_decoder(x, seq, beam_width=beam_width, top_paths=top_paths)
    assert [(d.indices.numpy().tolist(), d.values.numpy().tolist(), d.dense_shape.numpy().tolist())
            for d in decoded] == decodes
    np.testing.assert_allclose(got.numpy(), log_probs, rtol=1e-5, atol=1e-5)
    decoded, got = tf.compat.v1.nn.ctc_beam_search_decoder(x, seq, beam_width=beam_width, top_paths=top_paths)
    assert [d.values.numpy().tolist() for d in decoded] == v1_values        # merge_repeated=True
    np.testing.assert_allclose(got.numpy(), log_probs, rtol=1e-5, atol=1e-5)


def test_ctc_beam_search_decoder_errors():
    x = np.random.RandomState(0).randn(6, 2, 4).astype(np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"__wrapped__CTCBeamSearchDecoder_top_paths_3_device_.*"
                                                             r"requested more paths than the beam width. "
                                                             r"\[Op:CTCBeamSearchDecoder\]$"):
        tf.nn.ctc_beam_search_decoder(x, [6, 6], beam_width=2, top_paths=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Less leaves in the beam search than requested."):
        tf.nn.ctc_beam_search_decoder(x, [1, 1], beam_width=5, top_paths=5)


# Keras 3.15.1: keras.ops.ctc_decode(strategy="beam_search") of np.random.RandomState(3).randn(2, 7, 4), lengths [7, 5]
KERAS_BEAM_GOLD = [
    ({}, [[[3, 1, 2, -1, -1, -1, -1], [3, 2, 1, -1, -1, -1, -1]]], [[-2.9247], [-2.25199]]),
    ({'mask_index': 2}, [[[0, 3, 1, -1, -1, -1, -1], [3, 1, 3, -1, -1, -1, -1]]], [[-2.79046], [-2.34556]]),
    ({'mask_index': 3, 'top_paths': 2}, [[[0, 1, 2, -1, -1, -1, -1], [2, 1, -1, -1, -1, -1, -1]], [[0, 2, 1, 2, -1, -1, -1], [1, 2, 1, -1, -1, -1, -1]]], [[-2.41752, -2.88232], [-1.98708, -2.24847]]),
]


@pytest.mark.parametrize("kwargs,decoded,scores", KERAS_BEAM_GOLD)
def test_keras_ctc_decode_beam_search(kwargs, decoded, scores):
    yp = np.random.RandomState(3).randn(2, 7, 4).astype(np.float32)
    d, s = keras.ops.ctc_decode(yp, np.array([7, 5]), strategy="beam_search", **kwargs)
    assert d.dtype == tf.int32 and d.numpy().tolist() == decoded
    np.testing.assert_allclose(s.numpy(), scores, rtol=1e-5)


def test_keras_legacy_ctc_decode_beam_search():
    yp = np.random.RandomState(7).rand(2, 6, 5).astype(np.float32)
    yp /= yp.sum(-1, keepdims=True)
    decoded, log_prob = tf.keras.backend.ctc_decode(yp, np.array([6, 4]), greedy=False, beam_width=4, top_paths=2)
    assert [d.numpy().tolist() for d in decoded] == [[[1, 0, 3, -1, -1, -1], [1, 2, -1, -1, -1, -1]],
                                                     [[1, 0, 1, -1, -1, -1], [1, 0, -1, -1, -1, -1]]]   # TF 2.21
    np.testing.assert_allclose(log_prob.numpy(), [[-4.09667, -4.25392], [-3.24419, -3.26923]], rtol=1e-5)


def test_ctc_bad_inputs_raise_tf_errors():
    x = np.random.RandomState(1).randn(6, 2, 5).astype(np.float32)
    lab = np.array([[1, 2, 0], [3, 1, 2]], np.int32)
    with pytest.raises(IndexError, match="tuple index out of range"):                   # TF 2.21
        tf.nn.ctc_loss(lab, x[0], [2, 2], [6, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3,1,8\] vs. \[2,8,8\] "
                                                             r"\[Op:AddV2\]"):
        tf.nn.ctc_loss(lab, x, [2, 2, 1], [6, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Value for attr 'T' of int32 is not in the list of "
                                                             r"allowed values: half, bfloat16, float, double"):
        tf.nn.ctc_loss(lab, x.astype(np.int32), [2, 3], [6, 6])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'beam_width' of 0 must be at least "
                                                             "minimum 1"):
        tf.nn.ctc_beam_search_decoder(x, [6, 6], beam_width=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'top_paths' of 0 must be at least "
                                                             "minimum 1"):
        tf.nn.ctc_beam_search_decoder(x, [6, 6], top_paths=0)
    decoded, neg_sum = tf.nn.ctc_greedy_decoder(x.astype(np.int32), [6, 6])     # NumPy ints convert to float32
    assert decoded[0].values.numpy().tolist() == [0, 1, 0, 3, 0, 1, 0, 3, 2, 0]
    assert neg_sum.dtype == tf.float32 and neg_sum.numpy().tolist() == [[-4.0], [-4.0]]


def test_ctc_sparse_label_dtype_and_length_errors():
    x = np.random.RandomState(1).randn(6, 2, 5).astype(np.float32)
    lab = np.array([[1, 2, 0], [3, 1, 2]], np.int64)
    with pytest.raises(ValueError, match=r"Tensor conversion requested dtype int32 for Tensor with dtype int64: "
                                         r"<tf.Tensor: shape=\(5,\), dtype=int64, numpy=array\(\[0, 1, 2, 0, 1\]\)>"):
        tf.nn.ctc_loss(tf.sparse.from_dense(lab), x, None, [6, 6], blank_index=0)      # TF 2.21
    sp = tf.sparse.from_dense(lab.astype(np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sequence_length\(0\) <= 6 \[Op:CTCLoss\]$"):
        tf.nn.ctc_loss(sp, x, None, [7, 6], blank_index=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"len\(sequence_length\):  1 batch_size: 2 "
                                                             r"\[Op:CTCLoss\]$"):
        tf.compat.v1.nn.ctc_loss(sp, x, [6])
    got = tf.nn.ctc_loss(sp, x.astype(np.float16), None, [6, 6], blank_index=-1)
    assert got.dtype == tf.float16
    np.testing.assert_allclose(got.numpy().astype(np.float64), [6.85156, 4.93359], rtol=2e-3)


def test_ocr_ctc_layer_trains_in_a_traced_step():
    """The captcha-OCR tutorial's CTCLayer (tf.keras.backend.ctc_batch_cost in add_loss): TF 2.21's losses, and no
    eager fallback (its warning would fail this test)."""
    layers = tf.keras.layers

    class CTCLayer(layers.Layer):
        def call(self, y_true, y_pred):
            batch_len = tf.cast(tf.shape(y_true)[0], dtype="int64")
            input_length = tf.cast(tf.shape(y_pred)[1], dtype="int64") * tf.ones(shape=(batch_len, 1), dtype="int64")
            label_length = tf.cast(tf.shape(y_true)[1], dtype="int64") * tf.ones(shape=(batch_len, 1), dtype="int64")
            self.add_loss(tf.reduce_mean(tf.keras.backend.ctc_batch_cost(y_true, y_pred, input_length, label_length)))
            return y_pred

    image = layers.Input(shape=(10, 6), name="image", dtype="float32")
    labels = layers.Input(name="label", shape=(3,), dtype="float32")
    kernel = tf.keras.initializers.Constant(np.random.RandomState(3).randn(6, 5) * 0.5)
    x = layers.Dense(5, activation="softmax", name="dense2", kernel_initializer=kernel)(image)
    model = tf.keras.models.Model(inputs=[image, labels], outputs=CTCLayer(name="ctc_loss")(labels, x))
    model.compile(optimizer=tf.keras.optimizers.Adam())
    images = np.random.RandomState(0).rand(8, 10, 6).astype(np.float32)
    targets = np.random.RandomState(1).randint(0, 4, (8, 3)).astype(np.float32)
    history = model.fit([images, targets], epochs=3, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(history.history["loss"], [10.2582, 10.2347, 10.213], atol=2e-4)     # TF 2.21
