"""Vocabulary lookups: StringLookup and IntegerLookup on one `_IndexLookup` base."""
import collections
import os

import numpy as np
import torch

from tfcompat.framework import errors
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.op_def import kernel_error
from tfcompat.framework.tensor import Tensor, _wrap, storage
from tfcompat.keras._config import config
from tfcompat.keras.engine import call_context
from tfcompat.keras.layers.base import Layer
from tfcompat.keras.layers.preprocessing._common import _batches, _listify, _numpy, validate_string_arg
from tfcompat.keras.layers.preprocessing.categorical import _encode, _sparse
from tfcompat.util import farmhash


def _string_aware(convert):
    """Wraps `Layer._convert_inputs` so string arrays / tensors pass through (they have no float dtype)."""
    def _convert_inputs(self, x):
        if isinstance(x, np.ndarray) and x.dtype.kind in "USO":
            return convert_to_tensor(x)
        if isinstance(x, Tensor) and isinstance(storage(x), np.ndarray):
            return x
        return convert(self, x)
    return _convert_inputs


def _token_text(token):
    return token.decode("utf-8") if isinstance(token, bytes) else str(token)


_DROPPED = -2       # the index of the mask token outside int output: counted nowhere


class _IndexLookup(Layer):
    """Maps tokens to indices `[mask][oov...][vocabulary...]` (or back, `invert=True`); Keras's IndexLookup."""
    _allow_non_tensor_positional_args = True      # a Keras data layer
    _vocabulary_dtype = "string"

    _oov_default = "[UNK]"
    _convert_inputs = _string_aware(Layer._convert_inputs)

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None, vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", salt=None, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"), type(self).__name__,
                            "output_mode")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` or "
                             f"`'tf_idf'`. Received: sparse={sparse} and output_mode={output_mode}")
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError(f"Unknown value for `oov_method` argument of {type(self).__name__}. Allowed values are: "
                             f"('floormod', 'farmhash'). Received: oov_method={oov_method}")
        self.oov_method, self.salt = oov_method, _salt(salt, oov_method, self._vocabulary_dtype)
        self.max_tokens, self.num_oov_indices, self.mask_token = max_tokens, num_oov_indices, mask_token
        self.oov_token = oov_token if oov_token is not None else self._oov_default
        self.invert, self.output_mode, self.sparse, self.pad_to_max_tokens = invert, output_mode, sparse, \
            pad_to_max_tokens
        self._input_vocabulary = vocabulary
        self._set([])
        self._vocab_known = False       # Keras's table starts uninitialized: set_vocabulary or adapt fills it
        self.idf_weights = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self.built = True

    @property
    def dtype(self):
        """Keras's lookups compute in their vocabulary's dtype ("string" or "int64")."""
        return self._vocabulary_dtype

    compute_dtype = variable_dtype = dtype

    def _keras_output_spec(self, inputs, shape):
        """Keras's output spec: the inferred shape; int64 in "int" mode (even inverted), floatx in the others."""
        return shape, "int64" if self.output_mode == "int" else config.floatx

    def _oov_start(self):
        """1 when the mask token has index 0 (int output), else 0: other modes drop mask tokens, as Keras."""
        return int(self.mask_token is not None and self.output_mode == "int")

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _key(self, token):
        return token

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """Sets the vocabulary (without mask / OOV tokens) and, for tf_idf, its idf weights."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = [line.rstrip("\n") for line in f]
        vocab = [self._key(t) for t in _numpy(vocabulary).tolist()] if not isinstance(vocabulary, list) else \
            [self._key(t) for t in vocabulary]
        if not vocab:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        full_vocab = vocab
        # a vocabulary may start with the mask and OOV tokens (as `get_vocabulary()` gives it): Keras drops them
        special = [self.mask_token] * self._oov_start() + [self.oov_token] * self.num_oov_indices
        special_keys = [None if t is None else self._key(t) for t in special]
        found_special = vocab[:len(special)] == special_keys
        if found_special:
            vocab = vocab[len(special):]
        if len(set(vocab)) != len(vocab):
            # Keras lists them as NumPy scalars (np.str_('a'), np.int64(1)), in order of first appearance
            array, counts = np.asarray(vocab), collections.Counter(vocab)
            repeated = [array[i] for i, t in enumerate(vocab) if counts[t] > 1 and vocab.index(t) == i]
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please uniquify your dataset. "
                             f"The repeated terms are: {repeated}")
        for kind, token, check in (("mask", self.mask_token, True), ("OOV", self.oov_token, self.invert)):
            if check and token is not None and self._key(token) in vocab:
                index = max(i for i, t in enumerate(full_vocab) if t == self._key(token))
                raise ValueError(f"Found reserved {kind} token at unexpected location in `vocabulary`. Note that "
                                 "passed `vocabulary` does not need to include the OOV and mask tokens. Either "
                                 "remove all mask and OOV tokens, or include them only at the start of the "
                                 f"vocabulary in precisely this order: {special}. Received: "
                                 f"{kind.lower()}_token={token} at vocabulary index [{index}]")
        if self.max_tokens is not None and self._token_start() + len(vocab) > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary "
                             f"size is {self._token_start() + len(vocab)}; `max_tokens` is {self.max_tokens}.")
        self._set(vocab)
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
            if len(full_vocab) != len(idf_weights):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. len(idf_weights) is "
                                 f"{len(idf_weights)}; len(vocabulary) is {len(full_vocab)}")
            idf = np.asarray(idf_weights, dtype="float32")
            self._set_idf(idf, padded=found_special)

    def _set_idf(self, idf, padded=False):
        """The idf weights of every index: `padded` ones already hold the mask / OOV entries, else their mean."""
        start = 0 if padded else self._token_start()
        full = np.concatenate([np.full(start, idf.mean() if idf.size else 0.0, "float32"), idf])
        if self.pad_to_max_tokens and self.max_tokens:
            full = np.pad(full, (0, self.max_tokens - full.size))
        self.idf_weights = full

    def _set(self, vocab):
        self._vocab = list(vocab)
        self._vocab_known = True
        self._index = {t: i + self._token_start() for i, t in enumerate(self._vocab)}
        if self.mask_token is not None:
            self._index[self._key(self.mask_token)] = 0 if self._oov_start() else _DROPPED

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("vocabulary_size", None)      # derived (Keras writes it, and drops it when loading)
        return cls(**config)

    def save_assets(self, dir_path):
        """Keras's `.keras` asset: an adapted vocabulary as `vocabulary.txt` (one token a line, specials first)."""
        if self._input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(_token_text(t) for t in self.get_vocabulary(include_special_tokens=True)))

    def load_assets(self, dir_path):
        if self._input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        lines = lines[self._token_start():]
        values = lines if isinstance(self, StringLookup) else [int(v) for v in lines]
        if self.output_mode == "tf_idf":
            raise NotImplementedError(f"tfcompat: loading an adapted tf_idf {type(self).__name__} (idf weights)")
        self.set_vocabulary(values)

    def get_vocabulary(self, include_special_tokens=True):
        """The tokens by index; Keras gives the learned ones as NumPy scalars (`np.str_`, `np.int64`)."""
        vocab = list(np.asarray(self._vocab)) if len(self._vocab) else []
        if not include_special_tokens:
            return vocab
        special = [self.mask_token] * self._oov_start() + [self.oov_token] * self.num_oov_indices
        return special + vocab

    def vocabulary_size(self):
        return self._token_start() + len(self._vocab)

    def adapt(self, data, steps=None):
        """Builds the vocabulary from `data`: tokens by descending frequency (ties: descending token)."""
        counts, docs, n_docs = {}, {}, 0
        for batch in _batches(data):
            rows = batch.reshape(batch.shape[0], -1) if batch.ndim > 1 else batch.reshape(-1, 1)
            for row in rows:
                keys = [self._key(t) for t in row.tolist()]
                for k in keys:
                    counts[k] = counts.get(k, 0) + 1
                for k in set(keys):
                    docs[k] = docs.get(k, 0) + 1
                n_docs += 1
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._key(special), None)
        tokens = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens:
            tokens = tokens[:self.max_tokens - self._token_start()]
        self._set(tokens)
        if self.output_mode == "tf_idf":
            self._set_idf(np.log(1 + n_docs / (1 + np.array([docs[t] for t in tokens], "float64")))
                          .astype("float32"))

    def _ids(self, x):
        """Indices of the tokens in the NumPy array `x` (OOV -> the OOV index, or with several OOV indices the
        token's bucket: `token % n` for integers, else the FarmHash (or salted SipHash) of its text, as Keras)."""
        uniq, inv = np.unique(x, return_inverse=True)
        keys = [self._key(t) for t in uniq.tolist()]
        oov_id = self._oov_start() if self.num_oov_indices else -1
        index = self._index
        if self.num_oov_indices > 1:
            ids = np.array([index[k] if k in index else self._oov_start() + self._oov_bucket(k) for k in keys],
                           "int64")
        else:
            ids = np.array([index.get(k, oov_id) for k in keys], "int64")
        if (ids == -1).any():
            bad = [k for k, i in zip(keys, ids) if i == -1]
            raise errors.InvalidArgumentError(
                None, None, f"When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                            f"{bad}, consider setting `num_oov_indices=1`.")
        return ids[inv].reshape(x.shape)

    def _check_vocabulary_set(self):
        """Keras's errors for a call before any vocabulary (not for symbolic calls, which Keras does not run)."""
        if self._vocab_known or call_context.in_symbolic():
            return
        if self.output_mode != "int" and not self.pad_to_max_tokens:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you must "
                               "set the layer's vocabulary before calling it. Either pass a `vocabulary` argument to "
                               "the layer, or call `adapt` with some sample data.")
        raise kernel_error(errors.FailedPreconditionError, "Table not initialized.", "LookupTableFindV2")

    def call(self, inputs):
        self._check_vocabulary_set()
        x = _numpy(inputs) if isinstance(inputs, Tensor) else np.asarray(inputs)
        if self.invert:
            vocab = np.array(self.get_vocabulary(), dtype=object)
            idx = np.asarray(x, dtype="int64")
            bad = (idx < 0) | (idx >= len(vocab))
            out = vocab[np.where(bad, self._token_start() - 1, idx)]
            return self._wrap_tokens(out)
        ids = torch.from_numpy(self._ids(x))
        if self.output_mode == "int":
            return _wrap(ids)
        depth = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else self.vocabulary_size()
        valid = None
        if self.mask_token is not None:
            valid = (ids != _DROPPED).to(torch.float64)
            ids = ids.clamp(min=0)
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        out = _encode(ids, depth, mode, torch.float64, valid=valid)
        present = out != 0
        if self.output_mode == "tf_idf":
            idf = torch.from_numpy(self.idf_weights.astype("float64"))
            out = (out * idf[:depth]).to(torch.float32)
        else:
            out = out.to(torch.int64)
        return _sparse(out, present) if self.sparse else _wrap(out)

    def _oov_bucket(self, key):
        n = self.num_oov_indices
        if isinstance(key, int) and self.oov_method != "farmhash":
            return key % n                                  # floormod (Python's % floors, as tf.math.floormod)
        text = (key if isinstance(key, str) else str(key)).encode(getattr(self, "encoding", "utf-8"))
        if self.salt is not None:
            return farmhash.siphash24(*(k & _MASK64 for k in self.salt), text) % n
        return farmhash.fingerprint64(text) % n

    def get_config(self):
        config = super().get_config()
        vocab = self._input_vocabulary
        config.update({
            "invert": self.invert, "max_tokens": self.max_tokens, "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token, "mask_token": self.mask_token, "output_mode": self.output_mode,
            "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens})
        config.update(self._extra_config())
        config.update({
            "idf_weights": _listify(self.idf_weights) if vocab is not None and self.idf_weights is not None else None,
            "vocabulary": list(vocab) if isinstance(vocab, (list, tuple, np.ndarray)) else vocab,
            # Keras writes the size frozen by the last set_vocabulary/adapt: None before either
            "vocabulary_size": self.vocabulary_size() if self._vocab_known else None, "oov_method": self.oov_method, "salt": self.salt})
        return config


_MASK64 = (1 << 64) - 1


def _salt(salt, oov_method, vocabulary_dtype):
    """Keras's `salt` check: a single int or two ints (for integer vocabularies, with oov_method="farmhash")."""
    if salt is None:
        return None
    if vocabulary_dtype != "string" and oov_method != "farmhash":
        raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: oov_method={oov_method}")
    if isinstance(salt, (tuple, list)) and len(salt) == 2:
        return list(salt)
    if isinstance(salt, int):
        return [salt, salt]
    raise ValueError(f"The `salt` argument for `IndexLookup` can only be a tuple of 2 integers, or a single integer. "
                     f"Received: salt={salt}.")


class StringLookup(_IndexLookup):
    """Maps strings to integer indices (`vocabulary` or `adapt`); `output_mode` int/one_hot/multi_hot/count/tf_idf."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, salt=None, **kwargs):
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         salt=salt, **kwargs)

    def _key(self, token):
        return token.decode(self.encoding) if isinstance(token, bytes) else str(token)

    def _wrap_tokens(self, out):
        return _wrap(np.array([t.encode(self.encoding) for t in out.reshape(-1)], dtype=object).reshape(out.shape))

    def _extra_config(self):
        return {"encoding": self.encoding}

    def get_config(self):
        config = super().get_config()
        config["encoding"] = config.pop("encoding")
        return config


class IntegerLookup(_IndexLookup):
    """Maps integers to contiguous indices (`vocabulary` or `adapt`); OOV token -1."""

    _oov_default = -1
    _vocabulary_dtype = "int64"

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, name=None, oov_method="floormod", salt=None, **kwargs):
        self.vocabulary_dtype = vocabulary_dtype
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         oov_method=oov_method, salt=salt, **kwargs)

    def _key(self, token):
        return int(token)

    def _wrap_tokens(self, out):
        return _wrap(torch.from_numpy(out.astype("int64")))

    def _extra_config(self):
        return {"vocabulary_dtype": self.vocabulary_dtype}
