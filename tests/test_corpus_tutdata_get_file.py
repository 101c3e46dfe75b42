"""keras.utils.get_file as the load_data tutorials call it: Keras's "Downloading data from" line and byte progress
bar, the re-download notice, the corrupted-download error, the /tmp/.keras fallback for a missing cache dir.

Golden values recorded from TF 2.21 + Keras 3.15.1 (downloads from file:// URLs, which Keras's urlretrieve reads)."""
import hashlib
import re

import pytest

import tfcompat as tf

BAR = ("\r\x1b[1m 0/12\x1b[0m \x1b[37m━━━━━━━━━━━━━━━━━━━━\x1b[0m \x1b[1m0s\x1b[0m 0s/step" + "\b" * 37 +
       "\r\x1b[1m12/12\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m \x1b[1m0s\x1b[0m T/step\n")


def _out(capsys):
    return re.sub(r"\d+(us|ms)/step", "T/step", capsys.readouterr().out)


def test_download_prints_keras_line_and_bar(tmp_path, capsys):
    src = tmp_path / "src.txt"
    src.write_text("hello world\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    origin = "file://" + str(src)
    path = tf.keras.utils.get_file(fname="a.txt", origin=origin, cache_dir=str(cache))
    assert path == str(cache / "datasets" / "a.txt") and open(path).read() == "hello world\n"
    assert _out(capsys) == f"Downloading data from {origin}\n" + BAR          # TF 2.21
    tf.keras.utils.get_file(fname="a.txt", origin=origin, cache_dir=str(cache))
    assert _out(capsys) == ""                                                  # cached: nothing printed
    (cache / "datasets" / "a.txt").write_text("corrupt")
    digest = hashlib.sha256(src.read_bytes()).hexdigest()
    tf.keras.utils.get_file(fname="a.txt", origin=origin, cache_dir=str(cache), file_hash=digest)
    assert _out(capsys) == ("A local file was found, but it seems to be incomplete or outdated because the auto file "
                            f"hash does not match the original value of {digest} so we will re-download the data.\n"
                            f"Downloading data from {origin}\n" + BAR)
    with pytest.raises(ValueError, match=r"^Incomplete or corrupted file detected\. The auto file hash does not match "
                                         r"the provided value of 0{64}\.$"):
        tf.keras.utils.get_file(fname="c.txt", origin=origin, cache_dir=str(cache), file_hash="0" * 64)


def test_missing_cache_dir_falls_back_to_tmp_keras(tmp_path, capsys):
    src = tmp_path / "src.txt"
    src.write_text("hello world\n")
    name = f"tutdata_{tmp_path.name}.txt"
    # TF 2.21: a cache_dir Keras cannot write to (here: missing) means /tmp/.keras
    path = tf.keras.utils.get_file(fname=name, origin="file://" + str(src), cache_dir=str(tmp_path / "nope"))
    assert path == f"/tmp/.keras/datasets/{name}"
    import os
    os.remove(path)


def test_unreachable_origin_prints_the_download_line(tmp_path, capsys):
    with pytest.raises(Exception, match="^URL fetch failure on http://nonexistent.invalid/b.txt: None -- ") as e:
        tf.keras.utils.get_file(fname="b.txt", origin="http://nonexistent.invalid/b.txt", cache_dir=str(tmp_path))
    assert type(e.value) is Exception           # TF 2.21: Keras raises a plain Exception
    assert _out(capsys) == "Downloading data from http://nonexistent.invalid/b.txt\n"
