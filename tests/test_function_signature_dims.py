"""tf.function.get_concrete_function of input signatures with unknown dimensions and of string TensorSpecs, before the
function is called on real data. Expected values were printed by TF 2.21 for the same code."""
import numpy as np

import tfcompat as tf


def test_unknown_batch_traces_once_with_tf_output_specs(capsys):
    calls = []

    @tf.function(input_signature=[tf.TensorSpec([None, 9], tf.float32)])
    def f(x):
        calls.append(1)
        print("tracing", x)
        return tf.reduce_sum(x * 2.0, axis=1), tf.shape(x)

    cf = f.get_concrete_function()
    assert str(cf) == (  # TF 2.21
        "ConcreteFunction Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 9), dtype=tf.float32, name=None)\n"
        "Output Type:\n"
        "  Tuple[TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
        "TensorSpec(shape=(2,), dtype=tf.int32, name=None)]\n"
        "Captures:\n"
        "  None")
    assert capsys.readouterr().out == 'tracing Tensor("x:0", shape=(None, 9), dtype=float32)\n'
    assert len(calls) == 1 and f.experimental_get_tracing_count() == 1
    total, shape = f(tf.ones([3, 9]))
    assert total.numpy().tolist() == [18.0, 18.0, 18.0] and shape.numpy().tolist() == [3, 9]
    assert f(tf.ones([2, 9]))[1].numpy().tolist() == [2, 9]
    assert f.experimental_get_tracing_count() == 1


def test_a_feature_dim_that_must_match_a_weight():
    # size-1 placeholders broadcast against the mean: the output spec was the traced (1, 1); TF: (None, 1)
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.mean = tf.Variable(tf.range(30, dtype=tf.float32) / 10.0)
            self.w = tf.Variable(tf.reshape(tf.range(30, dtype=tf.float32) % 4 - 1.5, [30, 1]))

        @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x - self.mean, self.w)

    m = M()
    assert repr(m.__call__.get_concrete_function().structured_outputs) == \
        "TensorSpec(shape=(None, 1), dtype=tf.float32, name=None)"
    x = tf.reshape(tf.range(60, dtype=tf.float32) % 7, [2, 30])
    np.testing.assert_allclose(m(x).numpy(), [[1.6500015258789062], [-2.3499999046325684]], rtol=1e-5)  # TF 2.21


def test_two_unknown_vectors_broadcast_at_call_time():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
    def add(a, b):
        return a + b

    assert repr(add.get_concrete_function().structured_outputs) == \
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
    assert add(tf.ones([3]), tf.ones([1])).numpy().tolist() == [2.0, 2.0, 2.0]      # TF 2.21


def test_a_string_tensor_spec():
    @tf.function
    def g(x):
        return tf.strings.length(x)

    cf = g.get_concrete_function(tf.TensorSpec([None], tf.string))
    assert repr(cf.structured_input_signature) == \
        "((TensorSpec(shape=(None,), dtype=tf.string, name='x'),), {})"             # TF 2.21
    assert str(cf) == (  # TF 2.21
        "ConcreteFunction Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.string, name=None)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(None,), dtype=tf.int32, name=None)\n"
        "Captures:\n"
        "  None")
    assert g(tf.constant(["ab", "c"])).numpy().tolist() == [2, 1]
    assert g.experimental_get_tracing_count() == 1


def test_a_string_signature_whose_body_needs_a_real_file_name(tmp_path):
    # simple_audio's ExportModel traces tf.io.read_file of a string TensorSpec: TF traces it symbolically
    path = tmp_path / "x.txt"
    path.write_text("12345")

    @tf.function
    def size(x):
        return tf.strings.length(tf.io.read_file(x))

    cf = size.get_concrete_function(tf.TensorSpec((), tf.string))
    assert repr(cf.structured_input_signature) == "((TensorSpec(shape=(), dtype=tf.string, name='x'),), {})"
    assert size(tf.constant(str(path))).numpy() == 5      # TF 2.21
    assert size.experimental_get_tracing_count() == 1
