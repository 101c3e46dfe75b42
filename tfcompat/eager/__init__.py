"""Eager-mode autodiff and functions: GradientTape, custom_gradient, tf.function."""
