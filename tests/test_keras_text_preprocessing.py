"""tf.keras.preprocessing.text (Tokenizer, one_hot, hashing_trick, text_to_word_sequence) and
tf.keras.preprocessing.sequence.TimeseriesGenerator, against values recorded from TF 2.21 / Keras 3.15.1."""
import collections
import json
import warnings

import numpy as np
import pytest

import tfcompat as tf

T = tf.keras.preprocessing.text
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "Cat, dog; cat? DOG", "", "a a a b b c"]
EXTRA = ["unknown cat words", "zebra"]


def fitted(**kwargs):
    tok = T.Tokenizer(**kwargs)
    tok.fit_on_texts(TEXTS)
    return tok


def test_text_to_word_sequence():
    # TF 2.21
    assert T.text_to_word_sequence("Hello, World!! foo\tbar\nbaz... Qux") == [
        "hello", "world", "foo", "bar", "baz", "qux"]
    assert T.text_to_word_sequence("Hello, World!! foo-bar", filters="!", lower=False, split=",") == [
        "Hello", " World", " foo-bar"]
    assert T.text_to_word_sequence("a--b", filters="-", split="::") == ["a", "b"]
    with pytest.raises(ValueError, match="empty separator"):
        T.text_to_word_sequence("a b", split="")


def test_hashing_trick_and_one_hot():
    # TF 2.21
    assert T.hashing_trick("The quick brown fox jumps over the lazy dog", 100, hash_function="md5") == [
        51, 13, 19, 11, 88, 95, 51, 74, 33]
    assert T.hashing_trick("The quick brown fox", 1000, hash_function="md5", lower=False) == [561, 454, 793, 641]
    assert T.hashing_trick("abc de f", 7, hash_function=len) == [4, 3, 2]
    assert T.hashing_trick("abc de f", 7, hash_function=len, analyzer=lambda s: s.split("d")) == [5, 4]
    with pytest.raises(ZeroDivisionError):
        T.hashing_trick("abc", 1, hash_function="md5")
    # one_hot uses Python's (salted) hash: same word, same index, in [1, n)
    out = T.one_hot("The cat The", 50)
    assert out[0] == out[2] and all(1 <= i < 50 for i in out)
    assert out[0] == hash("the") % 49 + 1


def test_tokenizer_vocabulary_orders():
    tok = fitted()
    # TF 2.21: word_counts in first-seen order, word_index by count (ties first-seen)
    assert type(tok.word_counts) is collections.OrderedDict
    assert list(tok.word_counts.items()) == [
        ("the", 3), ("cat", 3), ("sat", 1), ("on", 1), ("mat", 1), ("dog", 3), ("ate", 1), ("my", 1),
        ("homework", 1), ("a", 3), ("b", 2), ("c", 1)]
    assert list(tok.word_index.items()) == [
        ("the", 1), ("cat", 2), ("dog", 3), ("a", 4), ("b", 5), ("sat", 6), ("on", 7), ("mat", 8), ("ate", 9),
        ("my", 10), ("homework", 11), ("c", 12)]
    assert list(tok.index_word.items()) == [(i, w) for w, i in tok.word_index.items()]
    assert type(tok.word_docs) is collections.defaultdict and type(tok.index_docs) is collections.defaultdict
    assert sorted(tok.word_docs.items()) == [
        ("a", 1), ("ate", 1), ("b", 1), ("c", 1), ("cat", 2), ("dog", 2), ("homework", 1), ("mat", 1), ("my", 1),
        ("on", 1), ("sat", 1), ("the", 2)]
    # word_docs follows each document's set order, as Keras
    expected = []
    for text in TEXTS:
        for w in set(T.text_to_word_sequence(text)):
            if w not in expected:
                expected.append(w)
    assert list(tok.word_docs) == expected
    assert list(tok.index_docs) == [tok.word_index[w] for w in expected]
    assert tok.document_count == 5
    assert list(vars(tok)) == ["word_counts", "word_docs", "filters", "split", "lower", "num_words",
                               "document_count", "char_level", "oov_token", "index_docs", "word_index",
                               "index_word", "analyzer"]


@pytest.mark.parametrize("kwargs, seqs, texts", [
    # TF 2.21
    ({}, [[1, 2, 6, 7, 1, 8], [1, 3, 9, 10, 11], [2, 3, 2, 3], [], [4, 4, 4, 5, 5, 12], [2], []],
     ["the cat sat on the mat", "the dog ate my homework", "cat dog cat dog", "", "a a a b b c", "cat", "",
      "the dog"]),
    ({"num_words": 4}, [[1, 2, 1], [1, 3], [2, 3, 2, 3], [], [], [2], []],
     ["the cat the", "the dog", "cat dog cat dog", "", "", "cat", "", "the dog"]),
    ({"oov_token": "<OOV>"},
     [[2, 3, 7, 8, 2, 9], [2, 4, 10, 11, 12], [3, 4, 3, 4], [], [5, 5, 5, 6, 6, 13], [1, 3, 1], [1]],
     ["the cat sat on the mat", "the dog ate my homework", "cat dog cat dog", "", "a a a b b c",
      "<OOV> cat <OOV>", "<OOV>", "<OOV> <OOV> <OOV> cat"]),
    ({"num_words": 4, "oov_token": "<OOV>"},
     [[2, 3, 1, 1, 2, 1], [2, 1, 1, 1, 1], [3, 1, 3, 1], [], [1, 1, 1, 1, 1, 1], [1, 3, 1], [1]],
     ["the cat <OOV> <OOV> the <OOV>", "the <OOV> <OOV> <OOV> <OOV>", "cat <OOV> cat <OOV>", "",
      "<OOV> <OOV> <OOV> <OOV> <OOV> <OOV>", "<OOV> cat <OOV>", "<OOV>", "<OOV> <OOV> <OOV> cat"]),
])
def test_tokenizer_sequences(kwargs, seqs, texts):
    tok = fitted(**kwargs)
    assert tok.texts_to_sequences(TEXTS + EXTRA) == seqs
    assert tok.sequences_to_texts(seqs + [[0, 1, 99, 3]]) == texts
    assert list(tok.texts_to_sequences_generator(["cat mat"])) == [tok.texts_to_sequences(["cat mat"])[0]]


def test_tokenizer_matrices():
    tok = fitted()
    # TF 2.21 (float64, vocabulary + 1 columns)
    count = tok.texts_to_matrix(TEXTS, mode="count")
    assert count.dtype == np.float64 and count.shape == (5, 13)
    assert count.tolist() == [
        [0, 2, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0], [0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0],
        [0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0] * 13, [0, 0, 0, 0, 3, 2, 0, 0, 0, 0, 0, 0, 1]]
    np.testing.assert_array_equal(tok.texts_to_matrix(TEXTS), (count > 0).astype(float))
    freq = tok.texts_to_matrix(TEXTS, mode="freq")
    assert freq[0].tolist()[:3] == [0.0, 0.3333333333333333, 0.16666666666666666]
    tfidf = tok.texts_to_matrix(TEXTS, mode="tfidf")
    assert tfidf[0].tolist()[:3] == [0.0, 1.6606882843475217, 0.9808292530117263]
    assert tfidf[4].tolist()[4:6] == [2.62906376047272, 2.1211120880178402]
    assert tfidf[0, 6] == 1.252762968495368
    tok = fitted(num_words=4, oov_token="<OOV>")
    assert tok.texts_to_matrix(TEXTS, mode="tfidf").tolist() == [
        [0.0, 3.7602084404594462, 1.6606882843475217, 0.9808292530117263],
        [0.0, 4.275665517902076, 0.9808292530117263, 0.0],
        [0.0, 3.0337124935650657, 0.0, 1.6606882843475217], [0.0, 0.0, 0.0, 0.0], [0.0, 5.0021614647964565, 0.0, 0.0]]
    # an unknown mode fails only where a count is written (TF 2.21)
    with pytest.raises(ValueError) as e:
        tok.texts_to_matrix(TEXTS, mode="bogus")
    assert e.value.args == ("Unknown vectorization mode:", "bogus")
    assert tok.sequences_to_matrix([[]], mode="bogus").tolist() == [[0.0] * 4]


def test_tokenizer_matrix_errors_and_sequences():
    with pytest.raises(ValueError, match=r"Specify a dimension \(`num_words` argument\), or fit on some text"):
        T.Tokenizer().texts_to_matrix(["a"])
    tok = T.Tokenizer(num_words=5)
    with pytest.raises(ValueError, match="Fit the Tokenizer on some data before using tfidf mode."):
        tok.sequences_to_matrix([[1, 2]], mode="tfidf")
    # TF 2.21: indices >= num_words skipped, negative ones written from the end
    assert tok.sequences_to_matrix([[1, 2, 2, 9], [], [-1]], mode="count").tolist() == [
        [0, 1, 2, 0, 0], [0] * 5, [0, 0, 0, 0, 1]]
    tok.fit_on_sequences([[1, 2, 2], [2, 3]])
    assert tok.document_count == 2 and sorted(tok.index_docs.items()) == [(1, 1), (2, 2), (3, 1)]
    np.testing.assert_allclose(tok.sequences_to_matrix([[1, 2, 2, 4]], mode="tfidf"),
                               [[0., 0.69314718, 0.86490296, 0., 1.09861229]], rtol=1e-8)


def test_tokenizer_arguments():
    with pytest.raises(TypeError, match=r"Unrecognized keyword arguments: \{'foo': 1\}"):
        T.Tokenizer(foo=1)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tok = T.Tokenizer(nb_words=3, document_count=4)
    assert (tok.num_words, tok.document_count) == (3, 4)
    assert [str(x.message) for x in w] == ["The `nb_words` argument in `Tokenizer` has been renamed `num_words`."]
    # TF 2.21: char_level, lists of tokens lowercased item by item
    tok = T.Tokenizer(oov_token="X", char_level=True)
    tok.fit_on_texts(["Hello", ["Ab", "cD", "ab"]])
    assert list(tok.word_counts.items()) == [("h", 1), ("e", 1), ("l", 2), ("o", 1), ("ab", 2), ("cd", 1)]
    assert tok.word_index == {"X": 1, "l": 2, "ab": 3, "h": 4, "e": 5, "o": 6, "cd": 7}
    assert tok.texts_to_sequences(["hey", ["AB"]]) == [[4, 5, 1], [3]]
    assert tok.sequences_to_texts([[1, 2, 3]]) == ["X l ab"]
    tok = fitted(lower=False)
    assert tok.texts_to_sequences(TEXTS[:3]) == [[2, 3, 6, 7, 8, 9], [2, 4, 10, 11, 12], [13, 4, 3, 14]]
    tok = fitted(split=",", filters="")
    assert list(tok.word_index) == ["the cat sat on the mat.", "the dog ate my homework!", "cat",
                                    " dog; cat? dog", "a a a b b c"]
    tok = fitted(analyzer=lambda s: s.split("a"))
    assert list(tok.word_index)[:4] == ["", " ", "The c", "t s"]
    # unfitted with an OOV token: Keras appends None, and cannot map back
    assert T.Tokenizer(oov_token="Q").texts_to_sequences(["a b"]) == [[None, None]]
    with pytest.raises(KeyError):
        T.Tokenizer(oov_token="Q").sequences_to_texts([[1]])


def test_tokenizer_json_round_trip():
    tok = fitted(num_words=4, oov_token="<OOV>")
    cfg = tok.get_config()
    assert list(cfg) == ["num_words", "filters", "lower", "split", "char_level", "oov_token", "document_count",
                         "word_counts", "word_docs", "index_docs", "index_word", "word_index"]
    # TF 2.21
    assert cfg["word_counts"] == ('{"the": 3, "cat": 3, "sat": 1, "on": 1, "mat": 1, "dog": 3, "ate": 1, "my": 1, '
                                  '"homework": 1, "a": 3, "b": 2, "c": 1}')
    assert cfg["index_word"].startswith('{"1": "<OOV>", "2": "the", "3": "cat", "4": "dog"')
    assert cfg["word_index"].startswith('{"<OOV>": 1, "the": 2')
    assert T.Tokenizer(num_words=3).to_json(indent=2, sort_keys=True) == (
        '{\n  "class_name": "Tokenizer",\n  "config": {\n    "char_level": false,\n    "document_count": 0,\n'
        '    "filters": "!\\"#$%&()*+,-./:;<=>?@[\\\\]^_`{|}~\\t\\n",\n    "index_docs": "{}",\n'
        '    "index_word": "{}",\n    "lower": true,\n    "num_words": 3,\n    "oov_token": null,\n'
        '    "split": " ",\n    "word_counts": "{}",\n    "word_docs": "{}",\n    "word_index": "{}"\n  }\n}')
    text = tok.to_json()
    assert json.loads(text)["class_name"] == "Tokenizer"
    t2 = T.tokenizer_from_json(text)
    assert (type(t2.word_counts), type(t2.word_docs), type(t2.index_docs)) == (dict, dict, dict)
    assert t2.word_index == tok.word_index and t2.index_word == tok.index_word
    assert list(t2.index_docs) == list(tok.index_docs) and (t2.num_words, t2.oov_token) == (4, "<OOV>")
    assert t2.document_count == 5
    assert t2.texts_to_sequences(TEXTS) == tok.texts_to_sequences(TEXTS)


def test_timeseries_generator():
    G = tf.keras.preprocessing.sequence.TimeseriesGenerator
    d = np.arange(40).reshape(20, 2).astype("float32")
    t = np.arange(20) * 10
    g = G(d, t, length=3, batch_size=2)
    assert len(g) == 9
    x, y = g[0]
    assert x.dtype == np.float32 and x.tolist() == [[[0, 1], [2, 3], [4, 5]], [[2, 3], [4, 5], [6, 7]]]
    assert y.tolist() == [30, 40]
    assert g[8][1].tolist() == [190]
    # TF 2.21
    g = G(d, t, length=4, sampling_rate=2, stride=3, batch_size=3, reverse=True)
    assert len(g) == 2
    x, y = g[1]
    assert x.tolist() == [[[22, 23], [18, 19]], [[28, 29], [24, 25]], [[34, 35], [30, 31]]]
    assert y.tolist() == [130, 160, 190]
    g = G(d, t, length=2, start_index=3, end_index=15, batch_size=4)
    assert len(g) == 3 and g[2][1].tolist() == [130, 140, 150]
    assert (g.start_index, g.end_index, g.workers, g.use_multiprocessing, g.max_queue_size) == (5, 15, 1, False, 10)
    g = G(list(range(10)), list(range(10)), length=2, sampling_rate=2, stride=3, start_index=1, end_index=8,
          reverse=True, batch_size=3)
    x, y = g[0]
    assert len(g) == 1 and x.tolist() == [[1], [4]] and y.tolist() == [3, 6]
    np.random.seed(3)
    assert G(d, t, length=2, shuffle=True, batch_size=4)[0][1].tolist() == [120, 50, 100, 20]


def test_timeseries_generator_errors():
    G = tf.keras.preprocessing.sequence.TimeseriesGenerator
    d, t = np.arange(20).reshape(10, 2), np.arange(10)
    with pytest.raises(ValueError, match=r"`start_index\+length=12 > end_index=9` is disallowed, as no part"):
        G(d, t, length=3, start_index=9)
    with pytest.raises(ValueError, match="Data and targets have to be of same length. Data length is 10 while "
                                         "target length is 5"):
        G(d, t[:5], length=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        G(d, t, length=2, foo=1)
    g = G(list(range(10)), list(range(10)), length=2)
    # Keras's PyDataset has no get_config
    with pytest.raises(AttributeError, match="'super' object has no attribute 'get_config'"):
        g.get_config()
    with pytest.raises(TypeError, match="Data not JSON Serializable"):
        G([object()] * 5, list(range(5)), length=2).get_config()
