"""`tf.saved_model.SaveOptions` / `LoadOptions`: TF's option objects; options that would change what tfcompat writes
or reads, and which it does not implement, raise NotImplementedError when set."""
import enum

from tfcompat.framework.export import tf_export


@tf_export("saved_model.experimental.VariablePolicy")
class VariablePolicy(enum.Enum):
    """How a save handles variables' devices and distributed variables (`SaveOptions.experimental_variable_policy`)."""

    NONE = None
    SAVE_VARIABLE_DEVICES = "save_variable_devices"
    EXPAND_DISTRIBUTED_VARIABLES = "expand_distributed_variables"

    @staticmethod
    def from_obj(obj):
        """A policy from None, a policy, or its value's text in any case (TF's `VariablePolicy.from_obj`)."""
        if obj is None:
            return VariablePolicy.NONE
        if isinstance(obj, VariablePolicy):
            return obj
        key = str(obj).lower()
        for policy in VariablePolicy:
            if key == policy.value:
                return policy
        raise ValueError(f"Received invalid VariablePolicy value: {obj}.")


@tf_export("saved_model.SaveOptions", unsupported=(
    "save_debug_info", "function_aliases", "experimental_custom_gradients", "experimental_sharding_callback",
    "extra_tags"))
class SaveOptions:
    """Options for `tf.saved_model.save`. `namespace_whitelist` (TF op namespaces), `experimental_debug_stripper`,
    `experimental_io_device`, `experimental_variable_policy` and `experimental_skip_saver` are kept: they change
    nothing in a tfcompat SavedModel (no TF ops, no debug info, one CPU device, no TF saver)."""

    __slots__ = ("namespace_whitelist", "save_debug_info", "function_aliases", "experimental_debug_stripper",
                 "experimental_io_device", "experimental_variable_policy", "experimental_custom_gradients",
                 "experimental_image_format", "experimental_skip_saver", "experimental_sharding_callback",
                 "extra_tags")

    def __init__(self, namespace_whitelist=None, save_debug_info=False, function_aliases=None,
                 experimental_debug_stripper=False, experimental_io_device=None, experimental_variable_policy=None,
                 experimental_custom_gradients=True, experimental_image_format=False, experimental_skip_saver=False,
                 experimental_sharding_callback=None, extra_tags=None):
        self.namespace_whitelist = _namespaces(namespace_whitelist)
        self.save_debug_info = save_debug_info
        self.function_aliases = function_aliases if function_aliases else {}
        self.experimental_debug_stripper = experimental_debug_stripper
        self.experimental_io_device = experimental_io_device
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_custom_gradients = experimental_custom_gradients
        if experimental_image_format:       # as TF's pip (OSS) build
            raise ValueError("The option `experimental_image_format` is disabled in OSS.")
        self.experimental_image_format = experimental_image_format
        self.experimental_skip_saver = experimental_skip_saver
        self.experimental_sharding_callback = experimental_sharding_callback
        self.extra_tags = extra_tags


@tf_export("saved_model.LoadOptions", unsupported=("allow_partial_checkpoint", "experimental_skip_checkpoint",
                                                   "experimental_load_function_aliases"))
class LoadOptions:
    """Options for `tf.saved_model.load`. `experimental_io_device` and `experimental_variable_policy` are kept: they
    change nothing here (one CPU device)."""

    __slots__ = ("allow_partial_checkpoint", "experimental_io_device", "experimental_skip_checkpoint",
                 "experimental_variable_policy", "experimental_load_function_aliases")

    def __init__(self, allow_partial_checkpoint=False, experimental_io_device=None, experimental_skip_checkpoint=False,
                 experimental_variable_policy=None, experimental_load_function_aliases=False):
        self.allow_partial_checkpoint = allow_partial_checkpoint
        self.experimental_io_device = experimental_io_device
        self.experimental_skip_checkpoint = experimental_skip_checkpoint
        self.experimental_variable_policy = VariablePolicy.from_obj(experimental_variable_policy)
        self.experimental_load_function_aliases = experimental_load_function_aliases


def _namespaces(names):
    """`namespace_whitelist` checked as TF checks it: None, or a list of strings."""
    if names is None:
        return None
    if not isinstance(names, list):
        raise TypeError(f"`namespace_whitelist` must be a list of strings. Got: {names} with type {type(names)}.")
    for name in names:
        if not isinstance(name, str):
            raise ValueError(f"Whitelisted namespace must be a string. Got: {name} of type {type(name)}.")
    return list(names)
