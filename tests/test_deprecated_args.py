"""TF's deprecation warnings (golden text from TF 2.21): logged once per function (and argument)."""
import logging
import subprocess
import sys

import pytest

import tfcompat as tf
from tfcompat.ops import deprecation


def _gen():
    yield 1


def _make(*_):
    return tf.data.Dataset.from_generator(_gen, output_types=tf.int64, output_shapes=())


class _Making(tf.keras.layers.Layer):
    def call(self, x):
        _make()
        return x


DEPRECATED_ARGS = [
    "calling DatasetV2.from_generator (from tensorflow.python.data.ops.dataset_ops) with {} is deprecated and will "
    "be removed in a future version.\nInstructions for updating:\nUse output_signature instead".format(arg)
    for arg in ("output_types", "output_shapes")]


def _logged(caplog, run):
    for arg in ("output_types", "output_shapes"):
        deprecation._WARNED.discard(("DatasetV2.from_generator", arg))
    tf.constant(0)          # the eager context exists (TF creates it at the first op)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        run()
        run()
    return [r.getMessage() for r in caplog.records]


# TF 2.21 logs @deprecated_args warnings only in graph mode (is_in_graph_mode: not executing eagerly, or no
# eager context yet): in a tf.function trace, a tf.data function or a Keras layer's symbolic call, not in an eager
# call nor in Dataset.apply or a generator's body (which run eagerly)
GRAPH_MODE = {
    "eager": (_make, False),
    "function": (lambda: tf.function(lambda: _make().cardinality())(), True),
    "map": (lambda: list(tf.data.Dataset.range(2).map(lambda x: (_make(), x)[1])), True),
    "flat_map": (lambda: list(tf.data.Dataset.range(2).flat_map(_make)), True),
    "interleave": (lambda: list(tf.data.Dataset.range(2).interleave(_make)), True),
    "filter": (lambda: list(tf.data.Dataset.range(2).filter(lambda x: (_make(), x > 0)[1])), True),
    "scan": (lambda: list(tf.data.Dataset.range(2).scan(tf.constant(0, tf.int64), lambda s, x: (_make(), (s, x))[1])),
             True),
    "reduce": (lambda: tf.data.Dataset.range(2).reduce(tf.constant(0, tf.int64), lambda s, x: (_make(), s + x)[1]),
               True),
    "group_by_window": (lambda: list(tf.data.Dataset.range(2).group_by_window(lambda x: x, lambda k, w: _make(), 2)),
                        True),
    "keras_symbolic_call": (lambda: _Making()(tf.keras.Input((2,))), True),
    "keras_eager_call": (lambda: _Making()(tf.constant([[1.0, 2.0]])), False),
    "apply": (lambda: tf.data.Dataset.range(2).apply(lambda d: (_make(), d)[1]), False),
    "generator": (lambda: list(tf.data.Dataset.from_generator(lambda: (_make(), (yield 1)),
                                                              output_signature=tf.TensorSpec((), tf.int32))), False),
}


@pytest.mark.parametrize("case", sorted(GRAPH_MODE))
def test_from_generator_deprecated_args_warn_in_graph_mode_once(caplog, case):
    run, warns = GRAPH_MODE[case]
    messages = _logged(caplog, run)
    assert [m.split(": ", 1)[1] for m in messages] == (DEPRECATED_ARGS if warns else [])
    if warns:
        assert all(m.startswith(f"From {__file__}:") for m in messages)


def test_from_generator_deprecated_args_warn_before_the_first_op():
    code = ("import tfcompat as tf\n"
            "ds = tf.data.Dataset.from_generator(lambda: iter([1]), output_types=tf.int64, output_shapes=())\n"
            "tf.data.Dataset.from_generator(lambda: iter([1]), output_types=tf.int64)\n"
            "print(list(ds.as_numpy_iterator()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[np.int64(1)]\n"
    assert out.stderr == "".join(f"WARNING:tensorflow:From <string>:2: {m}\n" for m in DEPRECATED_ARGS)


def test_experimental_ignore_errors_is_deprecated(caplog, tmp_path):
    text = ("ignore_errors (from tensorflow.python.data.experimental.ops.error_ops) is deprecated and will be removed "
            "in a future version.\nInstructions for updating:\nUse `tf.data.Dataset.ignore_errors` instead.")
    path = tmp_path / "a.csv"
    path.write_text("x,y\n1,2\n")
    for make in (lambda: tf.data.Dataset.range(3).apply(tf.data.experimental.ignore_errors()),
                 lambda: tf.data.experimental.make_csv_dataset(str(path), 1, label_name="y", ignore_errors=True)):
        deprecation._WARNED.discard("ignore_errors")
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="tensorflow"):
            make()
            make()
        assert [r.getMessage().split(": ", 1)[1] for r in caplog.records] == [text]
