"""`tf.saved_model`: not implemented yet in tfcompat (save/load raise NotImplementedError)."""
import os

from tfcompat.framework.export import tf_export


@tf_export("saved_model.save")
def save(obj, export_dir, signatures=None, options=None):
    """Not implemented yet: tfcompat cannot write SavedModels."""
    raise NotImplementedError("tf.saved_model.save is not implemented in tfcompat yet "
                              "(use tf.train.Checkpoint for variables)")


@tf_export("saved_model.load")
def load(export_dir, tags=None, options=None):
    """Not implemented yet; SavedModels written by TensorFlow are not supported."""
    if os.path.exists(os.path.join(export_dir, "saved_model.pb")):
        raise NotImplementedError(f"tf.saved_model.load({export_dir!r}): loading SavedModels written by TensorFlow "
                                  "is not supported by tfcompat yet")
    raise NotImplementedError("tf.saved_model.load is not implemented in tfcompat yet")
