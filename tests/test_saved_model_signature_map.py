"""`loaded.signatures` as TF 2.21's `_SignatureMap` (golden text from TF): a read-only mapping and its repr."""
import pytest

import tfcompat as tf


class _Doubler(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(self, x):
        return x * 2


def test_signatures_of_a_model_saved_without_any(tmp_path):
    tf.saved_model.save(tf.Module(), str(tmp_path))
    signatures = tf.saved_model.load(str(tmp_path)).signatures
    assert repr(signatures) == "_SignatureMap({})"
    assert len(signatures) == 0 and list(signatures) == []


def test_signatures_are_a_read_only_mapping(tmp_path):
    module = _Doubler()
    module.f(tf.constant([0.0, 0.0]))      # tfcompat replays the shapes traced before saving
    tf.saved_model.save(module, str(tmp_path))
    signatures = tf.saved_model.load(str(tmp_path)).signatures
    fn = signatures["serving_default"]
    assert repr(signatures) == f"_SignatureMap({{'serving_default': {fn!r}}})"
    assert repr(signatures).startswith("_SignatureMap({'serving_default': <ConcreteFunction (*, x: TensorSpec(shape="
                                       "(None,), dtype=tf.float32, name='x')) -> Dict[['output_0', TensorSpec(")
    assert str(signatures) == repr(signatures)
    assert (len(signatures), list(signatures), "serving_default" in signatures) == (1, ["serving_default"], True)
    assert signatures.get("x") is None and signatures == {"serving_default": fn} and dict(signatures) == {
        "serving_default": fn}
    with pytest.raises(TypeError, match="^'_SignatureMap' object does not support item assignment$"):
        signatures["other"] = fn
    with pytest.raises(KeyError, match="^'nope'$"):
        signatures["nope"]
    assert fn(x=tf.constant([1.0, 2.0]))["output_0"].numpy().tolist() == [2.0, 4.0]
