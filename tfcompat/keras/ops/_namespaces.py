"""The names of Keras 3.15's `keras.ops` sub-namespaces (`keras.ops.numpy`, `.nn`, `.linalg`, `.image`): each is a
module holding the same function objects as `keras.ops` (image functions live only in `keras.ops.image`)."""
import sys
import types

NUMPY = tuple("""
abs absolute add all allclose amax amin angle any append arange arccos arccosh arcsin arcsinh arctan arctan2
arctanh argmax argmin argpartition argsort array array_split average bartlett bincount bitwise_and
bitwise_invert bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman broadcast_to
cbrt ceil clip concatenate conj conjugate copy corrcoef correlate cos cosh count_nonzero cross cumprod cumsum
deg2rad diag diagflat diagonal diff digitize divide divide_no_nan dot dsplit dstack einsum empty empty_like
equal exp exp2 expand_dims expm1 eye fabs flip fliplr flipud floor floor_divide fmax fmin fmod full full_like
gcd geomspace get_item greater greater_equal hamming hanning heaviside histogram hsplit hstack hypot i0 identity
imag inner isclose isfinite isin isinf isnan isneginf isposinf isreal kaiser kron lcm ldexp left_shift less
less_equal linspace log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor
logspace matmul max maximum mean median meshgrid min minimum mod moveaxis multiply nan_to_num nanargmax
nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum
nanvar ndim negative nextafter nonzero not_equal ones ones_like outer pad percentile power prod ptp quantile
rad2deg ravel real reciprocal repeat reshape right_shift roll rot90 round searchsorted select sign signbit sin
sinc sinh size slogdet sort split sqrt square squeeze stack std subtract sum swapaxes take take_along_axis tan
tanh tensordot tile trace transpose trapezoid tri tril triu true_divide trunc unique unravel_index vander var
vdot vectorize view vsplit vstack where zeros zeros_like
""".split())

NN = tuple("""
adaptive_average_pool adaptive_max_pool average_pool batch_normalization binary_crossentropy
categorical_crossentropy celu conv conv_transpose ctc_decode ctc_loss depth_to_space depthwise_conv
dot_product_attention elu fold gelu glu hard_shrink hard_sigmoid hard_silu hard_swish hard_tanh
layer_normalization leaky_relu log_sigmoid log_softmax max_pool moments multi_hot normalize one_hot polar psnr
relu relu6 rms_normalization selu separable_conv sigmoid silu soft_shrink softmax softplus softsign
space_to_depth sparse_categorical_crossentropy sparse_plus sparse_sigmoid sparsemax squareplus swish tanh_shrink
threshold unfold
""".split())

LINALG = tuple("""
cholesky cholesky_inverse det eig eigh inv jvp lstsq lu_factor matrix_rank norm pinv qr solve solve_triangular
svd
""".split())

IMAGE = tuple("""
affine_transform crop_images elastic_transform extract_patches extract_patches_3d gaussian_blur hsv_to_rgb
map_coordinates pad_images perspective_transform resize rgb_to_grayscale rgb_to_hsv scale_and_translate
sobel_edges ssim
""".split())


class OpsNamespace(types.ModuleType):
    """`keras.ops.<name>`: Keras's names of that namespace; one it has that tfcompat lacks is NotImplementedYet."""

    def __init__(self, name, path, names, missing):
        super().__init__(name, f"Keras 3's `{path}` namespace.")
        self._path = path
        self._names = frozenset(names)
        self._missing = missing

    def __getattr__(self, attr):
        if attr.startswith("__") or attr not in self.__dict__.get("_names", ()):
            raise AttributeError(f"module '{self._path}' has no attribute '{attr}'")
        raise self._missing(self._path, attr)

    def __dir__(self):
        return sorted(self._names)


def make_namespaces(namespace, missing):
    """Adds `numpy`, `nn`, `linalg` and `image` to the `keras.ops` module `namespace` (its globals) and moves the
    image functions there (Keras has them only in `keras.ops.image`); `missing(path, name)` is the error for a
    Keras name tfcompat lacks."""
    module = namespace["__name__"]
    image_only = set(IMAGE)
    functions = {n: namespace[n] for n in set(NUMPY) | set(NN) | set(LINALG) | image_only if n in namespace}
    for attr, names in (("numpy", NUMPY), ("nn", NN), ("linalg", LINALG), ("image", IMAGE)):
        ns = OpsNamespace(f"{module}.{attr}", f"keras.ops.{attr}", names, missing)
        ns.__dict__.update({n: functions[n] for n in names if n in functions})
        namespace[attr] = sys.modules[ns.__name__] = ns
    for n in image_only:
        namespace.pop(n, None)
