"""Saving cases from the Keras guides corpus (distributed_training's checkpoints, transfer_learning).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras


def _model():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    m.compile("adam", "mse")
    return m


def test_load_weights_leaves_an_unbuilt_optimizer_unbuilt(tmp_path):
    # TF 2.21: load_weights does not build the optimizer; a saved optimizer of another size is skipped with a warning
    m = _model()
    m.fit(np.ones((4, 3)), np.zeros((4, 2)), verbose=0)
    m.save_weights(str(tmp_path / "w.weights.h5"))
    m.save(str(tmp_path / "m.keras"))
    n = _model()
    with pytest.warns(UserWarning, match="Skipping variable loading for optimizer 'adam.*', because it has 2 "
                                         "variables whereas the saved optimizer has 6 variables. "):
        n.load_weights(str(tmp_path / "w.weights.h5"))
    assert len(n.optimizer.variables) == 2 and int(n.optimizer.iterations.numpy()) == 0
    np.testing.assert_allclose(n.layers[0].kernel.numpy()[0], [0.999, 0.999], rtol=1e-6)
    n2 = _model()
    with pytest.warns(UserWarning, match="it has 2 variables whereas the saved optimizer has 6 variables"):
        n2.load_weights(str(tmp_path / "m.keras"))
    assert int(n2.optimizer.iterations.numpy()) == 0
    # load_model builds it (Keras compiles from the config) and restores a saved state of the same size
    k = keras.models.load_model(str(tmp_path / "m.keras"))
    assert len(k.optimizer.variables) == 6 and int(k.optimizer.iterations.numpy()) == 1
    n.save(str(tmp_path / "n.keras"))
    with pytest.warns(UserWarning, match="it has 6 variables whereas the saved optimizer has 2 variables"):
        k = keras.models.load_model(str(tmp_path / "n.keras"))
    assert int(k.optimizer.iterations.numpy()) == 0


def test_load_weights_into_a_compiled_unfit_model_is_silent(tmp_path, recwarn):
    m = _model()
    m.save_weights(str(tmp_path / "w.weights.h5"))
    m.load_weights(str(tmp_path / "w.weights.h5"))
    assert len(m.optimizer.variables) == 2
    assert not [w for w in recwarn if "Skipping variable loading" in str(w.message)]
