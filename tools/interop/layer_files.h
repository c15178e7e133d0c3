#pragma once
// Keras's one-file-per-layer-class fixtures (tools/keras_oracle/layer_files.py) saved again by
// keras-cpp, for the live round trip (interop_models, then tools/keras_oracle/interop.py).

#include <keras/keras.h>

#include <functional>
#include <string>

/// For each case of FIXTURES_DIR/layer_files.npz (one per layer class): loads
/// FIXTURES_DIR/layer_files/<Class>.keras with keras-cpp and calls
/// add("py_layer_<Class>", "layer:<Class>", model, the case's inputs). Cases marked
/// keras_cpp_differs (keras-cpp does not pass them yet) are printed and skipped.
void write_layer_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add);
