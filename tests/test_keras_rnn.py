"""Keras 3 recurrent layers and wrappers: numerics vs Keras 3 (golden values), weight paths, configs."""
import numpy as np
import pytest

import tfcompat as tf
from tfcompat import keras
from tfcompat.keras import layers


def W(shape, k):
    return (np.sin(np.arange(np.prod(shape)) * 0.37 + k) * 0.5).reshape(shape).astype(np.float32)


X = np.cos(np.arange(2 * 4 * 5) * 0.7).reshape(2, 4, 5).astype(np.float32)

# Keras 3.15 outputs (flattened) with weights W(shape, i) set in `get_weights()` order.
GOLDEN = {'bi_ave_state': [[[-0.024351000785827637, -0.003768000053241849], [-0.01785700023174286, -0.007453000172972679]],
                  [[-0.08140599727630615, -0.13007600605487823], [-0.06349799782037735, -0.12052199989557266]],
                  [[-0.21396200358867645, -0.3522140085697174], [-0.17450200021266937, -0.3669320046901703]],
                  [[0.03270399942994118, 0.12254100292921066], [0.027783000841736794, 0.10561499744653702]],
                  [[0.0532820001244545, 0.1912360042333603], [0.04760099947452545, 0.17538200318813324]]],
 'bi_concat': [[[[-0.1042189970612526, -0.11040200293064117, -0.1023159995675087, 0.15493300557136536,
                  0.18154899775981903, 0.18870599567890167],
                 [-0.15009699761867523, -0.1682170033454895, -0.1705079972743988, 0.14404499530792236,
                  0.18100999295711517, 0.19798800349235535],
                 [-0.17134800553321838, -0.18234199285507202, -0.1732569932937622, 0.11674600094556808,
                  0.1377290040254593, 0.14442799985408783],
                 [-0.1892479956150055, -0.20611800253391266, -0.20412500202655792, 0.10583599656820297,
                  0.12303800135850906, 0.12747299671173096]],
                [[-0.07011999934911728, -0.08457999676465988, -0.08864100277423859, 0.12422700226306915,
                  0.16022999584674835, 0.18003100156784058],
                 [-0.15392500162124634, -0.1716960072517395, -0.17044399678707123, 0.1605129987001419,
                  0.19000700116157532, 0.19762200117111206],
                 [-0.15984399616718292, -0.17614099383354187, -0.17513400316238403, 0.10374700278043747,
                  0.13511599600315094, 0.15091000497341156],
                 [-0.19316500425338745, -0.2066739946603775, -0.19736699759960175, 0.10755500197410583,
                  0.11674199998378754, 0.11286299675703049]]]],
 'bi_none_state': [[[0.9555559754371643, 0.8900200128555298], [0.8327010273933411, 0.8941159844398499]],
                   [[0.38905999064445496, 0.033362001180648804], [0.9015219807624817, 0.9008780121803284]]],
 'bi_sum': [[[-0.10609699785709381, -0.15082299709320068], [0.11517299711704254, 0.13040600717067719]]],
 'gru': [[[[0.00030499999411404133, 0.0012420000275596976, 0.0006189999985508621],
           [-0.16617600619792938, -0.19754700362682343, -0.20965300500392914],
           [-0.06279399991035461, -0.08497200161218643, -0.10177700221538544],
           [-0.19550099968910217, -0.2252199947834015, -0.2302439957857132]],
          [[-0.03588499873876572, -0.06457299739122391, -0.08430299907922745],
           [-0.1351509988307953, -0.1522510051727295, -0.1489959955215454],
           [-0.170741006731987, -0.21361899375915527, -0.2287369966506958],
           [-0.12317699939012527, -0.12957899272441864, -0.12120000272989273]]],
         [[-0.19550099968910217, -0.2252199947834015, -0.2302439957857132],
          [-0.12317699939012527, -0.12957899272441864, -0.12120000272989273]]],
 'gru_v1': [[[-0.3561980128288269, -0.3963469862937927, -0.3950360119342804],
             [-0.3139289915561676, -0.33245500922203064, -0.30907899141311646]]],
 'init_state': [[[-0.17605499923229218, -0.19659100472927094, -0.197953000664711],
                 [-0.18672700226306915, -0.20719799399375916, -0.20309199392795563]]],
 'lstm': [[[-0.1892479956150055, -0.20611800253391266, -0.20412500202655792],
           [-0.19316500425338745, -0.2066739946603775, -0.19736699759960175]],
          [[-0.1892479956150055, -0.20611800253391266, -0.20412500202655792],
           [-0.19316500425338745, -0.2066739946603775, -0.19736699759960175]],
          [[-0.5681830048561096, -0.5494409799575806, -0.4657270014286041],
           [-0.5268399715423584, -0.5016220211982727, -0.4170899987220764]]],
 'lstm_seq_back': [[[[-0.11827199906110764, -0.13583700358867645, -0.13902199268341064],
                     [-0.15185299515724182, -0.16299499571323395, -0.1554660052061081],
                     [-0.17079800367355347, -0.18970400094985962, -0.19163799285888672],
                     [-0.1966480016708374, -0.2063020020723343, -0.19336099922657013]],
                    [[-0.11879699677228928, -0.12694700062274933, -0.11906199902296066],
                     [-0.13635200262069702, -0.15171599388122559, -0.1515520066022873],
                     [-0.18372699618339539, -0.2010059952735901, -0.19741599261760712],
                     [-0.17890100181102753, -0.1882680058479309, -0.17914600670337677]]]],
 'mask_last': [[[-0.06279399991035461, -0.08497200161218643, -0.10177700221538544],
                [-0.1351509988307953, -0.1522510051727295, -0.1489959955215454]]],
 'mask_seq': [[[[-0.1042189970612526, -0.11040200293064117, -0.1023159995675087],
                [-0.15009699761867523, -0.1682170033454895, -0.1705079972743988],
                [-0.17134800553321838, -0.18234199285507202, -0.1732569932937622],
                [-0.17134800553321838, -0.18234199285507202, -0.1732569932937622]],
               [[-0.07011999934911728, -0.08457999676465988, -0.08864100277423859],
                [-0.15392500162124634, -0.1716960072517395, -0.17044399678707123],
                [-0.15392500162124634, -0.1716960072517395, -0.17044399678707123],
                [-0.15392500162124634, -0.1716960072517395, -0.17044399678707123]]]],
 'simple': [[[[0.8777539730072021, 0.9150050282478333, 0.9118160009384155],
              [0.4473850131034851, -0.2026119977235794, -0.6985830068588257],
              [0.7539229989051819, 0.895238995552063, 0.9375609755516052],
              [0.7901989817619324, 0.3596619963645935, -0.3539229929447174]],
             [[0.1435299962759018, 0.3203490078449249, 0.44191300868988037],
              [0.8519690036773682, 0.6993240118026733, 0.33766698837280273],
              [0.22948899865150452, 0.09171699732542038, -0.06206800043582916],
              [0.9197400212287903, 0.9195460081100464, 0.8787260055541992]]]],
 'stacked': [[[0.29143500328063965, 0.3794640004634857], [0.29194700717926025, 0.37919101119041443]],
             [[-0.1892479956150055, -0.20611800253391266, -0.20412500202655792],
              [-0.19316500425338745, -0.2066739946603775, -0.19736699759960175]],
             [[-0.5681830048561096, -0.5494409799575806, -0.4657270014286041],
              [-0.5268399715423584, -0.5016220211982727, -0.4170899987220764]],
             [[0.29143500328063965, 0.3794640004634857], [0.29194700717926025, 0.37919101119041443]]],
 'td': [[[[1.331984043121338, 1.6987539529800415, 1.8356059789657593],
          [-0.2786700129508972, -0.5776259899139404, -0.7984030246734619],
          [0.8194130063056946, 1.2806379795074463, 1.5685360431671143],
          [0.3734529912471771, 0.07665000110864639, -0.23052600026130676]],
         [[0.11061500012874603, 0.47335100173950195, 0.772022008895874],
          [1.048846960067749, 0.9343529939651489, 0.6933979988098145],
          [-0.44554299116134644, -0.325764000415802, -0.16189399361610413],
          [1.4150880575180054, 1.5733239650726318, 1.5186179876327515]]]]}
CASES = {'bi_ave_state': "layers.Bidirectional(layers.LSTM(2, return_state=True), merge_mode='ave')",
 'bi_concat': 'layers.Bidirectional(layers.LSTM(3, return_sequences=True))',
 'bi_none_state': 'layers.Bidirectional(layers.SimpleRNN(2), merge_mode=None)',
 'bi_sum': "layers.Bidirectional(layers.GRU(2), merge_mode='sum')",
 'gru': 'layers.GRU(3, return_sequences=True, return_state=True)',
 'gru_v1': 'layers.GRU(3, reset_after=False)',
 'lstm': 'layers.LSTM(3, return_state=True)',
 'lstm_seq_back': 'layers.LSTM(3, return_sequences=True, go_backwards=True)',
 'simple': 'layers.SimpleRNN(3, return_sequences=True)',
 'stacked': 'layers.RNN([layers.LSTMCell(3), layers.GRUCell(2)], return_state=True)',
 'td': 'layers.TimeDistributed(layers.Dense(3))'}


def _with_weights(layer, shape=X.shape):
    layer.build(shape)
    layer.set_weights([W(w.shape, i) for i, w in enumerate(layer.get_weights())])
    return layer


def _flat(y):
    return [np.asarray(t) for t in tf.nest.flatten(y)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_keras(case):
    layer = _with_weights(eval(CASES[case]))
    got = _flat(layer(X))
    assert len(got) == len(GOLDEN[case])
    for g, want in zip(got, GOLDEN[case]):
        np.testing.assert_allclose(g, np.array(want, np.float32), atol=1e-5)


def test_mask_and_initial_state():
    mask = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], bool)
    lstm = _with_weights(layers.LSTM(3, return_sequences=True))
    np.testing.assert_allclose(lstm(X, mask=tf.constant(mask)), GOLDEN["mask_seq"][0], atol=1e-5)
    gru = _with_weights(layers.GRU(3))
    np.testing.assert_allclose(gru(X, mask=tf.constant(mask)), GOLDEN["mask_last"][0], atol=1e-5)
    lstm = _with_weights(layers.LSTM(3))
    out = lstm(X, initial_state=[tf.constant(W((2, 3), 7)), tf.constant(W((2, 3), 8))])
    np.testing.assert_allclose(out, GOLDEN["init_state"][0], atol=1e-5)


def test_weight_paths_and_init():
    lstm = layers.LSTM(2, name="lstm")
    lstm.build((1, 3, 4))
    assert [w.path for w in lstm.weights] == ["lstm/lstm_cell/kernel", "lstm/lstm_cell/recurrent_kernel",
                                              "lstm/lstm_cell/bias"]
    assert lstm.get_weights()[2].tolist() == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    gru = layers.GRU(3, name="gru")
    gru.build((2, 4, 5))
    assert [tuple(w.shape) for w in gru.weights] == [(5, 9), (3, 9), (2, 9)]
    rk = gru.get_weights()[1]
    np.testing.assert_allclose(rk @ rk.T, np.eye(3), atol=1e-5)     # orthogonal recurrent kernel
    bi = layers.Bidirectional(layers.LSTM(3, name="enc"), name="bi")
    bi.build((2, 4, 5))
    assert [w.path for w in bi.weights][::3] == ["bi/forward_enc/lstm_cell/kernel", "bi/backward_enc/lstm_cell/kernel"]
    rnn = layers.RNN([layers.LSTMCell(3, name="a"), layers.GRUCell(2, name="b")], name="rnn")
    rnn.build((2, 4, 5))
    paths = [w.path for w in rnn.weights][::3]
    assert [p.split("/")[0] + "/" + p.split("/")[2] for p in paths] == ["rnn/a", "rnn/b"]
    assert paths[0].split("/")[1].startswith("stacked_rnn_cells")
    td = layers.TimeDistributed(layers.Dense(3, name="d"), name="td")
    td.build((2, 4, 5))
    assert [w.path for w in td.weights] == ["td/d/kernel", "td/d/bias"]


def test_cells_step():
    cell = _with_weights(layers.LSTMCell(3), (2, 5))
    h, (h2, c) = cell(tf.constant(X[:, 0]), [tf.zeros((2, 3)), tf.zeros((2, 3))])
    lstm = _with_weights(layers.LSTM(3, return_sequences=True))
    np.testing.assert_allclose(h, lstm(X)[:, 0], atol=1e-6)
    np.testing.assert_allclose(h2, h)
    assert layers.LSTMCell(3).state_size == [3, 3] and layers.GRUCell(3).state_size == 3
    assert layers.StackedRNNCells([layers.LSTMCell(3), layers.GRUCell(2)]).state_size == [[3, 3], 2]


def test_functional_shapes_and_gradient():
    inp = keras.Input((None, 5))
    seq = layers.Bidirectional(layers.LSTM(4, return_sequences=True))(inp)
    out, h, c = layers.LSTM(3, return_state=True)(seq)
    assert seq.shape == (None, None, 8) and out.shape == (None, 3) and c.shape == (None, 3)
    y = layers.TimeDistributed(layers.Dense(2))(seq)
    assert y.shape == (None, None, 2)
    model = keras.Model(inp, [out, y])
    a, b = model(X)
    assert a.shape == (2, 3) and b.shape == (2, 4, 2)
    gru = layers.GRU(3)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(gru(X))
    grads = tape.gradient(loss, gru.trainable_variables)
    assert [tuple(g.shape) for g in grads] == [(5, 9), (3, 9), (2, 9)]
    assert all(float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)


def test_dropout_training_only():
    lstm = layers.LSTM(3, dropout=0.5, recurrent_dropout=0.5)
    a, b = lstm(X), lstm(X)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(lstm(X, training=True), a)


KEYS_SIMPLE = {'activation', 'activity_regularizer', 'bias_constraint', 'bias_initializer', 'bias_regularizer', 'dropout', 'dtype', 'go_backwards', 'kernel_constraint', 'kernel_initializer', 'kernel_regularizer', 'name', 'recurrent_constraint', 'recurrent_dropout', 'recurrent_initializer', 'recurrent_regularizer', 'return_sequences', 'return_state', 'stateful', 'trainable', 'units', 'unroll', 'use_bias', 'zero_output_for_mask'}


def test_configs():
    cfg = layers.LSTM(3, name="lstm").get_config()
    assert cfg["unit_forget_bias"] is True and cfg["recurrent_initializer"] == {
        "module": "keras.initializers", "class_name": "Orthogonal", "config": {"seed": None, "gain": 1.0},
        "registered_name": None}
    assert set(cfg) == KEYS_SIMPLE | {"seed", "recurrent_activation", "unit_forget_bias"}
    assert set(layers.SimpleRNN(3).get_config()) == KEYS_SIMPLE
    gru = layers.GRU(3, name="gru").get_config()
    assert gru["reset_after"] is True and set(gru) == KEYS_SIMPLE | {"seed", "recurrent_activation", "reset_after"}
    clone = layers.LSTM.from_config(cfg)
    assert clone.units == 3 and clone.get_config() == cfg
    bi = layers.Bidirectional(layers.GRU(2, name="g"), merge_mode="sum", name="bi")
    bcfg = bi.get_config()
    assert bcfg["merge_mode"] == "sum" and bcfg["layer"]["config"]["name"] == "forward_g"
    assert bcfg["backward_layer"]["config"]["go_backwards"] is True
    assert layers.Bidirectional.from_config(bcfg).get_config() == bcfg
    rnn = layers.RNN([layers.LSTMCell(3), layers.GRUCell(2)])
    rcfg = rnn.get_config()
    assert rcfg["cell"]["class_name"] == "StackedRNNCells"
    assert [c["class_name"] for c in rcfg["cell"]["config"]["cells"]] == ["LSTMCell", "GRUCell"]
    assert layers.RNN.from_config(rcfg).cell.state_size == [[3, 3], 2]
    td = layers.TimeDistributed(layers.Dense(3)).get_config()
    assert td["layer"]["class_name"] == "Dense"


def test_errors():
    with pytest.raises(ValueError, match="Invalid merge mode"):
        layers.Bidirectional(layers.LSTM(3), merge_mode="max")


def test_masks_flow_through_sequential_and_functional_models():
    """Embedding(mask_zero=True) masks the LSTM after it inside models, as an explicit mask= does."""
    import numpy as np
    tf.random.set_seed(0)
    emb = tf.keras.layers.Embedding(10, 4, mask_zero=True)
    lstm = tf.keras.layers.LSTM(3)
    model = tf.keras.Sequential([emb, lstm])
    x = np.array([[1, 2, 0, 0], [3, 4, 5, 0]])
    expected = lstm(emb(x), mask=tf.constant(x != 0)).numpy()
    np.testing.assert_array_equal(model(x).numpy(), expected)
    unmasked = lstm(tf.constant(emb(x).numpy())).numpy()     # a new tensor carries no mask
    assert np.abs(unmasked - expected).max() > 1e-3
    inp = tf.keras.Input((4,), dtype="int32")
    f = tf.keras.Model(inp, tf.keras.layers.LSTM(3)(tf.keras.layers.Embedding(10, 4, mask_zero=True)(inp)))
    f.set_weights(model.get_weights())
    np.testing.assert_array_equal(f(x).numpy(), expected)
