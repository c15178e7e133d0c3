#pragma once
// Models with LoRA enabled (tools/keras_oracle/lora.py's lora_mlp and lora_mixed) for the live
// round trip: built and fine-tuned here ("cpp_lora_<kind>"), and Keras's own files of them
// loaded and saved again ("py_lora_<kind>"). Keras loads each file and its .weights.h5 into its
// own build of the model (LoRA enabled there too) and must predict the same.

#include <keras/keras.h>

#include <functional>
#include <string>

/// Calls add(name, kind, model, inputs) for each LoRA model; `kind` names lora.py's builder.
/// For the compiled one, resume(name, model, {x1, y1, x2, y2, probe}) follows with the model
/// keras-cpp loads back from that file (adapters zeroed, as Keras's load gives them).
void write_lora_files(
    const std::string& fixtures_dir,
    const std::function<void(const std::string& name, const std::string& kind, keras::Model& model,
                             const keras::TensorList& inputs)>& add,
    const std::function<void(const std::string& name, keras::Model& model,
                             const keras::TensorList& data)>& resume);
