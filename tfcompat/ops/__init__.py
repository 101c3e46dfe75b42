"""The op library, one module per family of TF ops; importing it registers every op."""
from tfcompat.ops import math_ops  # noqa: F401
from tfcompat.ops import array_ops  # noqa: F401
from tfcompat.ops import gather_ops  # noqa: F401
from tfcompat.ops import slicing_ops  # noqa: F401
from tfcompat.ops import creation_ops  # noqa: F401
from tfcompat.ops import sort_ops  # noqa: F401
from tfcompat.ops import clip_ops  # noqa: F401
from tfcompat.ops import special_math_ops  # noqa: F401
from tfcompat.ops import stats_ops  # noqa: F401
from tfcompat.ops import einsum_ops  # noqa: F401
from tfcompat.ops import segment_ops  # noqa: F401
from tfcompat.ops import nn_ops  # noqa: F401
from tfcompat.ops import nn_loss_ops  # noqa: F401
from tfcompat.ops import conv_ops  # noqa: F401
from tfcompat.ops import pool_ops  # noqa: F401
from tfcompat.ops import random_ops  # noqa: F401
from tfcompat.ops import linalg_ops  # noqa: F401
from tfcompat.ops import image_ops  # noqa: F401
from tfcompat.ops import string_ops  # noqa: F401
from tfcompat.ops import misc_ops  # noqa: F401
from tfcompat.ops import config_ops  # noqa: F401
from tfcompat.ops import debugging_ops  # noqa: F401
from tfcompat.ops import io_ops  # noqa: F401
from tfcompat.ops import ragged_ops  # noqa: F401  (after the ops it dispatches)
from tfcompat.ops import ragged_array_ops  # noqa: F401
from tfcompat.ops import signal_ops  # noqa: F401
from tfcompat.ops import audio_ops  # noqa: F401
