#pragma once
// keras.quantizers.GPTQConfig (Keras 3.15): post-training quantization of Dense kernels to 2,
// 3, 4 or 8 bits that corrects each column's rounding error on the columns not yet quantized,
// weighted by the Hessian of the layer's inputs on calibration data (Frantar et al., GPTQ).
//
//   model->quantize("gptq", quantizers::GPTQConfig({
//       .dataset = tokens, .weight_bits = 4, .group_size = 128,
//       .quantization_layer_structure = {{embedding}, {block0, block1}}}));
//
// The quantized layers hold Keras's variables (kernel packed two 4-bit values per uint8 byte,
// kernel_scale, kernel_zero, g_idx) and policy ("gptq/4/128_from_float32"), so the .keras files
// move both ways with Python Keras. See docs/quantization.md.

#include <cstdint>
#include <optional>

#include "keras/quantizers/calibration.h"
#include "keras/quantizers/quantizers.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// Keras's GPTQConfig arguments, with its defaults.
struct GPTQConfigOptions {
  /// The calibration data: token arrays, texts (with `tokenizer`) or explicit windows (Keras's
  /// `dataset`).
  CalibrationDataset dataset;
  /// Needed only when `dataset` holds texts.
  Tokenizer tokenizer;
  /// 2, 3, 4 or 8.
  int weight_bits = 4;
  /// Calibration windows.
  int64_t num_samples = 128;
  /// A scale and zero point per output channel (or per group); false: one for the whole kernel
  /// (Keras's `per_channel`).
  bool per_channel = true;
  /// Tokens per window.
  int64_t sequence_length = 512;
  /// Added to the Hessian's diagonal, as a fraction of its mean (in [0, 1]).
  double hessian_damping = 0.01;
  /// Inputs sharing a scale and zero point; -1: one per output channel.
  int64_t group_size = 128;
  /// Symmetric quantization (zero point at the middle of the range); false: asymmetric (Keras's
  /// `symmetric`).
  bool symmetric = false;
  /// Quantize the inputs with the largest Hessian diagonal first.
  bool activation_order = false;
  /// Required in keras-cpp (Keras can also ask the model's get_quantization_layer_structure).
  std::optional<QuantizationLayerStructure> quantization_layer_structure;
};

/// keras.quantizers.GPTQConfig(...): checked as Keras's constructor (ValueError).
QuantizationConfigPtr GPTQConfig(GPTQConfigOptions options);

/// The GPTQ arguments of a config GPTQConfig made; null for any other config.
const GPTQConfigOptions* gptq_options(const QuantizationConfigPtr& config);

}  // namespace keras::quantizers

#pragma GCC visibility pop
