"""tf.strings.ngrams: golden values and errors from TF 2.21."""
import pytest

import tfcompat as tf


def test_ngrams_dense_and_ragged():
    assert tf.strings.ngrams(tf.strings.split(["a b c d"]), 2).to_list() == [[b"a b", b"b c", b"c d"]]
    r = tf.strings.ngrams(["a", "b", "c"], 2)
    assert isinstance(r, tf.Tensor) and r.numpy().tolist() == [b"a b", b"b c"]
    assert tf.strings.ngrams(["a", "b", "c"], (1, 3), separator="_").numpy().tolist() == [b"a", b"b", b"c", b"a_b_c"]
    rt = tf.ragged.constant([["a", "b", "c"], ["d"], []])
    assert tf.strings.ngrams(rt, 2, pad_values=("<s>", "</s>"), padding_width=1).to_list() == [
        [b"<s> a", b"a b", b"b c", b"c </s>"], [b"<s> d", b"d </s>"], [b"<s> </s>"]]
    assert tf.strings.ngrams(rt, 3, pad_values="P", preserve_short_sequences=True).to_list() == [
        [b"P P a", b"P a b", b"a b c", b"b c P", b"c P P"], [b"P P d", b"P d P", b"d P P"], [b"P P P", b"P P P"]]
    assert tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2, pad_values="P",
                             padding_width=3).to_list() == [[b"P a", b"a b", b"b c", b"c P"], [b"P d", b"d P"]]
    assert tf.strings.ngrams(tf.ragged.constant([["a", "b"], [], ["c"]]), (2, 3),
                             preserve_short_sequences=True).to_list() == [[b"a b"], [], [b"c"]]
    assert tf.strings.ngrams(tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]]), 2).to_list() == [
        [[b"a b"], []], [[b"d e", b"e f"]]]
    d = tf.strings.ngrams(tf.constant([[["a", "b"], ["c", "d"]]]), 2)
    assert d.shape == (1, 2, 1) and d.numpy().tolist() == [[[b"a b"], [b"c d"]]]
    assert tf.strings.ngrams(tf.constant([["a", "b", "c"]]), 4).shape == (1, 0)
    assert tf.strings.ngrams(["a", "b"], 2, pad_values=["L", "R"]).numpy().tolist() == [b"L a", b"a b", b"b R"]
    assert tf.strings.ngrams(["a", "b"], 3, pad_values=("L", "R"), padding_width=1).numpy().tolist() == [
        b"L a b", b"a b R"]


@pytest.mark.parametrize("kwargs, cls, text", [
    (dict(data=["a"], ngram_width=0), ValueError, "All ngram_widths must be greater than 0. Got 0"),
    (dict(data=["a"], ngram_width=[2, -1]), ValueError, "All ngram_widths must be greater than 0. Got [2, -1]"),
    (dict(data=["a"], ngram_width=2, padding_width=1), ValueError,
     "pad_values must be provided if padding_width is set."),
    (dict(data=["a"], ngram_width=2, pad_values="P", padding_width=0), ValueError,
     "padding_width must be greater than 0."),
    (dict(data=["a"], ngram_width=2, pad_values=5), TypeError,
     "pad_values must be a string, tuple of strings, or None."),
    (dict(data=["a"], ngram_width=2, separator=5), TypeError, "Expected string for argument 'separator' not 5."),
    (dict(data="a", ngram_width=1), ValueError, "Data must have rank>0"),
    (dict(data=[1, 2], ngram_width=1), TypeError, "Cannot convert [1, 2] to EagerTensor of dtype string"),
])
def test_ngrams_errors(kwargs, cls, text):
    with pytest.raises(cls) as e:
        tf.strings.ngrams(**kwargs)
    assert str(e.value) == text
