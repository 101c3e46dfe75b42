"""Callback cases from the Keras guides corpus (writing_your_own_callbacks, distributed_training, training loops).

Golden values recorded from TF 2.21 + Keras 3.15.1."""
import numpy as np

import tfcompat as tf

keras = tf.keras

X = np.ones((8, 2), "float32")
Y = np.ones((8, 1), "float32")


def _model():
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    m.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", metrics=[keras.metrics.MeanAbsoluteError(name="zz")])
    return m


def test_csv_logger_columns_sorted_with_validation(tmp_path):
    path = str(tmp_path / "a.csv")
    _model().fit(X, Y, epochs=1, batch_size=4, verbose=0, validation_data=(X, Y),
                 callbacks=[keras.callbacks.CSVLogger(path)])
    # TF 2.21: the keys sorted as they are (a `val_` key is not moved behind `zz`)
    assert open(path).read() == "epoch,loss,val_loss,val_zz,zz\n0,1.0,1.0,1.0,1.0\n"


def test_csv_logger_adds_val_columns_without_validation(tmp_path):
    path = str(tmp_path / "b.csv")
    _model().fit(X, Y, epochs=2, batch_size=4, verbose=0, callbacks=[keras.callbacks.CSVLogger(path, separator=";")])
    # TF 2.21
    assert open(path).read() == "epoch;loss;zz;val_loss;val_zz\n0;1.0;1.0;NA;NA\n1;1.0;1.0;NA;NA\n"
