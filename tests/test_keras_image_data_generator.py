"""Keras's legacy ImageDataGenerator (tf.keras.preprocessing.image): seeded augmentation, directory iteration,
standardization and the NumPy transforms, against values recorded from TF 2.21 + Keras 3.15."""
import numpy as np
import pytest

import tfcompat as tf

I = tf.keras.preprocessing.image

# Recorded with TF 2.21 / Keras 3.15.1 (scipy.ndimage resampling), rounded to 4 decimals.
GOLDEN = {
    'affine_constant': [[[-1.0], [-1.0], [-1.0], [-1.0], [-1.0]], [[-1.0], [22.94569969177246], [25.66309928894043], [-1.0], [-1.0]], [[24.606700897216797], [27.324100494384766], [30.04159927368164], [32.75910186767578], [-1.0]], [[28.98509979248047], [31.702600479125977], [34.420101165771484], [37.13750076293945], [-1.0]]],
    'affine_nearest': [[[22.725200653076172], [23.5408992767334], [24.0], [24.0], [24.731700897216797]], [[22.07159996032715], [22.94569969177246], [25.66309928894043], [27.86199951171875], [29.7637996673584]], [[24.606700897216797], [27.324100494384766], [30.04159927368164], [32.75910186767578], [34.795799255371094]], [[28.98509979248047], [31.702600479125977], [34.420101165771484], [37.13750076293945], [39.0]]],
    'affine_reflect': [[[24.60059928894043], [23.5408992767334], [24.0], [23.827800750732422], [23.743799209594727]], [[22.07159996032715], [22.94569969177246], [25.66309928894043], [27.86199951171875], [29.429399490356445]], [[24.606700897216797], [27.324100494384766], [30.04159927368164], [32.75910186767578], [34.795799255371094]], [[28.98509979248047], [31.702600479125977], [34.420101165771484], [37.13750076293945], [39.0]]],
    'affine_wrap': [[[30.84980010986328], [33.56719970703125], [32.284698486328125], [35.002201080322266], [22.719600677490234]], [[35.22819900512695], [22.94569969177246], [25.66309928894043], [24.380599975585938], [27.098100662231445]], [[24.606700897216797], [27.324100494384766], [30.04159927368164], [32.75910186767578], [31.476499557495117]], [[28.98509979248047], [31.702600479125977], [34.420101165771484], [37.13750076293945], [20.854999542236328]]],
    'flow_x': [[[[9.5], [9.462599754333496], [8.577699661254883], [7.691800117492676], [6.806000232696533]], [[7.9222002029418945], [7.336699962615967], [6.450900077819824], [5.565000057220459], [4.679200172424316]], [[5.748499870300293], [5.210000038146973], [4.324100017547607], [3.4382998943328857], [2.5524001121520996]], [[3.574899911880493], [3.083199977874756], [2.1972999572753906], [1.3114999532699585], [0.8810999989509583]]], [[[20.70680046081543], [20.302799224853516], [20.169599533081055], [20.169599533081055], [20.169599533081055]], [[21.11319923400879], [20.880599975585938], [20.647899627685547], [20.415199279785156], [20.1825008392334]], [[23.755399703979492], [23.5226993560791], [23.29010009765625], [23.05739974975586], [22.82469940185547]], [[26.397600173950195], [26.164899826049805], [25.932300567626953], [25.699600219726562], [25.466899871826172]]]],
    'flow_item1': [[[[20.27869987487793], [20.27869987487793], [20.770700454711914], [21.961700439453125], [22.966999053955078]], [[21.109399795532227], [20.87179946899414], [20.69809913635254], [21.174800872802734], [21.390399932861328]], [[23.76919937133789], [23.531700134277344], [23.294099807739258], [23.05660057067871], [22.482500076293945]], [[26.429000854492188], [26.191499710083008], [25.95400047302246], [25.716400146484375], [25.06679916381836]]]],
    'std0': [[[-1.7034000158309937], [-1.6456999778747559], [-1.5879000425338745], [-1.5302000045776367], [-1.4723999500274658]], [[-1.4147000312805176], [-1.3569999933242798], [-1.2992000579833984], [-1.2415000200271606], [-1.1836999654769897]], [[-1.1260000467300415], [-1.0681999921798706], [-1.0104999542236328], [-0.9527999758720398], [-0.8949999809265137]], [[-0.8373000025749207], [-0.7795000076293945], [-0.7218000292778015], [-0.6639999747276306], [-0.6062999963760376]]],
    'zca': [[0.7125, 0.0859, 0.1278, 0.2664], [0.0859, 0.4039, -0.0207, -0.0036], [0.1278, -0.0207, 0.3688, 0.125], [0.2664, -0.0036, 0.125, 0.4737]],
    'val_x': [[[[77.0], [67.0], [116.0]], [[176.0], [66.0], [138.0]], [[25.0], [168.0], [183.0]]], [[[137.0], [208.0], [181.0]], [[96.0], [148.0], [83.0]], [[204.0], [223.0], [106.0]]]],
    'rot': [[[1.5214999914169312], [2.8510000705718994], [6.680099964141846], [10.509200096130371], [13.637499809265137]], [[2.38919997215271], [6.218200206756592], [10.047300338745117], [13.876399993896484], [17.611600875854492]], [[5.756400108337402], [9.58549976348877], [13.41450023651123], [17.243600845336914], [18.48699951171875]], [[9.422699928283691], [12.952699661254883], [16.290599822998047], [17.085399627685547], [17.880199432373047]]],
    'chshift': [[[7.5], [8.5], [9.5], [10.5], [11.5]], [[12.5], [13.5], [14.5], [15.5], [16.5]], [[17.5], [18.5], [19.0], [19.0], [19.0]], [[19.0], [19.0], [19.0], [19.0], [19.0]]],
    'bright': [[[0.0], [19.0], [39.0], [60.0], [79.0]], [[100.0], [120.0], [139.0], [160.0], [180.0]], [[201.0], [220.0], [241.0], [255.0], [255.0]], [[255.0], [255.0], [255.0], [255.0], [255.0]]],
}


@pytest.fixture
def x():
    return np.arange(3 * 4 * 5 * 1, dtype="float32").reshape(3, 4, 5, 1)


@pytest.fixture
def image_dir(tmp_path):
    from PIL import Image
    rng = np.random.default_rng(3)
    for cls in ["cat", "dog"]:
        (tmp_path / cls).mkdir()
        for i in range(3):
            Image.fromarray(rng.integers(0, 256, (6 + i, 5, 3), dtype="uint8")).save(tmp_path / cls / f"{i}.png")
    (tmp_path / "cat" / "notes.txt").write_text("x")
    return str(tmp_path)


def close(actual, key):
    np.testing.assert_allclose(np.asarray(actual).round(4), GOLDEN[key], atol=2e-4)


@pytest.mark.parametrize("mode", ["constant", "nearest", "reflect", "wrap"])
def test_apply_affine_transform_fill_modes(x, mode):
    out = I.apply_affine_transform(x[1], theta=25, tx=0.7, ty=-1.2, shear=8, zx=0.9, zy=1.2, row_axis=0,
                                   col_axis=1, channel_axis=2, fill_mode=mode, cval=-1.)
    assert out.dtype == np.float32 and out.shape == (4, 5, 1)
    close(out, "affine_" + mode)


def test_affine_identity_returns_input_and_unsupported_order(x):
    img = x[0]
    assert I.apply_affine_transform(img, row_axis=0, col_axis=1, channel_axis=2) is img
    with pytest.raises(NotImplementedError, match="order=3"):
        I.apply_affine_transform(x[0], theta=5, row_axis=0, col_axis=1, channel_axis=2, order=3)


def test_flow_seeded_augmentation_matches_keras(x):
    gen = I.ImageDataGenerator(rotation_range=30, width_shift_range=0.2, height_shift_range=2, shear_range=10,
                               zoom_range=0.2, horizontal_flip=True, vertical_flip=True, channel_shift_range=3.,
                               fill_mode="reflect", rescale=0.5)
    bx, by = next(gen.flow(x, np.array([0, 1, 2]), batch_size=2, seed=1))
    assert bx.dtype == np.float32 and by.tolist() == [0, 2]
    close(bx, "flow_x")
    it = gen.flow(x, batch_size=2, shuffle=False, seed=5)
    assert len(it) == 2
    close(it[1], "flow_item1")
    np.random.seed(0)
    params = gen.get_random_transform((4, 5, 1), seed=7)
    assert params["tx"] == -1.0 and params["flip_horizontal"] == 0 and params["flip_vertical"] == 1
    assert params["brightness"] is None
    np.testing.assert_allclose([params[k] for k in ("theta", "ty", "shear", "zx", "zy", "channel_shift_intensity")],
                               [-25.42150263756257, -0.12318153711821295, 4.469303556618824, 1.191195804798641,
                                1.0153983481641735, -1.389366119388773])


def test_fit_featurewise_statistics_and_zca(x):
    gen = I.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
    gen.fit(x)
    assert gen.mean.shape == (1, 1, 1) and gen.mean.ravel()[0] == 29.5
    np.testing.assert_allclose(gen.std.ravel(), [17.3181], atol=1e-4)
    close(gen.standardize(x[0].copy()), "std0")
    with pytest.warns(UserWarning, match="overrides setting of `featurewise_center`"):
        zca = I.ImageDataGenerator(zca_whitening=True)
    # well-conditioned data (8 samples, 4 features): a rank-deficient covariance's whitening matrix is ~1e5 and
    # depends on the LAPACK build's rounding of its near-zero singular values
    zca.fit((np.random.RandomState(5).rand(8, 2, 2, 1) * 10).astype("float32"))
    close(zca.zca_whitening_matrix, "zca")


def test_flow_from_directory(image_dir, capsys):
    it = I.ImageDataGenerator(rescale=1 / 255.).flow_from_directory(image_dir, target_size=(4, 4), batch_size=4,
                                                                     shuffle=True, seed=2)
    assert capsys.readouterr().out == "Found 6 images belonging to 2 classes.\n"
    assert it.class_indices == {"cat": 0, "dog": 1}
    assert it.filenames == ["cat/0.png", "cat/1.png", "cat/2.png", "dog/0.png", "dog/1.png", "dog/2.png"]
    assert it.classes.tolist() == [0, 0, 0, 1, 1, 1]
    bx, by = next(it)
    assert bx.shape == (4, 4, 4, 3) and bx.dtype == np.float32 and by.dtype == np.float32
    assert by.tolist() == [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]
    np.testing.assert_allclose(bx.sum(), 105.7139, atol=1e-3)
    np.testing.assert_allclose(bx[2, 1], [[0.9412, 0.8196, 0.9059], [0.7882, 0.8902, 0.9137],
                                          [0.4275, 0.0157, 0.3686], [0.9882, 0.9569, 0.4]], atol=1e-4)


def test_flow_from_directory_validation_subset_grayscale(image_dir, capsys):
    it = I.ImageDataGenerator(validation_split=0.4).flow_from_directory(
        image_dir, target_size=(3, 3), color_mode="grayscale", class_mode="sparse", subset="validation",
        shuffle=False)
    assert capsys.readouterr().out == "Found 2 images belonging to 2 classes.\n"
    assert it.filenames == ["cat/0.png", "dog/0.png"]
    vx, vy = it[0]
    assert vy.tolist() == [0.0, 1.0] and vy.dtype == np.float32
    np.testing.assert_array_equal(vx, GOLDEN["val_x"])


def test_random_and_shift_functions(x):
    np.random.seed(4)
    close(I.random_rotation(x[0], 40, row_axis=0, col_axis=1, channel_axis=2), "rot")
    close(I.apply_channel_shift(x[0], 7.5, 2), "chshift")
    close(I.apply_brightness_shift(x[0] * 10, 1.5, True), "bright")


@pytest.mark.parametrize("make, message", [
    (lambda x, d: I.ImageDataGenerator(zoom_range=(1, 2, 3)),
     "`zoom_range` should be a float or a tuple or list of two floats. Received: (1, 2, 3)"),
    (lambda x, d: I.ImageDataGenerator(validation_split=2),
     "`validation_split` must be strictly between 0 and 1.  Received: 2"),
    (lambda x, d: I.ImageDataGenerator().flow_from_directory(d, color_mode="cmyk"),
     'Invalid color mode: cmyk; expected "rgb", "rgba", or "grayscale".'),
    (lambda x, d: I.ImageDataGenerator().flow(x[0]),
     "Input data in `NumpyArrayIterator` should have rank 4. You passed an array with shape (4, 5, 1)"),
    (lambda x, d: I.ImageDataGenerator().flow(x, np.zeros(2)),
     "`x` (images tensor) and `y` (labels) should have the same length. Found: x.shape = (3, 4, 5, 1), "
     "y.shape = (2,)"),
    (lambda x, d: I.ImageDataGenerator().flow(x)[5], "Asked to retrieve element 5, but the Sequence has length 1"),
    (lambda x, d: I.apply_affine_transform(x[0], theta=3, row_axis=0, col_axis=0, channel_axis=2),
     "'row_axis', 'col_axis', and 'channel_axis' must be distinct"),
])
def test_errors_as_keras(x, image_dir, make, message):
    with pytest.raises(ValueError) as info:
        make(x, image_dir)
    assert str(info.value) == message


def test_iterator_feeds_fit(x):
    model = tf.keras.Sequential([tf.keras.Input((4, 5, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    model.compile(loss="mse", optimizer="sgd")
    history = model.fit(I.ImageDataGenerator(rescale=1 / 60.).flow(x, np.ones(3), batch_size=2), epochs=2,
                        verbose=0)
    assert len(history.history["loss"]) == 2


def test_smart_resize_crops_to_the_aspect_ratio_then_resizes():
    x = np.arange(4 * 6 * 2, dtype="float32").reshape(4, 6, 2)
    out = I.smart_resize(x, (3, 3))
    assert isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == (3, 3, 2)
    np.testing.assert_allclose(out[:, :, 0], [[4.3333, 7.0, 9.6667], [20.3333, 23.0, 25.6667],
                                              [36.3333, 39.0, 41.6667]], atol=1e-4)
    near = I.smart_resize(tf.constant(x), (2, 5), interpolation="nearest")
    assert isinstance(near, tf.Tensor) and near.dtype == tf.float32
    assert near.numpy()[:, :, 0].tolist() == [[12.0, 14.0, 18.0, 20.0, 22.0], [24.0, 26.0, 30.0, 32.0, 34.0]]
    u = (np.arange(5 * 3 * 3) % 256).astype("uint8").reshape(5, 3, 3)
    out = I.smart_resize(u, (4, 4))
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[1, :, 0], [14.625, 16.5, 18.75, 20.625])
    first = I.smart_resize(np.stack([x, x + 1]), (2, 2), data_format="channels_first")
    assert first.shape == (2, 4, 2, 2) and first[1, 3].tolist() == [[41.0, 42.0], [43.0, 44.0]]


@pytest.mark.parametrize("call, error, message", [
    (lambda x: I.smart_resize(x, (2,)), ValueError, "Expected `size` to be a tuple of 2 integers, but got: (2,)."),
    (lambda x: I.smart_resize(x[0], (2, 2)), ValueError,
     "Expected an image array with shape `(height, width, channels)`, or `(batch_size, height, width, channels)`, "
     "but got input with incorrect rank, of shape (6, 2)."),
    (lambda x: I.smart_resize(x, (2, 2), foo=1), TypeError, "smart_resize() got unexpected keyword arguments: ['foo']"),
    (lambda x: I.smart_resize(x, (2, 2), interpolation="cubicx"), ValueError,
     "Invalid value for argument `interpolation`. Expected of one ('bilinear', 'nearest', 'lanczos3', 'lanczos5', "
     "'bicubic', 'area'). Received: interpolation=cubicx"),
])
def test_smart_resize_errors(call, error, message):
    with pytest.raises(error) as info:
        call(np.zeros((4, 6, 2), "float32"))
    assert str(info.value) == message


@pytest.fixture
def frame(tmp_path):
    pd = pytest.importorskip("pandas")
    from PIL import Image
    rng = np.random.default_rng(5)
    for i in range(5):
        Image.fromarray(rng.integers(0, 256, (5, 4, 3), dtype="uint8")).save(tmp_path / f"{i}.png")
    (tmp_path / "x.txt").write_text("x")
    df = pd.DataFrame({"filename": ["0.png", "1.png", "2.png", "3.png", "4.png", "x.txt", "missing.png"],
                       "class": ["b", "a", "b", "c", "a", "a", "b"], "w": [1., 2, 3, 4, 5, 6, 7],
                       "tags": [["a"], ["a", "c"], ["b"], "c", ("a", "b"), ["a"], ["c"]], "y1": np.arange(7.),
                       "y2": np.arange(7) * 2})
    return df, str(tmp_path)


def test_flow_from_dataframe_categorical_with_weights(frame, capsys):
    df, root = frame
    gen = I.ImageDataGenerator(rescale=1 / 255.)
    with pytest.warns(UserWarning, match=r'^Found 2 invalid image filename\(s\) in x_col="filename". These '
                                         r"filename\(s\) will be ignored.$"):
        it = gen.flow_from_dataframe(df, directory=root, target_size=(2, 3), batch_size=3, shuffle=False,
                                     weight_col="w")
    assert capsys.readouterr().out == "Found 5 validated image filenames belonging to 3 classes.\n"
    assert it.class_indices == {"a": 0, "b": 1, "c": 2} and it.classes == [1, 0, 1, 2, 0]
    assert it.filenames == ["0.png", "1.png", "2.png", "3.png", "4.png"]
    bx, by, bw = it[0]
    assert bx.shape == (3, 2, 3, 3) and bx.dtype == np.float32 and by.dtype == np.float32
    assert by.tolist() == [[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] and bw.tolist() == [1.0, 2.0, 3.0]
    np.testing.assert_allclose(bx.sum(), 26.0706, atol=1e-3)
    np.testing.assert_allclose(bx[1, 0], [[0.5647, 0.7216, 0.0941], [0.7922, 1.0, 0.3333], [0.2118, 0.8941, 0.1882]],
                               atol=1e-4)


def test_flow_from_dataframe_label_modes(frame):
    df, root = frame
    gen = I.ImageDataGenerator(rescale=1 / 255.)
    with pytest.warns(UserWarning, match="invalid image filename"):
        tags = gen.flow_from_dataframe(df, directory=root, y_col="tags", target_size=(2, 2), batch_size=4,
                                       shuffle=False, classes=["c", "a"])
        multi = gen.flow_from_dataframe(df, directory=root, y_col=["y1", "y2"], class_mode="multi_output",
                                        target_size=(2, 2), batch_size=2, shuffle=False)
    assert tags.class_indices == {"c": 0, "a": 1} and tags.classes == [[1], [1, 0], 0, [1]]
    assert tags.filenames == ["0.png", "1.png", "3.png", "4.png"]
    assert tags[0][1].tolist() == [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]]
    assert [a.tolist() for a in multi[1][1]] == [[2.0, 3.0], [4, 6]] and len(multi) == 3
    images = df[df["filename"].isin(["0.png", "1.png", "2.png", "3.png", "4.png"])]
    raw = gen.flow_from_dataframe(images, directory=root, y_col="y1", class_mode="raw", target_size=(2, 2),
                                  batch_size=2, shuffle=True, seed=3, validate_filenames=False)
    assert raw[0][1].tolist() == [3.0, 4.0]
    with pytest.warns(UserWarning, match="invalid image filename"):
        binary = I.ImageDataGenerator(validation_split=0.4).flow_from_dataframe(
            df[df["class"] != "c"], directory=root, class_mode="binary", target_size=(2, 2), subset="training",
            shuffle=False)
    assert binary.filenames == ["1.png", "2.png", "4.png"]
    assert binary[0][1].tolist() == [0.0, 1.0, 0.0] and binary[0][1].dtype == np.float32


@pytest.mark.parametrize("kwargs, error, message", [
    ({"class_mode": "multi_output"}, TypeError, 'If class_mode="multi_output", y_col must be a list. Received str.'),
    ({"class_mode": "binary"}, ValueError, 'If class_mode="binary" there must be 2 classes. Found 3 classes.'),
    ({"y_col": "w", "class_mode": "sparse"}, TypeError,
     'If class_mode="sparse", y_col="w" column values must be strings.'),
    ({"y_col": "w"}, TypeError,
     'If class_mode="categorical", y_col="w" column values must be type string, list or tuple.'),
    ({"weight_col": "class"}, TypeError, "Column weight_col=class must be numeric."),
])
def test_flow_from_dataframe_errors(frame, kwargs, error, message):
    df, root = frame
    with pytest.raises(error) as info:
        I.ImageDataGenerator().flow_from_dataframe(df, directory=root, **kwargs)
    assert str(info.value) == message
