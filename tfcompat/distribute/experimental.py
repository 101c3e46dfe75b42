"""`tf.distribute.experimental`: the older strategy spellings and the communication options."""
from tfcompat.distribute import experimental_coordinator as coordinator  # noqa: F401
from tfcompat.distribute.central_storage import CentralStorageStrategy  # noqa: F401
from tfcompat.distribute.cross_device_ops import (CommunicationImplementation,  # noqa: F401
                                                  CommunicationImplementation as CollectiveCommunication,
                                                  CommunicationOptions)
from tfcompat.distribute.input import ValueContext  # noqa: F401
from tfcompat.distribute.multi_worker import (  # noqa: F401
    _ExperimentalMultiWorkerMirroredStrategy as MultiWorkerMirroredStrategy)
from tfcompat.distribute.unsupported import ParameterServerStrategy, TPUStrategy  # noqa: F401


def __getattr__(attr):
    from tfcompat._api import missing
    raise missing("distribute.experimental", attr)
