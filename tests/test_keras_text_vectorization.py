"""TextVectorization's standardize/split callables, character split, n-grams, output modes and ragged output,
against the output of Keras 3.15.1 on TF 2.21."""
import contextlib
import io
import warnings

import pytest

import tfcompat as tf

# run in TF 2.21 (with `import tensorflow as tf` and `from tensorflow import keras`), its output below
SCRIPT = r'''\
import re, string
TV = keras.layers.TextVectorization
data = ["The Cat sat<br />on the MAT.", "the dog ate my homework!", "A cat, a dog"]
def custom_standardization(input_data):
    lowercase = tf.strings.lower(input_data)
    stripped_html = tf.strings.regex_replace(lowercase, "<br />", " ")
    return tf.strings.regex_replace(stripped_html, "[%s]" % re.escape(string.punctuation), "")
def comma_split(s):
    return tf.strings.split(s, sep=",")
for kw in [dict(standardize=custom_standardization), dict(standardize=custom_standardization, output_sequence_length=4),
           dict(split="character", max_tokens=12), dict(split=comma_split, standardize=None),
           dict(ngrams=2), dict(ngrams=(1, 3), standardize="lower"), dict(output_mode="multi_hot", ngrams=2),
           dict(output_mode="count", standardize=custom_standardization), dict(output_mode="tf_idf", max_tokens=6),
           dict(ragged=True), dict(split=None, standardize="lower"), dict(standardize="strip_punctuation", output_sequence_length=9)]:
    layer = TV(**kw)
    layer.adapt(data)
    print(kw.get("output_mode", "int"), [str(t) for t in layer.get_vocabulary()[:14]])
    out = layer(tf.constant(data))
    print(repr(out.to_list() if hasattr(out, "to_list") else out.numpy().round(4).tolist()))
layer = TV(standardize=custom_standardization, split=comma_split, vocabulary=["a b", "c"])
print(layer(tf.constant([["A B,C,d"]])).numpy().tolist())
try: TV()(tf.constant([["a", "b"]]))
except Exception as e: print(type(e).__name__, e)
try: TV(standardize="upper")
except Exception as e: print(type(e).__name__, e)
try: TV(split="comma")
except Exception as e: print(type(e).__name__, e)
try: TV(output_mode="one_hot")
except Exception as e: print(type(e).__name__, e)
try: TV(ngrams=0)
except Exception as e: print(type(e).__name__, e)
try: TV(ragged=True, output_mode="multi_hot")
except Exception as e: print(type(e).__name__, e)
try: TV(ragged=True, output_sequence_length=3)
except Exception as e: print(type(e).__name__, e)
print(TV(standardize=custom_standardization).get_config()["standardize"] is custom_standardization)
'''

TF_OUTPUT = '''\
int ['', '[UNK]', 'the', 'dog', 'cat', 'a', 'sat', 'on', 'my', 'mat', 'homework', 'ate']
[[2, 4, 6, 7, 2, 9], [2, 3, 11, 8, 10, 0], [5, 4, 5, 3, 0, 0]]
int ['', '[UNK]', 'the', 'dog', 'cat', 'a', 'sat', 'on', 'my', 'mat', 'homework', 'ate']
[[2, 4, 6, 7], [2, 3, 11, 8], [5, 4, 5, 3]]
int ['', '[UNK]', ' ', 't', 'a', 'o', 'e', 'h', 'm', 'r', 'g', 'd']
[[3, 7, 6, 2, 1, 4, 3, 2, 1, 4, 3, 1, 9, 2, 5, 1, 2, 3, 7, 6, 2, 8, 4, 3], [3, 7, 6, 2, 11, 5, 10, 2, 4, 3, 6, 2, 8, 1, 2, 7, 5, 8, 6, 1, 5, 9, 1, 0], [4, 2, 1, 4, 3, 2, 4, 2, 11, 5, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
int ['', '[UNK]', 'the dog ate my homework!', 'The Cat sat<br />on the MAT.', 'A cat', ' a dog']
[[3, 0], [2, 0], [4, 5]]
int ['', '[UNK]', 'the', 'dog', 'cat', 'a', 'the mat', 'the dog', 'the cat', 'satbr on', 'satbr', 'on the', 'on', 'my homework']
[[2, 4, 10, 12, 2, 15, 8, 18, 9, 11, 6], [2, 3, 21, 14, 16, 7, 17, 20, 13, 0, 0], [5, 4, 5, 3, 23, 19, 22, 0, 0, 0, 0]]
int ['', '[UNK]', 'the', 'dog', 'a', 'the dog ate', 'the cat sat<br', 'sat<br />on the', 'sat<br', 'my', 'mat.', 'homework!', 'dog ate my', 'cat, a dog']
[[2, 16, 8, 21, 2, 10, 6, 15, 7, 20], [2, 3, 18, 9, 11, 5, 12, 17, 0, 0], [4, 14, 4, 3, 19, 13, 0, 0, 0, 0]]
multi_hot ['[UNK]', 'the', 'dog', 'cat', 'a', 'the mat', 'the dog', 'the cat', 'satbr on', 'satbr', 'on the', 'on', 'my homework', 'my']
[[0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0], [0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0], [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1]]
count ['[UNK]', 'the', 'dog', 'cat', 'a', 'sat', 'on', 'my', 'mat', 'homework', 'ate']
[[0, 2, 0, 1, 0, 1, 1, 0, 1, 0, 0], [0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1], [0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0]]
tf_idf ['[UNK]', 'the', 'dog', 'cat', 'a', 'satbr']
[[1.5648000240325928, 1.386299967765808, 0.0, 0.6930999755859375, 0.0, 0.9162999987602234], [2.3471999168395996, 0.6930999755859375, 0.6930999755859375, 0.0, 0.0, 0.0], [0.0, 0.0, 0.6930999755859375, 0.6930999755859375, 1.8325999975204468, 0.0]]
int ['', '[UNK]', 'the', 'dog', 'cat', 'a', 'satbr', 'on', 'my', 'mat', 'homework', 'ate']
[[2, 4, 6, 7, 2, 9], [2, 3, 11, 8, 10], [5, 4, 5, 3]]
int ['', '[UNK]', 'the dog ate my homework!', 'the cat sat<br />on the mat.', 'a cat, a dog']
[3, 2, 4]
int ['', '[UNK]', 'the', 'dog', 'satbr', 'on', 'my', 'homework', 'cat', 'ate', 'a', 'The', 'MAT', 'Cat']
[[11, 13, 4, 5, 2, 12, 0, 0, 0], [2, 3, 9, 6, 7, 0, 0, 0, 0], [14, 8, 10, 3, 0, 0, 0, 0, 0]]
[[1]]
ValueError Exception encountered when calling TextVectorization.call().

\x1b[1mWhen using `TextVectorization` to tokenize strings, the input rank must be 1 or the last shape dimension must be 1. Received: inputs.shape=(1, 2) with rank=2\x1b[0m

Arguments received by TextVectorization.call():
  • inputs=tf.Tensor(shape=(1, 2), dtype=string)
ValueError Unknown value for `standardize` argument of TextVectorization. Allowed values are: ('lower_and_strip_punctuation', 'lower', 'strip_punctuation'). Received: standardize=upper
ValueError Unknown value for `split` argument of TextVectorization. Allowed values are: ('whitespace', 'character'). Received: split=comma
ValueError `ragged` must not be true if `output_mode` is `'int'`. Received: ragged=True and output_mode=multi_hot
True
'''


def test_text_vectorization_prints_what_keras_prints():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SCRIPT, {"tf": tf, "keras": tf.keras})
    assert buf.getvalue() == TF_OUTPUT


@pytest.mark.parametrize("mode, shape, dtype", [
    ("multi_hot", (None, 1, 3), "float32"), ("count", (None, 1, 3), "float32"), ("int", (None, None), "int64")])
def test_symbolic_output_spec_as_keras(mode, shape, dtype):
    # Keras 3.15's compute_output_spec (TF 2.21); the eager call of a bag-of-words mode returns int64 counts
    layer = tf.keras.layers.TextVectorization(vocabulary=["a", "b"], output_mode=mode)
    spec = layer(tf.keras.Input(shape=(1,), dtype="string"))
    assert (spec.shape, spec.dtype) == (shape, dtype)
    out = layer(tf.constant([["a b"], [""]]))
    assert out.dtype == tf.int64
    assert out.numpy().tolist() == ([[0, 1, 1], [0, 0, 0]] if mode != "int" else [[2, 3], [0, 0]])


def test_empty_token_rows_encode_as_zeros():
    lookup = tf.keras.layers.StringLookup(vocabulary=["a"], output_mode="multi_hot")
    assert lookup(tf.zeros((2, 0), tf.string)).numpy().tolist() == [[0, 0], [0, 0]]
    counts = tf.keras.layers.CategoryEncoding(3, output_mode="count")(tf.zeros((2, 0), tf.int64))
    assert counts.dtype == tf.float32 and counts.numpy().tolist() == [[0.0] * 3] * 2


def test_dtype_is_string_so_a_sequential_builds_on_strings():
    # Keras 3.15: TextVectorization's dtype/compute_dtype/variable_dtype are "string" (its policy stays float32),
    # so a Sequential without Input builds on string data and a callable standardize sees strings
    layer = tf.keras.layers.TextVectorization(standardize=lambda x: tf.strings.lower(x), output_mode="int",
                                              output_sequence_length=3)
    assert (layer.dtype, layer.compute_dtype, layer.variable_dtype) == ("string", "string", "string")
    assert layer.get_config()["dtype"]["config"]["name"] == "float32"
    layer.adapt(tf.constant(["The movie", "bad movie"]))
    model = tf.keras.Sequential([layer, tf.keras.layers.Embedding(10, 2, embeddings_initializer="ones"),
                                 tf.keras.layers.GlobalAveragePooling1D()])
    with warnings.catch_warnings():     # string batches are traced, as in TF: no warning
        warnings.simplefilter("error")
        out = model.predict(tf.constant(["The Movie x", "bad"]), verbose=0)
    assert out.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert repr(model.inputs) == ("[<KerasTensor shape=(2,), dtype=string, sparse=False, ragged=False, "
                                  "name=keras_tensor>]")
