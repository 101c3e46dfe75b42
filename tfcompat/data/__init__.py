"""`tf.data`: the `Dataset` input pipeline on tfcompat tensors (see `tfcompat.data.dataset`)."""
from tfcompat.data import experimental  # noqa: F401
from tfcompat.data.dataset import AUTOTUNE, INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY
from tfcompat.data.dataset import Dataset, OwnedIterator as Iterator  # noqa: F401
from tfcompat.data.options import Options, ThreadingOptions  # noqa: F401
from tfcompat.data.readers import TextLineDataset  # noqa: F401
from tfcompat.data.tfrecord import FixedLengthRecordDataset, TFRecordDataset  # noqa: F401
from tfcompat.data.structure import DatasetSpec
from tfcompat.framework.export import tf_export

tf_export("data.AUTOTUNE")(AUTOTUNE)
tf_export("data.INFINITE_CARDINALITY")(INFINITE_CARDINALITY)
tf_export("data.UNKNOWN_CARDINALITY")(UNKNOWN_CARDINALITY)
tf_export("data.DatasetSpec")(DatasetSpec)


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("data", attr)
