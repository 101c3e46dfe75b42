"""`keras.applications`: Keras's pretrained-model architectures (VGG, ResNet v1/v2, Xception, MobileNet v1/v2/v3,
EfficientNet B0-B7 and V2, InceptionV3, InceptionResNetV2, DenseNet, ConvNeXt, NASNet), built with the same layers,
names, shapes and parameters as Keras 3; ImageNet weights are Keras's `.h5` files, read from the Keras cache
(`~/.keras/models`, downloaded when missing) or from a path given as `weights`. Submodules load on first use."""
import importlib as _importlib

_MODULES = ("imagenet_utils", "vgg16", "vgg19", "resnet", "resnet50", "resnet_v2", "xception", "mobilenet",
            "mobilenet_v2", "efficientnet", "inception_v3",
            "densenet", "mobilenet_v3", "efficientnet_v2", "convnext",
            "inception_resnet_v2", "nasnet")
_MODELS = {"VGG16": "vgg16", "VGG19": "vgg19", "ResNet50": "resnet", "ResNet101": "resnet", "ResNet152": "resnet",
           "ResNet50V2": "resnet_v2", "ResNet101V2": "resnet_v2", "ResNet152V2": "resnet_v2",
           "Xception": "xception", "MobileNet": "mobilenet", "MobileNetV2": "mobilenet_v2",
           "InceptionV3": "inception_v3", "InceptionResNetV2": "inception_resnet_v2",
           "NASNetMobile": "nasnet", "NASNetLarge": "nasnet", "DenseNet121": "densenet", "DenseNet169": "densenet",
           "DenseNet201": "densenet", "MobileNetV3Small": "mobilenet_v3", "MobileNetV3Large": "mobilenet_v3",
           **{f"EfficientNetB{i}": "efficientnet" for i in range(8)},
           **{f"ConvNeXt{v}": "convnext" for v in ("Tiny", "Small", "Base", "Large", "XLarge")},
           **{f"EfficientNetV2{v}": "efficientnet_v2" for v in ("B0", "B1", "B2", "B3", "S", "M", "L")}}


def __getattr__(attr):
    if attr in _MODULES:
        value = _importlib.import_module(f"{__name__}.{attr}")
    elif attr in _MODELS:
        value = getattr(_importlib.import_module(f"{__name__}.{_MODELS[attr]}"), attr)
    else:
        from tfcompat._api import missing
        raise missing("keras.applications", attr)
    globals()[attr] = value
    return value
