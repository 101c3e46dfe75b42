"""The seeded case generator: a table of public ops with argument generators, drawn into plain-data cases.

`generate(seed, count)` returns `count` cases `{"id", "op", "ns", "a": args, "k": kwargs}`; the op name is the
dotted path under `tf` (`math.add`), `operator.<name>` for Python operators, or `getitem` for indexing.
Bump VERSION whenever the table or a generator changes what a seed draws.
"""
from tools.op_fuzz import values as V

VERSION = 1

OPS = []   # (op, namespace, weight, generator(Values) -> (args, kwargs))


def op(names, ns, weight=1.0):
    def register(gen):
        for name in names.split():
            OPS.append((name, ns, weight, gen))
        return gen
    return register


def _ns(name):
    return name.split(".")[0] if "." in name else "tf"


# ------------------------------------------------------------------------------------------------ elementwise

def _unary(natural):
    def gen(g):
        dt = g.dtype(natural)
        return [g.tensor(dt, g.shape())], {}
    return gen


def _binary(natural, scalars=True):
    def gen(g):
        dt = g.dtype(natural)
        sa, sb = g.broadcast_pair()
        a, b = g.tensor(dt, sa), g.tensor(dt, sb)
        c = g.r.random()
        if scalars and c < 0.15:
            b = g.python(g.pick([dt, "bool", "int32", "float32"]))
        elif scalars and c < 0.22:
            a = g.python(dt)
        elif c < 0.28:
            b = g.tensor(g.dtype(natural, 1.0), sb)
        return [a, b], {}
    return gen


_FLT_UNARY = ("math.sqrt math.rsqrt math.exp math.expm1 math.log math.log1p math.sin math.cos math.tan math.asin "
              "math.acos math.atan math.sinh math.cosh math.tanh math.asinh math.acosh math.atanh math.sigmoid "
              "math.softplus nn.softsign math.ceil math.floor math.round math.rint math.erf math.erfc math.erfinv "
              "math.ndtri math.lgamma math.digamma math.bessel_i0 math.bessel_i0e math.bessel_i1 math.bessel_i1e "
              "math.is_nan math.is_inf math.is_finite math.log_sigmoid math.reciprocal math.reciprocal_no_nan "
              "nn.relu nn.relu6 nn.elu nn.selu nn.gelu nn.silu nn.leaky_relu nn.softmax nn.log_softmax "
              "math.special.bessel_j0 math.special.dawsn math.special.expint math.special.spence")
op(_FLT_UNARY, "math")(_unary(V.FLOATS + V.COMPLEX[:1]))
op("math.abs math.negative math.sign math.square", "math")(_unary(V.NUMERIC))
op("math.real math.imag math.angle math.conj", "math")(_unary(V.COMPLEX + V.FLOATS))
op("math.logical_not", "math", 0.5)(_unary(["bool"]))
op("bitwise.invert", "bitwise")(_unary(V.INTS))
op("nn.zero_fraction", "nn", 0.5)(_unary(V.NUMERIC + ["bool"]))

op("math.add math.subtract math.multiply math.divide math.truediv math.floordiv math.floormod math.maximum "
   "math.minimum math.squared_difference math.pow truncatediv truncatemod math.divide_no_nan "
   "math.multiply_no_nan math.xdivy math.xlogy math.xlog1py", "math")(_binary(V.NUMERIC))
op("math.atan2 math.igamma math.igammac math.zeta math.polygamma math.nextafter", "math")(_binary(V.FLOATS))
op("math.equal math.not_equal math.less math.less_equal math.greater math.greater_equal", "math")(
    _binary(V.NUMERIC + ["bool", "string"]))
op("math.logical_and math.logical_or math.logical_xor", "math", 0.5)(_binary(["bool"]))
op("bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift bitwise.right_shift",
   "bitwise")(_binary(V.INTS))

for _name in ("add sub mul truediv floordiv mod pow and_ or_ xor lt le gt ge eq ne lshift".split()):
    _nat = V.INTS + ["bool"] if _name in ("and_", "or_", "xor", "lshift") else V.NUMERIC
    op("operator." + _name, "operator")(_binary(_nat))
op("operator.neg operator.abs operator.invert operator.pos", "operator")(_unary(V.NUMERIC + ["bool"]))


@op("operator.matmul matmul linalg.matmul", "linalg")
def _matmul(g):
    dt = g.dtype(["float32", "float64", "int32", "float16", "complex64"])
    n, k, m = g.dim(), g.dim(), g.dim()
    batch = g.shape(0, 1)
    kb = k if g.chance(0.9) else k + 1
    rank_a = batch + [n, k] if g.chance(0.95) else [k]
    return [g.tensor(dt, rank_a), g.tensor(dt, batch + [kb, m])], {}


@op("math.add_n", "math", 0.5)
def _add_n(g):
    dt = g.dtype(V.NUMERIC)
    s = g.shape()
    items = [g.tensor(dt, s if g.chance(0.9) else g.shape()) for _ in range(g.r.randint(0, 3))]
    return [items], {}


# ------------------------------------------------------------------------------------------------- reductions

def _reduce(natural):
    def gen(g):
        dt = g.dtype(natural)
        s = g.shape()
        kw = {"axis": g.axis(len(s))}
        if g.chance(0.4):
            kw["keepdims"] = g.chance(0.5)
        return [g.tensor(dt, s)], kw
    return gen


op("math.reduce_sum math.reduce_mean math.reduce_prod math.reduce_max math.reduce_min", "math", 1.5)(
    _reduce(V.NUMERIC))
op("math.reduce_logsumexp math.reduce_variance math.reduce_std math.reduce_euclidean_norm", "math")(
    _reduce(V.FLOATS))
op("math.reduce_all math.reduce_any", "math", 0.5)(_reduce(["bool"]))
op("math.count_nonzero", "math", 0.5)(_reduce(V.NUMERIC + ["bool"]))


@op("math.argmax math.argmin", "math", 1.5)
def _argmax(g):
    dt = g.dtype(V.REAL + ["bool"])
    s = g.shape(0, 3)
    kw = {"axis": g.axis(len(s), allow_list=False)}
    if g.chance(0.3):
        kw["output_type"] = {"D": g.pick(["int32", "int64", "int16", "float32"])}
    return [g.tensor(dt, s)], kw


@op("math.cumsum math.cumprod math.cumulative_logsumexp", "math")
def _cum(g):
    dt = g.dtype(V.NUMERIC)
    s = g.shape()
    kw = {"axis": g.axis(len(s), allow_none=False, allow_list=False)}
    if g.chance(0.5):
        kw["exclusive"] = g.chance(0.5)
    if g.chance(0.5):
        kw["reverse"] = g.chance(0.5)
    return [g.tensor(dt, s)], kw


# --------------------------------------------------------------------------------------------------- creation

def _shape_arg(g):
    s = g.shape(0, 3)
    c = g.r.random()
    if c < 0.1:
        s = s + [-1]
    elif c < 0.15:
        s = [2.0] + s
    elif c < 0.2:
        s = {"T": g.pick(["int64", "int32", "float32"]), "s": [len(s)], "v": s}
    return s


@op("zeros ones", "tf", 1.5)
def _zeros(g):
    kw = {"dtype": {"D": g.dtype(V.ALL, 0)}} if g.chance(0.6) else {}
    return [_shape_arg(g)], kw


@op("fill", "tf")
def _fill(g):
    dt = g.dtype(V.ALL, 0)
    return [_shape_arg(g), g.python(dt) if g.chance(0.6) else g.tensor(dt, g.pick([[], [], [1]]))], {}


@op("zeros_like ones_like identity", "tf")
def _like(g):
    kw = {"dtype": {"D": g.dtype(V.ALL, 0)}} if g.chance(0.3) else {}
    return [g.tensor(g.dtype(V.ALL, 0), g.shape())], kw


@op("range", "tf", 2)
def _range(g):
    def num():
        return g.pick([g.r.randint(-5, 8), round(g.r.uniform(-5, 8), 1)])
    args = [num() for _ in range(g.r.randint(1, 3))]
    if len(args) == 3 and g.chance(0.15):
        args[2] = 0
    kw = {"dtype": {"D": g.pick(V.REAL)}} if g.chance(0.4) else {}
    return args, kw


@op("linspace", "tf", 1.5)
def _linspace(g):
    dt = g.pick(["float32", "float64", "int32", "float16"])
    num = g.pick([-1, 0, 1, 2, 5, 3.0])
    start = g.tensor(dt, []) if g.chance(0.5) else g.python(dt)
    stop = g.tensor(dt, []) if g.chance(0.5) else g.python(dt)
    return [start, stop, num], {}


@op("eye", "tf")
def _eye(g):
    args = [g.pick([0, 1, 2, 3, -1])]
    kw = {}
    if g.chance(0.4):
        kw["num_columns"] = g.pick([0, 2, 4, -2])
    if g.chance(0.3):
        kw["batch_shape"] = g.pick([[2], [], [0], [-1]])
    if g.chance(0.4):
        kw["dtype"] = {"D": g.dtype(V.ALL, 0)}
    return args, kw


@op("constant convert_to_tensor", "tf", 2)
def _constant(g):
    c = g.r.random()
    if c < 0.3:
        value = g.pick([1e40, -1e40, 2 ** 31, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 1.5, True, "s", [], [[]], [1, 2.5],
                        [True, 1], [[1, 2], [3]], {"C": [3, 4]}, [1e39, 1]])
    else:
        dt = g.dtype(V.ALL, 0)
        value = g.tensor(dt, g.shape(0, 2))["v"]
        value = [{"C": v} for v in value] if dt in V.COMPLEX else value
    kw = {"dtype": {"D": g.dtype(V.ALL, 0)}} if g.chance(0.6) else {}
    return [value], kw


@op("cast saturate_cast", "tf", 2)
def _cast(g):
    return [g.tensor(g.dtype(V.ALL, 0), g.shape()), {"D": g.dtype(V.ALL, 0)}], {}


# ------------------------------------------------------------------------------------------------------ array

@op("reshape", "tf")
def _reshape(g):
    s = g.shape()
    n = 1
    for d in s:
        n *= d
    target = g.pick([[n], [-1], [n, 1], [1, -1], [2, -1], [-1, -1], [n + 1], [0, -1], []])
    return [g.tensor(g.dtype(V.ALL, 0), s), target], {}


@op("transpose", "tf")
def _transpose(g):
    s = g.shape()
    perm = list(range(len(s)))
    g.r.shuffle(perm)
    c = g.r.random()
    if c < 0.1:
        perm = perm + [0]
    elif c < 0.2 and perm:
        perm[0] = len(s) + 1
    elif c < 0.4:
        perm = None
    return [g.tensor(g.dtype(V.ALL, 0), s)], {"perm": perm}


@op("concat stack", "tf", 1.5)
def _concat(g):
    dt = g.dtype(V.ALL, 0)
    s = g.shape(0, 3)
    items = [g.tensor(dt if g.chance(0.95) else g.dtype(V.ALL, 1), s if g.chance(0.9) else g.shape())
             for _ in range(g.r.randint(0, 3))]
    return [items], {"axis": g.axis(len(s) + 1, allow_none=False, allow_list=False)}


@op("unstack", "tf")
def _unstack(g):
    s = g.shape(0, 3)
    return [g.tensor(g.dtype(V.ALL, 0), s)], {"axis": g.axis(len(s), allow_none=False, allow_list=False)}


@op("split", "tf")
def _split(g):
    s = g.shape(0, 3)
    ax = g.axis(len(s), allow_none=False, allow_list=False)
    n = g.pick([1, 2, 3, [1, 1], [1, -1], [0, 2], 0])
    return [g.tensor(g.dtype(V.ALL, 0), s), n], {"axis": ax}


@op("tile", "tf")
def _tile(g):
    s = g.shape(0, 3)
    m = [g.pick([0, 1, 2]) for _ in s]
    if g.chance(0.15):
        m = m + [2]
    elif g.chance(0.1) and m:
        m[0] = -1
    return [g.tensor(g.dtype(V.ALL, 0), s), m], {}


@op("pad", "tf")
def _pad(g):
    s = g.shape(0, 3)
    p = [[g.pick([0, 1, 2]), g.pick([0, 1])] for _ in s]
    if g.chance(0.1):
        p = p + [[1, 1]]
    elif g.chance(0.1) and p:
        p[0][0] = -1
    kw = {}
    if g.chance(0.4):
        kw["mode"] = g.pick(["CONSTANT", "REFLECT", "SYMMETRIC", "constant", "bad"])
    if g.chance(0.2):
        kw["constant_values"] = g.pick([1, 2.5])
    return [g.tensor(g.dtype(V.NUMERIC, 0.1), s), p], kw


@op("expand_dims", "tf")
def _expand_dims(g):
    s = g.shape(0, 3)
    return [g.tensor(g.dtype(V.ALL, 0), s)], {"axis": g.axis(len(s) + 1, allow_none=False, allow_list=False)}


@op("squeeze", "tf")
def _squeeze(g):
    s = [g.pick([1, 1, 2, 0]) for _ in range(g.r.randint(0, 3))]
    return [g.tensor(g.dtype(V.ALL, 0), s)], {"axis": g.axis(len(s))}


@op("reverse", "tf")
def _reverse(g):
    s = g.shape(0, 3)
    ax = g.axis(len(s), allow_none=False)
    return [g.tensor(g.dtype(V.ALL, 0), s), ax if isinstance(ax, list) else [ax]], {}


@op("roll", "tf")
def _roll(g):
    s = g.shape(1, 3)
    ax = g.axis(len(s), allow_none=False, allow_list=False)
    return [g.tensor(g.dtype(V.ALL, 0), s), g.r.randint(-3, 3), ax], {}


@op("gather", "tf", 2)
def _gather(g):
    s = g.shape(1, 3)
    ax = g.axis(len(s), allow_none=False, allow_list=False) if g.chance(0.5) else 0
    size = s[ax] if isinstance(ax, int) and not isinstance(ax, bool) and -len(s) <= ax < len(s) else 2
    idx = g.tensor(g.pick(["int32", "int64", "int32", "float32", "uint8"]), g.shape(0, 2), lo=-1 if g.chance(0.1)
                   else 0, hi=max(size - 1, 0) + (1 if g.chance(0.15) else 0))
    kw = {"axis": ax}
    if g.chance(0.2):
        kw["batch_dims"] = g.pick([0, 1, -1, 2])
    return [g.tensor(g.dtype(V.ALL, 0), s), idx], kw


@op("gather_nd", "tf", 1.5)
def _gather_nd(g):
    s = g.shape(1, 3)
    k = g.r.randint(1, len(s))
    n = g.pick([0, 1, 2, 3])
    v = [g.r.randint(0, max(s[j % len(s)] - 1, 0) + (1 if g.chance(0.1) else 0)) for _ in range(n) for j in range(k)]
    return [g.tensor(g.dtype(V.ALL, 0), s), {"T": g.pick(["int32", "int64"]), "s": [n, k], "v": v}], {}


def _scatter_indices(g, shape):
    k = g.r.randint(1, len(shape))
    n = g.pick([0, 1, 2, 3])
    v = [g.r.randint(0, max(shape[j] - 1, 0) + (1 if g.chance(0.1) else 0)) for _ in range(n) for j in range(k)]
    return {"T": g.pick(["int32", "int64"]), "s": [n, k], "v": v}, n, k


@op("scatter_nd", "tf", 1.5)
def _scatter_nd(g):
    shape = [g.pick([1, 2, 3, 0]) for _ in range(g.r.randint(1, 3))]
    idx, n, k = _scatter_indices(g, shape)
    upd = g.tensor(g.dtype(V.NUMERIC, 0.05), [n] + shape[k:])
    return [idx, upd, shape], {}


@op("tensor_scatter_nd_update tensor_scatter_nd_add tensor_scatter_nd_sub tensor_scatter_nd_min "
    "tensor_scatter_nd_max", "tf", 1.0)
def _tensor_scatter(g):
    shape = [g.pick([1, 2, 3, 0]) for _ in range(g.r.randint(1, 3))]
    dt = g.dtype(V.NUMERIC, 0.05)
    idx, n, k = _scatter_indices(g, shape)
    return [g.tensor(dt, shape), idx, g.tensor(dt, [n] + shape[k:])], {}


@op("where", "tf", 1.5)
def _where(g):
    sa, sb = g.broadcast_pair()
    cond = g.tensor("bool" if g.chance(0.9) else g.dtype(V.ALL, 1), sa)
    if g.chance(0.3):
        return [cond], {}
    dt = g.dtype(V.ALL, 0)
    return [cond, g.tensor(dt, sb), g.tensor(dt, sb if g.chance(0.8) else sa)], {}


@op("boolean_mask", "tf")
def _boolean_mask(g):
    s = g.shape(1, 3)
    k = g.r.randint(1, len(s))
    ms = s[:k] if g.chance(0.9) else g.shape(1, 2)
    kw = {"axis": g.pick([None, 0, 1])} if g.chance(0.2) else {}
    return [g.tensor(g.dtype(V.ALL, 0), s), g.tensor("bool", ms)], kw


@op("one_hot", "tf")
def _one_hot(g):
    idx = g.tensor(g.pick(["int32", "int64", "uint8", "float32"]), g.shape(0, 2), lo=-1, hi=4)
    kw = {}
    if g.chance(0.3):
        kw["axis"] = g.pick([-1, 0, 1, 3])
    if g.chance(0.3):
        kw["dtype"] = {"D": g.pick(["int32", "float64", "bool", "string"])}
    return [idx, g.pick([0, 1, 3, 4, -1])], kw


@op("broadcast_to", "tf")
def _broadcast_to(g):
    sa, sb = g.broadcast_pair()
    return [g.tensor(g.dtype(V.ALL, 0), sa), sb], {}


@op("slice", "tf")
def _slice(g):
    s = g.shape(1, 3)
    begin = [g.r.randint(0, d) for d in s]
    size = [g.pick([-1, max(d - b, 0), 1, d + 1]) for d, b in zip(s, begin)]
    if g.chance(0.1):
        begin = begin + [0]
    return [g.tensor(g.dtype(V.ALL, 0), s), begin, size], {}


@op("strided_slice", "tf")
def _strided_slice(g):
    s = g.shape(1, 3)
    k = g.r.randint(1, len(s))
    begin = [g.r.randint(-3, 3) for _ in range(k)]
    end = [g.r.randint(-3, 4) for _ in range(k)]
    strides = [g.pick([1, 1, 2, -1, 0]) for _ in range(k)]
    kw = {}
    for m in ("begin_mask", "end_mask", "shrink_axis_mask", "new_axis_mask", "ellipsis_mask"):
        if g.chance(0.15):
            kw[m] = g.r.randint(0, 3)
    return [g.tensor(g.dtype(V.ALL, 0), s), begin, end, strides], kw


@op("rank size shape", "tf", 0.5)
def _rank(g):
    kw = {"out_type": {"D": g.pick(["int32", "int64", "float32"])}} if g.chance(0.2) else {}
    return [g.tensor(g.dtype(V.ALL, 0), g.shape())], kw


@op("repeat", "tf")
def _repeat(g):
    s = g.shape(0, 3)
    kw = {"axis": g.axis(len(s), allow_list=False)}
    return [g.tensor(g.dtype(V.ALL, 0), s), g.pick([0, 1, 2, -1, [1, 2]])], kw


@op("unique", "tf")
def _unique(g):
    s = g.shape(0, 2) if g.chance(0.2) else [g.dim()]
    return [g.tensor(g.dtype(V.ALL, 0), s)], {}


@op("sort argsort", "tf", 1.5)
def _sort(g):
    s = g.shape(0, 3)
    kw = {"axis": g.axis(len(s), allow_none=False, allow_list=False)}
    if g.chance(0.4):
        kw["direction"] = g.pick(["ASCENDING", "DESCENDING", "UP"])
    return [g.tensor(g.dtype(V.REAL + ["bool", "string"]), s)], kw


@op("math.top_k", "math", 1.5)
def _top_k(g):
    s = g.shape(0, 3)
    kw = {"k": g.pick([0, 1, 2, 3, 5, -1])}
    if g.chance(0.3):
        kw["sorted"] = g.chance(0.5)
    return [g.tensor(g.dtype(V.REAL), s)], kw


@op("math.segment_sum math.segment_mean math.segment_max math.segment_min math.segment_prod", "math")
def _segment(g):
    s = g.shape(1, 3)
    n = s[0]
    ids = sorted(g.r.randint(0, 3) for _ in range(n))
    if g.chance(0.15):
        ids = ids[::-1]
    if g.chance(0.1) and ids:
        ids[0] = -1
    if g.chance(0.1):
        ids = ids + [0]
    return [g.tensor(g.dtype(V.REAL), s), {"T": g.pick(["int32", "int64"]), "s": [len(ids)], "v": ids}], {}


@op("math.unsorted_segment_sum math.unsorted_segment_max math.unsorted_segment_min math.unsorted_segment_mean "
    "math.unsorted_segment_prod math.unsorted_segment_sqrt_n", "math")
def _unsorted_segment(g):
    s = g.shape(1, 3)
    ids = [g.r.randint(-1 if g.chance(0.1) else 0, 3) for _ in range(s[0])]
    return [g.tensor(g.dtype(V.REAL), s), {"T": g.pick(["int32", "int64"]), "s": [len(ids)], "v": ids},
            g.pick([0, 1, 3, 4, -1])], {}


@op("clip_by_value", "tf", 1.5)
def _clip(g):
    dt = g.dtype(V.REAL)
    s = g.shape()
    lo, hi = g.python(dt), g.python(dt)
    return [g.tensor(dt, s), lo, hi], {}


@op("clip_by_norm", "tf", 0.5)
def _clip_norm(g):
    s = g.shape()
    return [g.tensor(g.dtype(V.FLOATS), s), g.pick([1.0, 0.5, 0.0, -1.0])], {"axes": g.axis(len(s))}


@op("searchsorted", "tf", 0.5)
def _searchsorted(g):
    dt = g.dtype(["float32", "int32", "float64"])
    n = g.dim()
    a = g.tensor(dt, [n])
    a["v"] = sorted(a["v"], key=lambda x: (x != x, x))
    kw = {"side": g.pick(["left", "right", "middle"])} if g.chance(0.4) else {}
    return [a, g.tensor(dt, [g.dim()])], kw


@op("math.bincount", "math", 0.7)
def _bincount(g):
    arr = g.tensor(g.pick(["int32", "int64", "float32"]), g.shape(0, 2), lo=-1 if g.chance(0.1) else 0, hi=5)
    kw = {}
    if g.chance(0.3):
        kw["weights"] = g.tensor("float32", arr["s"], special=0)
    if g.chance(0.3):
        kw["minlength"] = g.pick([0, 3, 8])
    if g.chance(0.3):
        kw["maxlength"] = g.pick([0, 2, 4])
    if g.chance(0.3):
        kw["binary_output"] = g.chance(0.5)
    return [arr], kw


@op("histogram_fixed_width", "tf", 0.5)
def _hist(g):
    dt = g.dtype(["float32", "int32", "float64"])
    return [g.tensor(dt, g.shape(0, 2)), g.tensor(dt, [2], special=0)], {"nbins": g.pick([1, 3, 5, 0, -1])}


@op("math.lbeta math.is_non_decreasing math.is_strictly_increasing", "math", 0.5)
def _vec(g):
    return [g.tensor(g.dtype(V.FLOATS + ["int32"]), g.shape(0, 2))], {}


@op("math.in_top_k", "math", 0.3)
def _in_top_k(g):
    b, c = g.dim(), g.dim()
    return [g.tensor("int32", [b], lo=0, hi=c), g.tensor("float32", [b, c]), g.pick([0, 1, 2])], {}


@op("tensordot", "linalg", 0.5)
def _tensordot(g):
    dt = g.dtype(["float32", "float64", "int32"])
    a = g.shape(1, 3)
    b = [a[-1]] + g.shape(0, 2) if g.chance(0.9) else g.shape(1, 3)
    return [g.tensor(dt, a), g.tensor(dt, b), g.pick([1, 0, [[len(a) - 1], [0]]])], {}


@op("einsum", "linalg", 0.5)
def _einsum(g):
    dt = g.dtype(["float32", "float64", "int32"])
    i, j, k = g.dim(), g.dim(), g.dim()
    eq, shapes = g.pick([("ij,jk->ik", [[i, j], [j, k]]), ("ii->i", [[i, i]]), ("ij->ji", [[i, j]]),
                         ("i,i->", [[i], [i]]), ("bij,bjk->bik", [[k, i, j], [k, j, i]]), ("ij->", [[i, j]])])
    return [eq] + [g.tensor(dt, s) for s in shapes], {}


# ----------------------------------------------------------------------------------------------------- linalg

def _matrix(g, square=True, dt=None, batch=True):
    dt = dt or g.dtype(["float32", "float64"])
    n = g.pick([0, 1, 2, 3])
    m = n if square and g.chance(0.9) else g.pick([1, 2, 3])
    return g.tensor(dt, (g.shape(0, 1) if batch else []) + [n, m], special=0.03)


op("linalg.det linalg.inv linalg.slogdet linalg.logdet linalg.cholesky linalg.trace linalg.diag_part "
   "linalg.adjoint linalg.matrix_transpose linalg.expm linalg.sqrtm", "linalg")(lambda g: ([_matrix(g)], {}))


@op("linalg.diag linalg.tensor_diag", "linalg", 0.5)
def _diag(g):
    return [g.tensor(g.dtype(V.NUMERIC), g.shape(0, 2))], {}


@op("linalg.band_part", "linalg", 0.7)
def _band(g):
    return [_matrix(g, square=False, dt=g.dtype(V.NUMERIC)), g.pick([-1, 0, 1, 2]), g.pick([-1, 0, 1, -2])], {}


@op("linalg.norm", "linalg")
def _norm(g):
    s = g.shape(0, 3)
    kw = {"ord": g.pick(["euclidean", "fro", 1, 2, "inf", 0.5])} if g.chance(0.5) else {}
    if g.chance(0.5):
        kw["axis"] = g.axis(len(s))
    return [g.tensor(g.dtype(V.FLOATS + ["complex64"]), s)], kw


@op("linalg.solve linalg.triangular_solve linalg.lstsq", "linalg", 0.7)
def _solve(g):
    a = _matrix(g, batch=False)
    rhs = g.tensor(a["T"], [a["s"][0] if g.chance(0.9) else 2, g.pick([1, 2])], special=0.03)
    return [a, rhs], {}


@op("linalg.cross", "linalg", 0.5)
def _cross(g):
    dt = g.dtype(["float32", "float64", "int32"])
    s = g.shape(0, 1) + [3 if g.chance(0.9) else 2]
    return [g.tensor(dt, s), g.tensor(dt, s)], {}


@op("linalg.l2_normalize nn.l2_normalize", "linalg")
def _l2n(g):
    s = g.shape()
    return [g.tensor(g.dtype(V.FLOATS), s)], {"axis": g.axis(len(s))}


@op("linalg.matvec", "linalg", 0.5)
def _matvec(g):
    a = _matrix(g, square=False)
    return [a, g.tensor(a["T"], [a["s"][-1] if g.chance(0.9) else 5])], {}


# --------------------------------------------------------------------------------------------------------- nn

@op("nn.bias_add", "nn")
def _bias_add(g):
    dt = g.dtype(V.NUMERIC)
    s = g.shape(1, 3)
    return [g.tensor(dt, s), g.tensor(dt, [s[-1] if g.chance(0.9) else 5])], {}


@op("nn.moments", "nn", 0.5)
def _moments(g):
    s = g.shape(1, 3)
    ax = g.axis(len(s), allow_none=False)
    return [g.tensor(g.dtype(V.FLOATS), s), ax if isinstance(ax, list) else [ax]], {}


@op("nn.softmax_cross_entropy_with_logits nn.sigmoid_cross_entropy_with_logits", "nn", 0.7)
def _xent(g):
    dt = g.dtype(["float32", "float64", "float16"])
    s = g.shape(1, 2)
    return [], {"labels": g.tensor(dt, s), "logits": g.tensor(dt, s if g.chance(0.9) else g.shape(1, 2))}


@op("nn.max_pool2d nn.avg_pool2d", "nn")
def _pool(g):
    s = [g.pick([1, 2]), g.pick([0, 1, 2, 3, 4]), g.pick([1, 2, 3, 4]), g.pick([1, 2])]
    return [g.tensor(g.dtype(["float32", "float64", "float16"]), s), g.pick([1, 2, 3, 5]), g.pick([1, 2]),
            g.pick(["VALID", "SAME"])], {}


@op("nn.conv2d", "nn")
def _conv(g):
    dt = g.dtype(["float32", "float64"])
    c = g.pick([1, 2])
    x = g.tensor(dt, [1, g.pick([0, 1, 2, 3, 4]), g.pick([1, 2, 3]), c], special=0.05)
    k = g.tensor(dt, [g.pick([1, 2, 3]), g.pick([1, 2]), c if g.chance(0.9) else 3, g.pick([1, 2])], special=0.05)
    return [x, k, g.pick([1, 2]), g.pick(["VALID", "SAME"])], {}


# ------------------------------------------------------------------------------------------------------ image

def _image(g, channels=(1, 3), dtypes=("float32", "uint8", "float64", "float16", "int32"), batch=None):
    batch = g.chance(0.3) if batch is None else batch
    s = [g.pick([0, 1, 2, 3]), g.pick([1, 2, 3]), g.pick(channels)]
    if batch:
        s = [g.pick([1, 2])] + s
    if g.chance(0.05):
        s = s[1:]
    dt = g.pick(dtypes)
    if dt == "uint8":
        return g.tensor(dt, s, lo=0, hi=255)
    if dt in V.FLOATS:
        t = g.tensor(dt, s, special=0.03)
        t["v"] = [round(g.r.random(), 3) if x == x and abs(x) < 7 else x for x in t["v"]]
        return t
    return g.tensor(dt, s)


op("image.flip_left_right image.flip_up_down image.transpose image.rot90 image.per_image_standardization "
   "image.total_variation image.image_gradients image.sobel_edges", "image")(lambda g: ([_image(g)], {}))
op("image.rgb_to_grayscale image.rgb_to_hsv image.hsv_to_rgb image.rgb_to_yuv image.yuv_to_rgb image.rgb_to_yiq "
   "image.yiq_to_rgb", "image")(lambda g: ([_image(g, channels=(3, 3, 3, 1), dtypes=("float32", "float64", "uint8"))],
                                          {}))
op("image.grayscale_to_rgb", "image")(lambda g: ([_image(g, channels=(1, 1, 3))], {}))


@op("image.adjust_brightness image.adjust_contrast image.adjust_saturation image.adjust_hue image.adjust_gamma",
    "image", 1.5)
def _adjust(g):
    img = _image(g, channels=(3, 3, 1), dtypes=("float32", "uint8", "float64"))
    return [img, g.pick([0.0, 0.2, -0.3, 0.5, 1.5, 2.0])], {}


@op("image.central_crop", "image")
def _central_crop(g):
    return [_image(g), g.pick([0.5, 1.0, 0.3, 0.0, 1.5])], {}


@op("image.pad_to_bounding_box image.crop_to_bounding_box", "image")
def _bbox(g):
    return [_image(g)] + [g.pick([0, 1, 2, -1, 4]) for _ in range(4)], {}


@op("image.resize_with_crop_or_pad", "image")
def _crop_or_pad(g):
    return [_image(g), g.pick([1, 2, 4, 0]), g.pick([1, 3, 5])], {}


@op("image.convert_image_dtype", "image")
def _convert_image(g):
    img = _image(g)
    kw = {"saturate": g.chance(0.5)} if g.chance(0.3) else {}
    return [img, {"D": g.pick(["uint8", "float32", "int16", "float64", "int32"])}], kw


@op("image.resize", "image", 1.5)
def _resize(g):
    img = _image(g, batch=g.chance(0.5))
    kw = {"method": g.pick(["bilinear", "nearest", "bicubic", "area", "lanczos3", "gaussian"])}
    if g.chance(0.3):
        kw["antialias"] = True
    if g.chance(0.2):
        kw["preserve_aspect_ratio"] = True
    return [img, [g.pick([1, 2, 5, 0]), g.pick([1, 3, 4])]], kw


@op("image.psnr image.ssim", "image", 0.5)
def _psnr(g):
    a = _image(g, dtypes=("float32",), batch=True)
    b = dict(a, v=[round(g.r.random(), 3) for _ in a["v"]])
    return [a, b, 1.0], {}


# ---------------------------------------------------------------------------------------------------- strings

def _strings(g, shape=None):
    return g.tensor("string" if g.chance(0.92) else g.dtype(V.ALL, 1), g.shape(0, 2) if shape is None else shape)


op("strings.length strings.upper strings.lower strings.strip strings.to_number "
   "strings.unicode_split strings.bytes_split", "strings")(lambda g: ([_strings(g)], {}))


@op("strings.to_hash_bucket_fast", "strings", 0.5)
def _hash(g):
    return [_strings(g), g.pick([1, 10, 0])], {}


@op("strings.join", "strings", 0.7)
def _join(g):
    s = g.shape(0, 1)
    return [[_strings(g, s) for _ in range(g.r.randint(1, 3))]], {"separator": g.pick(["", ",", " - "])}


@op("strings.reduce_join", "strings", 0.7)
def _reduce_join(g):
    s = g.shape(0, 2)
    return [_strings(g, s)], {"axis": g.axis(len(s)), "separator": g.pick(["", ","])}


@op("strings.split", "strings")
def _ssplit(g):
    kw = {"sep": g.pick([None, ",", " ", "ab"])} if g.chance(0.7) else {}
    return [_strings(g, g.pick([[], [g.dim()]]))], kw


@op("strings.substr", "strings")
def _substr(g):
    return [_strings(g), g.pick([0, 1, -2, 5]), g.pick([0, 1, 3, -1])], {}


@op("strings.regex_full_match strings.regex_replace", "strings")
def _regex(g):
    args = [_strings(g), g.pick(["a.*", "[0-9]+", ".", "(", "x y"])]
    return args, {}


@op("strings.as_string", "strings")
def _as_string(g):
    kw = {"precision": g.pick([-1, 2, 0])} if g.chance(0.3) else {}
    return [g.tensor(g.dtype(V.REAL + ["bool", "complex64"]), g.shape(0, 2))], kw


@op("strings.format", "strings", 0.5)
def _format(g):
    return [g.pick(["{}", "x={} y={}", "none", "{"]), [g.tensor(g.dtype(V.NUMERIC), g.shape(0, 1))]], {}


# --------------------------------------------------------------------------------------------------- indexing

def _index_item(g, dim):
    c = g.r.random()
    if c < 0.35:
        return g.r.randint(-dim - 1, dim)
    if c < 0.7:
        return {"S": [g.pick([None, 0, 1, -1, 5]), g.pick([None, 2, -1, 0, 9]), g.pick([None, None, 1, 2, -1, 0])]}
    if c < 0.8:
        return None
    if c < 0.88:
        return {"E": 1}
    if c < 0.93:
        return {"T": g.pick(["int32", "int64"]), "s": [], "v": [g.r.randint(0, max(dim - 1, 0))]}
    return g.pick([1.5, True, "a", [0, 1]])


@op("getitem", "indexing", 8)
def _getitem(g):
    s = g.shape(0, 3)
    items = [_index_item(g, s[i] if i < len(s) else 1) for i in range(g.r.randint(1, len(s) + 1))]
    idx = items[0] if len(items) == 1 and g.chance(0.5) else {"U": items}
    return [g.tensor(g.dtype(V.ALL, 0), s), idx], {}


# ---------------------------------------------------------------------------------------------------- drawing

def generate(seed, count):
    """`count` cases drawn from the table with op weights, from seed `seed`."""
    g = V.Values(seed)
    weights = [w for _, _, w, _ in OPS]
    out = []
    for i in range(count):
        name, ns, _, gen = g.r.choices(OPS, weights)[0]
        args, kwargs = gen(g)
        out.append({"id": i, "op": name, "ns": ns if ns != "tf" else _ns(name), "a": args, "k": kwargs})
    return out
