"""tf.audio against TF 2.21: WAV bytes TF writes, what TF decodes (TF's bytes pinned as literals) and TF's errors."""
import hashlib
import random
import struct

import numpy as np
import pytest

import tfcompat as tf

# 16-bit PCM WAV bytes written by TF 2.21's encode_wav (stereo 22050 Hz from A; mono 8000 Hz)
RAW = b'RIFF4\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00"V\x00\x00\x88X\x01\x00\x04\x00\x10\x00data\x10\x00\x00\x00\x00\x00\x00@\x00\xe0\xff\x7f\x00\x80\xcd\x0f\xff\x7f\x00\x00'
MONO = b'RIFF*\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00\x02\x00\x10\x00data\x06\x00\x00\x00\xcd\x0cf\xe6f&'
A = np.array([[0.0, 0.5], [-0.25, 1.0], [-1.0, 0.123456], [0.99999, -0.00001]], np.float32)

def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


CASES = [
    ("encode", "tf.audio.encode_wav(tf.constant(A), 22050)"),
    ("encode_mono_list", "tf.audio.encode_wav([[0.1], [-0.2], [0.3]], 8000)"),
    ("encode_clip_nan_inf", "tf.audio.encode_wav([[float('nan')], [float('inf')], [-float('inf')], [0.5 / 32768], "
                            "[1.5 / 32768], [-0.5 / 32768], [2.0], [-3.0]], 8000)"),
    ("encode_empty", "tf.audio.encode_wav(tf.zeros([0, 2]), 8000)"),
    ("encode_rate_tensor", "tf.audio.encode_wav(tf.constant(A), tf.constant(44100))"),
    ("encode_1d", "tf.audio.encode_wav(tf.constant([0.1, 0.2]), 8000)"),
    ("encode_f64", "tf.audio.encode_wav(tf.constant([[0.1]], tf.float64), 8000)"),
    ("encode_rate0", "tf.audio.encode_wav([[0.1]], 0)"),
    ("encode_rate_neg", "tf.audio.encode_wav([[0.1]], -5)"),
    ("encode_rate_vector", "tf.audio.encode_wav([[0.1]], [8000])"),
    ("encode_rate_float", "tf.audio.encode_wav([[0.1]], 8000.0)"),
    ("encode_no_channels", "tf.audio.encode_wav(tf.zeros([3, 0]), 8000)"),
    ("encode_no_frames_no_channels", "tf.audio.encode_wav(tf.zeros([0, 0]), 8000)"),
    ("decode", "tf.audio.decode_wav(RAW)"),
    ("decode_tensor", "tf.audio.decode_wav(tf.constant(RAW))"),
    ("decode_mono", "tf.audio.decode_wav(MONO)"),
    ("decode_mono_to_2", "tf.audio.decode_wav(MONO, desired_channels=2)"),
    ("decode_channels1", "tf.audio.decode_wav(RAW, desired_channels=1)"),
    ("decode_channels3", "tf.audio.decode_wav(RAW, desired_channels=3)"),
    ("decode_channels0", "tf.audio.decode_wav(RAW, desired_channels=0)"),
    ("decode_samples2", "tf.audio.decode_wav(RAW, desired_samples=2)"),
    ("decode_samples6", "tf.audio.decode_wav(RAW, desired_samples=6)"),
    ("decode_channels_m2", "tf.audio.decode_wav(tf.constant(RAW), desired_channels=-2)"),
    ("decode_samples_m2", "tf.audio.decode_wav(tf.constant(RAW), desired_samples=-2)"),
    ("decode_empty", "tf.audio.decode_wav(b'')"),
    ("decode_rifx", "tf.audio.decode_wav(b'RIFX' + bytes(40))"),
    ("decode_vector", "tf.audio.decode_wav([RAW, RAW])"),
    ("decode_int", "tf.audio.decode_wav(3)"),
    ("decode_trunc40", "tf.audio.decode_wav(RAW[:40])"),
    ("decode_trunc44", "tf.audio.decode_wav(RAW[:44])"),
    ("decode_trunc50", "tf.audio.decode_wav(RAW[:50])"),
    ("decode_not_wave", "tf.audio.decode_wav(RAW[:8] + b'WAVX' + RAW[12:])"),
    ("decode_fmt_size", "tf.audio.decode_wav(RAW[:16] + u32(20) + RAW[20:])"),
    ("decode_float_format", "tf.audio.decode_wav(RAW[:20] + u16(3) + RAW[22:])"),
    ("decode_no_channels", "tf.audio.decode_wav(RAW[:22] + u16(0) + RAW[24:])"),
    ("decode_8bit", "tf.audio.decode_wav(RAW[:34] + u16(8) + RAW[36:])"),
    ("decode_block_align", "tf.audio.decode_wav(RAW[:32] + u16(6) + RAW[34:])"),
    ("decode_byte_rate", "tf.audio.decode_wav(RAW[:28] + u32(7) + RAW[32:])"),
    ("decode_data_past_end", "tf.audio.decode_wav(RAW[:40] + u32(1000) + RAW[44:])"),
    ("decode_data_huge", "tf.audio.decode_wav(RAW[:40] + u32(0x90000000) + RAW[44:])"),
    ("decode_data_odd", "tf.audio.decode_wav(RAW[:40] + u32(7) + RAW[44:])"),
    ("decode_two_data", "tf.audio.decode_wav(RAW + b'data' + u32(0))"),
    ("decode_trailing_chunk", "tf.audio.decode_wav(RAW + b'LIST' + u32(4) + b'abcd')"),
    ("decode_trailing_chunk_past_end", "tf.audio.decode_wav(RAW + b'LIST' + u32(400) + b'abcd')"),
    ("decode_trailing_2_bytes", "tf.audio.decode_wav(RAW + b'ab')"),
    ("decode_junk", "tf.audio.decode_wav(RAW[:12] + b'JUNK' + u32(4) + b'zzzz' + RAW[12:])"),
    ("decode_junk_past_end", "tf.audio.decode_wav(RAW[:12] + b'JUNK' + u32(400) + b'zzzz' + RAW[12:])"),
    ("decode_list_before_fmt", "tf.audio.decode_wav(RAW[:12] + b'LIST' + u32(4) + b'zzzz' + RAW[12:])"),
    ("decode_no_data", "tf.audio.decode_wav(RAW[:36])"),
    ("decode_no_data_chunk", "tf.audio.decode_wav(RAW[:36] + b'LIST' + u32(0))"),
    ("decode_fmt18", "tf.audio.decode_wav(RAW[:16] + u32(18) + RAW[20:36] + b'\\0\\0' + RAW[36:])"),
    ("decode_riff_size_ignored", "tf.audio.decode_wav(RAW[:4] + u32(5) + RAW[8:])"),
    ("decode_rate_wraps", "tf.audio.decode_wav(RAW[:24] + u32(0x80000001) + u32(4 * 0x80000001 & 0xFFFFFFFF) + RAW[32:])"),
]

# recorded with TF 2.21: (dtype, shape, values), ('tuple', [...]) or ('error', class name, message)
GOLDEN = {'decode': ('tuple',
            [('float32', [4, 2], [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
             ('int32', [], 22050)]),
 'decode_8bit': ('error', 'InvalidArgumentError',
                 '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Can '
                 'only read 16-bit WAV files, but received 8 [Op:DecodeWav]'),
 'decode_block_align': ('error', 'InvalidArgumentError',
                        '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                        'Bad bytes per sample in WAV header: Expected 4 but got 6 [Op:DecodeWav]'),
 'decode_byte_rate': ('error', 'InvalidArgumentError',
                      '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                      'Bad bytes per second in WAV header: Expected 88200 but got 7 (sample_rate=22050, '
                      'bytes_per_sample=4) [Op:DecodeWav]'),
 'decode_channels0': ('tuple', [('float32', [4, 0], [[], [], [], []]), ('int32', [], 22050)]),
 'decode_channels1': ('tuple', [('float32', [4, 1], [[0.0], [-0.25], [-1.0], [0.9999695]]), ('int32', [], 22050)]),
 'decode_channels3': ('tuple',
                      [('float32', [4, 3],
                        [[0.0, 0.5, 0.5], [-0.25, 0.9999695, 0.9999695], [-1.0, 0.1234436, 0.1234436],
                         [0.9999695, 0.0, 0.0]]),
                       ('int32', [], 22050)]),
 'decode_channels_m2': ('error', 'InvalidArgumentError',
                        '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                        'desired_channels must be >= -1, got -2 [Op:DecodeWav] name: '),
 'decode_data_huge': ('error', 'InvalidArgumentError',
                      '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                      "WAV data chunk 'data' is too large: 2415919104 bytes, but the limit is 2147483647 "
                      '[Op:DecodeWav]'),
 'decode_data_odd': ('tuple', [('float32', [1, 2], [[0.0, 0.5]]), ('int32', [], 22050)]),
 'decode_data_past_end': ('error', 'InvalidArgumentError',
                          '{{function_node '
                          '__wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data too short '
                          'when trying to read string [Op:DecodeWav]'),
 'decode_empty': ('error', 'InvalidArgumentError',
                  '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data '
                  'too short when trying to read string [Op:DecodeWav]'),
 'decode_float_format': ('error', 'InvalidArgumentError',
                         '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                         'Bad audio format for WAV: Expected 1 (PCM), but got3 [Op:DecodeWav]'),
 'decode_fmt18': ('tuple',
                  [('float32', [4, 2], [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                   ('int32', [], 22050)]),
 'decode_fmt_size': ('error', 'InvalidArgumentError',
                     '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Bad '
                     'format chunk size for WAV: Expected 16 or 18, but got20 [Op:DecodeWav]'),
 'decode_int': ('error', 'TypeError', 'Cannot convert 3 to EagerTensor of dtype string'),
 'decode_junk': ('tuple',
                 [('float32', [4, 2], [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                  ('int32', [], 22050)]),
 'decode_junk_past_end': ('error', 'InvalidArgumentError',
                          '{{function_node '
                          '__wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data too short '
                          'when trying to read string [Op:DecodeWav]'),
 'decode_list_before_fmt': ('error', 'InvalidArgumentError',
                            '{{function_node '
                            '__wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Unexpected '
                            'field LIST [Op:DecodeWav]'),
 'decode_mono': ('tuple', [('float32', [3, 1], [[0.1000061], [-0.2000122], [0.2999878]]), ('int32', [], 8000)]),
 'decode_mono_to_2': ('tuple',
                      [('float32', [3, 2],
                        [[0.1000061, 0.1000061], [-0.2000122, -0.2000122], [0.2999878, 0.2999878]]),
                       ('int32', [], 8000)]),
 'decode_no_channels': ('error', 'InvalidArgumentError',
                        '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                        'Bad number of channels for WAV: Expected at least 1, but got 0 [Op:DecodeWav]'),
 'decode_no_data': ('error', 'InvalidArgumentError',
                    '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} No '
                    'data chunk found in WAV [Op:DecodeWav]'),
 'decode_no_data_chunk': ('error', 'InvalidArgumentError',
                          '{{function_node '
                          '__wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} No data chunk '
                          'found in WAV [Op:DecodeWav]'),
 'decode_not_wave': ('error', 'InvalidArgumentError',
                     '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                     'Header mismatch: Expected WAVE but found WAVX [Op:DecodeWav]'),
 'decode_rate_wraps': ('error', 'InvalidArgumentError',
                       '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                       'Bad bytes per second in WAV header: Expected 8589934596 but got 4 (sample_rate=2147483649, '
                       'bytes_per_sample=4) [Op:DecodeWav]'),
 'decode_riff_size_ignored': ('tuple',
                              [('float32', [4, 2],
                                [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                               ('int32', [], 22050)]),
 'decode_rifx': ('error', 'InvalidArgumentError',
                 '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Header '
                 'mismatch: Expected RIFF but found RIFX [Op:DecodeWav]'),
 'decode_samples2': ('tuple', [('float32', [2, 2], [[0.0, 0.5], [-0.25, 0.9999695]]), ('int32', [], 22050)]),
 'decode_samples6': ('tuple',
                     [('float32', [6, 2],
                       [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0], [0.0, 0.0], [0.0, 0.0]]),
                      ('int32', [], 22050)]),
 'decode_samples_m2': ('error', 'InvalidArgumentError',
                       '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                       'desired_samples must be >= -1, got -2 [Op:DecodeWav] name: '),
 'decode_tensor': ('tuple',
                   [('float32', [4, 2], [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                    ('int32', [], 22050)]),
 'decode_trailing_2_bytes': ('error', 'InvalidArgumentError',
                             '{{function_node '
                             '__wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data too '
                             'short when trying to read string [Op:DecodeWav]'),
 'decode_trailing_chunk': ('tuple',
                           [('float32', [4, 2],
                             [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                            ('int32', [], 22050)]),
 'decode_trailing_chunk_past_end': ('tuple',
                                    [('float32', [4, 2],
                                      [[0.0, 0.5], [-0.25, 0.9999695], [-1.0, 0.1234436], [0.9999695, 0.0]]),
                                     ('int32', [], 22050)]),
 'decode_trunc40': ('error', 'InvalidArgumentError',
                    '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data '
                    'too short when trying to read string [Op:DecodeWav]'),
 'decode_trunc44': ('error', 'InvalidArgumentError',
                    '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data '
                    'too short when trying to read string [Op:DecodeWav]'),
 'decode_trunc50': ('error', 'InvalidArgumentError',
                    '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} Data '
                    'too short when trying to read string [Op:DecodeWav]'),
 'decode_two_data': ('error', 'InvalidArgumentError',
                     '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                     'More than one data chunk found in WAV [Op:DecodeWav]'),
 'decode_vector': ('error', 'InvalidArgumentError',
                   '{{function_node __wrapped__DecodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                   'contents must be scalar, got shape [2] [Op:DecodeWav]'),
 'encode': ('string', [],
            b'RIFF4\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00"V\x00\x00\x88X\x01\x00\x04\x00\x10\x00data'
            b'\x10\x00\x00\x00\x00\x00\x00@\x00\xe0\xff\x7f\x00\x80\xcd\x0f\xff\x7f\x00\x00'),
 'encode_1d': ('error', 'InvalidArgumentError',
               '{{function_node __wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} audio '
               'must be 2-dimensional[2] [Op:EncodeWav] name: '),
 'encode_clip_nan_inf': ('string', [],
                         b'RIFF4\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00'
                         b'\x02\x00\x10\x00data\x10\x00\x00\x00\x00\x00\xff\x7f\x00\x80\x01\x00\x02\x00\xff\xff'
                         b'\xff\x7f\x00\x80'),
 'encode_empty': ('string', [],
                  b'RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00@\x1f\x00\x00\x00}\x00\x00'
                  b'\x04\x00\x10\x00data\x00\x00\x00\x00'),
 'encode_f64': ('error', 'InvalidArgumentError',
                'cannot compute EncodeWav as input #0(zero-based) was expected to be a float tensor but is a double '
                'tensor [Op:EncodeWav] name: '),
 'encode_mono_list': ('string', [],
                      b'RIFF*\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00@\x1f\x00\x00\x80>\x00\x00'
                      b'\x02\x00\x10\x00data\x06\x00\x00\x00\xcd\x0cf\xe6f&'),
 'encode_no_channels': ('error', 'InvalidArgumentError',
                        '{{function_node __wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                        'audio is null [Op:EncodeWav] name: '),
 'encode_no_frames_no_channels': ('error', 'InvalidArgumentError',
                                  '{{function_node '
                                  '__wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                                  'num_channels must be in (0, 2^16), got: 0 [Op:EncodeWav] name: '),
 'encode_rate0': ('error', 'InvalidArgumentError',
                  '{{function_node __wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                  'sample_rate must be in (0, 2^32), got: 0 [Op:EncodeWav]'),
 'encode_rate_float': ('error', 'TypeError', 'Cannot convert 8000.0 to EagerTensor of dtype int32'),
 'encode_rate_neg': ('error', 'InvalidArgumentError',
                     '{{function_node __wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                     'sample_rate must be in (0, 2^32), got: 18446744073709551611 [Op:EncodeWav]'),
 'encode_rate_tensor': ('string', [],
                        b'RIFF4\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00D\xac\x00\x00\x10\xb1\x02\x00'
                        b'\x04\x00\x10\x00data\x10\x00\x00\x00\x00\x00\x00@\x00\xe0\xff\x7f\x00\x80\xcd\x0f'
                        b'\xff\x7f\x00\x00'),
 'encode_rate_vector': ('error', 'InvalidArgumentError',
                        '{{function_node __wrapped__EncodeWav_device_/job:localhost/replica:0/task:0/device:CPU:0}} '
                        'Input sample_rate should be a scalar tensor, got [1] instead. [Op:EncodeWav]')}


def check(expected, result):
    dtype, shape, values = expected
    assert result.dtype.name == dtype
    assert list(result.shape) == shape
    got = result.numpy()
    if dtype == "string":
        assert got == values
    else:
        np.testing.assert_array_equal(got, np.array(values, dtype=got.dtype).reshape(shape))


@pytest.mark.parametrize("label,expr", CASES, ids=[c[0] for c in CASES])
def test_case_matches_tf(label, expr):
    expected = GOLDEN[label]
    if expected[0] == "error":
        with pytest.raises(Exception) as info:
            eval(expr)
        assert type(info.value).__name__ == expected[1], (label, info.value)
        assert str(info.value) == expected[2], label
        return
    result = eval(expr)
    if expected[0] == "tuple":
        assert type(result).__name__ == "DecodeWav"
        for want, got in zip(expected[1], result):
            check(want, got)
        assert result.audio is result[0] and result.sample_rate is result[1]
    else:
        check(expected, result)


def test_round_trip_both_ways():
    """TF's bytes decode here to what TF decodes; these bytes are the ones TF writes for the same audio."""
    audio, rate = tf.audio.decode_wav(RAW)
    assert tf.audio.encode_wav(audio, rate).numpy() == RAW
    assert tf.audio.encode_wav(tf.constant(A), 22050).numpy() == RAW


def test_untrusted_sizes_are_checked_before_allocating():
    """A data chunk that claims more samples than the bytes hold fails before its samples are allocated."""
    claim = RAW[:40] + u32(0x7FFFFFFE) + RAW[44:]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Data too short"):
        tf.audio.decode_wav(claim)
    # a header declaring 32767 channels cannot make desired_samples pad 32767 x 10000 zeros (TF would allocate them)
    wide = (b"RIFF" + u32(36) + b"WAVEfmt " + u32(16) + u16(1) + u16(32767) + u32(1) + u32(65534) + u16(65534)
            + u16(16) + b"data" + u32(0))
    assert tf.audio.decode_wav(wide).audio.shape == (0, 32767)
    with pytest.raises(tf.errors.ResourceExhaustedError, match="32767 channels"):
        tf.audio.decode_wav(wide, desired_samples=10000)
    assert tf.audio.decode_wav(wide, desired_channels=1, desired_samples=10000).audio.shape == (10000, 1)


def wav_cases(seed=17, count=300):
    """Seeded mutations of small WAV files (bytes flipped, truncated, chunks added, header fields set to extremes)."""
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        channels = rng.choice([1, 2, 3])
        frames = rng.randrange(0, 6)
        rate = rng.choice([8000, 16000, 44100])
        pcm = bytes(rng.randrange(256) for _ in range(2 * channels * frames))
        fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * 2 * channels, 2 * channels, 16)
        body = b"WAVEfmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(pcm)) + pcm
        data = bytearray(b"RIFF" + struct.pack("<I", len(body)) + body)
        for _ in range(rng.randrange(1, 4)):
            op = rng.randrange(5)
            if op == 0 and data:            # flip one byte
                i = rng.randrange(len(data))
                data[i] = rng.randrange(256)
            elif op == 1:                   # truncate
                del data[rng.randrange(len(data) + 1):]
            elif op == 2:                   # append a chunk
                size = rng.choice([0, 1, 4, 7, 1000])
                data += rng.choice([b"LIST", b"data", b"JUNK", b"fact"]) + struct.pack("<I", size) + bytes(
                    rng.randrange(0, 9))
            elif op == 3 and len(data) >= 44:   # overwrite a header field with an extreme value
                pos = rng.choice([4, 16, 20, 22, 24, 28, 32, 34, 40])
                width = 2 if pos in (20, 22, 32, 34) else 4
                value = rng.choice([0, 1, 2, 18, 2 ** (8 * width) - 1, 2 ** (8 * width - 1)])
                data[pos:pos + width] = value.to_bytes(width, "little")
            elif op == 4:                   # insert a chunk before fmt
                data[12:12] = rng.choice([b"JUNK", b"bext", b"LIST"]) + struct.pack("<I", rng.choice([0, 2, 5000]))
        desired = rng.choice([(-1, -1), (1, -1), (3, 2), (-1, 7)])
        cases.append((bytes(data), desired))
    return cases


def outcomes(tf_module):
    """What decode_wav gives for each fuzz case: ('ok', shape, rate, md5 of the audio) or (error class, message).

    FUZZ_TF was recorded by calling this with TensorFlow 2.21 (`outcomes(tensorflow)` in the TF venv).
    """
    out = []
    for data, (channels, samples) in wav_cases():
        try:
            audio, rate = tf_module.audio.decode_wav(data, desired_channels=channels, desired_samples=samples)
            a = audio.numpy()
            out.append(("ok", list(a.shape), int(rate.numpy()), hashlib.md5(a.tobytes()).hexdigest()[:8]))
        except Exception as e:  # noqa: BLE001  (the class is the outcome recorded)
            out.append((type(e).__name__, str(e).split("}} ")[-1]))
    return out


def test_seeded_fuzz_matches_tf():
    """300 mutated files decode to TF's audio or fail with TF's class and text (TF's C-string and UTF-8 quirks too)."""
    got = outcomes(tf)
    assert [i for i, (a, b) in enumerate(zip(got, FUZZ_TF)) if a != b] == []


FUZZ_TF = [('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2147483648 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [2, 3], 44100, '50ed793c'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got64513 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RI\x1eF [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [2, 3], 8000, '4d80406e'), ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 36 but got 6 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 25769803770 but got 96000 (sample_rate=4294967295, '
  'bytes_per_sample=6) [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xb5 in position 108: invalid start byte"),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 4 but got 18 [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xa9 in position 108: invalid start byte"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 90760 but got 88200 (sample_rate=45380, bytes_per_sample=2) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'), ('ok', [1, 1], 16000, 'f42977ce'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found R\x03FF [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LISA [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got32768 [Op:DecodeWav]'),
 ('ok', [0, 1], 44100, 'd41d8cd9'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0x8f in position 134: invalid start byte"),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 6 but got 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'No data chunk found in WAV [Op:DecodeWav]'), ('ok', [7, 2], 8000, 'c3b3d28a'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [7, 1], 8000, '1c9e99e4'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected WAVE but found WA)E [Op:DecodeWav]'),
 ('InvalidArgumentError',
  "WAV data chunk 'data' is too large: 2147483648 bytes, but the limit is 2147483647 [Op:DecodeWav]"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 4 but got 6 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got18 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0x88 in position 110: invalid start byte"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 1 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'), ('ok', [7, 2], 8000, 'a9530b26'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got0 [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xef in position 135: invalid continuation byte"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [2, 1], 44100, '8f79f31a'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'No data chunk found in WAV [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0x86 in position 132: invalid start byte"),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 0 but got 16000 (sample_rate=0, bytes_per_sample=2) [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 99844 but got 4 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 294 but got 6 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 64000 but got 2 (sample_rate=16000, bytes_per_sample=4) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [2, 1], 44100, '5dff6d97'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got65535 [Op:DecodeWav]'),
 ('ok', [1, 1], 8000, '68ebd5df'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RIFL [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got13697040 [Op:DecodeWav]'),
 ('ok', [2, 3], 16000, '435bf51e'), ('ok', [7, 2], 44100, '9606d17c'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 2 but got 32768 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found +IFF [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [4, 2], 44100, '7ffa2643'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got18764 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 2 but got 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RLIS [Op:DecodeWav]'),
 ('ok', [5, 3], 8000, '29d105a7'), ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field [mt  [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [5, 3], 16000, '8b4af449'), ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('ok', [2, 3], 16000, '1681ffc6'), ('ok', [1, 3], 8000, 'ad492d2e'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [7, 3], 16000, 'f327a914'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 53762 but got 2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field ffac [Op:DecodeWav]'), ('ok', [5, 1], 8000, 'e0909910'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2147483648 [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 176400 but got 177168 (sample_rate=44100, bytes_per_sample=4) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field Pmt  [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 6 but got 2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 32768 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RILI [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [2, 3], 16000, '4ee86eb0'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got18 [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0x88 in position 132: invalid start byte"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field fmtf [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected WAVE but found WA\x16E [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LI\x10T [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 17179869180 but got 64000 (sample_rate=4294967295, '
  'bytes_per_sample=4) [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [3, 3], 44100, 'dd221d7e'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 176400 but got 0 (sample_rate=44100, bytes_per_sample=4) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'No data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field NK\x02 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 36 but got 4 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RIF\x16 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'No data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got1577058320 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 12884901888 but got 96000 (sample_rate=2147483648, '
  'bytes_per_sample=6) [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2147483648 [Op:DecodeWav]'),
 ('ok', [4, 3], 8000, 'b4dbd29a'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got109 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xf6 in position 110: invalid start byte"),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got252 [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 48000 but got 2147483648 (sample_rate=8000, bytes_per_sample=6) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 18 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Can only read 16-bit WAV files, but received 32768 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 4 but got 1 [Op:DecodeWav]'),
 ('ok', [5, 1], 44100, '2398aa91'), ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found \x07IFF [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected WAVE but found WAJU [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RIda [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got1 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('ok', [7, 1], 8000, '6fca1c5f'), ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got2 [Op:DecodeWav]'),
 ('ok', [7, 3], 44100, 'cb31c041'), ('ok', [3, 1], 8000, '53f50e92'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got9488 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 131070 but got 2 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 48000 but got 2147483648 (sample_rate=8000, bytes_per_sample=6) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got2 [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xfb in position 109: invalid start byte"),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found RrFF [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'No data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field ST\x02 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field t \x10 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 4 but got 65535 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got3422552080 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0xfe in position 109: invalid start byte"),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'More than one data chunk found in WAV [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad audio format for WAV: Expected 1 (PCM), but got20 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError',
  'Bad bytes per second in WAV header: Expected 51444224 but got 64000 (sample_rate=12861056, bytes_per_sample=4) '
  '[Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected WAVE but found WCVE [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('UnicodeDecodeError', "'utf-8' codec can't decode byte 0x88 in position 110: invalid start byte"),
 ('InvalidArgumentError', 'Bad format chunk size for WAV: Expected 16 or 18, but got0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Bad bytes per sample in WAV header: Expected 4 but got 0 [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field ext [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Unexpected field LIST [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Data too short when trying to read string [Op:DecodeWav]'),
 ('InvalidArgumentError', 'Header mismatch: Expected RIFF but found @IFF [Op:DecodeWav]'),
 ('ok', [7, 3], 16000, 'cfa56395')]
