"""Everyday Keras user code that probe programs found diverging from TF 2.21 + Keras 3.15 (values recorded there)."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def test_sparse_ce_label_out_of_range_is_tf_kernel_error():
    probs = np.array([[.2, .3, .5], [.2, .3, .5]])
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        keras.losses.sparse_categorical_crossentropy(np.array([0, 5]), probs)
    assert str(e.value) == (
        "{{function_node __wrapped__SparseSoftmaxCrossEntropyWithLogits_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} Received a label value of 5 which is outside the valid range of [0, 3).  Label values: "
        "0 5 [Op:SparseSoftmaxCrossEntropyWithLogits] name: ")
    with pytest.raises(tf.errors.InvalidArgumentError, match="label value of -1 .*Label values: -1 1 "):
        keras.losses.SparseCategoricalCrossentropy(from_logits=True)(np.array([-1, 1]), probs)


def test_fit_with_out_of_range_sparse_label_in_a_later_batch():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="softmax")])
    m.compile(loss="sparse_categorical_crossentropy")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 7 .*Label values: 1 7"):
        m.fit(np.ones((6, 2)), np.array([0, 1, 2, 1, 1, 7]), batch_size=2, verbose=0, shuffle=False)
    m.fit(np.ones((6, 2)), np.array([0, 1, 2, 1, 1, 2]), batch_size=2, verbose=0, shuffle=False)


def _class_weight_model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="softmax", kernel_initializer="ones")])
    m.compile(loss="sparse_categorical_crossentropy", optimizer=keras.optimizers.SGD(0.1))
    return m


_X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.2]], "float32")
_Y = np.array([0, 1, 2, 2])


def test_class_weight_missing_class_float_labels_dataset_and_generator():
    m = _class_weight_model()
    h = m.fit(_X, _Y, batch_size=4, verbose=0, shuffle=False, class_weight={0: 2.0, 1: 3.0})
    assert round(h.history["loss"][0], 5) == 1.92257       # class 2 weighs 1
    h = m.fit(_X, _Y.astype("float32") + 0.2, batch_size=4, verbose=0, shuffle=False,
              class_weight={0: 2.0, 1: 3.0, 2: 0.5})
    assert round(h.history["loss"][0], 5) == 1.60116
    ds = tf.data.Dataset.from_tensor_slices((_X, _Y)).batch(2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 2 is not in \[0, 2\)"):
        m.fit(ds, verbose=0, shuffle=False, class_weight={0: 2.0, 1: 3.0})      # after one step on the first batch

    def gen():
        yield _X, _Y
    with pytest.raises(ValueError, match=r"^Argument `class_weight` is not supported for Python generator inputs. "
                                         r"Received: class_weight=\{0: 2.0, 1: 3.0\}$"):
        m.fit(gen(), verbose=0, class_weight={0: 2.0, 1: 3.0})
    assert np.isclose(m.train_on_batch(_X, _Y, class_weight={0: 2.0, 1: 3.0}), 1.761533260345459)
