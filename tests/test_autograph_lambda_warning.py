"""AutoGraph's warning for a lambda it cannot locate (another lambda of the same signature on its line), logged by
tf.data's transformations as TF 2.21 logs it (text checked against TF 2.21)."""
import tfcompat as tf

_TAIL = ("found multiple definitions with identical signatures at the location. This error may be avoided by defining "
         "each lambda on a single line and with unique argument names. The matching definitions were:\n"
         "Match 0:\nlambda x: x > 4\n\nMatch 1:\nlambda x: x * 2\n\n"
         "To silence this warning, decorate the function with @tf.autograph.experimental.do_not_convert")


def _messages(caplog):
    return [r.getMessage() for r in caplog.records if "AutoGraph could not transform" in r.getMessage()]


def test_same_signature_lambdas_on_one_line_warn_once_each(caplog):
    ds = tf.data.Dataset.range(6)
    out = list(ds.map(lambda x: x * 2).filter(lambda x: x > 4).as_numpy_iterator())
    assert out == [6, 8, 10]
    messages = _messages(caplog)
    assert len(messages) == 2
    for m in messages:
        head, _, rest = m.partition(" and will run it as-is.\nCause: could not parse the source code of ")
        assert head.startswith("AutoGraph could not transform <function ") and "<lambda> at 0x" in head
        assert rest.split(": ", 1)[1] == _TAIL


def test_no_warning_for_distinct_signatures_or_do_not_convert(caplog):
    ds = tf.data.Dataset.range(6)
    list(ds.map(lambda y: y * 2).filter(lambda x: x > 4))
    skip = tf.autograph.experimental.do_not_convert
    g, h = skip(lambda x: x + 1), skip(lambda x: x * 3)
    ds.map(g).map(h)
    assert _messages(caplog) == []
