"""tf.train.load_checkpoint's maps list their keys in TF 2.21's order (a C++ unordered_map), golden from TF."""
import tfcompat as tf
from tfcompat.train._unordered_map import iteration_order

# the order TF 2.21's reader returned for checkpoints holding these keys (written in sorted order by the bundle)
TF_ORDER_31 = (
    ["ii3ejd/h//g8dAgA8e01c.a.e.", "3", "2bb6BeBC08g", "2cag1hh35_A18dca8h4/", "2Aj0iBcbd1i7j9gA129ghicA.50jj3",
     "265/_A_8g", "A2.bf2a", "c38Bj/gACc.8i9a454dj7h22.a.", "0.ef3idAd6C.bCc2ch/.355/", "3c41", "380.3e75c850",
     "/B08ae968h96dhi_h2fB__6b65", "7g0f1c0f", "B5ei66a90_Ah_6B", ".", "1a080677i", "_658ihAe8h5.37bhg2e2/fd8gAb",
     "3_bh151ea8.be/5.19", "j4", "ee/.Bi3B29_6.85", "42c", "/9d4eg_C4", "8gCC.86/", "2C.dd5_BC5.g2/e4i/4g3b5.",
     ".1__51", "BcgbBec5", "Cef.afai_8gA5g9hA52", "0/186__56Ah_8.chBe_4_cB09A.8ic", "c9beCe6CACja3i14",
     "cAh6gCd0_281cbc/", "hcA0B1j08beCC3_e1dgi19aC452"])
TF_ORDER_13 = (
    ["i.5B5", "ei40jCeA/0/gibj02jCjifji9/", "_3c9Ah3C_8j6ad30bf38h81Bj", "g9Aj4fbbC.155d.jAbh/", "9bCfi1geb5",
     "94f65Cg4j18bjj", "8h0Cc9", "A5.gi8ajbi8cf3i8B6Ajd", "22C3g205c/94.4", "A6h0cb/a4Baf97i95", "1a20ja7./dif3",
     "C7f.bc2g/b07jbA9d346/ea_h3_", ".3ac.e72gC5.Cd"])


def test_unordered_map_order_matches_tf():
    for keys in (TF_ORDER_31, TF_ORDER_13):
        assert iteration_order(sorted(keys, key=lambda k: k.encode())) == keys


def test_reader_maps_in_tf_order(tmp_path):
    a, b = tf.Variable(5.0, name="a"), tf.Variable(6.0, name="b")
    with tf.name_scope("scoped"):
        c = tf.Variable(7.0, name="c")
    path = tf.train.Checkpoint(variables=[a, b, c]).save(str(tmp_path / "tf2-ckpt"))
    reader = tf.train.load_checkpoint(path)
    keys = ["variables/2/.ATTRIBUTES/VARIABLE_VALUE", "variables/1/.ATTRIBUTES/VARIABLE_VALUE",
            "variables/0/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE",
            "_CHECKPOINTABLE_OBJECT_GRAPH"]
    assert list(reader.get_variable_to_shape_map()) == keys and list(reader.get_variable_to_dtype_map()) == keys
    module = tf.Module()
    module.d = tf.Variable(0.0)
    path = tf.train.Checkpoint(v={"a": a, "b": b}, c=c, module=module).save(str(tmp_path / "root-tf2-ckpt"))
    assert list(tf.train.load_checkpoint(path).get_variable_to_shape_map()) == [
        "v/b/.ATTRIBUTES/VARIABLE_VALUE", "v/a/.ATTRIBUTES/VARIABLE_VALUE", "module/d/.ATTRIBUTES/VARIABLE_VALUE",
        "save_counter/.ATTRIBUTES/VARIABLE_VALUE", "c/.ATTRIBUTES/VARIABLE_VALUE", "_CHECKPOINTABLE_OBJECT_GRAPH"]
    assert [k for k, _ in tf.train.list_variables(path)] == sorted(tf.train.load_checkpoint(path)
                                                                  .get_variable_to_shape_map())
