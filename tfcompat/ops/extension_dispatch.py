"""TF's type-based dispatch: `tf.experimental.dispatch_for_api` and the elementwise dispatchers for ExtensionTypes.

A dispatched API is rebound (under every public name) to a wrapper that first tries the targets whose annotated
parameter types match the call; elementwise ops made by `op_def` reach the handlers through
`op_def.COMPOSITE_ELEMENTWISE` (the hook RaggedTensor uses), at no cost to dense calls.
"""
import collections.abc
import functools
import inspect
import sys
import typing

from tfcompat.framework import op_def
from tfcompat.framework.export import EXPORTS, tf_export
from tfcompat.ops.extension_type import ExtensionType

# TF 2.21's unary and binary elementwise APIs (tensorflow.python.util.dispatch), by public name
UNARY_APIS = (
    "math.abs", "math.acos", "image.adjust_brightness", "image.adjust_gamma", "math.angle", "math.bessel_i0",
    "math.bessel_i0e", "math.bessel_i1", "math.bessel_i1e", "math.special.bessel_j0", "math.special.bessel_j1",
    "math.special.bessel_k0", "math.special.bessel_k0e", "math.special.bessel_k1", "math.special.bessel_k1e",
    "math.special.bessel_y0", "math.special.bessel_y1", "bitwise.invert", "cast", "math.ceil", "clip_by_value",
    "math.conj", "image.convert_image_dtype", "math.special.dawsn", "math.erfcinv", "math.erfinv", "math.exp",
    "math.special.expint", "math.floor", "math.special.fresnel_cos", "math.special.fresnel_sin", "nn.gelu",
    "math.imag", "io.decode_base64", "io.decode_compressed", "io.encode_base64", "nn.leaky_relu",
    "math.log_sigmoid", "nn.log_softmax", "math.acosh", "math.asin", "math.asinh", "math.atan", "math.atanh",
    "math.cos", "math.cosh", "math.digamma", "math.erf", "math.erfc", "math.expm1", "math.is_finite",
    "math.is_inf", "math.is_nan", "math.lgamma", "math.log", "math.log1p", "math.logical_not", "math.negative",
    "math.nextafter", "math.reciprocal", "math.rint", "math.sin", "math.sinh", "math.square", "math.tan",
    "math.tanh", "math.ndtri", "nn.elu", "nn.relu", "nn.selu", "nn.softsign", "ones_like", "image.random_brightness",
    "math.real", "math.reciprocal_no_nan", "strings.regex_full_match", "strings.regex_replace", "nn.relu6",
    "math.round", "math.rsqrt", "dtypes.saturate_cast", "math.sigmoid", "math.sign", "math.softplus",
    "math.special.spence", "math.sqrt", "image.stateless_random_brightness", "strings.length",
    "strings.to_hash_bucket", "strings.to_number", "strings.as_string", "strings.lower", "strings.strip",
    "strings.to_hash_bucket_fast", "strings.to_hash_bucket_strong", "strings.unicode_script",
    "strings.unicode_transcode", "strings.upper", "strings.substr", "nn.swish", "zeros_like")
BINARY_APIS = (
    "math.add", "bitwise.bitwise_and", "bitwise.bitwise_or", "bitwise.bitwise_xor", "bitwise.left_shift",
    "bitwise.right_shift", "dtypes.complex", "math.divide_no_nan", "math.divide", "math.equal", "math.floordiv",
    "math.logical_xor", "math.atan2", "math.floormod", "math.greater", "math.greater_equal", "math.less",
    "math.less_equal", "math.logical_and", "math.logical_or", "math.maximum", "math.minimum",
    "math.squared_difference", "math.xlogy", "math.zeta", "math.multiply", "math.multiply_no_nan",
    "math.not_equal", "math.pow", "realdiv", "math.scalar_mul", "nn.sigmoid_cross_entropy_with_logits",
    "math.subtract", "math.truediv", "truncatediv", "truncatemod", "math.xdivy", "math.xlog1py")

_API_TARGETS = {}       # id(original API) -> [(signatures, target)]
_UNARY = []             # [(x_type, handler)]
_BINARY = []            # [(x_type, y_type, handler)]
_WRAPPED = set()        # ids of the originals whose public names are bound to a dispatching wrapper


# -- type matching ----------------------------------------------------------------------------------------------------
def _matches(value, annotation, found):
    """Whether `value` matches a dispatch annotation; `found[0]` turns True on an ExtensionType."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union:
        return any(_matches(value, a, found) for a in args)
    if origin in (list, tuple, collections.abc.Sequence, typing.List, typing.Tuple):
        if not isinstance(value, (list, tuple)):
            return False
        element = args[0] if args else typing.Any
        return all(_matches(v, element, found) for v in value)
    if annotation is typing.Any:
        return True
    if annotation is None or annotation is type(None):
        return value is None
    if isinstance(annotation, type) and isinstance(value, annotation):
        found[0] = found[0] or isinstance(value, ExtensionType)
        return True
    return False


def _signature_matches(signature, bound):
    found = [False]
    for name, annotation in signature.items():
        if not _matches(bound.get(name), annotation, found):
            return False
    return found[0]


def _annotations(target, api_params):
    """The dispatch signature a target's own annotations give (only the API's parameters)."""
    hints = typing.get_type_hints(target)
    return {name: hints[name] for name in api_params if name in hints}


# -- rebinding public names -------------------------------------------------------------------------------------------
def _base(api):
    return getattr(api, "_tf_dispatch_base", api)


def _install(api):
    """Binds every public name of `api` to a wrapper that tries its dispatch targets first."""
    base = _base(api)
    if id(base) in _WRAPPED:
        return
    names = [name for name, obj in EXPORTS.items() if obj is api]     # once per API, at registration
    if not names:
        raise ValueError(f"{api!r} does not support dispatch.")
    params = inspect.signature(base).parameters
    api_sig = inspect.Signature([p.replace(annotation=inspect.Parameter.empty) for p in params.values()])

    @functools.wraps(base)
    def op(*args, **kwargs):
        targets = _API_TARGETS.get(id(base))
        if targets:
            try:
                bound = api_sig.bind(*args, **kwargs).arguments
            except TypeError:
                bound = None
            if bound is not None:
                for signatures, target in list(targets):
                    if any(_signature_matches(s, bound) for s in signatures):
                        return target(*args, **kwargs)
        unary = _UNARY and _elementwise_unary(op, api_sig, args, kwargs)
        if unary:
            return unary[0]
        return base(*args, **kwargs)

    op._tf_dispatch_base = base
    _WRAPPED.add(id(base))
    for name in names:
        EXPORTS[name] = op
        path, _, attr = name.rpartition(".")
        module = sys.modules.get("tfcompat" + ("." + path if path else ""))
        if module is not None and getattr(module, attr, None) is api:
            setattr(module, attr, op)


def _elementwise_unary(op, api_sig, args, kwargs):
    """[result] of a unary elementwise handler matching the call's first argument (empty if none)."""
    try:
        bound = api_sig.bind(*args, **kwargs).arguments
    except TypeError:
        return []
    names = list(bound)
    x = bound[names[0]]
    for x_type, handler in list(_UNARY):
        if _matches(x, x_type, [False]) and isinstance(x, ExtensionType):
            rest = {n: bound[n] for n in names[1:]}
            return [handler(functools.partial(op, **rest) if rest else op, x)]
    return []


# -- public API -------------------------------------------------------------------------------------------------------
@tf_export("experimental.dispatch_for_api")
def dispatch_for_api(api, *signatures):
    """Decorator: `api` runs the decorated target when its arguments match a signature (parameter name -> type;
    by default the target's own annotations) holding an ExtensionType."""
    params = list(inspect.signature(_base(api)).parameters)
    for s in signatures:
        unknown = [n for n in s if n not in params]
        if unknown:
            raise ValueError(f"Dispatch signature for {api.__name__} has unexpected parameter {unknown[0]!r}")

    def decorator(target):
        sigs = list(signatures) or [_annotations(target, params)]
        _install(api)
        _API_TARGETS.setdefault(id(_base(api)), []).append((sigs, target))
        return target
    return decorator


@tf_export("experimental.dispatch_for_unary_elementwise_apis")
def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: every unary elementwise API called on an `x_type` value runs `handler(api_func, x)`."""
    def decorator(handler):
        _UNARY.append((x_type, handler))
        _register_hook(x_type)
        for name in UNARY_APIS:
            api = EXPORTS.get(name)
            if api is not None and not hasattr(api, "op_name"):
                _install(api)
        return handler
    return decorator


@tf_export("experimental.dispatch_for_binary_elementwise_apis")
def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: every binary elementwise API called on an (`x_type`, `y_type`) pair runs `handler(api_func, x, y)`."""
    def decorator(handler):
        _BINARY.append((x_type, y_type, handler))
        _register_hook(x_type)
        _register_hook(y_type)
        return handler
    return decorator


@tf_export("experimental.unregister_dispatch_for")
def unregister_dispatch_for(dispatch_target):
    """Removes every dispatch registration of `dispatch_target`."""
    found = False
    for targets in _API_TARGETS.values():
        kept = [t for t in targets if t[1] is not dispatch_target]
        found = found or len(kept) != len(targets)
        targets[:] = kept
    for table in (_UNARY, _BINARY):
        kept = [t for t in table if t[-1] is not dispatch_target]
        found = found or len(kept) != len(table)
        table[:] = kept
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a `@dispatch_for_*` decorator.")


# -- the op_def hook ----------------------------------------------------------------------------------------------------
def _extension_classes(annotation):
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union:
        return [c for a in args for c in _extension_classes(a)]
    return [annotation] if isinstance(annotation, type) and issubclass(annotation, ExtensionType) else []


def _register_hook(annotation):
    for cls in _extension_classes(annotation):
        op_def.COMPOSITE_ELEMENTWISE[cls] = _elementwise


def _elementwise(api, *operands):
    """`op_def`'s composite hook: the matching unary or binary handler, else TF's conversion error."""
    if len(operands) == 1:
        (x,) = operands
        for x_type, handler in list(_UNARY):
            if _matches(x, x_type, [False]):
                return handler(api, x)
    else:
        x, y = operands
        for x_type, y_type, handler in list(_BINARY):
            if _matches(x, x_type, [False]) and _matches(y, y_type, [False]):
                return handler(api, x, y)
    value = next(v for v in operands if isinstance(v, ExtensionType))
    raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a Tensor.")

