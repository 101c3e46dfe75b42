"""StringLookup / IntegerLookup with several OOV indices (hashed buckets), oov_method and salt, against values
recorded from TF 2.21 + Keras 3.15."""
import numpy as np
import pytest

import tfcompat as tf

keras = tf.keras
WORDS = np.array([["a", "b", "zebra"], ["cat", "a", "dog"], ["", "q", "hello world"]], dtype=object)
INTS = np.array([[5, 7, 100], [-3, 2, 12345678901]], dtype="int64")


@pytest.mark.parametrize("kwargs, ids, size", [
    ({"num_oov_indices": 3}, [[3, 4, 2], [2, 3, 2], [2, 2, 0]], 6),                       # FarmHash Fingerprint64
    ({"num_oov_indices": 2, "mask_token": ""}, [[3, 4, 1], [1, 3, 1], [0, 2, 2]], 6),
    ({"num_oov_indices": 4, "salt": 7}, [[4, 5, 2], [3, 4, 3], [2, 2, 0]], 7),            # SipHash, key [7, 7]
    ({"num_oov_indices": 3, "salt": [1, 2]}, [[3, 4, 1], [2, 3, 0], [1, 0, 2]], 6),
    ({"num_oov_indices": 3, "output_mode": "multi_hot"},
     [[0, 0, 1, 1, 1, 0], [0, 0, 1, 1, 0, 0], [1, 0, 1, 0, 0, 0]], 6),
    ({"num_oov_indices": 2, "mask_token": "", "output_mode": "count"},
     [[1, 0, 1, 1, 0], [2, 0, 1, 0, 0], [0, 2, 0, 0, 0]], 5),
])
def test_string_lookup_oov_buckets(kwargs, ids, size):
    layer = keras.layers.StringLookup(vocabulary=["a", "b", "c"], **kwargs)
    assert np.asarray(layer(WORDS)).tolist() == ids
    assert layer.vocabulary_size() == size
    salt = kwargs.get("salt")
    assert layer.get_config()["salt"] == ([salt, salt] if isinstance(salt, int) else salt)


@pytest.mark.parametrize("kwargs, ids", [
    ({"num_oov_indices": 3}, [[4, 1, 1], [0, 3, 1]]),                                    # floormod
    ({"num_oov_indices": 3, "oov_method": "farmhash"}, [[4, 1, 0], [0, 3, 0]]),          # FarmHash of the text
    ({"num_oov_indices": 3, "oov_method": "farmhash", "salt": 5}, [[4, 1, 2], [1, 3, 0]]),
    ({"num_oov_indices": 2, "mask_token": 0}, [[4, 2, 1], [2, 3, 2]]),
])
def test_integer_lookup_oov_buckets(kwargs, ids):
    layer = keras.layers.IntegerLookup(vocabulary=[2, 5], **kwargs)
    assert np.asarray(layer(INTS)).tolist() == ids
    assert layer.get_config()["oov_method"] == kwargs.get("oov_method", "floormod")


def test_adapt_invert_and_argument_errors():
    layer = keras.layers.StringLookup(num_oov_indices=2)
    layer.adapt(["x", "y", "y", "z"])
    assert layer.get_vocabulary() == ["[UNK]", "[UNK]", "y", "z", "x"]
    assert np.asarray(layer(["y", "w", "qq"])).tolist() == [2, 1, 1]
    inverse = keras.layers.StringLookup(vocabulary=["a", "b"], num_oov_indices=2, invert=True)
    assert np.asarray(inverse([0, 1, 2, 3, 7])).tolist() == [b"[UNK]", b"[UNK]", b"a", b"b", b"[UNK]"]
    with pytest.raises(ValueError, match=r"^`salt` can only be used when `oov_method='farmhash'`. Received: "
                                         r"oov_method=floormod$"):
        keras.layers.IntegerLookup(salt=3)
    with pytest.raises(ValueError, match=r"^Unknown value for `oov_method` argument of IntegerLookup. Allowed values "
                                         r"are: \('floormod', 'farmhash'\). Received: oov_method=x$"):
        keras.layers.IntegerLookup(oov_method="x")
    with pytest.raises(ValueError, match=r"^The `salt` argument for `IndexLookup` can only be a tuple of 2 integers"):
        keras.layers.StringLookup(salt="x")
    with pytest.raises(ValueError, match=r"^`num_oov_indices` must be greater than or equal to 0. Received: "
                                         r"num_oov_indices=-1$"):
        keras.layers.StringLookup(num_oov_indices=-1)
