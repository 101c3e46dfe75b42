"""`tf.experimental.numpy.random`: NumPy's random functions drawn by tfcompat's random ops (float64, int64 as tnp).

Seeded by `seed` (TF's global seed); the values are tfcompat's streams, not TF's.
"""
import numpy as np

import tfcompat as tf


def seed(s):
    """Seeds the draws below (sets TF's global seed)."""
    tf.random.set_seed(s)


def _shape(size):
    return () if size is None else size


def standard_normal(size=None):
    return tf.random.normal(_shape(size), dtype=tf.float64)


def randn(*args):
    """Standard normal float64 draws of shape `args`."""
    return standard_normal(args)


def uniform(low=0.0, high=1.0, size=None):
    return tf.random.uniform(_shape(size), low, high, dtype=tf.float64)


def random(size=None):
    return uniform(size=size)


def rand(*size):
    """Uniform float64 draws in [0, 1) of shape `size`."""
    return uniform(size=size)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (or [0, low) without `high`)."""
    if high is None:
        low, high = 0, low
    return tf.random.uniform(_shape(size), low, high, dtype=tf.as_dtype(np.dtype(dtype)))


def poisson(lam=1.0, size=None):
    return tf.random.poisson(_shape(size), lam, dtype=tf.int64)
