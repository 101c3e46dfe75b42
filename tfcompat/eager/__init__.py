"""Eager-mode autodiff and functions: GradientTape, custom_gradient, tf.function."""
from tfcompat.eager import tape, custom_gradient  # noqa: F401
from tfcompat.eager import function as _function, control_flow as _control_flow  # noqa: F401
from tfcompat.eager import scopes as _scopes  # noqa: F401
from tfcompat.eager import runtime_util as _runtime_util  # noqa: F401
from tfcompat import module as _module  # noqa: F401
