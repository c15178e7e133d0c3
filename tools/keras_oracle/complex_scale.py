"""A custom layer with complex weights, registered as "oracle>ComplexScale" here and by its C++
twin (tools/interop/complex_scale.h): y = real(x * scale) + imag(x * rotor) + bias, with a
complex64 `scale`, a non-trainable `rotor` of the complex dtype `rotor_dtype` and a float32
`bias`, one of each per feature. Keras writes complex weights as h5py's complex type (a compound
of "r" and "i"); complex_weights.py and interop.py check that keras-cpp reads and writes them.
"""

import keras
import numpy as np

ops = keras.ops


@keras.saving.register_keras_serializable("oracle")
class ComplexScale(keras.layers.Layer):
    def __init__(self, rotor_dtype="complex64", **kwargs):
        super().__init__(**kwargs)
        self.rotor_dtype = rotor_dtype

    def build(self, input_shape):
        n = input_shape[-1]
        self.scale = self.add_weight(shape=(n,), dtype="complex64", initializer="ones",
                                     name="scale")
        self.rotor = self.add_weight(shape=(n,), dtype=self.rotor_dtype, initializer="zeros",
                                     name="rotor", trainable=False)
        self.bias = self.add_weight(shape=(n,), initializer="zeros", name="bias")

    def call(self, x):
        scaled = ops.real(ops.cast(x, "complex64") * self.scale)
        turned = ops.imag(ops.cast(x, self.rotor_dtype) * self.rotor)
        return scaled + ops.cast(turned, "float32") + self.bias

    def get_config(self):
        return {**super().get_config(), "rotor_dtype": self.rotor_dtype}


def complex_scale():
    """The model of complex_weights.py and of the interop kind "complex_scale": both widths of
    complex weights."""
    return keras.Sequential([keras.Input((4,)), ComplexScale(name="cs64"),
                             ComplexScale(rotor_dtype="complex128", name="cs128"),
                             keras.layers.Dense(3, name="dense")])


def randomize(model, seed):
    """Every weight drawn at random (complex ones in both parts), so that none keeps its
    initializer's value."""
    rng = np.random.default_rng(seed)
    for v in model.weights:
        dtype = np.dtype(v.dtype)
        value = rng.standard_normal(v.shape)
        if dtype.kind == "c":
            value = value + 1j * rng.standard_normal(v.shape)
        v.assign(value.astype(dtype))
