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
