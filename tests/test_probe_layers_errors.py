"""Errors of layers wired wrong, as Keras 3.15 raises them (messages recorded from TF 2.21)."""
import re

import numpy as np
import pytest

from tfcompat import keras
from tfcompat.keras import layers


def _raises(cls, text, fn):
    with pytest.raises(cls) as e:
        fn()
    assert str(e.value) == text, str(e.value)


def _symbolic_text(cls_name, message, args):
    return (f"Exception encountered when calling {cls_name}.call().\n\n\x1b[1m{message}\x1b[0m\n\n"
            f"Arguments received by {cls_name}.call():\n  • args={args}\n  • kwargs=<class 'inspect._empty'>")


def test_symbolic_call_error_lists_args_and_kwargs():
    # TF 2.21: an error in a layer's call on KerasTensors reports Keras's symbolic_call(*args, **kwargs)
    with pytest.raises(ValueError) as e:
        keras.Sequential([keras.Input((4,)), layers.Reshape((3, 2))])
    assert str(e.value) == _symbolic_text(
        "Reshape", "The total size of the tensor must be unchanged. Received: input_shape=(4,), "
        "target_shape=(3, 2)",
        "('<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor>',)")
    inp = keras.Input((4,))
    with pytest.raises(ValueError) as e:
        layers.Reshape((5,))(inp)
    assert "  • args=('<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, " \
           f"name={inp.name}>',)\n  • kwargs=<class 'inspect._empty'>" in str(e.value)


def test_pooling_window_larger_than_input():
    # TF 2.21 (Keras's compute_pooling_output_shape)
    msg = ("Computed output size would be zero or negative. Received: `inputs.shape=[None 5 5 1]`, "
           "`pool_size=[6 6]`, `strides=(6, 6)`, `padding=valid`.")
    with pytest.raises(ValueError) as e:
        keras.Sequential([keras.Input((5, 5, 1)), layers.MaxPooling2D(pool_size=(6, 6))])
    assert str(e.value) == _symbolic_text(
        "MaxPooling2D", msg,
        "('<KerasTensor shape=(None, 5, 5, 1), dtype=float32, sparse=False, ragged=False, name=keras_tensor>',)")
    cases = [(lambda: layers.AveragePooling1D(4)(keras.Input((3, 2))),
              "`inputs.shape=[None 3 2]`, `pool_size=[4]`, `strides=(4,)`, `padding=valid`."),
             (lambda: layers.MaxPooling3D(2)(keras.Input((1, 5, 5, 1))),
              "`inputs.shape=[None 1 5 5 1]`, `pool_size=[2 2 2]`, `strides=(2, 2, 2)`, `padding=valid`."),
             (lambda: layers.MaxPooling2D(3)(keras.Input((2, None, 1))),
              "`inputs.shape=[None 2 -1 1]`, `pool_size=[3 3]`, `strides=(3, 3)`, `padding=valid`.")]
    for fn, tail in cases:
        with pytest.raises(ValueError, match=re.escape(tail)):
            fn()
    # TF 2.21: these build
    assert layers.MaxPooling2D(6, padding="same")(keras.Input((5, 5, 1))).shape == (None, 1, 1, 1)
    assert layers.MaxPooling2D(2, strides=3)(keras.Input((2, None, 1))).shape == (None, 1, None, 1)


def test_dot_checks_shapes_at_build():
    # TF 2.21: Dot.build's ValueError, without call information
    _raises(ValueError, "Incompatible input shapes: axis values 3 (at axis 1) != 4 (at axis 1). Full input shapes: "
            "(None, 3), (None, 4)", lambda: layers.Dot(axes=1)([keras.Input((3,)), keras.Input((4,))]))
    _raises(ValueError, "Incompatible input shapes: axis values 3 (at axis 2) != 4 (at axis 2). Full input shapes: "
            "(None, 2, 3), (None, 2, 4)", lambda: layers.Dot(axes=-1)([keras.Input((2, 3)), keras.Input((2, 4))]))
    _raises(ValueError, "Incompatible input shapes: axis values 3 (at axis 1) != 4 (at axis 1). Full input shapes: "
            "(2, 3), (2, 4)", lambda: layers.Dot(axes=1)([np.ones((2, 3), "float32"), np.ones((2, 4), "float32")]))
    _raises(ValueError, "A `Dot` layer should be called on a list of 2 inputs. Received: input_shape=[(None, 3), "
            "(None, 3), (None, 3)]", lambda: layers.Dot(axes=1)([keras.Input((3,))] * 3))
    _raises(ValueError, "A `Dot` layer should be called on a list of 2 inputs. Received: input_shape=(None, 3)",
            lambda: layers.Dot(axes=1)(keras.Input((3,))))
    assert layers.Dot(axes=(1, 2))([keras.Input((2, 3)), keras.Input((3, 2))]).shape == (None, 3, 3)
    out = layers.Dot(axes=1)([np.ones((2, 3), "float32"), np.full((2, 3), 2.0, "float32")])
    np.testing.assert_allclose(out.numpy(), [[6.0], [6.0]])


def test_weights_of_unknown_shape():
    # TF 2.21
    _raises(ValueError, "Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
            "Received: shape=(None, 3) for variable path='dense/kernel'", lambda: layers.Dense(3)(keras.Input((None,))))
    _raises(ValueError, "Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
            "Received: shape=(None,) for variable path='batch_normalization/gamma'",
            lambda: layers.BatchNormalization()(keras.Input((None,))))
    _raises(ValueError, "Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
            "Received: shape=(None, 12) for variable path='lstm/lstm_cell/kernel'",
            lambda: layers.LSTM(3)(keras.Input((None, None))))

    class Custom(layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], 2), name="w")
    _raises(ValueError, "Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
            "Received: shape=(None, 2) for variable path='custom/w'", lambda: Custom().build((None, None)))


def test_repeat_vector_input_spec():
    # TF 2.21: RepeatVector has InputSpec(ndim=2)
    assert repr(layers.RepeatVector(3).input_spec) == "InputSpec(ndim=2)"
    _raises(ValueError, "Input 0 with name 'None' of layer 'repeat_vector_1' is incompatible with the layer: expected "
            "ndim=2, found ndim=3. Full shape received: (2, 2, 3)",
            lambda: layers.RepeatVector(3)(np.zeros((2, 2, 3), "float32")))
    _raises(ValueError, "Input 0 with name 'None' of layer 'repeat_vector_2' is incompatible with the layer: expected "
            "ndim=2, found ndim=3. Full shape received: (None, 2, 3)",
            lambda: layers.RepeatVector(3)(keras.Input((2, 3))))


def test_multi_head_attention_without_value():
    # TF 2.21: Keras binds call's signature before anything runs
    mha = layers.MultiHeadAttention(2, 4)
    _raises(TypeError, "missing a required argument: 'value'", lambda: mha(np.zeros((1, 5, 8), "float32")))
    _raises(TypeError, "missing a required argument: 'value'", lambda: mha(query=np.zeros((1, 5, 8), "float32")))
    assert not mha.built
    assert mha(np.zeros((1, 5, 8), "float32"), np.zeros((1, 3, 8), "float32")).shape == (1, 5, 8)


def test_lookup_argument_errors():
    # TF 2.21
    _raises(ValueError, "The passed vocabulary has at least one repeated term. Please uniquify your dataset. The "
            "repeated terms are: [np.str_('a'), np.str_('b')]",
            lambda: layers.StringLookup(vocabulary=["a", "b", "a", "b", "c"]))
    _raises(ValueError, "The passed vocabulary has at least one repeated term. Please uniquify your dataset. The "
            "repeated terms are: [np.int64(1)]", lambda: layers.IntegerLookup(vocabulary=[1, 1]))
    _raises(ValueError, "The passed vocabulary has at least one repeated term. Please uniquify your dataset. The "
            "repeated terms are: [np.str_('x')]", lambda: layers.TextVectorization(vocabulary=["x", "x"]))
    _raises(ValueError, "Unknown value for `output_mode` argument of TextVectorization. Allowed values are: ('int', "
            "'one_hot', 'multi_hot', 'count', 'tf_idf'). Received: output_mode=foo",
            lambda: layers.TextVectorization(output_mode="foo"))
    _raises(ValueError, "Unknown value for `output_mode` argument of StringLookup. Allowed values are: ('int', "
            "'one_hot', 'multi_hot', 'count', 'tf_idf'). Received: output_mode=foo",
            lambda: layers.StringLookup(output_mode="foo"))
    _raises(ValueError, "Unknown value for `output_mode` argument of Discretization. Allowed values are: ('int', "
            "'one_hot', 'multi_hot', 'count'). Received: output_mode=foo",
            lambda: layers.Discretization(output_mode="foo"))
    # TF 2.21: "binary" is the old name of multi_hot
    assert layers.StringLookup(output_mode="binary").output_mode == "multi_hot"
    assert layers.TextVectorization(output_mode="binary").get_config()["output_mode"] == "multi_hot"


def test_lambda_whose_shape_cannot_be_inferred():
    # TF 2.21: Keras's Lambda infers its output shape by running the function; any failure is this error, and the
    # call information of a layer taking `mask` lists the input's mask
    inp = keras.Input((3,))
    with pytest.raises(NotImplementedError) as e:
        layers.Lambda(lambda t: t.nonexistent)(inp)
    assert str(e.value) == (
        "Exception encountered when calling Lambda.call().\n\n\x1b[1mWe could not automatically infer the shape of "
        "the Lambda's output. Please specify the `output_shape` argument for this Lambda layer.\x1b[0m\n\nArguments "
        "received by Lambda.call():\n  • args=('<KerasTensor shape=(None, 3), dtype=float32, sparse=False, "
        "ragged=False, name=keras_tensor>',)\n  • kwargs={'mask': 'None'}")
    # TF 2.21: the failed inference took one auto-name (its input's), a given output_shape takes none
    y = layers.Lambda(lambda t: t + 1, output_shape=(3,))(inp)
    assert (y.name, y.shape) == ("keras_tensor_2", (None, 3))


def test_lambda_inference_takes_keras_tensor_names():
    # TF 2.21: one auto-name per input and output of the inference, then the outputs' own
    inp = keras.Input((4,))
    y = layers.Lambda(lambda t: t * 2)(inp)
    z = layers.Dense(2)(y)
    w = layers.Lambda(lambda t: [t, t])(z)
    v = layers.Lambda(lambda t: t, output_shape=(2,))(z)
    q = layers.Lambda(lambda t: t[0] + t[1])([z, z])
    assert [inp.name, y.name, z.name, w[0].name, w[1].name, v.name, q.name] == [
        "keras_tensor", "keras_tensor_3", "keras_tensor_4", "keras_tensor_8", "keras_tensor_9", "keras_tensor_10",
        "keras_tensor_14"]


def test_lambda_passes_training_and_model_from_config_name():
    seen = []
    lam = layers.Lambda(lambda x, training=None: (seen.append(training), x * 2)[1])
    lam(np.ones((1, 2), "float32"), training=True)
    lam(np.ones((1, 2), "float32"))
    assert seen == [True, None]                 # TF 2.21
    _raises(TypeError, "Model.from_config() got an unexpected keyword argument 'safe_mode'",
            lambda: keras.Model.from_config({}, safe_mode=False))


def test_input_argument_checks_and_deprecations():
    # TF 2.21
    _raises(ValueError, "You cannot pass both `shape` and `batch_shape` at the same time.",
            lambda: keras.Input(shape=(4,), batch_shape=(None, 4)))
    _raises(ValueError, "You cannot pass both `batch_size` and `batch_shape` at the same time.",
            lambda: keras.Input(batch_size=2, batch_shape=(None, 4)))
    with pytest.warns(UserWarning, match=r"^Argument `input_length` is deprecated. Just remove it.$"):
        layers.Embedding(5, 2, input_length=3)
    with pytest.warns(UserWarning, match=r"^Argument `input_shape` is deprecated. Use `shape` instead.$"):
        assert layers.InputLayer(input_shape=(3,)).batch_shape == (None, 3)


def test_conv_and_pool_tuple_arguments():
    # TF 2.21 (Keras's standardize_tuple)
    _raises(ValueError, "The `strides` argument must be a tuple of 2 integers. Received strides=0, including values "
            "{0} that do not satisfy `value > 0`", lambda: layers.Conv2D(2, 3, strides=0))
    _raises(ValueError, "The `kernel_size` argument must be a tuple of 2 integers. Received kernel_size=0, including "
            "values {0} that do not satisfy `value > 0`", lambda: layers.Conv2D(2, 0))
    _raises(ValueError, "The `kernel_size` argument must be a tuple of 2 integers. Received kernel_size=(3, 3, 3)",
            lambda: layers.Conv2D(2, (3, 3, 3)))
    assert layers.Conv2DTranspose(2, 3, strides=2, output_padding=0).output_padding == (0, 0)
    assert layers.MaxPooling2D(2, strides=(1, 2)).strides == (1, 2)


def test_rnn_feature_mismatch_is_the_cells_matmul_error():
    # TF 2.21: the first step's MatMul fails in the cell's call, reported with the step's inputs and states
    from tfcompat.framework.errors import InvalidArgumentError
    for cls, cell, first, states in [
            (layers.LSTM, "LSTMCell", "inputs", "('tf.Tensor(shape=(2, 3), dtype=float32)', "
                                                "'tf.Tensor(shape=(2, 3), dtype=float32)')"),
            (layers.GRU, "GRUCell", "inputs", "('tf.Tensor(shape=(2, 3), dtype=float32)',)"),
            (layers.SimpleRNN, "SimpleRNNCell", "sequence", "('tf.Tensor(shape=(2, 3), dtype=float32)',)")]:
        layer = cls(3)
        layer(np.ones((2, 4, 2), "float32"))
        with pytest.raises(InvalidArgumentError) as e:
            layer(np.ones((2, 4, 5), "float32"))
        k = {"LSTMCell": 12, "GRUCell": 9, "SimpleRNNCell": 3}[cell]
        assert str(e.value) == (
            f"Exception encountered when calling {cell}.call().\n\n\x1b[1mMatrix size-incompatible: In[0]: [2,5], "
            f"In[1]: [2,{k}] [Op:MatMul] name: \x1b[0m\n\nArguments received by {cell}.call():\n"
            f"  • {first}=tf.Tensor(shape=(2, 5), dtype=float32)\n  • states={states}\n  • training=False")


def test_lookup_and_discretization_construction_errors():
    # TF 2.21
    _raises(ValueError, "`output_mode` must be `'int'` when `invert` is true. Received: output_mode=one_hot",
            lambda: layers.StringLookup(vocabulary=["a"], invert=True, output_mode="one_hot"))
    _raises(ValueError, "Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary size "
            "is 4; `max_tokens` is 2.", lambda: layers.StringLookup(max_tokens=2, vocabulary=["a", "b", "c"]))
    _raises(ValueError, "You need to set either `num_bins` or `bin_boundaries`.", lambda: layers.Discretization())
    assert layers.StringLookup(max_tokens=4, vocabulary=["a", "b", "c"]).vocabulary_size() == 4


def test_text_vectorization_adapt_on_numbers():
    # TF 2.21: Keras converts the data to a string tensor first
    _raises(TypeError, "Cannot convert [1, 2] to EagerTensor of dtype string",
            lambda: layers.TextVectorization().adapt([1, 2]))


def test_data_layer_call_information_shows_the_python_list():
    # TF 2.21: the call information shows a data layer's Python list as given
    from tfcompat.framework.errors import FailedPreconditionError
    with pytest.raises(FailedPreconditionError) as e:
        layers.StringLookup()(["a"])
    assert str(e.value) == (
        "Exception encountered when calling StringLookup.call().\n\n\x1b[1m{{function_node "
        "__wrapped__LookupTableFindV2_device_/job:localhost/replica:0/task:0/device:CPU:0}} Table not initialized. "
        "[Op:LookupTableFindV2] name: \x1b[0m\n\nArguments received by StringLookup.call():\n  • inputs=[\"'a'\"]")
