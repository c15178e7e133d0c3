#pragma once
// keras.quantizers.AWQConfig (Keras 3.15): activation-aware 4-bit quantization of Dense kernels
// (Lin et al., AWQ): each input column is scaled by a power of its largest calibration
// activation, the power searched on a grid to minimise the activation-weighted error, before
// asymmetric 4-bit quantization; calls divide the scales back out.
//
//   model->quantize("awq", quantizers::AWQConfig({
//       .dataset = tokens, .quantization_layer_structure = {{embedding}, {block0, block1}}}));
//
// The layers hold Keras's variables (packed kernel, kernel_scale, kernel_zero, awq_scales,
// g_idx) and policy ("awq/4/128_from_float32"). See docs/quantization.md.

#include <cstdint>
#include <optional>

#include "keras/quantizers/calibration.h"
#include "keras/quantizers/quantizers.h"

#pragma GCC visibility push(default)
namespace keras::quantizers {

/// Keras's AWQConfig arguments, with its defaults.
struct AWQConfigOptions {
  /// The calibration data: token arrays, texts (with `tokenizer`) or explicit windows (Keras's
  /// `dataset`).
  CalibrationDataset dataset;
  /// Needed only when `dataset` holds texts.
  Tokenizer tokenizer;
  /// Only 4, as Keras.
  int weight_bits = 4;
  /// The number of calibration windows (Keras's `num_samples`).
  int64_t num_samples = 128;
  /// The number of tokens per window (Keras's `sequence_length`).
  int64_t sequence_length = 512;
  /// Inputs sharing a scale and zero point; -1: one per output channel.
  int64_t group_size = 128;
  /// Exponents searched: 0, 1/n, ..., 1.
  int64_t num_grid_points = 20;
  /// Required in keras-cpp (see GPTQConfigOptions).
  std::optional<QuantizationLayerStructure> quantization_layer_structure;
};

/// keras.quantizers.AWQConfig(...): checked as Keras's constructor (ValueError).
QuantizationConfigPtr AWQConfig(AWQConfigOptions options);

/// The AWQ arguments of a config AWQConfig made; null for any other config.
const AWQConfigOptions* awq_options(const QuantizationConfigPtr& config);

}  // namespace keras::quantizers

#pragma GCC visibility pop
