"""`tf.keras.callbacks` (Keras 3): hooks called by `fit`/`evaluate`/`predict`, with Keras's messages and files.

One module per job: `_base` (the protocol, `CallbackList`, `History`, `ProgbarLogger`, `LambdaCallback`),
`_control` (callbacks that stop training or change the learning rate from its metrics), `_weights` (checkpoints,
backups), `_loggers` (CSV and TensorBoard logs).
"""
from tfcompat.keras.callbacks._base import (Callback, CallbackList, History, LambdaCallback, ProgbarLogger,
                                            pythonify_logs)
from tfcompat.keras.callbacks._control import (EarlyStopping, LearningRateScheduler, MonitorCallback,
                                               ReduceLROnPlateau, TerminateOnNaN)
from tfcompat.keras.callbacks._loggers import CSVLogger, RemoteMonitor, TensorBoard
from tfcompat.keras.callbacks._weights import BackupAndRestore, ModelCheckpoint, SwapEMAWeights

__all__ = ["Callback", "CallbackList", "History", "LambdaCallback", "ProgbarLogger", "pythonify_logs",
           "EarlyStopping", "LearningRateScheduler", "MonitorCallback", "ReduceLROnPlateau", "TerminateOnNaN",
           "CSVLogger", "RemoteMonitor", "TensorBoard", "BackupAndRestore", "ModelCheckpoint", "SwapEMAWeights"]
