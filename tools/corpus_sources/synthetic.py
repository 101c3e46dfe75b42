"""Code of inserted corpus cells that write seeded synthetic stand-ins for downloaded tables (same columns)."""


def table(path, rows, columns, what, header=True, sep=",", seed=0, gzip=False, tail=""):
    """Code writing `rows` seeded rows to `path` (gzip-compressed if asked); `columns` is [(name, expression)],
    each expression (over `_rng`, `_i` the row number and the earlier columns' values `_v`) giving a value whose
    str() is the field; `tail` is text after each row's last field."""
    opener = "gzip.open(%r, 'wt')" % path if gzip else "open(%r, 'w')" % path
    head = f"_f.write({sep.join(name for name, _ in columns) + chr(10)!r})\n  " if header else ""
    fields = "\n".join(f"    _v[{name!r}] = {expr}" for name, expr in columns)
    return (f"import gzip, os, numpy  # corpus edit: a synthetic {what} ({rows} rows of its columns), not the download\n"
            f"_rng = numpy.random.default_rng({seed})\n"
            f"os.makedirs(os.path.dirname(os.path.abspath({path!r})), exist_ok=True)\n"
            f"with {opener} as _f:\n  {head}for _i in range({rows}):\n    _v = {{}}\n{fields}\n"
            f"    _f.write({sep!r}.join(str(_v[_k]) for _k in _v) + {tail!r} + '\\n')\n")


def num(lo, hi, digits=1):
    return f"round(float(_rng.uniform({lo}, {hi})), {digits})"


def pick(*choices):
    return f"{list(choices)!r}[int(_rng.integers({len(choices)}))]"


def ints(lo, hi):
    return f"int(_rng.integers({lo}, {hi}))"


# UCI auto-mpg.data: space-separated, '?' for 6 missing horsepowers, a tab and the quoted car name closing each row
AUTO_MPG = table("auto-mpg.data", 398, [
    ("cyl", pick(4, 4, 6, 8)),
    ("disp", "round(_v['cyl'] * float(_rng.uniform(20, 50)), 1)"),
    ("hp", "'?' if _i in (32, 126, 330, 336, 354, 374) else round(_v['disp'] * float(_rng.uniform(0.4, 0.7)) + 20, 1)"),
    ("wt", "round(1500 + _v['disp'] * 7 + float(_rng.normal(0, 200)), 1)"),
    ("acc", "round(25 - _v['disp'] / 40 + float(_rng.normal(0, 1.5)), 1)"),
    ("yr", ints(70, 83)), ("org", pick(1, 1, 2, 3)),
    ("mpg", "round(max(9.0, 55 - _v['wt'] / 110 + float(_rng.normal(0, 2.5))), 1)")],
    "UCI auto-mpg.data", header=False, sep="   ", tail='\t"synthetic car"').replace(
    "str(_v[_k]) for _k in _v", "str(_v[_k]) for _k in ['mpg', 'cyl', 'disp', 'hp', 'wt', 'acc', 'yr', 'org']")

ABALONE = table("abalone_train.csv", 3320, [
    ("Length", num(0.1, 0.8, 3)), ("Diameter", "round(_v['Length'] * 0.8, 3)"),
    ("Height", "round(_v['Length'] * 0.3, 3)"), ("Whole weight", "round(_v['Length'] ** 3 * 4, 4)"),
    ("Shucked weight", "round(_v['Whole weight'] * 0.45, 4)"), ("Viscera weight", "round(_v['Whole weight'] * 0.2, 4)"),
    ("Shell weight", "round(_v['Whole weight'] * 0.3, 4)"),
    ("Age", "int(3 + 20 * _v['Length'] + _rng.integers(0, 4))")], "abalone_train.csv", header=False)

TRAFFIC = table("traffic/Metro_Interstate_Traffic_Volume.csv.gz", 5000, [
    ("holiday", "'None' if _i % 500 else 'Columbus Day'"), ("temp", num(250, 305, 2)),
    ("rain_1h", "0.0 if _i % 7 else " + num(0, 5, 2)), ("snow_1h", "0.0"), ("clouds_all", ints(0, 101)),
    ("weather_main", pick("Clouds", "Clear", "Rain", "Mist", "Snow")),
    ("weather_description", pick("scattered clouds", "sky is clear", "light rain", "mist", "light snow")),
    ("date_time", "'2012-%02d-%02d %02d:00:00' % (10 + _i // 2000, 1 + _i // 24 % 28, _i % 24)"),
    ("traffic_volume", ints(200, 7000))], "Metro_Interstate_Traffic_Volume.csv.gz", gzip=True)

# fonts.zip's CSVs (one per font; 412 columns: font metadata then the 20x20 glyph pixels r0c0..r19c19)
_FONT_COLUMNS = ["font", "fontVariant", "m_label", "strength", "italic", "orientation", "m_top", "m_left",
                 "originalH", "originalW", "h", "w"] + [f"r{r}c{c}" for r in range(20) for c in range(20)]
FONTS = f"""import os, numpy  # corpus edit: synthetic font CSVs (8 fonts of the UCI fonts set's 412 columns), not the download
_rng = numpy.random.default_rng(0)
os.makedirs('fonts', exist_ok=True)
for _font in ['AGENCY', 'ARIAL', 'BAITI', 'BOOKMAN', 'CALIBRI', 'COURIER', 'GEORGIA', 'VERDANA']:
  with open(os.path.join('fonts', _font + '.csv'), 'w') as _f:
    _f.write({",".join(_FONT_COLUMNS) + chr(10)!r})
    for _i in range(250):
      _meta = [_font, 'scanned', int(_rng.integers(33, 127)), 0.4, 0, 0.0, int(_rng.integers(20, 60)),
               int(_rng.integers(20, 60)), int(_rng.integers(10, 90)), int(_rng.integers(10, 90)), 20, 20]
      _f.write(','.join(map(str, _meta + list(_rng.integers(1, 256, 400)))) + '\\n')
"""

HEART = table("heart.csv", 303, [
    ("age", ints(29, 78)), ("sex", ints(0, 2)), ("cp", ints(0, 5)), ("trestbps", ints(94, 201)),
    ("chol", ints(126, 565)), ("fbs", ints(0, 2)), ("restecg", ints(0, 3)), ("thalach", ints(71, 203)),
    ("exang", ints(0, 2)), ("oldpeak", num(0, 6.2)), ("slope", ints(1, 4)), ("ca", ints(0, 4)),
    ("thal", pick("fixed", "normal", "reversible")), ("target", ints(0, 2))], "heart.csv")

PETFINDER = table("datasets/petfinder-mini/petfinder-mini.csv", 2000, [
    ("Type", pick("Cat", "Dog")), ("Age", ints(0, 120)),
    ("Breed1", pick("Tabby", "Domestic Medium Hair", "Mixed Breed", "Domestic Short Hair", "Terrier", "Poodle")),
    ("Gender", pick("Male", "Female")), ("Color1", pick("Black", "Brown", "Golden", "Cream", "Gray", "White")),
    ("Color2", pick("White", "Brown", "Cream", "No Color", "Gray", "Golden")),
    ("MaturitySize", pick("Small", "Medium", "Large")), ("FurLength", pick("Short", "Medium", "Long")),
    ("Vaccinated", pick("Yes", "No", "Not Sure")), ("Sterilized", pick("Yes", "No", "Not Sure")),
    ("Health", pick("Healthy", "Minor Injury", "Serious Injury")), ("Fee", "0 if _i % 3 else " + ints(1, 500)),
    ("Description", pick("Nibble is a 3+ month old ball of cuteness", "I just found it alone yesterday",
                         "Very friendly and healthy", "Please adopt him")),
    ("PhotoAmt", ints(0, 12)), ("AdoptionSpeed", ints(0, 5))], "petfinder-mini.csv")

# UCI wdbc.data: id, diagnosis (M/B), then 30 real-valued features (no header)
WDBC = table("wdbc.data", 569, [("id", ints(8670, 911320502)), ("diagnosis", pick("M", "B", "B"))] + [
    (f"f{i}", f"round(float(_rng.uniform(1, 2)) * {scale} * (1.3 if _v['diagnosis'] == 'M' else 1), 5)")
    for i, scale in enumerate([14, 19, 92, 655, 0.096, 0.1, 0.09, 0.05, 0.18, 0.063] * 3)],
    "UCI wdbc.data", header=False)

_JENA = ["Date Time", "p (mbar)", "T (degC)", "Tpot (K)", "Tdew (degC)", "rh (%)", "VPmax (mbar)", "VPact (mbar)",
         "VPdef (mbar)", "sh (g/kg)", "H2OC (mmol/mol)", "rho (g/m**3)", "wv (m/s)", "max. wv (m/s)", "wd (deg)"]
JENA = table("jena_climate_2009_2016.csv", 8640, [
    ("Date Time", "'%02d.%02d.2009 %02d:%02d:00' % (1 + (_i + 1) // 144 % 28, 1 + (_i + 1) // 4032, (_i + 1) // 6 % 24,"
                  " (_i + 1) % 6 * 10)"),
    ("p (mbar)", "round(990 + 8 * numpy.sin(_i / 700) + float(_rng.normal(0, 1)), 2)"),
    ("T (degC)", "round(5 + 6 * numpy.sin(2 * numpy.pi * _i / 144) + float(_rng.normal(0, 1)), 2)"),
    ("Tpot (K)", "round(_v['T (degC)'] + 273.15 + 1.5, 2)"), ("Tdew (degC)", "round(_v['T (degC)'] - 4, 2)"),
    ("rh (%)", num(40, 100)), ("VPmax (mbar)", num(3, 20, 2)), ("VPact (mbar)", num(3, 15, 2)),
    ("VPdef (mbar)", num(0, 5, 2)), ("sh (g/kg)", num(2, 10, 2)), ("H2OC (mmol/mol)", num(3, 15, 2)),
    ("rho (g/m**3)", "round(1300 - 4 * _v['T (degC)'], 2)"),
    ("wv (m/s)", "-9999.0 if _i == 4001 else " + num(0, 8, 2)),
    ("max. wv (m/s)", "-9999.0 if _i == 4001 else " + num(0, 12, 2)), ("wd (deg)", num(0, 360))],
    "jena_climate_2009_2016.csv")

# UCI HIGGS.csv.gz: label then 28 features, no header (11,000 rows: the tutorial reads 1,000 + 10,000)
HIGGS = table("HIGGS.csv.gz", 11000, [("label", "float(_rng.integers(0, 2))")] + [
    (f"f{i}", "'%.18e' % (float(_rng.normal()) + 0.3 * _v['label'])") for i in range(28)],
    "HIGGS.csv.gz", header=False, gzip=True)

# mini Speech Commands: 8 command folders of 16 kHz mono 16-bit WAV files (tones, one pitch per command)
SPEECH_COMMANDS = """import os, wave, numpy  # corpus edit: a synthetic mini Speech Commands tree (8 x 48 WAVs), not the download
def _corpus_speech_commands(root='data/mini_speech_commands'):
  rng = numpy.random.default_rng(0)
  for k, command in enumerate(['down', 'go', 'left', 'no', 'right', 'stop', 'up', 'yes']):
    os.makedirs(os.path.join(root, command), exist_ok=True)
    for i in range(48):  # 2 validation batches of 64: the tutorial splits them into validation and test
      name = '01bb6a2a_nohash_0' if (command, i) == ('no', 0) else '%08x_nohash_%d' % (int(rng.integers(1 << 31)), i % 3)
      n = int(rng.integers(12000, 16001))
      t = numpy.arange(n) / 16000
      x = 0.5 * numpy.sin(2 * numpy.pi * (200 + 90 * k) * t) + 0.1 * rng.normal(size=n)
      with wave.open(os.path.join(root, command, name + '.wav'), 'wb') as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes((numpy.clip(x, -1, 1) * 32767).astype('<i2').tobytes())
  with open(os.path.join(root, 'README.md'), 'w') as f:
    f.write('synthetic mini speech commands\\n')
"""

# tfds's penguins/simple and penguins/processed (334 penguins), as the two calls and tfds.as_dataframe use them
PENGUINS = """import types, numpy, pandas  # corpus edit: tfds is not installed; tfds's penguins data sets, synthetic (same features)
def _corpus_penguins(n=334):
  rng = numpy.random.default_rng(0)
  species = rng.integers(0, 3, n)
  body, culmen_len = rng.normal(4200, 800, n) + 600 * species, rng.normal(44, 5, n) + 2 * species
  culmen_depth, flipper = rng.normal(17, 2, n) - species, rng.normal(200, 14, n) + 8 * species
  simple = {'body_mass_g': body.astype('float32'), 'culmen_depth_mm': culmen_depth.astype('float32'),
            'culmen_length_mm': culmen_len.astype('float32'), 'flipper_length_mm': flipper.astype('float32'),
            'island': numpy.array([b'Biscoe', b'Dream', b'Torgersen'])[rng.integers(0, 3, n)],
            'sex': numpy.array([b'FEMALE', b'MALE'])[rng.integers(0, 2, n)], 'species': species.astype('int64')}
  scaled = [(v - v.min()) / (v.max() - v.min()) for v in (body, culmen_len, culmen_depth, flipper)]
  return simple, numpy.stack(scaled, axis=1).astype('float32'), species.astype('int64')
def _tfds_load(name, split, with_info=False, as_supervised=False):
  simple, features, labels = _corpus_penguins()
  if name == 'penguins/simple':
    ds = tf.data.Dataset.from_tensor_slices(simple)
  else:
    ds = tf.data.Dataset.from_tensor_slices((features, labels) if as_supervised else {'features': features, 'species': labels})
  if isinstance(split, list):
    cut = int(0.2 * len(labels))
    ds = [ds.take(cut), ds.skip(cut)]  # ['train[:20%]', 'train[20%:]']
  info = types.SimpleNamespace(features='FeaturesDict (synthetic stand-in for tfds %s)' % name)
  return (ds, info) if with_info else ds
def _tfds_as_dataframe(ds, info=None):
  rows = [{k: v.numpy() for k, v in e.items()} if isinstance(e, dict) else {'features': e[0].numpy(), 'species': e[1].numpy()}
          for e in ds]
  return pandas.DataFrame(rows)
tfds = types.SimpleNamespace(__version__='synthetic stand-in', load=_tfds_load, as_dataframe=_tfds_as_dataframe)
"""

# cats_and_dogs_filtered: train/ and validation/ folders of cat and dog JPEGs (varied sizes)
CATS_AND_DOGS = """import os, numpy, PIL.Image  # corpus edit: a synthetic cats_and_dogs_filtered tree (JPEGs), not the download
def _corpus_cats_and_dogs(root='cats_and_dogs_filtered', per_class={'train': 64, 'validation': 96}):
  rng = numpy.random.default_rng(0)
  for split, n in per_class.items():
    for label in ('cats', 'dogs'):
      os.makedirs(os.path.join(root, split, label), exist_ok=True)
      for i in range(n):
        shape = (int(rng.integers(150, 260)), int(rng.integers(150, 260)), 3)
        image = PIL.Image.fromarray(rng.integers(0, 256, shape, dtype='uint8'))
        image.save(os.path.join(root, split, label, '%s.%d.jpg' % (label[:-1], i)))
  return os.path.abspath(root)
"""
