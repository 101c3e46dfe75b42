"""The ops whose fuzz cases may still differ from TF 2.21, each with the reason (the known divergences).

tests/test_op_fuzz.py lets a failing case pass only when its op is here; `replay --write-divergences` records
every failing case of the whole recorded set with its op's reason in divergences.json, from which
tools/compat_matrix.py writes compat_matrix.md's "Known divergences" section. The table only shrinks: an op
whose cases all agree must leave it (test_known_list_is_current).
"""

# reason -> the ops it covers (space-separated)
BY_REASON = {
    "Eigen's float kernels and torch's round differently (1 ulp in float32 results TF computes in float32 and "
    "casts back, errors up to 1e-7 in TF's double erf/erfc and Bessel kernels), or place NaN/inf differently in "
    "complex arithmetic with infinite parts": (
        "math.divide_no_nan math.erf math.expm1 math.log math.log1p math.reciprocal_no_nan "
        "math.reduce_mean math.reduce_prod math.rsqrt math.squared_difference math.xdivy math.xlog1py "
        "math.special.bessel_j0 nn.gelu nn.silu operator.matmul tensordot image.adjust_contrast image.adjust_gamma "
        "image.adjust_saturation"),
    "out-of-range float to integer casts are undefined behaviour in C++; TF's x86 results (e.g. 2**31 for inf -> "
    "uint32, 0 for negative bfloat16 -> uint16) are not reproduced": "cast",
    "TF's lstsq fails in MatMul for unsigned types before its own dtype check": "linalg.lstsq",
    "LAPACK (torch.linalg) and Eigen differ on singular, non-positive-definite and NaN/inf input (TF's failed "
    "Cholesky factors sometimes hold uninitialized values above the diagonal), and round float64 results "
    "differently": "linalg.cholesky linalg.expm linalg.lstsq linalg.norm",
    "Python-operator dispatch corners: `int_tensor | 2.5` is AttributeError in TF (its reflected-operator "
    "fallback), `@` of mismatched ranks of a dtype without a kernel": "operator.matmul operator.or_",
    "a negative Python int with a uint64 tensor: TF's OverflowError from the conversion": "bitwise.bitwise_and",
    "[True, 1] as complex64 is TF's mixed-types ValueError (a bool cannot become complex64)": "convert_to_tensor",
    "strings TF's recorder could not decode (bytes 0xff): recorded as UnicodeDecodeError, not TF's error": (
        "strings.to_number"),
}
KNOWN = {}      # op -> its reasons, joined
for _reason, _ops in BY_REASON.items():
    for _op in _ops.split():
        KNOWN[_op] = f"{KNOWN[_op]}; {_reason}" if _op in KNOWN else _reason
