"""`tf.compat.v1.sets`: TF2's set ops under both their TF2 names and TF1's `set_*` names (the same functions)."""
from tfcompat.ops.set_ops import (set_difference, set_intersection, set_size, set_union)  # noqa: F401

difference, intersection, size, union = set_difference, set_intersection, set_size, set_union
