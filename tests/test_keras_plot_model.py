"""`keras.utils.plot_model`/`model_to_dot` without pydot: Keras 3.15's errors (text recorded from Keras 3.15.1)."""
import sys

import pytest

from tfcompat import keras


@pytest.fixture(autouse=True)
def _no_pydot(monkeypatch):
    monkeypatch.setitem(sys.modules, "pydot", None)      # importing it raises ImportError, as when not installed


def _model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])


def test_plot_model_without_pydot():
    with pytest.raises(ImportError, match="^You must install pydot \\(`pip install pydot`\\) for `plot_model` to "
                                          "work.$"):
        keras.utils.plot_model(_model(), "model.png", show_shapes=True)


def test_plot_model_under_ipython_prints_the_message(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "IPython.core.magics.namespace", sys)
    assert keras.utils.plot_model(_model()) is None
    assert capsys.readouterr().out == "You must install pydot (`pip install pydot`) for `plot_model` to work.\n"


def test_model_to_dot_without_pydot():
    with pytest.raises(ImportError, match="^You must install pydot \\(`pip install pydot`\\) for model_to_dot to "
                                          "work.$"):
        keras.utils.model_to_dot(_model())


def test_unbuilt_model_is_refused_first():
    with pytest.raises(ValueError, match="^This model has not yet been built. Build the model first by calling "
                                         "`build\\(\\)` or by calling the model on a batch of data.$"):
        keras.utils.plot_model(keras.Sequential([keras.layers.Dense(1)]))
