"""TextVectorization: standardize, split, n-grams and a StringLookup vocabulary, as Keras 3."""
import re

import numpy as np

from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor
from tfcompat.keras._config import config
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _batches, _numpy, validate_string_arg
from tfcompat.keras.layers.preprocessing.lookup import StringLookup, _string_aware

_STRIP = re.compile(r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']')


_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")


def _text(s, encoding):
    return s.decode(encoding) if isinstance(s, bytes) else str(s)


class TextVectorization(Layer):
    """Strings -> token ids or bag-of-words vectors: standardize, split, n-grams, look up a vocabulary.

    `standardize` and `split` may be callables taking and returning `tf.string` tensors (split: ragged or dense),
    as in Keras; the built-in options run on Python strings.
    """
    _allow_non_tensor_positional_args = True      # a Keras data layer

    _convert_inputs = _string_aware(Layer._convert_inputs)

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace",
                 ngrams=None, output_mode="int", output_sequence_length=None, pad_to_max_tokens=False,
                 vocabulary=None, idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        if not (standardize is None or callable(standardize) or standardize in _STANDARDIZE):
            raise ValueError(f"Unknown value for `standardize` argument of TextVectorization. Allowed values are: "
                             f"{_STANDARDIZE}. Received: standardize={standardize}")
        if not (split is None or callable(split) or split in _SPLIT):
            raise ValueError(f"Unknown value for `split` argument of TextVectorization. Allowed values are: "
                             f"{_SPLIT}. Received: split={split}")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"), type(self).__name__,
                            "output_mode")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        self.max_tokens, self.standardize, self.split, self.ngrams = max_tokens, standardize, split, ngrams
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens, self.sparse, self.ragged, self.encoding = pad_to_max_tokens, sparse, ragged, \
            encoding
        self._ngram_widths = None if ngrams is None else \
            tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else tuple(ngrams)
        self._lookup_layer = StringLookup(max_tokens=max_tokens, mask_token="", vocabulary=vocabulary,
                                    idf_weights=idf_weights, output_mode=output_mode, sparse=sparse,
                                    pad_to_max_tokens=pad_to_max_tokens, encoding=encoding)  # auto-named, as Keras
        self.built = True

    def _standardized(self, x):
        """NumPy string array `x` after `standardize` (a callable gets and returns a tf.string tensor)."""
        if callable(self.standardize):
            return _numpy(self.standardize(convert_to_tensor(x)))
        strings = [_text(s, self.encoding) for s in x.reshape(-1).tolist()]
        if self.standardize in ("lower_and_strip_punctuation", "lower"):
            strings = [s.lower() for s in strings]
        if self.standardize in ("lower_and_strip_punctuation", "strip_punctuation"):
            strings = [_STRIP.sub("", s) for s in strings]
        return np.array(strings, dtype=object).reshape(x.shape)

    def _tokens(self, x):
        """Rows of tokens of the strings in NumPy array `x` (rank 1, or a last dimension of 1)."""
        x = self._standardized(x)
        if x.ndim > 1:
            if x.shape[-1] != 1:
                raise ValueError(f"When using `TextVectorization` to tokenize strings, the input rank must be 1 or "
                                 f"the last shape dimension must be 1. Received: inputs.shape={x.shape} with "
                                 f"rank={x.ndim}")
            x = x.reshape(x.shape[:-1])
        if callable(self.split):
            out = self.split(convert_to_tensor(x))
            rows = out.to_list() if hasattr(out, "to_list") else _numpy(out).tolist()
        else:
            rows = [_text(s, self.encoding) for s in x.reshape(-1).tolist()]
            rows = [s.split() if self.split == "whitespace" else list(s) for s in rows]
        rows = [[_text(t, self.encoding) for t in row] for row in rows]
        if self._ngram_widths is not None:
            rows = [[" ".join(row[i:i + n]) for n in self._ngram_widths for i in range(len(row) - n + 1)]
                    for row in rows]
        return rows

    @staticmethod
    def _padded(rows, width):
        """Rows of tokens cut or padded with the mask token "" to `width`, as an object array."""
        return np.array([(row + [""] * width)[:width] for row in rows], dtype=object).reshape(len(rows), width)

    def adapt(self, data, batch_size=None, steps=None):
        """Builds the vocabulary from standardized, split text."""
        if isinstance(data, (list, tuple)):     # Keras's ensure_tensor(data, "string"): TF's TypeError for numbers
            from tfcompat.framework.convert import convert_to_tensor
            convert_to_tensor(data, dtype="string")
        batches = _batches(data)[:steps] if steps is not None else _batches(data)
        if self.split is None:
            self._lookup_layer.adapt(np.concatenate([self._standardized(b).reshape(-1) for b in batches]))
            return
        docs = [row for b in batches for row in self._tokens(b)]
        self._lookup_layer.adapt(self._padded(docs, max((len(d) for d in docs), default=0)))

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("vocabulary_size", None)
        return cls(**config)

    def save_assets(self, dir_path):
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path):
        self._lookup_layer.load_assets(dir_path)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights)

    def call(self, inputs):
        x = _numpy(inputs) if isinstance(inputs, Tensor) else np.asarray(inputs)
        if self.split is None:
            return self._lookup_layer.call(self._standardized(x))     # Keras calls its lookup's call()
        docs = self._tokens(x)
        longest = max((len(d) for d in docs), default=0)
        if self.ragged:
            docs = [d[:self.output_sequence_length] for d in docs]
            ids = _numpy(self._lookup_layer.call(self._padded(docs, longest)))
            lengths = np.array([len(d) for d in docs], dtype=np.int64)
            return RaggedTensor.from_row_lengths(ids[np.arange(longest) < lengths[:, None]], lengths)
        width = longest if self.output_mode != "int" or self.output_sequence_length is None else \
            self.output_sequence_length
        return self._lookup_layer.call(self._padded(docs, width))

    @property
    def dtype(self):
        """Keras's TextVectorization computes on strings (its dtype policy stays floatx)."""
        return "string"

    compute_dtype = variable_dtype = dtype

    def _keras_output_spec(self, inputs, shape):
        """Keras's output spec: `(batch, output_sequence_length)` int64 ids, or the lookup's encoding (floatx) of
        the input with a token axis added, `(batch, 1, depth)` for a `(batch, 1)` input that is split."""
        if self.output_mode == "int":
            return (inputs.shape[0], self.output_sequence_length), "int64"
        tokens = tuple(inputs.shape)
        if self.split is None:
            tokens = tokens + (1,) if len(tokens) <= 1 else tokens
        else:
            tokens = tokens + (None,)
        if self.output_mode == "one_hot" and not (len(tokens) > 1 and tokens[-1] == 1):
            tokens = tokens + (None,)
        return tokens[:-1] + (shape[-1],), config.floatx

    def get_config(self):
        config = super().get_config()
        config.update({
            "max_tokens": self.max_tokens, "standardize": self.standardize, "split": self.split,
            "ngrams": self.ngrams, "output_mode": self.output_mode,
            "output_sequence_length": self.output_sequence_length, "pad_to_max_tokens": self.pad_to_max_tokens,
            "sparse": self.sparse, "ragged": self.ragged, "vocabulary": self._lookup_layer._input_vocabulary,
            "idf_weights": None, "encoding": self.encoding, "vocabulary_size": self.vocabulary_size()})
        return config
