"""The op library, one module per TF namespace; importing it registers every op."""
from tfcompat.ops import math_ops  # noqa: F401
