"""`keras.layers`: every Keras layer tfcompat provides."""
from tfcompat.keras.layers.base import Layer  # noqa: F401
from tfcompat.keras.layers.input_spec import InputSpec  # noqa: F401
from tfcompat.keras.layers.input_layer import Input, InputLayer  # noqa: F401
from tfcompat.keras.layers.core import Activation, Dense, Dropout, Flatten, Identity, Lambda, Masking  # noqa: F401
from tfcompat.keras.layers.conv import (  # noqa: F401
    Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose, Convolution1D, Convolution1DTranspose,
    Convolution2D, Convolution2DTranspose, Convolution3D, Convolution3DTranspose, DepthwiseConv1D, DepthwiseConv2D,
    SeparableConv1D, SeparableConv2D, SeparableConvolution1D, SeparableConvolution2D)
from tfcompat.keras.layers.pooling import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, AveragePooling3D, AvgPool1D, AvgPool2D, AvgPool3D,
    GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalAveragePooling3D, GlobalAvgPool1D, GlobalAvgPool2D,
    GlobalAvgPool3D, GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPool3D, GlobalMaxPooling1D, GlobalMaxPooling2D,
    GlobalMaxPooling3D, MaxPool1D, MaxPool2D, MaxPool3D, MaxPooling1D, MaxPooling2D, MaxPooling3D)
from tfcompat.keras.layers.normalization import BatchNormalization, LayerNormalization  # noqa: F401
from tfcompat.keras.layers.pooling_adaptive import (  # noqa: F401
    AdaptiveAveragePooling1D, AdaptiveAveragePooling2D, AdaptiveAveragePooling3D, AdaptiveMaxPooling1D,
    AdaptiveMaxPooling2D, AdaptiveMaxPooling3D)
from tfcompat.keras.layers.merging import (  # noqa: F401
    Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add, average, concatenate, dot, maximum,
    minimum, multiply, subtract)
from tfcompat.keras.layers.activation import ELU, LeakyReLU, PReLU, ReLU, Softmax  # noqa: F401
from tfcompat.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, Reshape, UpSampling1D, UpSampling2D, UpSampling3D,
    ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from tfcompat.keras.layers.regularization import (  # noqa: F401
    ActivityRegularization, GaussianDropout, GaussianNoise, SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from tfcompat.keras.layers.legacy_layers import AlphaDropout, ThresholdedReLU  # noqa: F401
from tfcompat.keras.layers.embedding import Embedding, Rescaling, ReversibleEmbedding  # noqa: F401
from tfcompat.keras.layers.pipeline import Pipeline  # noqa: F401
from tfcompat.keras.layers.audio import MelSpectrogram, STFTSpectrogram  # noqa: F401
from tfcompat.keras.layers.hashed_crossing import HashedCrossing  # noqa: F401
from tfcompat.keras.layers.attention import (  # noqa: F401
    AdditiveAttention, Attention, EinsumDense, MultiHeadAttention)
from tfcompat.keras.layers.attention_grouped import GroupQueryAttention  # noqa: F401
from tfcompat.keras.layers.rnn import (  # noqa: F401
    GRU, GRUCell, LSTM, LSTMCell, RNN, SimpleRNN, SimpleRNNCell, StackedRNNCells)
from tfcompat.keras.layers.wrappers import Bidirectional, TimeDistributed, Wrapper  # noqa: F401
from tfcompat.keras.layers.conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D  # noqa: F401
from tfcompat.keras.layers.normalization_more import (  # noqa: F401
    GroupNormalization, RMSNormalization, SpectralNormalization, UnitNormalization)
from tfcompat.keras.layers.serialization import deserialize, serialize  # noqa: F401
from tfcompat.keras.layers.tfsm_layer import TFSMLayer  # noqa: F401
from tfcompat.keras.layers.preprocessing import (  # noqa: F401
    CategoryEncoding, CenterCrop, Discretization, Hashing, IntegerLookup, Normalization, RandomContrast, RandomFlip,
    RandomRotation, RandomTranslation, RandomZoom, Resizing, StringLookup, TextVectorization)
from tfcompat.keras.layers.preprocessing import (  # noqa: F401
    AutoContrast, Equalization, RandomBrightness, RandomColorDegeneration, RandomColorJitter, RandomCrop,
    RandomErasing, RandomGrayscale, RandomHue, RandomInvert, RandomPosterization, RandomSaturation, RandomSharpness,
    RandomShear, Solarization)
from tfcompat.keras.layers.preprocessing import (  # noqa: F401
    AugMix, CutMix, MaxNumBoundingBoxes, MixUp, RandAugment, RandomElasticTransform, RandomGaussianBlur,
    RandomPerspective)
