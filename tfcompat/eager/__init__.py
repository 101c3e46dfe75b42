"""Eager-mode autodiff and functions: GradientTape, custom_gradient, tf.function."""
from tfcompat.eager import tape, custom_gradient  # noqa: F401,E402
