"""Model building as Keras 3.15: Sequential.build's rules, summary() layouts (values recorded from TF 2.21)."""
import pytest

from tfcompat import keras
from tfcompat.keras import layers


def test_sequential_build_without_a_shape_is_a_no_op():
    # TF 2.21: Keras's Sequential.build returns when the shape is not one input shape
    s = keras.Sequential([keras.Input((10,)), layers.Dense(5)])
    assert s.build() is None
    assert s.build((None, 10)) is None
    assert s.count_params() == 55
    u = keras.Sequential([layers.Dense(5)])
    u.build()
    assert not u.layers[0].built
    u.build((None, 3))
    assert u.layers[0].built and u.count_params() == 20
    w = keras.Sequential([layers.Dense(2)])
    w.build([None, 4])
    assert w.input_shape == (None, 4)


def test_sequential_build_errors():
    # TF 2.21
    s = keras.Sequential([keras.Input((10,)), layers.Dense(5)])
    with pytest.raises(ValueError, match=r"^Sequential model 'sequential' has already been configured to use input "
                                         r"shape \(None, 10\). You cannot build it with input_shape \(None, 7\)$"):
        s.build((None, 7))
    with pytest.raises(ValueError, match=r"You cannot build it with input_shape \(8, 10\)$"):
        s.build((8, 10))
    with pytest.raises(ValueError, match=r"^Sequential model q cannot be built because it has no layers. Call "
                                         r"`model.add\(layer\)`.$"):
        keras.Sequential(name="q").build((None, 3))


def test_summary_header_cells_align_to_the_bottom():
    inp = keras.Input((32, 32, 3), name="img")
    x = layers.Conv2D(8, 3, name="c1")(inp)
    aux = keras.Input((4,), name="meta")
    c = layers.Concatenate(name="cat")([layers.GlobalAveragePooling2D(name="gap")(x), aux])
    m = keras.Model([inp, aux], layers.Dense(3, name="cls")(c), name="multi")
    lines = []
    m.summary(positions=[0.4, 0.7, 0.85, 1.0], print_fn=lines.append)
    text = "\n".join(lines)
    # TF 2.21: the wrapped "Connected to" header puts its first word on the first line, the others bottom-aligned
    assert ("┃                             ┃                      ┃         ┃ Connected ┃\n"
            "┃ Layer (type)                ┃ Output Shape         ┃ Param # ┃ to        ┃\n"
            "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━━━┩\n"
            "│ img (InputLayer)            │ (None, 32, 32, 3)    │       0 │ -         │") in text


def test_functional_inputs_structure_warning():
    import numpy as np
    base = keras.Sequential([keras.Input((8,)), layers.Dense(6, name="h1"), layers.Dense(4, name="h2")])
    feat = keras.Model(inputs=base.inputs, outputs=base.get_layer("h2").output)
    # TF 2.21: `inputs=base.inputs` is a list; a NumPy array (not a tensor) for it is a structure mismatch
    with pytest.warns(UserWarning) as record:
        assert feat(np.ones((1, 8))).shape == (1, 4)
    assert str(record[0].message) == ("The structure of `inputs` doesn't match the expected structure.\n"
                                      "Expected: ['keras_tensor']\nReceived: inputs=Tensor(shape=(1, 8))")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert feat.predict(np.ones((3, 8)), verbose=0).shape == (3, 4)      # a tensor reaches the model
        assert feat([np.ones((1, 8))]).shape == (1, 4)
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    m = keras.Model({"a": a, "b": b}, layers.Concatenate()([a, b]))
    with pytest.warns(UserWarning) as record:
        assert m([np.ones((1, 2)), np.ones((1, 3))]).shape == (1, 5)
    assert str(record[0].message) == ("The structure of `inputs` doesn't match the expected structure.\n"
                                      "Expected: {'a': 'a', 'b': 'b'}\n"
                                      "Received: inputs=['Tensor(shape=(1, 2))', 'Tensor(shape=(1, 3))']")


def test_functional_input_count_and_names():
    import numpy as np
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    m2 = keras.Model([a, b], layers.Concatenate()([a, b]), name="two")
    # TF 2.21: Keras's input spec names the Inputs
    with pytest.raises(ValueError) as e:
        m2(np.ones((1, 2)))
    assert str(e.value) == ('Layer "two" expects 2 named input(s) with keys [\'a\', \'b\'], but it received 1 input '
                            "tensors. Pass inputs as a dict, e.g. `layer({'a': ..., 'b': ...})`.")
    with pytest.raises(ValueError) as e:
        m2({"a": np.ones((1, 2))})
    assert str(e.value) == ('Missing data for input "b". You passed a data dictionary with keys [\'a\']. Expected '
                            "the following keys: ['a', 'b']")
    assert m2({"a": np.ones((1, 2)), "b": np.ones((1, 3)), "c": np.ones((1, 1))}).shape == (1, 5)
    i1 = keras.Input((5,))
    m1 = keras.Model(i1, layers.Dense(1)(i1))
    with pytest.raises(ValueError) as e:
        m1({"x": np.ones((2, 5))})
    assert str(e.value) == ('Missing data for input "input_layer". You passed a data dictionary with keys [\'x\']. '
                            "Expected the following keys: ['input_layer']")


def test_single_input_model_called_on_a_one_element_list():
    import numpy as np
    inputs = keras.Input((1,))
    model = keras.Model(inputs, layers.Dense(1)(inputs))
    # TF 2.21: Keras warns, then flattens the list: the output keeps the batch shape (tfcompat gave (1, 3, 1))
    with pytest.warns(UserWarning) as record:
        assert model([np.ones((3, 1))]).shape == (3, 1)
        assert model.predict([np.ones((3, 1))], verbose=0).shape == (3, 1)
    assert str(record[0].message) == ("The structure of `inputs` doesn't match the expected structure.\n"
                                      "Expected: keras_tensor\nReceived: inputs=['Tensor(shape=(3, 1))']")
