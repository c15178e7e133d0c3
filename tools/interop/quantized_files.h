#pragma once
// Models keras-cpp quantizes itself for the live round trip: Keras's float fixture files of
// tools/keras_oracle/quantize.py, quantized with Model::quantize("int8"), and of quantize_int4.py
// quantized to int4 per channel and in blocks, and gptq_awq.py's float models calibrated with
// GPTQ/AWQ; Keras loads them and must predict what keras-cpp predicted (interop.py, kinds
// "quantize:<case>", "gptq_awq:<setting>").

#include <keras/keras.h>

#include <functional>
#include <string>

/// Calls `add(name, kind, model, inputs)` for each quantized model.
void write_quantized_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add);
