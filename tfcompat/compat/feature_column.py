"""`tf.feature_column` (and `tf.compat.v1.feature_column`): TF's deprecated column descriptions, as TF's namedtuples.

Columns are descriptions only; what consumes them (`input_layer`, `linear_model`, Keras's removed `DenseFeatures`,
estimators) is not supported and raises NotImplementedError naming it.
"""
import collections
import math

from tfcompat.framework import dtypes
from tfcompat.ops.deprecation import warn_deprecated

_MODULE = "tensorflow.python.feature_column.feature_column_v2"
_USE_KERAS = ("Use Keras preprocessing layers instead, either directly or via the `tf.keras.utils.FeatureSpace` "
              "utility. Each of `tf.feature_column.*` has a functional equivalent in `tf.keras.layers` for feature "
              "preprocessing when training a Keras model.")
_USE_HASHED_CROSSING = ("Use `tf.keras.layers.experimental.preprocessing.HashedCrossing` instead for feature crossing "
                        "when preprocessing data to train a Keras model.")


def _column(name, fields, column_name=lambda c: c.key):
    cls = collections.namedtuple(name, fields)
    cls.__doc__ = f"TF's `{name}` feature column description."
    cls.name = property(column_name)
    return cls


NumericColumn = _column("NumericColumn", "key shape default_value dtype normalizer_fn")
IdentityCategoricalColumn = _column("IdentityCategoricalColumn", "key number_buckets default_value")
VocabularyListCategoricalColumn = _column("VocabularyListCategoricalColumn",
                                          "key vocabulary_list dtype default_value num_oov_buckets")
HashedCategoricalColumn = _column("HashedCategoricalColumn", "key hash_bucket_size dtype")
BucketizedColumn = _column("BucketizedColumn", "source_column boundaries",
                           lambda c: f"{c.source_column.name}_bucketized")
IndicatorColumn = _column("IndicatorColumn", "categorical_column", lambda c: f"{c.categorical_column.name}_indicator")
EmbeddingColumn = _column("EmbeddingColumn", "categorical_column dimension combiner initializer ckpt_to_load_from "
                                             "tensor_name_in_ckpt max_norm trainable use_safe_embedding_lookup",
                          lambda c: f"{c.categorical_column.name}_embedding")
WeightedCategoricalColumn = _column("WeightedCategoricalColumn", "categorical_column weight_feature_key dtype",
                                    lambda c: f"{c.categorical_column.name}_weighted_by_{c.weight_feature_key}")
CrossedColumn = _column("CrossedColumn", "keys hash_bucket_size hash_key",
                        lambda c: "_X_".join(k if isinstance(k, str) else k.name for k in sorted(
                            c.keys, key=lambda k: k if isinstance(k, str) else k.name)))
IdentityCategoricalColumn.num_buckets = property(lambda self: self.number_buckets)


def _key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Got: type {type(key)}. Given key: {key}.")
    return key


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """A dense numeric feature of `shape`."""
    warn_deprecated("numeric_column", _MODULE, _USE_KERAS)
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    for d in shape:
        if d < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    return NumericColumn(_key(key), shape, default_value, dtypes.as_dtype(dtype), normalizer_fn)


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer ids in [0, num_buckets) used as categories."""
    warn_deprecated("categorical_column_with_identity", _MODULE, _USE_KERAS)
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    return IdentityCategoricalColumn(_key(key), num_buckets, default_value)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1, num_oov_buckets=0):
    """Categories from an in-memory vocabulary."""
    warn_deprecated("categorical_column_with_vocabulary_list", _MODULE, _USE_KERAS)
    vocabulary = tuple(vocabulary_list)
    if dtype is None:
        dtype = dtypes.string if vocabulary and isinstance(vocabulary[0], (str, bytes)) else dtypes.int64
    return VocabularyListCategoricalColumn(_key(key), vocabulary, dtypes.as_dtype(dtype), default_value,
                                           num_oov_buckets)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """Categories from hashing the feature into `hash_bucket_size` buckets."""
    warn_deprecated("categorical_column_with_hash_bucket", _MODULE, _USE_KERAS)
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    return HashedCategoricalColumn(_key(key), hash_bucket_size, dtypes.as_dtype(dtype))


def bucketized_column(source_column, boundaries):
    """A one-dimensional numeric column split at sorted `boundaries`."""
    warn_deprecated("bucketized_column", _MODULE, _USE_KERAS)
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    boundaries = tuple(float(b) for b in boundaries)
    if any(b >= c for b, c in zip(boundaries, boundaries[1:])):
        raise ValueError("boundaries must not have duplicate values and must be a sorted list.")
    return BucketizedColumn(source_column, boundaries)


def indicator_column(categorical_column):
    """A multi-hot view of a categorical column."""
    warn_deprecated("indicator_column", _MODULE, _USE_KERAS)
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True, use_safe_embedding_lookup=True):
    """A dense embedding of a categorical column (TF's default initializer: truncated normal, 1/sqrt(dimension))."""
    warn_deprecated("embedding_column", _MODULE, _USE_KERAS)
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if initializer is None:
        from tfcompat.keras.initializers import TruncatedNormal
        initializer = TruncatedNormal(mean=0.0, stddev=1 / math.sqrt(dimension))
    return EmbeddingColumn(categorical_column, dimension, combiner, initializer, ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable, use_safe_embedding_lookup)


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """A categorical column whose ids carry weights from another feature."""
    warn_deprecated("weighted_categorical_column", _MODULE, _USE_KERAS)
    return WeightedCategoricalColumn(categorical_column, weight_feature_key, dtypes.as_dtype(dtype))


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The hashed cross of several categorical features."""
    warn_deprecated("crossed_column", _MODULE, _USE_HASHED_CROSSING)
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    return CrossedColumn(tuple(keys), hash_bucket_size, hash_key)


def _consumer(name):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(f"tf.feature_column.{name} is not supported by tfcompat (feature columns are "
                                  "descriptions only; use Keras preprocessing layers)")
    unsupported.__name__ = name
    unsupported.__doc__ = f"`tf.feature_column.{name}`: not supported by tfcompat."
    return unsupported


for _name in ("input_layer", "linear_model", "make_parse_example_spec", "shared_embeddings",
              "shared_embedding_columns", "categorical_column_with_vocabulary_file", "sequence_numeric_column",
              "sequence_categorical_column_with_hash_bucket", "sequence_categorical_column_with_identity",
              "sequence_categorical_column_with_vocabulary_file", "sequence_categorical_column_with_vocabulary_list"):
    globals()[_name] = _consumer(_name)
del _name


def __getattr__(attr):
    from tfcompat import _api
    if attr.startswith("__"):
        raise AttributeError(attr)
    raise _api.missing("feature_column", attr)
