"""`tf.linalg.LinearOperatorCirculant` (and the block-circulant 2D/3D forms): operators diagonalised by the
(multi-dimensional) DFT, given by their `spectrum`; products and solves are FFT, multiply or divide, inverse FFT,
cast to `input_output_dtype` (a real dtype keeps the real part, as TF's cast)."""
import numpy as np
import torch

from tfcompat.framework import dtypes
from tfcompat.framework.convert import convert_to_tensor
from tfcompat.framework.export import tf_export
from tfcompat.framework.op_def import input_storage, wrap
from tfcompat.framework.tensor_shape import TensorShape
from tfcompat.ops import complex_ops, creation_ops, debugging_ops, math_ops, reduction_ops
from tfcompat.ops.linear_operator import (
    LinearOperator, assert_no_entries_with_modulus_zero, assert_zero_imag_part, combined_commuting_positive_definite_hint, combined_commuting_self_adjoint_hint,
    combined_non_singular_hint, convert_nonref)


def _complex(t):
    if t.is_complex():
        return t
    return t.to(torch.complex128 if t.dtype is torch.float64 else torch.complex64)


def _cast_out(t, dtype):
    target = dtypes.as_dtype(dtype).torch_dtype
    return t.to(target) if target.is_complex else t.real.to(target)


class _BaseLinearOperatorCirculant(LinearOperator):
    """What the circulant operators share: the spectrum, its block shape, and the FFT products."""

    def __init__(self, spectrum, block_depth, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, parameters=None,
                 name="LinearOperatorCirculant"):
        if block_depth not in (1, 2, 3):
            raise ValueError(f"Argument `block_depth` must be one of [1, 2, 3]. Received: {block_depth}.")
        self._block_depth = block_depth
        self._spectrum = convert_nonref(spectrum, name="spectrum")
        if self._spectrum.shape.rank is not None and self._spectrum.shape.rank < block_depth:
            raise ValueError(f"Argument `spectrum` must have at least {block_depth} dimensions. Received: "
                             f"{self._spectrum}.")
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError(f"A real spectrum always corresponds to a self-adjoint operator. Expected argument "
                                 f"`is_self_adjoint` to be True when `spectrum.dtype.is_complex` = True. Received: "
                                 f"{is_self_adjoint}.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError(f"A [[nested] block] circulant operator is always square. Expected argument `is_square` "
                             f"to be True. Received: {is_square}.")
        super().__init__(dtype=dtypes.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                         is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite, is_square=True,
                         parameters=parameters, name=name)

    @property
    def block_depth(self):
        return self._block_depth

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def _experimental_parameter_ndims_to_matrix_ndims(self):
        return {"spectrum": self._block_depth}

    @property
    def block_shape(self):
        return self._spectrum.shape[-self._block_depth:]

    def block_shape_tensor(self):
        return convert_to_tensor(self.block_shape.as_list(), dtype=dtypes.int32)

    def _shape(self):
        s = self._spectrum.shape
        block = s[-self._block_depth:]
        n = int(np.prod(block.as_list())) if block.is_fully_defined() else None
        return s[:-self._block_depth].concatenate(TensorShape([n, n]))

    def _derived(self, spectrum, **kwargs):
        """An operator of this class (TF's public circulant classes derive their own kind)."""
        if type(self) is _BaseLinearOperatorCirculant:
            return _BaseLinearOperatorCirculant(spectrum=spectrum, block_depth=self._block_depth, is_square=True,
                                                **kwargs)
        return type(self)(spectrum=spectrum, is_square=True, **kwargs)

    def _linop_adjoint(self):
        spectrum = self._spectrum
        if spectrum.dtype.is_complex:
            spectrum = complex_ops.conj(spectrum)
        return self._derived(spectrum, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                             is_positive_definite=self.is_positive_definite)

    def _linop_inverse(self):
        return self._derived(1. / convert_to_tensor(self._spectrum), is_non_singular=self.is_non_singular,
                             is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                             input_output_dtype=self.dtype)

    def _combined(self, left, right, spectrum_fn, fallback):
        if not isinstance(right, _BaseLinearOperatorCirculant) or not isinstance(left, type(right)):
            return fallback(left, right)
        return left._derived(
            spectrum_fn(convert_to_tensor(left.spectrum), convert_to_tensor(right.spectrum)),
            is_non_singular=combined_non_singular_hint(left, right),
            is_self_adjoint=combined_commuting_self_adjoint_hint(left, right),
            is_positive_definite=combined_commuting_positive_definite_hint(left, right))

    def _linop_matmul(self, left, right):
        return self._combined(left, right, lambda a, b: a * b, super()._linop_matmul)

    def _linop_solve(self, left, right):
        return self._combined(left, right, lambda a, b: b / a, super()._linop_solve)

    def _apply(self, x, adjoint, adjoint_arg, divide):
        t = input_storage(x)
        if adjoint_arg:
            t = t.mH
        spectrum = _complex(input_storage(self._spectrum))
        if adjoint:
            spectrum = spectrum.conj()
        t = t.to(spectrum.dtype)
        depth, block = self._block_depth, tuple(self.block_shape.as_list())
        batch = torch.broadcast_shapes(t.shape[:-2], spectrum.shape[:-depth])
        t = t.expand(batch + t.shape[-2:])
        spectrum = spectrum.expand(batch + block)
        cols = t.shape[-1]
        vec = t.movedim(-1, -2).reshape(batch + (cols,) + block)        # each column as a block array
        dims = tuple(range(-depth, 0))
        spectrum = spectrum.unsqueeze(len(batch))
        freq = torch.fft.fftn(vec, dim=dims)
        out = torch.fft.ifftn(freq / spectrum if divide else spectrum * freq, dim=dims)
        out = out.reshape(batch + (cols, -1)).movedim(-2, -1)
        return wrap(_cast_out(out, self.dtype))

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._apply(x, adjoint, adjoint_arg, False)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._apply(rhs, adjoint, adjoint_arg, True)

    def convolution_kernel(self, name="convolution_kernel"):
        s = _complex(input_storage(self._spectrum))
        return wrap(_cast_out(torch.fft.ifftn(s, dim=tuple(range(-self._block_depth, 0))), self.dtype))

    def _assert_non_singular(self):
        return assert_no_entries_with_modulus_zero(self._spectrum,
                                                   "Singular operator:  Spectrum contained zero values.")

    def _assert_positive_definite(self):
        return debugging_ops.assert_positive(complex_ops.real(self._spectrum), message="Not positive definite:  Real "
                                             "part of spectrum was not all positive.")

    def _assert_self_adjoint(self):
        return assert_zero_imag_part(self._spectrum, "Not self-adjoint:  The spectrum contained non-zero imaginary "
                                                     "part.")

    def _flat_spectrum(self):
        s = input_storage(self._spectrum)
        return s.reshape(s.shape[:-self._block_depth] + (-1,))

    def _determinant(self):
        return wrap(_cast_out(_complex(self._flat_spectrum()).prod(-1), self.dtype))

    def _log_abs_determinant(self):
        return wrap(_cast_out(_complex(self._flat_spectrum().abs().log().sum(-1)), self.dtype))

    def _trace(self):
        s = self._flat_spectrum()
        re = (s.real if s.is_complex() else s).sum(-1)
        if not self.dtype.is_complex:
            return wrap(re.to(dtypes.as_dtype(self.dtype).torch_dtype))
        im = torch.zeros_like(re) if self.is_self_adjoint or not s.is_complex() else s.imag.sum(-1)
        return wrap(torch.complex(re, im).to(dtypes.as_dtype(self.dtype).torch_dtype))

    def _diag_part(self):
        n = self.domain_dimension.value
        ones = creation_ops.ones(self.shape.as_list()[:-1], dtype=self.dtype)
        return (self.trace() / math_ops.cast(n, self.dtype))[..., None] * ones

    def _eigvals(self):
        return wrap(self._flat_spectrum())

    def _cond(self):
        a = math_ops.abs(wrap(self._flat_spectrum()))
        return reduction_ops.reduce_max(a, axis=-1) / reduction_ops.reduce_min(a, axis=-1)


def _circulant_class(export, depth, doc):
    default_name = export.split(".")[-1]

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name=default_name):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        _BaseLinearOperatorCirculant.__init__(
            self, spectrum, block_depth=depth, input_output_dtype=input_output_dtype,
            is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
            is_positive_definite=is_positive_definite, is_square=is_square, parameters=parameters, name=name)

    cls = type(default_name, (_BaseLinearOperatorCirculant,), {"__init__": __init__, "__doc__": doc,
                                                                "__module__": __name__})
    return tf_export(export)(cls)


LinearOperatorCirculant = _circulant_class(
    "linalg.LinearOperatorCirculant", 1, "`LinearOperator` acting like a circulant matrix (given its spectrum).")
LinearOperatorCirculant2D = _circulant_class(
    "linalg.LinearOperatorCirculant2D", 2, "`LinearOperator` acting like a block circulant matrix.")
LinearOperatorCirculant3D = _circulant_class(
    "linalg.LinearOperatorCirculant3D", 3, "`LinearOperator` acting like a nested block circulant matrix.")
