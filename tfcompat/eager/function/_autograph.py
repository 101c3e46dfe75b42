"""`tf.autograph`: the names tfcompat supports; it converts no code (tf.function runs the Python body itself)."""
from tfcompat.framework.export import tf_export


@tf_export("autograph.to_code")
def to_code(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat runs Python control flow directly and generates no AutoGraph code."""
    raise NotImplementedError("tf.autograph.to_code: tfcompat does not convert Python code with AutoGraph "
                              "(tf.function runs the Python body directly; see tfcompat.eager.function)")


@tf_export("autograph.to_graph")
def to_graph(entity, recursive=True, experimental_optional_features=None):
    """Not available: tfcompat has no AutoGraph conversion."""
    raise NotImplementedError("tf.autograph.to_graph: tfcompat does not convert Python code with AutoGraph")


_verbosity = [0]


@tf_export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Sets AutoGraph's log verbosity (kept; tfcompat logs nothing from AutoGraph)."""
    _verbosity[0] = int(level)


@tf_export("autograph.experimental.do_not_convert")
def do_not_convert(func=None):
    """Marks `func` as not to be converted by AutoGraph: returns it unchanged."""
    return (lambda f: f) if func is None else func
