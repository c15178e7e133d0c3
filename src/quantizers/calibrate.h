#pragma once
// GPTQ and AWQ over a model (keras/src/quantizers/gptq_core.py, awq_core.py): the calibration
// windows, then block after block: the inputs of every Dense leaf of the block gathered over
// all windows, each layer quantized, and the block's outputs (through its now quantized
// layers) become the next block's inputs.

#include <string>

#include "keras/quantizers/calibration.h"
#include "keras/quantizers/quantizers.h"
#include "quantizers/gptq.h"

namespace keras::quantizers::detail {

/// ValueError unless `config` is a GPTQConfig/AWQConfig of `mode` with a dataset and a
/// quantization_layer_structure that has blocks.
void check_calibration_config(const std::string& mode, const QuantizationConfigPtr& config);

/// Keras's get_dataloader (strategy "strided", offset 0; see CalibrationDataset): int32
/// windows of shape (num_samples, sequence_length).
Tensor calibration_windows(const CalibrationDataset& dataset, const Tokenizer& tokenizer,
                           int64_t sequence_length, int64_t num_samples);

/// A layer that was never calibrated, rounded to the nearest level with its config's settings
/// (GPTQ without error correction; AWQ with unit scales): what its saved file holds.
/// `weights_transpose` is (columns, rows).
CalibratedMatrix round_to_nearest(const HostMatrix& weights_transpose,
                                  const QuantizationConfigPtr& config);

/// gptq_quantize / awq_quantize, after Model::quantize put the Dense layers in `mode`.
void calibrate_model(const std::string& mode, const QuantizationConfigPtr& config);

}  // namespace keras::quantizers::detail
