"""The custom TextVectorization steps of string_graphs.py, registered with Keras under the names
keras-cpp's tests register their C++ twins with (keras::layers::register_standardize_function
and register_split_function):
  demo>no_digits   lowercase (ASCII, as tf.strings.lower), then every ASCII digit removed
  demo>on_commas   the document split at each comma (empty tokens kept)
Imported by string_graphs.py (and its TensorFlow subprocess) and string_interop.py.
"""

import keras
import tensorflow as tf


@keras.saving.register_keras_serializable(package="demo", name="no_digits")
def no_digits(x):
    return tf.strings.regex_replace(tf.strings.lower(x), "[0-9]", "")


@keras.saving.register_keras_serializable(package="demo", name="on_commas")
def on_commas(x):
    return tf.strings.split(x, sep=",")
