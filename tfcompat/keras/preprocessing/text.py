"""`tf.keras.preprocessing.text`: Keras 1's text helpers as Keras 3 keeps them (`keras.src.legacy.preprocessing.text`).

`Tokenizer` keeps Keras's containers and orders, since users print them and save them as JSON: `word_counts` is an
`OrderedDict` in first-seen order, `word_docs`/`index_docs` `defaultdict(int)`s filled from each document's `set`
of words (Python's set order, as Keras), `word_index` ranks words by count with ties in first-seen order (a stable
sort), the OOV token first. `tokenizer_from_json` gives plain dicts, with `index_docs`/`index_word` keys turned back
into ints. Matrices are float64 NumPy arrays. `one_hot` hashes with Python's `hash` (salted per process unless
PYTHONHASHSEED is set, so its indices change between runs, as in Keras); `hashing_trick(..., hash_function="md5")`
is stable.
"""
import collections
import hashlib
import json
import warnings

import numpy as np

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'
_MODES = ("binary", "count", "tfidf", "freq")


def text_to_word_sequence(input_text, filters=_FILTERS, lower=True, split=" "):
    """The words of `input_text`: lowercased if `lower`, every character of `filters` made a separator, split on
    `split`, empty pieces dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans(dict.fromkeys(filters, split)))
    return [word for word in input_text.split(split) if word]


def _md5(word):
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


def hashing_trick(text, n, hash_function=None, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """Each word of `text` as `hash_function(word) % (n - 1) + 1` (index 0 is never used). `hash_function` is
    Python's `hash` by default, `"md5"` the MD5 digest as an integer, or any callable."""
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    if analyzer is not None:
        words = analyzer(text)
    else:
        words = text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    return [hash_function(word) % (n - 1) + 1 for word in words]


def one_hot(input_text, n, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """`hashing_trick` with Python's `hash`: each word of `input_text` as an index in [1, n)."""
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split,
                         analyzer=analyzer)


class Tokenizer:
    """Keras's legacy text tokenizer: a vocabulary ranked by word frequency, texts to index sequences and to
    bag-of-words matrices (`binary`, `count`, `freq`, `tfidf`)."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed `num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs = collections.defaultdict(int)
        self.word_index = {}
        self.index_word = {}
        self.analyzer = analyzer

    def _tokens(self, text):
        """A text's tokens: a string's characters (char_level) or words; a list's items as they are, lowercased."""
        if self.char_level or isinstance(text, list):
            if not self.lower:
                return text
            return [item.lower() for item in text] if isinstance(text, list) else text.lower()
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)

    def fit_on_texts(self, texts):
        """Counts the words of `texts` (one document each) and ranks the vocabulary again."""
        for text in texts:
            self.document_count += 1
            tokens = self._tokens(text)
            counts = self.word_counts
            for token in tokens:
                counts[token] = counts.get(token, 0) + 1
            for token in set(tokens):
                self.word_docs[token] += 1
        ranked = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [word for word, _ in ranked]
        self.word_index = dict(zip(vocabulary, range(1, len(vocabulary) + 1)))
        self.index_word = {index: word for word, index in self.word_index.items()}
        for word, docs in list(self.word_docs.items()):
            self.index_docs[self.word_index[word]] = docs

    def fit_on_sequences(self, sequences):
        """Counts the documents each index occurs in (what `tfidf` needs), for already tokenized sequences."""
        self.document_count += len(sequences)
        for sequence in sequences:
            for index in set(sequence):
                self.index_docs[index] += 1

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """Yields each text as its list of word indices: unknown words, and words ranked `num_words` or beyond,
        become the OOV token's index, or are dropped without one."""
        limit = self.num_words
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            indices = []
            for token in self._tokens(text):
                index = self.word_index.get(token)
                if index is None:
                    if self.oov_token is not None:
                        indices.append(oov)
                elif limit and index >= limit:
                    if oov is not None:
                        indices.append(oov)
                else:
                    indices.append(index)
            yield indices

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """Yields each index sequence as its words joined by spaces (OOV rules as `texts_to_sequences`)."""
        limit = self.num_words
        oov = self.word_index.get(self.oov_token)
        for sequence in sequences:
            words = []
            for index in sequence:
                word = self.index_word.get(index)
                if word is None:
                    if self.oov_token is not None:
                        words.append(self.index_word[oov])
                elif limit and index >= limit:
                    if oov is not None:
                        words.append(self.index_word[oov])
                else:
                    words.append(word)
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """A float64 matrix, one row per sequence and `num_words` (or vocabulary size + 1) columns."""
        if self.num_words:
            width = self.num_words
        elif self.word_index:
            width = len(self.word_index) + 1
        else:
            raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        matrix = np.zeros((len(sequences), width))
        for row, sequence in enumerate(sequences):
            if not sequence:
                continue
            counts = collections.defaultdict(int)
            for index in sequence:
                if index < width:
                    counts[index] += 1
            for index, count in list(counts.items()):
                if mode not in _MODES:
                    # Keras checks the mode only where a count is written
                    raise ValueError("Unknown vectorization mode:", mode)
                if mode == "binary":
                    matrix[row][index] = 1
                elif mode == "count":
                    matrix[row][index] = count
                elif mode == "freq":
                    matrix[row][index] = count / len(sequence)
                else:      # tfidf: weighting scheme 2 (log-scaled term frequency, smoothed idf)
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(index, 0)))
                    matrix[row][index] = (1 + np.log(count)) * idf
        return matrix

    def get_config(self):
        """The tokenizer's settings and its vocabulary tables, each table a JSON string."""
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
                "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
                "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
                "word_index": json.dumps(self.word_index)}

    def to_json(self, **kwargs):
        """`{"class_name": "Tokenizer", "config": get_config()}` as JSON (`kwargs` go to `json.dumps`)."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string):
    """A `Tokenizer` from `Tokenizer.to_json()`'s text."""
    config = json.loads(json_string).get("config")
    tables = {key: json.loads(config.pop(key))
              for key in ("word_counts", "word_docs", "index_docs", "index_word", "word_index")}
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = tables["word_counts"]
    tokenizer.word_docs = tables["word_docs"]
    tokenizer.index_docs = {int(key): value for key, value in tables["index_docs"].items()}
    tokenizer.word_index = tables["word_index"]
    tokenizer.index_word = {int(key): value for key, value in tables["index_word"].items()}
    return tokenizer
