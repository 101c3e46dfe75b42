"""`tf.strings.ngrams`: the n-grams of the innermost dimension of a string tensor or RaggedTensor, as TF's
`StringNGrams` kernel builds them (padding, several widths, short sequences kept)."""
import numpy as np

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.ragged import RaggedTensor
from tfcompat.framework.tensor import Tensor, storage, wrap


def _row_ngrams(tokens, widths, sep, left, right, padding_width, preserve_short):
    out = []
    for width in widths:
        pad = width - 1 if padding_width < 0 else min(padding_width, width - 1)
        padded = [left] * pad + tokens + [right] * pad
        out.extend(sep.join(padded[i:i + width]) for i in range(len(padded) - width + 1))
    if preserve_short and not out and tokens:
        pad = max(padding_width, 0)
        out.append(sep.join([left] * pad + tokens + [right] * pad))
    return out


def _ngrams_of_rows(rt, widths, sep, left, right, padding_width, preserve_short):
    """A ragged_rank-1 RaggedTensor of strings -> the RaggedTensor of each row's n-grams."""
    values = storage(rt.values).tolist()
    splits = storage(rt.row_splits).tolist()
    rows = [_row_ngrams([v.decode("utf-8", "surrogateescape") for v in values[a:b]], widths, sep, left, right,
                        padding_width, preserve_short) for a, b in zip(splits[:-1], splits[1:])]
    flat = np.array([g.encode("utf-8", "surrogateescape") for row in rows for g in row], dtype=object)
    return RaggedTensor.from_row_lengths(wrap(flat), [len(row) for row in rows], validate=False)


@tf_export("strings.ngrams")
def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None, preserve_short_sequences=False,
           name=None):
    """The n-grams of width `ngram_width` (an int or several) along the innermost dimension of `data`, tokens
    joined by `separator`, each sequence padded with `pad_values` (one string, or a (left, right) pair)."""
    widths = [int(ngram_width)] if isinstance(ngram_width, (int, np.integer)) else [int(w) for w in ngram_width]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    if not isinstance(separator, (str, bytes)):
        raise TypeError(f"Expected string for argument 'separator' not {separator!r}.")
    if pad_values is None:
        if padding_width is not None:
            raise ValueError("pad_values must be provided if padding_width is set.")
        left = right = ""
        padding_width = 0
    else:
        if isinstance(pad_values, (str, bytes)):
            left = right = pad_values
        elif isinstance(pad_values, (tuple, list)):
            left, right = pad_values[0], pad_values[1]
        else:
            raise TypeError("pad_values must be a string, tuple of strings, or None.")
        if padding_width is not None and padding_width < 1:
            raise ValueError("padding_width must be greater than 0.")
        padding_width = -1 if padding_width is None else int(padding_width)
    sep, left, right = (v.decode() if isinstance(v, bytes) else v for v in (separator, left, right))
    args = (widths, sep, left, right, padding_width, bool(preserve_short_sequences))
    if isinstance(data, RaggedTensor):
        return _ragged_ngrams(data, args)
    data = data if isinstance(data, Tensor) else convert_to_tensor(data, dtype=dtypes.string)
    if data.shape.rank == 0:
        raise ValueError("Data must have rank>0")
    if data.shape.rank == 1:
        return _ngrams_of_rows(RaggedTensor.from_tensor(data[None]), *args).flat_values
    outer = list(data.shape[:-1])
    rows = _ngrams_of_rows(RaggedTensor.from_tensor(wrap(storage(data).reshape(-1, data.shape[-1]))), *args)
    grams = rows.to_tensor()
    return wrap(storage(grams).reshape(outer + [-1 if grams.shape[0] else 0]))


def _ragged_ngrams(rt, args):
    if rt.ragged_rank > 1:
        return rt.with_values(_ragged_ngrams(rt.values, args))
    return _ngrams_of_rows(rt, *args)
