"""`tf.autograph`: tfcompat converts no code (tf.function runs the Python body itself, control flow on tensors
included), so `to_graph` gives the function as it is, under AutoGraph's name, and `to_code` has no code to show."""
import inspect
import types

from tfcompat.framework.export import partial_api, tf_export


class ConversionError(Exception):
    """AutoGraph's error for an entity it cannot convert (TF's `autograph.impl.api.ConversionError`)."""


@tf_export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat runs Python control flow directly and generates no AutoGraph code."""
    raise NotImplementedError("tf.autograph.to_code: tfcompat does not convert Python code with AutoGraph, so it has "
                              "no generated source to return (tf.function runs the Python body directly)")


@tf_export("autograph.to_graph")
@partial_api("returns the Python function itself (named tf__<name>, as AutoGraph's conversion is): tfcompat runs "
             "Python control flow on tensors directly, so calls give what the converted function gives; "
             "no generated source (see to_code)")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """AutoGraph's converted function: here `entity` itself under TF's `tf__<name>` name (a bound method becomes its
    plain function, as AutoGraph's conversion takes `self` explicitly)."""
    function = entity.__func__ if inspect.ismethod(entity) else entity
    if not inspect.isfunction(function):
        raise ConversionError(f"converting {entity}: ValueError: Cannot apply autograph to a function that doesn't "
                              f"expose a __code__ object. If this is a @tf.function, try passing f.python_function "
                              f"instead.")
    name = f"tf__{function.__name__}"
    qualname = f"outer_factory.<locals>.inner_factory.<locals>.{name}"
    code = function.__code__.replace(co_name=name, co_qualname=qualname)
    converted = types.FunctionType(code, function.__globals__, name, function.__defaults__, function.__closure__)
    converted.__kwdefaults__ = function.__kwdefaults__
    converted.__qualname__ = qualname
    converted.__doc__ = function.__doc__
    return converted


_verbosity = [0]


@tf_export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Sets AutoGraph's log verbosity (kept; tfcompat logs nothing from AutoGraph)."""
    _verbosity[0] = int(level)


@tf_export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Marks `func` as not to be converted by AutoGraph: returns it unchanged."""
    return (lambda f: f) if func is None else func
