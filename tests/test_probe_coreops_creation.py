"""tf.constant / convert_to_tensor of what users pass by mistake (messages recorded from TF 2.21)."""
import pytest

import tfcompat as tf

_NONE = "Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor."
_MIXED = "Can't convert Python sequence with mixed types to Tensor."


@pytest.mark.parametrize("value, message", [
    ([None], _NONE), ([None, 1], _NONE), ([1, None], _MIXED), ([1.5, None], _MIXED), (["a", None], _MIXED),
    ([None, "a"], _NONE), ([[1, 2], [None, 3]], _MIXED), ([True, None], _MIXED), ((None,), _NONE),
])
def test_none_in_sequence(value, message):
    # TF 2.21: the first leaf decides which error its sequence conversion raises
    with pytest.raises(ValueError) as e:
        tf.constant(value)
    assert str(e.value) == message
