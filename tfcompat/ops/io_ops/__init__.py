"""`tf.io`: one module per job; importing the package registers every op.

- `gfile`: `tf.io.gfile` (local files only) and the path and OS-error helpers the other file ops use.
- `files`: `read_file`, `write_file`, `matching_files`.
- `tfrecord`: `TFRecordOptions`, `TFRecordWriter` (framing in `util/records.py`; reading is `data/tfrecord.py`).
- `example` (over `example_wire`, the wire-format reader): feature specs, `parse_example`, `parse_single_example`.
- `sequence_example` (over `example_wire`): `parse_single_sequence_example`, `parse_sequence_example`.
- `sparse_serialize`: `serialize_sparse`, `serialize_many_sparse`, `deserialize_many_sparse`.
- `json_example`: `decode_json_example` (protobuf's JSON mapping of an Example to its bytes).
- `tensor_proto`: `serialize_tensor`, `parse_tensor`, `tf.make_ndarray`.
- `csv_decode`: `decode_csv`.
- `image_codecs` (over `png_decode`, `gif_decode`, `bmp_decode`, `jpeg_header`, `webp_header`, `util/encoders.py`
  and `vision_extra`, the optional JPEG/WebP codec's import): `decode_png/jpeg/gif/bmp/webp/image`,
  `decode_and_crop_jpeg`, `extract_jpeg_shape`, `encode_png/jpeg`.
- `_common`: kernel errors, string tensors and NumPy conversions shared by the above.
"""
from tfcompat.ops.io_ops import csv_decode, example, files, gfile, image_codecs, tensor_proto, tfrecord  # noqa: F401
from tfcompat.ops.io_ops import json_example, sequence_example, sparse_serialize  # noqa: F401
