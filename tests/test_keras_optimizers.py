"""tf.keras.optimizers and schedules: 10-step trajectories, slot paths, API behaviour.

Golden values recorded from TensorFlow 2.21 + Keras 3.15 (see the case definitions below).
"""
import warnings

import numpy as np
import pytest

import tfcompat as tf


def cases(tf):
    O = tf.keras.optimizers
    S = O.schedules
    return {
        "sgd": lambda: O.SGD(),
        "sgd_momentum": lambda: O.SGD(learning_rate=0.05, momentum=0.9),
        "sgd_nesterov": lambda: O.SGD(learning_rate=0.05, momentum=0.9, nesterov=True),
        "adam": lambda: O.Adam(learning_rate=0.01),
        "adam_amsgrad": lambda: O.Adam(learning_rate=0.01, amsgrad=True),
        "adamw": lambda: O.AdamW(learning_rate=0.01, weight_decay=0.1),
        "adamax": lambda: O.Adamax(learning_rate=0.01),
        "nadam": lambda: O.Nadam(learning_rate=0.01),
        "rmsprop": lambda: O.RMSprop(learning_rate=0.01),
        "rmsprop_centered_momentum": lambda: O.RMSprop(learning_rate=0.01, momentum=0.5, centered=True, rho=0.8),
        "adagrad": lambda: O.Adagrad(learning_rate=0.1),
        "adadelta": lambda: O.Adadelta(learning_rate=1.0),
        "ftrl": lambda: O.Ftrl(learning_rate=0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.02,
                              l2_shrinkage_regularization_strength=0.03, beta=0.1),
        "lion": lambda: O.Lion(learning_rate=0.01),
        "adam_clipnorm": lambda: O.Adam(learning_rate=0.01, clipnorm=0.5),
        "sgd_clipvalue": lambda: O.SGD(learning_rate=0.1, clipvalue=0.3),
        "adam_global_clipnorm": lambda: O.Adam(learning_rate=0.01, global_clipnorm=0.7),
        "sgd_weight_decay": lambda: O.SGD(learning_rate=0.1, weight_decay=0.05),
        "adam_exclude_wd": lambda: _excl(O.Adam(learning_rate=0.01, weight_decay=0.2)),
        "adam_exponential": lambda: O.Adam(S.ExponentialDecay(0.02, decay_steps=3, decay_rate=0.5)),
        "sgd_exponential_staircase": lambda: O.SGD(S.ExponentialDecay(0.1, 3, 0.5, staircase=True)),
        "sgd_piecewise": lambda: O.SGD(S.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01])),
        "sgd_polynomial": lambda: O.SGD(S.PolynomialDecay(0.1, 6, end_learning_rate=0.01, power=2.0)),
        "sgd_polynomial_cycle": lambda: O.SGD(S.PolynomialDecay(0.1, 4, cycle=True)),
        "sgd_inverse_time": lambda: O.SGD(S.InverseTimeDecay(0.1, 2, 0.5)),
        "sgd_cosine": lambda: O.SGD(S.CosineDecay(0.1, 8, alpha=0.1)),
        "sgd_cosine_warmup": lambda: O.SGD(S.CosineDecay(0.0, 6, warmup_target=0.1, warmup_steps=3)),
        "sgd_cosine_restarts": lambda: O.SGD(S.CosineDecayRestarts(0.1, 3, t_mul=2.0, m_mul=0.5, alpha=0.05)),
        "sgd_ema": lambda: O.SGD(learning_rate=0.1, use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=4),
    }

def _excl(o):
    o.exclude_from_weight_decay(var_names=["bias"])
    return o

def run(tf, make):
    w = tf.Variable(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32), name="kernel")
    b = tf.Variable(np.array([0.1, -0.2, 0.3], np.float32), name="bias")
    tw = tf.constant(np.array([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]], np.float32))
    opt = make()
    traj = []
    for k in range(10):
        gw = (w - tw) * 1.5 + 0.05 * k
        gb = b * b - 0.3 + 0.02 * k
        opt.apply_gradients(zip([gw, gb], [w, b]))
        traj.append(np.concatenate([w.numpy().ravel(), b.numpy().ravel()]).tolist())
    return {"traj": traj, "paths": [v.path for v in opt.variables],
            "slots": [np.asarray(v.numpy(), np.float64).ravel().tolist() for v in opt.variables[2:]]}


STEPS = [0, 1, 4, 9]
GOLDEN = {'adadelta': {'paths': ['iteration', 'learning_rate', 'kernel_0_accumulated_grad', 'kernel_0_accumulated_delta_var',
                        'bias_0_accumulated_grad', 'bias_0_accumulated_delta_var'],
              'traj': [[0.50141424, -0.99858576, 1.9985858, 1.4985858, 0.2514142, -0.74858576, 0.101414196,
                        -0.19858581, 0.3014142],
                       [0.5027953, -0.99717844, 1.9971462, 1.4971318, 0.2527383, -0.74717337, 0.10279488, -0.19720888,
                        0.30277154],
                       [0.5065253, -0.993118, 1.9927012, 1.4925231, 0.25569907, -0.74305075, 0.1065194, -0.19353448,
                        0.3061902],
                       [0.5108631, -0.98714197, 1.9849193, 1.4840099, 0.25606126, -0.7367752, 0.11081762, -0.1895148,
                        0.30892438]]},
 'adagrad': {'paths': ['iteration', 'learning_rate', 'kernel_0_accumulator', 'bias_0_accumulator'],
             'traj': [[0.59214425, -0.90215075, 1.900246, 1.4021508, 0.32644707, -0.6513926, 0.16758822, -0.13649085,
                       0.35532063],
                      [0.648948, -0.8373801, 1.8304193, 1.3346305, 0.3658548, -0.58524567, 0.21821865, -0.08267889,
                       0.39286038],
                      [0.73643345, -0.7128712, 1.68073, 1.1911081, 0.38268122, -0.45430613, 0.3114929, 0.038040955,
                       0.44067317],
                      [0.74701047, -0.60362893, 1.5048885, 1.0214822, 0.27885768, -0.32782698, 0.3507346, 0.14650549,
                       0.40741622]]},
 'adam': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity', 'bias_0_momentum',
                    'bias_0_velocity'],
          'traj': [[0.5099999, -0.99000007, 1.9900001, 1.4900001, 0.25999984, -0.74000007, 0.10999983, -0.19000019,
                    0.3099998],
                   [0.5199659, -0.9800142, 1.9799982, 1.4799949, 0.26990572, -0.7300109, 0.11997118, -0.18002214,
                    0.31994322],
                   [0.5493573, -0.950247, 1.9499683, 1.4499136, 0.29785857, -0.70018727, 0.14946112, -0.15040393,
                    0.3488299],
                   [0.59389687, -0.90203255, 1.899766, 1.3993796, 0.32399693, -0.6515044, 0.19490819, -0.10368415,
                    0.38697356]]},
 'adam_amsgrad': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity', 'bias_0_momentum',
                            'bias_0_velocity', 'kernel_0_velocity_hat', 'bias_0_velocity_hat'],
                  'traj': [[0.5099999, -0.99000007, 1.9900001, 1.4900001, 0.25999984, -0.74000007, 0.10999983,
                            -0.19000019, 0.3099998],
                           [0.5199659, -0.9800142, 1.9799982, 1.4799949, 0.26990572, -0.7300109, 0.11997118,
                            -0.18002214, 0.31994322],
                           [0.5493573, -0.950247, 1.9499683, 1.4499136, 0.29785857, -0.70018727, 0.14946112,
                            -0.15040393, 0.3488299],
                           [0.59389687, -0.90203255, 1.899766, 1.3993796, 0.32399443, -0.6515044, 0.19490819,
                            -0.10368415, 0.38697016]]},
 'adam_clipnorm': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity',
                             'bias_0_momentum', 'bias_0_velocity'],
                   'traj': [[0.50999945, -0.9900003, 1.9900001, 1.4900002, 0.25999904, -0.74000025, 0.10999983,
                             -0.19000019, 0.3099998],
                            [0.5199664, -0.9800136, 1.9799978, 1.4799947, 0.26990607, -0.73001033, 0.11997118,
                             -0.18002214, 0.31994322],
                            [0.54937065, -0.95023656, 1.9499617, 1.4499083, 0.29787686, -0.70017755, 0.14946112,
                             -0.15040393, 0.3488299],
                            [0.59393513, -0.9020078, 1.899753, 1.39937, 0.32404754, -0.65148205, 0.19490819,
                             -0.10368415, 0.38697356]]},
 'adam_exclude_wd': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity',
                               'bias_0_momentum', 'bias_0_velocity'],
                     'traj': [[0.5089999, -0.9880001, 1.9860002, 1.4870001, 0.25949985, -0.73850006, 0.10999983,
                               -0.19000019, 0.3099998],
                              [0.517949, -0.976039, 1.9720266, 1.4740214, 0.26888844, -0.72703433, 0.11997118,
                               -0.18002214, 0.31994322],
                              [0.54420155, -0.94050044, 1.9302531, 1.4351827, 0.29522285, -0.69292426, 0.14946112,
                               -0.15040393, 0.3488299],
                              [0.5833816, -0.8832264, 1.8610574, 1.3706106, 0.31894907, -0.6375933, 0.19490819,
                               -0.10368415, 0.38697356]]},
 'adam_exponential': {'paths': ['iteration', 'kernel_0_momentum', 'kernel_0_velocity', 'bias_0_momentum',
                                'bias_0_velocity'],
                      'traj': [[0.5199998, -0.9800002, 1.9800001, 1.4800001, 0.26999968, -0.73000014, 0.11999965,
                                -0.18000038, 0.31999958],
                               [0.53580195, -0.96415496, 1.9641244, 1.4641212, 0.28566334, -0.7141481, 0.13582177,
                                -0.16415161, 0.33574915],
                               [0.5656462, -0.9338751, 1.9335669, 1.4335253, 0.3137339, -0.6838048, 0.16582988,
                                -0.13391744, 0.36495277],
                               [0.58444935, -0.9136389, 1.9125751, 1.4124104, 0.3248926, -0.6633887, 0.18503216,
                                -0.11415832, 0.3811053]]},
 'adam_global_clipnorm': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity',
                                    'bias_0_momentum', 'bias_0_velocity'],
                          'traj': [[0.50999963, -0.99000025, 1.9900001, 1.4900002, 0.25999928, -0.7400002, 0.10999909,
                                    -0.19000101, 0.30999878],
                                   [0.5199669, -0.9800134, 1.9799976, 1.4799945, 0.26990688, -0.7300101, 0.119971275,
                                    -0.18002228, 0.31994322],
                                   [0.54937494, -0.9502336, 1.9499596, 1.4499067, 0.29788312, -0.7001746, 0.1494761,
                                    -0.1503907, 0.34884888],
                                   [0.5939579, -0.9019899, 1.8997415, 1.3993603, 0.32404995, -0.6514651, 0.19496298,
                                    -0.10363539, 0.38704064]]},
 'adamax': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_norm', 'bias_0_momentum',
                      'bias_0_norm'],
            'traj': [[0.51, -0.99, 1.99, 1.49, 0.26, -0.74, 0.11, -0.19000001, 0.31],
                     [0.5195534, -0.9802183, 1.9800366, 1.480108, 0.2690968, -0.73017263, 0.119608514, -0.18031624,
                      0.31935522],
                     [0.5454082, -0.9522547, 1.9503475, 1.4510014, 0.29078662, -0.70178515, 0.14593127, -0.15332264,
                      0.34336406],
                     [0.57845634, -0.9106646, 1.9014353, 1.403979, 0.30739462, -0.6584605, 0.1805803, -0.11616927,
                      0.36890385]]},
 'adamw': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity', 'bias_0_momentum',
                     'bias_0_velocity'],
           'traj': [[0.5094999, -0.9890001, 1.9880002, 1.4885001, 0.25974986, -0.73925006, 0.10989983, -0.18980019,
                     0.3096998],
                    [0.51895696, -0.97802556, 1.9760104, 1.4770068, 0.26939684, -0.7285219, 0.11976131, -0.1796322,
                     0.31933412],
                    [0.5467744, -0.94536376, 1.9400911, 1.4425335, 0.29653832, -0.6965484, 0.14886364, -0.14950335,
                     0.3472497],
                    [0.58861727, -0.89258575, 1.8803238, 1.3849294, 0.32146308, -0.6445166, 0.19349001, -0.10211886,
                     0.3838081]]},
 'ftrl': {'paths': ['iteration', 'learning_rate', 'kernel_0_accumulator', 'kernel_0_linear', 'bias_0_accumulator',
                    'bias_0_linear'],
          'traj': [[0.34845012, -0.64738053, 1.717567, 1.0171926, 0.13216524, -0.49660876, 0.07256869, 0.014740448,
                    0.07694956],
                   [0.41620097, -0.59665585, 1.6495444, 0.9691327, 0.19345647, -0.43743527, 0.11664118, 0.06123425,
                    0.1240411],
                   [0.5299722, -0.49608064, 1.5010939, 0.85171527, 0.27352208, -0.3173057, 0.20547497, 0.15736583,
                    0.21628816],
                   [0.60036206, -0.4186601, 1.3249073, 0.69738513, 0.25687543, -0.20334864, 0.26374358, 0.2280901,
                    0.2734677]]},
 'lion': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'bias_0_momentum'],
          'traj': [[0.51, -0.99, 1.99, 1.49, 0.26, -0.74, 0.11, -0.19, 0.31],
                   [0.52, -0.98, 1.98, 1.48, 0.26999998, -0.73, 0.12, -0.17999999, 0.32],
                   [0.54999995, -0.95000005, 1.95, 1.45, 0.29999995, -0.70000005, 0.15, -0.14999998, 0.34999996],
                   [0.5999999, -0.9000001, 1.9000001, 1.4000001, 0.30999994, -0.6500001, 0.20000003, -0.09999997,
                    0.39999992]]},
 'nadam': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'kernel_0_velocity', 'bias_0_momentum',
                     'bias_0_velocity', 'variable'],
           'traj': [[0.51062787, -0.98937213, 1.9893721, 1.4893721, 0.26062787, -0.73937213, 0.110627875, -0.18937212,
                     0.31062788],
                    [0.5180472, -0.98178905, 1.981611, 1.4815614, 0.26768392, -0.73175764, 0.11809018, -0.18185116,
                     0.31789544],
                    [0.53692347, -0.9616281, 1.9601798, 1.4597578, 0.28317064, -0.71136653, 0.13720399, -0.16243453,
                     0.33542612],
                    [0.564586, -0.92767173, 1.9213382, 1.4196962, 0.28933325, -0.6764322, 0.16584086, -0.13254404,
                     0.3549747]]},
 'rmsprop': {'paths': ['iteration', 'learning_rate', 'kernel_0_velocity', 'bias_0_velocity'],
             'traj': [[0.53162277, -0.96837723, 1.9683772, 1.4683772, 0.28162265, -0.71837723, 0.13162258,
                       -0.16837746, 0.33162242],
                      [0.55299723, -0.94617903, 1.9454294, 1.445417, 0.30107492, -0.6960242, 0.15346, -0.14579402,
                       0.3521508],
                      [0.5950766, -0.8986223, 1.8932892, 1.3927863, 0.32772237, -0.6475184, 0.19764395, -0.097828485,
                       0.38735715],
                      [0.6282413, -0.84431857, 1.8253486, 1.3228813, 0.29524922, -0.5901555, 0.23627816, -0.048021417,
                       0.38932052]]},
 'rmsprop_centered_momentum': {'paths': ['iteration', 'learning_rate', 'kernel_0_velocity', 'bias_0_velocity',
                                         'kernel_0_momentum', 'bias_0_momentum', 'kernel_0_average_gradient',
                                         'bias_0_average_gradient'],
                               'traj': [[0.525, -0.975, 1.975, 1.475, 0.27499995, -0.725, 0.12499991, -0.17500012,
                                         0.32499984],
                                        [0.55711937, -0.9422391, 1.9416411, 1.4415902, 0.30560172, -0.6921193,
                                         0.15743954, -0.14206098, 0.35647082],
                                        [0.65250206, -0.83488935, 1.8256474, 1.3255836, 0.3681377, -0.5827963,
                                         0.25822964, -0.031173386, 0.4352606],
                                        [0.72682714, -0.65588224, 1.5745358, 1.0775795, 0.30757135, -0.38407063,
                                         0.3543464, 0.15834028, 0.42065805]]},
 'sgd': {'paths': ['iteration', 'learning_rate'],
         'traj': [[0.5075, -0.985, 1.955, 1.485, 0.25375, -0.73125, 0.1029, -0.1974, 0.3021],
                  [0.5143875, -0.970725, 1.9101751, 1.469725, 0.25694373, -0.7132812, 0.10559411, -0.19498967,
                   0.30398735],
                  [0.5314662, -0.9321421, 1.7767241, 1.422291, 0.26327032, -0.66394615, 0.11244398, -0.1889053,
                   0.30838567],
                  [0.54851156, -0.8813537, 1.5575683, 1.3381072, 0.2634442, -0.59628624, 0.11977345, -0.18263541,
                   0.31157842]]},
 'sgd_clipvalue': {'paths': ['iteration', 'learning_rate'],
                   'traj': [[0.53, -0.97, 1.97, 1.47, 0.28, -0.72, 0.12900001, -0.174, 0.321],
                            [0.55999994, -0.94000006, 1.94, 1.44, 0.308, -0.69000006, 0.1553359, -0.14902759,
                             0.3386959],
                            [0.64999986, -0.85000014, 1.8500001, 1.3500001, 0.342113, -0.60000014, 0.21773276,
                             -0.081874356, 0.3734436],
                            [0.7089417, -0.7000003, 1.7000003, 1.2000003, 0.2941833, -0.45000023, 0.26808652,
                             -0.0032458762, 0.38092357]]},
 'sgd_cosine': {'paths': ['iteration'],
                'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                         [0.6317376, -0.7316961, 1.1757735, 1.2220387, 0.31345442, -0.413413, 0.15443379, -0.149883,
                          0.33808976],
                         [0.7099154, -0.5486911, 0.5201609, 0.9857349, 0.33921865, -0.17799439, 0.20017241,
                          -0.1017379, 0.36419168],
                         [0.7206172, -0.5032403, 0.28761953, 0.89218956, 0.33254594, -0.11516907, 0.21266645,
                          -0.0861247, 0.36801282]]},
 'sgd_cosine_restarts': {'paths': ['iteration'],
                         'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                                  [0.6197969, -0.75659376, 1.2545311, 1.2489687, 0.3079922, -0.44478905, 0.14908114,
                                   -0.15495855, 0.33449313],
                                  [0.6700282, -0.63722277, 0.8207847, 1.091781, 0.32365364, -0.2908482, 0.17671147,
                                   -0.12679854, 0.35029566],
                                  [0.6883115, -0.56602025, 0.46863338, 0.95130664, 0.31547728, -0.1931861, 0.1931337,
                                   -0.10794435, 0.35551575]]},
 'sgd_cosine_warmup': {'paths': ['iteration'],
                       'traj': [[0.5, -1.0, 2.0, 1.5, 0.25, -0.75, 0.1, -0.2, 0.3],
                                [0.5233333, -0.95166665, 1.8483334, 1.4483334, 0.26083332, -0.68916667, 0.109000005,
                                 -0.192, 0.30633333],
                                [0.6499489, -0.6625711, 0.8375887, 1.0875088, 0.30620888, -0.31883103, 0.16644877,
                                 -0.13801348, 0.34161904],
                                [0.68402594, -0.56043124, 0.39522582, 0.9173973, 0.30625448, -0.18265975, 0.19058645,
                                 -0.11170105, 0.35184798]]},
 'sgd_ema': {'paths': ['iteration', 'learning_rate', 'kernel_0_average', 'bias_0_average'],
             'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                      [0.63374996, -0.7275, 1.1624999, 1.2175, 0.31437498, -0.40812498, 0.1553359, -0.14902759,
                       0.3386959],
                      [0.6423622, -0.69153666, 0.979654, 1.1440588, 0.30931163, -0.35848606, 0.16266216, -0.14104642,
                       0.34083757],
                      [0.6529349, -0.5979736, 0.40929386, 0.90566015, 0.2783891, -0.22342774, 0.17890348, -0.12212565,
                       0.34032458]]},
 'sgd_exponential_staircase': {'paths': ['iteration'],
                               'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                                        [0.63374996, -0.7275, 1.1624999, 1.2175, 0.31437498, -0.40812498, 0.1553359,
                                         -0.14902759, 0.3386959],
                                        [0.7081395, -0.5545908, 0.5472518, 0.99633056, 0.33950466, -0.18595603,
                                         0.19853017, -0.10368304, 0.3635425],
                                        [0.7223335, -0.49030092, 0.21077538, 0.8602373, 0.3286508, -0.09661829,
                                         0.2161781, -0.081416, 0.36858332]]},
 'sgd_inverse_time': {'paths': ['iteration'],
                      'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                               [0.622, -0.75200003, 1.24, 1.2440001, 0.309, -0.439, 0.15006873, -0.15402207,
                                0.33515674],
                               [0.68872136, -0.5959461, 0.6813933, 1.0427237, 0.33105505, -0.2382798, 0.18745728,
                                -0.11543784, 0.35672203],
                               [0.7087062, -0.5052599, 0.20646898, 0.8506046, 0.31568927, -0.112242974, 0.21045177,
                                -0.08714275, 0.3629312]]},
 'sgd_momentum': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'bias_0_momentum'],
                  'traj': [[0.5375, -0.925, 1.775, 1.425, 0.26875, -0.65625, 0.1145, -0.187, 0.31050003],
                           [0.60343754, -0.790625, 1.3618749, 1.285625, 0.30046877, -0.48765624, 0.14089449,
                            -0.16304845, 0.32912952],
                           [0.8681531, -0.22086975, -0.5086872, 0.6352216, 0.4126645, 0.23461878, 0.26624182,
                            -0.041197855, 0.4097849],
                           [1.029873, 0.29989508, -2.8602805, -0.28019273, 0.3948621, 0.93490595, 0.47706795,
                            0.24274032, 0.49807954]]},
 'sgd_nesterov': {'paths': ['iteration', 'learning_rate', 'kernel_0_momentum', 'bias_0_momentum'],
                  'traj': [[0.57125, -0.85749996, 1.5725, 1.3575, 0.285625, -0.571875, 0.12755, -0.1753, 0.31995],
                           [0.65797186, -0.6793062, 1.0189188, 1.1698062, 0.32661095, -0.34794527, 0.16434945,
                            -0.14108936, 0.34533006],
                           [0.9037389, -0.13489215, -0.82584316, 0.5196322, 0.4230545, 0.3457923, 0.3033992,
                            0.005103126, 0.42891926],
                           [0.9356108, 0.1254409, -2.3931997, -0.13387947, 0.34069574, 0.7203559, 0.47669417,
                            0.29426533, 0.4819079]]},
 'sgd_piecewise': {'paths': ['iteration'],
                   'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                            [0.63374996, -0.7275, 1.1624999, 1.2175, 0.31437498, -0.40812498, 0.1553359, -0.14902759,
                             0.3386959],
                            [0.7081395, -0.5545908, 0.5472518, 0.99633056, 0.33950466, -0.18595603, 0.19853017,
                             -0.10368304, 0.3635425],
                            [0.71939695, -0.5093718, 0.32077882, 0.9057035, 0.33378136, -0.123756334, 0.21082193,
                             -0.08855812, 0.36753467]]},
 'sgd_polynomial': {'paths': ['iteration'],
                    'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                             [0.61759377, -0.7611875, 1.2690625, 1.2539375, 0.30698436, -0.45057812, 0.14809354,
                              -0.15589501, 0.33382952],
                             [0.66027045, -0.66302276, 0.9233231, 1.1301502, 0.32191712, -0.32466936, 0.17080745,
                              -0.13296042, 0.3472883],
                             [0.6685519, -0.6300697, 0.7589031, 1.0644168, 0.31786275, -0.2793804, 0.17771782,
                              -0.12534131, 0.34940985]]},
 'sgd_polynomial_cycle': {'paths': ['iteration'],
                          'traj': [[0.575, -0.85, 1.55, 1.35, 0.2875, -0.5625, 0.12900001, -0.174, 0.321],
                                   [0.6190772, -0.7580944, 1.259278, 1.2505919, 0.30766296, -0.44668016, 0.14875852,
                                    -0.15526445, 0.33427635],
                                   [0.65238094, -0.6833028, 1.002167, 1.159432, 0.3202228, -0.35114467, 0.16605394,
                                    -0.13793595, 0.34479716],
                                   [0.6707652, -0.61704123, 0.6854101, 1.0341845, 0.31466842, -0.26094446, 0.18014653,
                                    -0.12261688, 0.34974408]]},
 'sgd_weight_decay': {'paths': ['iteration', 'learning_rate'],
                      'traj': [[0.5725, -0.845, 1.54, 1.3425, 0.28625, -0.55875, 0.1285, -0.173, 0.3195],
                               [0.6287625, -0.719025, 1.1463, 1.2044125, 0.31188124, -0.40214375, 0.15420628,
                                -0.1471279, 0.3356945],
                               [0.7234031, -0.47363988, 0.26795238, 0.8787952, 0.3402855, -0.09052224, 0.21416952,
                                -0.07793787, 0.3661699],
                               [0.72784173, -0.33868495, -0.57003236, 0.5193702, 0.28737605, 0.1017807, 0.2599066,
                                0.0019390807, 0.3680212]]}}


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_trajectory(case):
    result = run(tf, cases(tf)[case])
    got = np.array([result["traj"][i] for i in STEPS])
    np.testing.assert_allclose(got, np.array(GOLDEN[case]["traj"]), rtol=1e-6, atol=1e-7)
    assert [p.split("/", 1)[1] for p in result["paths"]] == GOLDEN[case]["paths"]


def test_variables_names_and_defaults():
    opt = tf.keras.optimizers.Adam(name="myadam")
    assert [v.path for v in opt.variables] == ["myadam/iteration", "myadam/learning_rate"]
    assert opt.iterations.dtype == "int64" and opt.learning_rate.dtype == "float32"
    cfg = opt.get_config()
    assert cfg["learning_rate"] == 0.0010000000474974513 and cfg["beta_1"] == 0.9 and cfg["epsilon"] == 1e-07
    assert tf.keras.optimizers.get("adam").get_config()["amsgrad"] is False
    assert isinstance(tf.keras.optimizers.get("RMSprop"), tf.keras.optimizers.RMSprop)
    ser = tf.keras.optimizers.serialize(tf.keras.optimizers.SGD(0.5, name="s"))
    assert ser["module"] == "keras.optimizers" and ser["class_name"] == "SGD" and ser["config"]["learning_rate"] == 0.5
    assert tf.keras.optimizers.deserialize(ser).get_config() == ser["config"]


def test_auto_names():
    a, b = tf.keras.optimizers.RMSprop(), tf.keras.optimizers.RMSprop()
    assert a.name.startswith("rm_sprop") and b.name != a.name
    assert tf.keras.optimizers.AdamW().name.startswith("adam_w")


def test_none_gradient_warning_and_errors():
    w, b = tf.Variable([1.0, 2.0], name="w"), tf.Variable(3.0, name="b")
    opt = tf.keras.optimizers.SGD(0.1)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        opt.apply_gradients([(tf.constant([1.0, 1.0]), w), (None, b)])
    assert str(rec[0].message) == ("Gradients do not exist for variables ['b:0'] when minimizing the loss. If using "
                                   "`model.compile()`, did you forget to provide a `loss` argument?")
    np.testing.assert_allclose(w.numpy(), [0.9, 1.9], rtol=1e-6)
    with pytest.raises(ValueError, match="No gradients provided for any variable."):
        opt.apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="Unknown variable"):
        opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])
    with pytest.raises(ValueError, match="Argument `learning_rate` should be float"):
        tf.keras.optimizers.SGD(1)
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set"):
        tf.keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)
    with pytest.raises(ImportError, match="`keras.optimizers.legacy` is not supported in Keras 3"):
        tf.keras.optimizers.legacy.Adam()
    assert not hasattr(tf.keras.optimizers.Adam(), "minimize")       # Keras 3 optimizers have no minimize()


def test_learning_rate_setter_iterations_and_values_semantics():
    w = tf.Variable([1.0, 2.0])
    before = w.read_value()
    opt = tf.keras.optimizers.SGD(0.5)
    opt.apply([tf.constant([1.0, 1.0])], [w])
    opt.learning_rate = 0.25
    opt.apply([tf.constant([1.0, 1.0])])
    np.testing.assert_allclose(w.numpy(), [0.25, 1.25])
    np.testing.assert_allclose(before.numpy(), [1.0, 2.0])      # earlier reads keep their value
    assert int(opt.iterations) == 2
    opt.iterations.assign(10)
    sched = tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(1.0, 10, 0.5))
    sched.apply([tf.constant([1.0, 1.0])], [w])
    with pytest.raises(TypeError, match="not settable"):
        sched.learning_rate = 0.1
    np.testing.assert_allclose(float(sched.learning_rate), 0.5 ** 0.1, rtol=1e-6)


def test_gradient_tape_step():
    w = tf.Variable(2.0)
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = w * w
        opt.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    np.testing.assert_allclose(w.numpy(), 1.7006257, rtol=1e-6)


def test_schedules_values_and_serialization():
    S = tf.keras.optimizers.schedules
    cos = S.CosineDecay(0.1, 10, warmup_target=1.0, warmup_steps=5)
    np.testing.assert_allclose([float(cos(s)) for s in (0, 2, 5, 10, 20)],
                               [0.1, 0.46, 1.0, 0.5, 0.0], rtol=1e-6, atol=1e-7)
    ser = S.serialize(S.PiecewiseConstantDecay([2, 5], [0.1, 0.05, 0.01]))
    assert ser == {"module": "keras.optimizers.schedules", "class_name": "PiecewiseConstantDecay",
                   "config": {"boundaries": [2, 5], "values": [0.1, 0.05, 0.01], "name": "PiecewiseConstant"},
                   "registered_name": None}
    assert float(S.deserialize(ser)(3)) == np.float32(0.05)
    assert cos(3).dtype == tf.float32


@pytest.mark.parametrize("make", [
    lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    lambda: tf.keras.optimizers.Adam(0.01, amsgrad=True),
    lambda: tf.keras.optimizers.AdamW(0.01),
    lambda: tf.keras.optimizers.Adamax(0.01),
    lambda: tf.keras.optimizers.Nadam(0.01),
    lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
    lambda: tf.keras.optimizers.Adagrad(0.1),
    lambda: tf.keras.optimizers.Adadelta(1.0),
    lambda: tf.keras.optimizers.Ftrl(0.1),
    lambda: tf.keras.optimizers.Lion(0.01),
    lambda: tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5), use_ema=True),
], ids=["sgd", "adam", "adamw", "adamax", "nadam", "rmsprop", "adagrad", "adadelta", "ftrl", "lion", "adam_ema"])
def test_steps_in_tf_function_equal_eager(make, request):
    """An optimizer step inside tf.function (traced, then replayed) updates exactly as eager steps do; SGD and
    Adam steps are replayed (the Python body runs only for the two traces of the first call)."""
    body_runs = []

    def run(as_function):
        w = tf.Variable([[0.5, -0.3], [0.2, 0.1]])
        opt = make()
        x = tf.constant([[1.0, 2.0]])

        def step():
            body_runs.append(1)
            with tf.GradientTape() as t:
                loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
            opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))

        f = tf.function(step) if as_function else step
        for _ in range(4):
            f()
        # eager steps after the traced ones continue from the replayed step count
        step()
        return w.numpy(), [v.numpy() for v in opt.variables]
    (w1, v1), (w2, v2) = run(False), run(True)
    np.testing.assert_array_equal(w1, w2)
    for a, b in zip(v1, v2):
        np.testing.assert_array_equal(a, b)
    if request.node.callspec.id in ("sgd", "adam"):
        assert len(body_runs) == 5 + 2 + 1


# TF 2.21 + Keras 3.15: a [3] variable after 7 steps with gradient_accumulation_steps=3 (lr 0.1), eager and in a
# tf.function alike (two updates, on the mean of three gradients each)
ACCUMULATED = {
    "SGD": [0.65, -2.3, 0.45], "Adam": [0.80603, -2.07441, 0.3], "RMSprop": [0.38812, -2.31623, -0.04564],
    "Adagrad": [0.81244, -2.09945, 0.38528], "Nadam": [0.79618, -2.10217, 0.31636],
    "Adamax": [0.82842, -2.05263, 0.3], "Lion": [0.8, -2.1, 0.3], "AdamW": [0.80527, -2.07281, 0.29964],
    "Ftrl": [0.51093, -0.09945, -0.00695], "Adadelta": [0.99967, -2.00014, 0.49972]}


@pytest.mark.parametrize("name", sorted(ACCUMULATED))
@pytest.mark.parametrize("traced", [False, True])
def test_gradient_accumulation_steps(name, traced):
    opt = getattr(tf.keras.optimizers, name)(0.1, gradient_accumulation_steps=3)
    v = tf.Variable([1.0, -2.0, 0.5])

    def step(g):
        opt.apply_gradients([(g, v)])
    run = tf.function(step) if traced else step
    for i in range(7):
        run(tf.constant([0.5 * (i + 1), -1.0 + i, 0.25]))
    np.testing.assert_allclose(v.numpy(), ACCUMULATED[name], atol=2e-5)
    assert int(opt.iterations) == 2 and int(opt._iterations) == 7        # updates; the raw count
    accumulator, = [w for w in opt.variables if w.name.endswith("gradient_accumulator")]
    np.testing.assert_allclose(accumulator.numpy(), [3.5, 5.0, 0.25])     # the 7th gradient, accumulated


def test_gradient_accumulation_schedule_ema_and_fit():
    K = tf.keras
    opt = K.optimizers.SGD(K.optimizers.schedules.ExponentialDecay(0.1, 1, 0.5), gradient_accumulation_steps=2)
    v = tf.Variable([1.0, -2.0])
    for i in range(5):
        opt.apply_gradients([(tf.constant([0.5 * (i + 1), -1.0 + i]), v)])
    np.testing.assert_allclose(v.numpy(), [0.940625, -1.99375], rtol=1e-6)   # the schedule reads the raw count
    np.testing.assert_allclose(float(opt.learning_rate), 0.003125)
    assert [w.name for w in opt.variables] == ["iteration", "Variable_0_gradient_accumulator"]
    opt = K.optimizers.Adam(0.1, gradient_accumulation_steps=2, use_ema=True, clipnorm=0.5)
    v = tf.Variable([1.0, -2.0])
    for i in range(5):
        opt.apply_gradients([(tf.constant([0.5 * (i + 1), -1.0 + i]), v)])
    np.testing.assert_allclose(v.numpy(), [0.800346, -1.913194], rtol=1e-5)
    assert [w.name for w in opt.variables] == ["iteration", "learning_rate", "Variable_0_average",
                                               "Variable_0_gradient_accumulator", "Variable_0_momentum",
                                               "Variable_0_velocity"]
    x = np.random.RandomState(0).rand(16, 3).astype("float32")
    y = x.sum(1, keepdims=True) * 2 + 1
    m = K.Sequential([K.Input((3,)), K.layers.Dense(1, kernel_initializer="ones")])
    m.compile(K.optimizers.SGD(0.05, gradient_accumulation_steps=2), "mse")
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # the accumulating step replays as a tf.function
        history = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(history.history["loss"], [5.9898, 2.54127], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[0].ravel(), [1.44095, 1.44487, 1.48482], rtol=1e-5)
    assert (int(m.optimizer.iterations), int(m.optimizer._iterations)) == (4, 8)
    with pytest.raises(ValueError, match=r"^`gradient_accumulation_steps` must be an integer >= 2. Received: "
                                         r"gradient_accumulation_steps=1$"):
        K.optimizers.SGD(gradient_accumulation_steps=1)
    assert K.optimizers.SGD(gradient_accumulation_steps=4).get_config()["gradient_accumulation_steps"] == 4
