#pragma once
// float8 models for the live round trip: Keras's float8 models of
// tools/keras_oracle/quantize_float8.py, trained one epoch with Adam in keras-cpp
// ("cpp_float8_<case>", kind "quantize_float8:<case>"). Keras loads each file and its
// .weights.h5 into its own float8 model and must predict the same, then resumes the training
// (two train_on_batch steps from keras-cpp's scales, histories and Adam slots) to the same losses.

#include <keras/keras.h>

#include <functional>
#include <string>

/// Calls add(name, kind, model, inputs), then resume(name, model, {x1, y1, x2, y2, probe}).
void write_float8_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add,
    const std::function<void(const std::string& name, keras::Model& model,
                             const keras::TensorList& data)>& resume);
