#pragma once
// Keras's one-file-per-layer-class fixtures (tools/keras_oracle/layer_files.py) saved again by
// keras-cpp, for the live round trip (interop_models, then tools/keras_oracle/interop.py).

#include <keras/keras.h>

#include <functional>
#include <string>

/// For each case of FIXTURES_DIR/<set>.npz (one per layer class): loads
/// FIXTURES_DIR/<set>/<Class>.keras with keras-cpp and calls add("py_layer_<Class>",
/// "layer:<Class>" (or "layer:<set>/<Class>" for a set other than layer_files), model, the
/// case's inputs). Cases marked keras_cpp_differs (keras-cpp does not pass them yet) are
/// printed and skipped. Sets: layer_files (layer_files.py), conv_lstm_files (conv_lstm.py).
void write_layer_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add,
    const std::string& set = "layer_files");
