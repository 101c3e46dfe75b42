"""tf.experimental.ExtensionType, its Spec, tf.type_spec_from_value and type-based dispatch (golden text: TF 2.21)."""
from typing import Mapping, Optional, Tuple, Union

import pytest

import tfcompat as tf


class MT(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


class P(tf.experimental.ExtensionType):
    color: str = "black"
    n: int = 3
    f: float = 1.0
    shape: tf.TensorShape = None
    dt: tf.DType = tf.float32
    t: Tuple[int, ...] = ()
    o: Optional[tf.Tensor] = None
    u: Union[int, str] = 1


def test_fields_convert_and_repr():
    a = MT([1, 2], [True, False])
    assert repr(a) == ("MT(values=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>, "
                       "mask=<tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>)")
    assert repr(P(shape=[1, 2])) == ("P(color='black', n=3, f=1.0, shape=TensorShape([1, 2]), dt=tf.float32, t=(), "
                                     "o=None, u=1)")
    assert repr(P(dt="int32", t=[1, 2])) == ("P(color='black', n=3, f=1.0, shape=TensorShape(None), dt=tf.int32, "
                                             "t=(1, 2), o=None, u=1)")
    assert P(n=True).n is True


@pytest.mark.parametrize("kwargs, message", [
    (dict(color=3), "color: expected 'str', got 'int'"),
    (dict(n="x"), "n: expected 'int', got 'str'"),
    (dict(n=2.5), "n: expected 'int', got 'float'"),
    (dict(f=2), "f: expected 'float', got 'int'"),
    (dict(t=["a"]), "t[0]: expected 'int', got 'str'"),
    (dict(u=2.5), "u: expected typing.Union[int, str], got 'float'"),
])
def test_field_type_errors(kwargs, message):
    with pytest.raises(TypeError) as e:
        P(**kwargs)
    assert str(e.value) == message


def test_constructor_binding_errors():
    for args, kwargs, message in [((None,), {}, "missing a required argument: 'mask'"),
                                  (([1], [True], 3), {}, "too many positional arguments"),
                                  ((), dict(values=[1], mask=[True], x=3), "got an unexpected keyword argument 'x'")]:
        with pytest.raises(TypeError) as e:
            MT(*args, **kwargs)
        assert str(e.value) == message
    with pytest.raises(TypeError, match="^mask: expected a Tensor, got 'NoneType'$"):
        MT([1, 2, 3], None)


def test_unsupported_annotation_at_class_creation():
    with pytest.raises(TypeError, match="^In field 'x': Unsupported type annotation 'list'$"):
        class Bad(tf.experimental.ExtensionType):
            x: list


def test_immutable_outside_constructor():
    a = MT([1], [True])
    msg = "Cannot mutate attribute `mask` outside the custom constructor of ExtensionType."
    with pytest.raises(AttributeError) as e:
        a.mask = [False]
    assert str(e.value) == msg
    with pytest.raises(AttributeError) as e:
        del a.mask
    assert str(e.value) == msg


def test_custom_constructor_and_validate():
    class Toy(tf.experimental.ExtensionType):
        name: str
        price: tf.Tensor

        def __init__(self, name, price, discount=0):
            self.name = name
            self.price = price * (1 - discount)

    assert repr(Toy("ball", 5.0, discount=0.2)) == "Toy(name='ball', price=<tf.Tensor: shape=(), dtype=float32, " \
                                                   "numpy=4.0>)"

    class V(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

        def __validate__(self):
            self.values.shape.assert_is_compatible_with(self.mask.shape)

    with pytest.raises(ValueError, match=r"^Shapes \(3,\) and \(2,\) are incompatible$"):
        V([1, 2, 3], [True, False])


def test_equality_is_a_tensor():
    a, b = MT([1, 2], [True, False]), MT([[1, 2]], [[True, False]])
    assert repr(a == a) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert repr(a != a) == "<tf.Tensor: shape=(), dtype=bool, numpy=False>"
    assert f"{a == a}" == "True"
    assert (a == b) is False
    assert (a == a.values) is False


def test_specs():
    a = MT([1, 2], [True, False])
    s = tf.type_spec_from_value(a)
    assert repr(s) == ("MT.Spec(values=TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
                       "mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))")
    assert s.value_type is MT and isinstance(s, tf.experimental.ExtensionTypeSpec)
    assert s == tf.type_spec_from_value(MT([3, 4], [True, True]))
    assert hash(s) == hash(tf.type_spec_from_value(MT([3, 4], [True, True])))
    assert repr(MT.Spec(values=tf.TensorSpec([2]), mask=tf.TensorSpec([2], tf.bool))) == (
        "MT.Spec(values=TensorSpec(shape=(2,), dtype=tf.float32, name=None), "
        "mask=TensorSpec(shape=(2,), dtype=tf.bool, name=None))")
    assert repr(tf.type_spec_from_value(P())) == ("P.Spec(color='black', n=3, f=1.0, shape=TensorShape(None), "
                                                  "dt=tf.float32, t=(), o=None, u=1)")

    class Player(tf.experimental.ExtensionType):
        name: tf.Tensor
        attributes: Mapping[str, tf.Tensor]

    spec = tf.type_spec_from_value(Player("Anne", {"height": 8.3, "speed": 28.1}))
    assert repr(spec.attributes) == ("ImmutableDict({'height': TensorSpec(shape=(), dtype=tf.float32, name=None), "
                                     "'speed': TensorSpec(shape=(), dtype=tf.float32, name=None)})")
    assert repr(tf.type_spec_from_value(tf.constant(1.))) == "TensorSpec(shape=(), dtype=tf.float32, name=None)"
    with pytest.raises(TypeError, match="^Could not build a TypeSpec for .* of unsupported type <class 'object'>.$"):
        tf.type_spec_from_value(object())


def test_nest_treats_values_as_composites():
    a = MT([1, 2], [True, False])
    assert tf.nest.flatten(a) == [a]
    flat = tf.nest.flatten(a, expand_composites=True)
    assert [t.dtype for t in flat] == [tf.int32, tf.bool]
    doubled = tf.nest.map_structure(lambda t: t, a, expand_composites=True)
    assert type(doubled) is MT and doubled.values.numpy().tolist() == [1, 2]


def test_forward_reference_and_inheritance():
    class Node(tf.experimental.ExtensionType):
        value: tf.Tensor
        children: Tuple["Node", ...] = ()

    assert repr(Node(3, [Node(5)])) == ("Node(value=<tf.Tensor: shape=(), dtype=int32, numpy=3>, children=(Node("
                                        "value=<tf.Tensor: shape=(), dtype=int32, numpy=5>, children=()),))")

    class Child(MT):
        extra: int = 0

    assert list(Child._tf_signature.parameters) == ["values", "mask", "extra"]


def test_tf_function_traces_per_spec():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return MT(x.values * 2, x.mask)

    assert f(MT([1, 2], [True, False])).values.numpy().tolist() == [2, 4]
    assert f(MT([3, 4], [True, True])).values.numpy().tolist() == [6, 8]     # same spec: no new trace
    assert len(traces) == 1 or f.experimental_get_tracing_count() == 1
    f(MT([1, 2, 3], [True, True, False]))
    assert f.experimental_get_tracing_count() == 2

    @tf.function(input_signature=[MT.Spec(tf.TensorSpec([2], tf.int32), tf.TensorSpec([2], tf.bool))])
    def g(x):
        return x.values + 1

    assert g(MT([1, 2], [True, False])).numpy().tolist() == [2, 3]
    cf = f.get_concrete_function(MT.Spec(tf.TensorSpec([2], tf.int32), tf.TensorSpec([2], tf.bool)))
    assert cf(MT([5, 6], [True, True])).values.numpy().tolist() == [10, 12]


def test_dispatch_for_api_and_unregister():
    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack(values: list[MT], axis=0):
        return MT(tf.stack([v.values for v in values], axis), tf.stack([v.mask for v in values], axis))

    try:
        out = tf.stack([MT([1], [True]), MT([2], [False])])
        assert type(out) is MT and out.values.numpy().tolist() == [[1], [2]]
        assert tf.stack([tf.constant(1), tf.constant(2)]).numpy().tolist() == [1, 2]
    finally:
        tf.experimental.unregister_dispatch_for(masked_stack)
    with pytest.raises(ValueError, match="Attempt to convert a value"):
        tf.stack([MT([1], [True])])
    with pytest.raises(ValueError, match="was not registered using a `@dispatch_for_\\*` decorator"):
        tf.experimental.unregister_dispatch_for(masked_stack)


def test_elementwise_dispatch():
    class EMT(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    @tf.experimental.dispatch_for_unary_elementwise_apis(EMT)
    def unary(api_func, x):
        return EMT(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(Union[EMT, tf.Tensor], Union[EMT, tf.Tensor])
    def binary(api_func, x, y):
        x = x if isinstance(x, EMT) else EMT(x, tf.ones_like(x, tf.bool))
        y = y if isinstance(y, EMT) else EMT(y, tf.ones_like(y, tf.bool))
        return EMT(api_func(x.values, y.values), x.mask & y.mask)

    try:
        x = EMT([1, -2, -3], [True, False, True])
        assert tf.abs(x).values.numpy().tolist() == [1, 2, 3]
        assert tf.ones_like(x, dtype=tf.float32).values.dtype == tf.float32
        s = tf.math.add(x, EMT([[4], [5]], [[True], [False]]))
        assert s.values.numpy().tolist() == [[5, 2, 1], [6, 3, 2]]
        assert s.mask.numpy().tolist() == [[True, False, True], [False, False, False]]
        assert tf.add(x, tf.constant([1, 1, 1])).values.numpy().tolist() == [2, -1, -2]
    finally:
        tf.experimental.unregister_dispatch_for(unary)
        tf.experimental.unregister_dispatch_for(binary)


def test_map_fn_over_batchable_rows():
    class Network(tf.experimental.BatchableExtensionType):
        shape: tf.TensorShape
        work: tf.Tensor

        def __init__(self, work):
            self.work = tf.convert_to_tensor(work)
            self.shape = self.work.shape[:-1]

    batch = Network([[5., 3.], [3., 4.]])
    rows = []
    out = tf.map_fn(lambda n: rows.append(n.shape) or Network(n.work * 2), batch)
    assert rows == [tf.TensorShape([]), tf.TensorShape([])]
    assert out.shape == tf.TensorShape([2]) and out.work.numpy().tolist() == [[10., 6.], [6., 8.]]


class Pastry(tf.experimental.BatchableExtensionType):
    sweetness: tf.Tensor
    chewiness: tf.Tensor


def test_tf_data_slices_batches_and_specs():
    ds = tf.data.Dataset.from_tensor_slices(Pastry([1., 2.], [3., 4.]))
    assert repr(ds.element_spec) == ("Pastry.Spec(sweetness=TensorSpec(shape=(), dtype=tf.float32, name=None), "
                                     "chewiness=TensorSpec(shape=(), dtype=tf.float32, name=None))")
    assert repr(ds.batch(2).element_spec) == (
        "Pastry.Spec(sweetness=TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
        "chewiness=TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    assert repr(list(ds.batch(2))) == (
        "[Pastry(sweetness=<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>, "
        "chewiness=<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 4.], dtype=float32)>)]")
    assert [p.sweetness.numpy() for p in ds.batch(2).unbatch()] == [1., 2.]
    assert iter(tf.data.Dataset.from_tensors(Pastry(5, 5))).next().sweetness.numpy() == 5


def test_tf_data_batch_shape_fields_and_generators():
    class Network(tf.experimental.BatchableExtensionType):
        shape: tf.TensorShape
        work: tf.Tensor

        def __init__(self, work):
            self.work = tf.convert_to_tensor(work)
            self.shape = self.work.shape[:-1]

    rows = list(tf.data.Dataset.from_tensor_slices(Network([[5., 3.], [3., 4.]])))
    assert [r.shape for r in rows] == [tf.TensorShape([]), tf.TensorShape([])]

    def gen():
        for i in range(3):
            yield Pastry([float(i)], [1.])

    spec = Pastry.Spec(tf.TensorSpec([1]), tf.TensorSpec([1]))
    ds = tf.data.Dataset.from_generator(gen, output_signature=spec)
    assert [p.sweetness.numpy().tolist() for p in ds.batch(2)] == [[[0.], [1.]], [[2.]]]


def test_tf_data_non_batchable_types_cannot_be_sliced():
    class NB(tf.experimental.ExtensionType):
        x: tf.Tensor

    assert repr(tf.data.Dataset.from_tensors(NB([1, 2])).element_spec) == \
        "NB.Spec(x=TensorSpec(shape=(2,), dtype=tf.int32, name=None))"
    with pytest.raises(AttributeError, match="^'NB.Spec' object has no attribute '_batch'$"):
        list(tf.data.Dataset.from_tensors(NB([1, 2])).batch(1))


def test_spec_is_subtype_of():
    # TF 2.21: a spec is a subtype of another of the same type whose TensorSpecs are as or less specific
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    class Other(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor
    three = Masked([1., 2, 3], [True, False, True])._type_spec
    unknown = Masked.Spec(values=tf.TensorSpec([None]), mask=tf.TensorSpec([None], tf.bool))
    assert three.is_subtype_of(unknown) and not unknown.is_subtype_of(three) and three.is_subtype_of(three)
    assert not three.is_subtype_of(Masked([1., 2], [True, False])._type_spec)
    assert not three.is_subtype_of(Other([1., 2, 3], [True, False, True])._type_spec)
    assert not three.is_subtype_of(Masked.Spec(values=tf.TensorSpec([3], tf.int32), mask=tf.TensorSpec([3], tf.bool)))
