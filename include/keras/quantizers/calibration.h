#pragma once
// What Keras's calibrated quantization modes (GPTQ, AWQ) read besides their numbers: the
// calibration data and the model's structure (keras/src/quantizers/gptq_core.py).
//
//   quantizers::QuantizationLayerStructure structure{.pre_block_layers = {embedding},
//                                                   .sequential_blocks = {block0, block1}};
//   model->quantize("gptq", quantizers::GPTQConfig({.dataset = tokens,
//                                                   .quantization_layer_structure = structure}));

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

class Layer;

namespace quantizers {

/// The calibration data of GPTQ/AWQ (Keras's `dataset` + `tokenizer`): token arrays (any
/// shape, read flattened, as int32) or texts that `tokenizer` turns into token arrays. The
/// tokens are joined, repeated when too few, and cut into num_samples windows of
/// sequence_length tokens (Keras's get_dataloader, strategy "strided").
struct CalibrationDataset {
  CalibrationDataset() = default;
  /// One array of tokens.
  CalibrationDataset(Tensor tokens) : token_arrays{std::move(tokens)} {}  // NOLINT: Keras's dataset=array
  /// Several arrays of tokens, joined in order.
  CalibrationDataset(std::vector<Tensor> arrays) : token_arrays(std::move(arrays)) {}  // NOLINT
  /// Texts for the tokenizer.
  CalibrationDataset(std::vector<std::string> texts) : texts(std::move(texts)) {}  // NOLINT

  /// keras-cpp's addition: the calibration windows themselves, (num_samples, sequence_length)
  /// or (num_samples, 1, sequence_length), used as they are. Keras's strided sampling starts
  /// at an offset drawn from Python's per-process string hash, so only explicit windows give
  /// the same calibration as a given Keras run.
  static CalibrationDataset from_windows(Tensor windows) {
    CalibrationDataset d;
    d.windows = std::move(windows);
    return d;
  }

  /// Arrays of token ids, joined in order.
  std::vector<Tensor> token_arrays;
  /// Texts, tokenized by the config's tokenizer.
  std::vector<std::string> texts;
  /// Explicit calibration windows (from_windows()); undefined otherwise.
  Tensor windows;
  /// Whether the dataset holds no data at all.
  bool empty() const { return token_arrays.empty() && texts.empty() && !windows.defined(); }
};

/// Turns one text into its tokens (Keras's `tokenizer.tokenize`); only texts need one.
using Tokenizer = std::function<Tensor(const std::string&)>;

/// Keras's quantization_layer_structure: the layers that turn token windows into the first
/// block's inputs (an Embedding), then the blocks quantized one after another, each calibrated
/// on the outputs of the blocks before it as already quantized. Every Dense leaf of a block is
/// quantized; Dense layers outside the blocks take the mode but keep their float kernel, as in
/// Keras.
struct QuantizationLayerStructure {
  /// The layers that turn the token windows into the first block's inputs, in order (Keras's
  /// "pre_block_layers").
  std::vector<std::shared_ptr<Layer>> pre_block_layers;
  /// The blocks quantized one after another (Keras's "sequential_blocks").
  std::vector<std::shared_ptr<Layer>> sequential_blocks;
};

}  // namespace quantizers
}  // namespace keras

#pragma GCC visibility pop
