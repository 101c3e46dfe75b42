"""TF's deprecation warnings (golden text from TF 2.21): logged once per function (and argument)."""
import logging

import tfcompat as tf
from tfcompat.ops import deprecation


def test_from_generator_output_types_and_shapes_are_deprecated(caplog):
    for arg in ("output_types", "output_shapes"):
        deprecation._WARNED.discard(("DatasetV2.from_generator", arg))

    def gen():
        yield 1

    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        ds = tf.data.Dataset.from_generator(gen, output_types=tf.int64, output_shapes=())
        tf.data.Dataset.from_generator(gen, output_types=tf.int64)
        tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))
    line = test_from_generator_output_types_and_shapes_are_deprecated.__code__.co_firstlineno + 8
    assert [r.getMessage() for r in caplog.records] == [
        f"From {__file__}:{line}: calling DatasetV2.from_generator (from tensorflow.python.data.ops.dataset_ops) "
        f"with {arg} is deprecated and will be removed in a future version.\nInstructions for updating:\n"
        "Use output_signature instead" for arg in ("output_types", "output_shapes")]
    assert list(ds.as_numpy_iterator()) == [1]


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
