#include "quantizers/calibrate.h"

#include <iostream>
#include <functional>
#include <memory>
#include <optional>
#include <variant>

#include "keras/core/errors.h"
#include "keras/layers/core/dense.h"
#include "keras/layers/core/einsum_dense.h"
#include "keras/ops/ops.h"
#include "keras/quantizers/awq_config.h"
#include "keras/quantizers/gptq_config.h"
#include "models/flatten_layers.h"
#include "quantizers/awq.h"
#include "quantizers/calibration_state.h"
#include "quantizers/gptq.h"

namespace keras::quantizers::detail {
namespace {

// What GPTQConfig and AWQConfig share for the walk over the blocks.
struct Calibration {
  const CalibrationDataset* dataset;
  const Tokenizer* tokenizer;
  int64_t num_samples, sequence_length;
  const QuantizationLayerStructure* structure;
};

Calibration calibration_of(const std::string& mode, const QuantizationConfigPtr& config) {
  if (mode == "gptq") {
    const GPTQConfigOptions* o = gptq_options(config);
    check(o, "mode='gptq' needs a config made by keras::quantizers::GPTQConfig; got a '",
          config ? config->mode : std::string("null"), "' config.");
    return {&o->dataset, &o->tokenizer, o->num_samples, o->sequence_length,
            o->quantization_layer_structure ? &*o->quantization_layer_structure : nullptr};
  }
  const AWQConfigOptions* o = awq_options(config);
  check(o, "mode='awq' needs a config made by keras::quantizers::AWQConfig; got a '",
        config ? config->mode : std::string("null"), "' config.");
  return {&o->dataset, &o->tokenizer, o->num_samples, o->sequence_length,
          o->quantization_layer_structure ? &*o->quantization_layer_structure : nullptr};
}

// A layer calibration quantizes: its float kernel as (rows, columns) and where the result goes.
struct Target {
  std::shared_ptr<Layer> layer;
  std::function<Tensor()> kernel;
  std::function<void(const CalibratedMatrix&)> install;
};

// A Dense or EinsumDense `layer` in `mode` and not calibrated yet; `kernel` reads its float
// kernel as (rows, columns).
template <typename L, typename KernelOf>
std::optional<Target> target_of(const std::shared_ptr<Layer>& layer, const std::string& mode,
                                KernelOf kernel) {
  auto typed = std::dynamic_pointer_cast<L>(layer);
  if (!typed || typed->quantization_mode() != mode || typed->is_calibrated()) return std::nullopt;
  return Target{layer, [typed, kernel] { return kernel(*typed); },
                [typed](const CalibratedMatrix& q) {
                  typed->set_calibrated_kernel(q.quantized, q.scale, q.zero, q.g_idx,
                                               q.awq_scales);
                }};
}

// Keras's find_layers_in_block: the Dense and EinsumDense leaves of the block (the block itself
// when it is one) that are in the mode and not calibrated yet.
std::vector<Target> calibration_targets(const std::shared_ptr<Layer>& block,
                                        const std::string& mode) {
  std::vector<std::shared_ptr<Layer>> candidates = keras::detail::flatten_layers(*block);
  candidates.insert(candidates.begin(), block);
  std::vector<Target> out;
  for (const auto& layer : candidates) {
    if (keras::detail::has_sublayers(*layer)) continue;
    std::optional<Target> t = target_of<layers::DenseLayer>(
        layer, mode, [](const layers::DenseLayer& d) { return d.kernel_variable().value(); });
    if (!t)
      t = target_of<layers::EinsumDenseLayer>(
          layer, mode, [](const layers::EinsumDenseLayer& e) { return e.calibration_kernel(); });
    if (t) out.push_back(std::move(*t));
  }
  return out;
}

// One layer's statistics: GPTQ's Hessian or AWQ's activation magnitudes.
using LayerState = std::variant<GptqLayerState, AwqLayerState>;

void calibrate_block(const std::shared_ptr<Layer>& block, const std::string& mode,
                     const QuantizationConfigPtr& config, const std::vector<Tensor>& inputs) {
  const std::vector<Target> targets = calibration_targets(block, mode);
  if (targets.empty()) return;
  std::vector<Tensor> kernels;
  std::vector<LayerState> states;
  states.reserve(targets.size());
  for (const Target& t : targets) {
    kernels.push_back(t.kernel());
    const int64_t rows = kernels.back().shape()[0];
    if (mode == "gptq") states.emplace_back(GptqLayerState(rows));
    else states.emplace_back(AwqLayerState(rows));
  }
  {
    // Every window through the block, each target's inputs streamed into its statistics.
    std::vector<std::unique_ptr<CalibrationObserverScope>> scopes;
    for (size_t i = 0; i < targets.size(); ++i)
      scopes.push_back(std::make_unique<CalibrationObserverScope>(
          *targets[i].layer, [state = &states[i]](const Tensor& x) {
            std::visit([&x](auto& s) { s.update(x); }, *state);
          }));
    for (const Tensor& x : inputs) (*block)(x);
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    CalibratedMatrix q;
    if (const auto* g = gptq_options(config)) {
      q = std::get<GptqLayerState>(states[i]).quantize(
          kernels[i], {.weight_bits = g->weight_bits,
                       .per_channel = g->per_channel,
                       .symmetric = g->symmetric,
                       .group_size = g->group_size,
                       .activation_order = g->activation_order,
                       .hessian_damping = g->hessian_damping});
    } else {
      const AWQConfigOptions* a = awq_options(config);
      q = std::get<AwqLayerState>(states[i]).quantize(kernels[i], a->num_grid_points,
                                                      a->group_size);
    }
    targets[i].install(q);
  }
}

}  // namespace

void check_calibration_config(const std::string& mode, const QuantizationConfigPtr& config) {
  const Calibration c = calibration_of(mode, config);
  check(!c.dataset->empty(), mode == "gptq" ? "GPTQ" : "AWQ",
        " quantization requires a dataset: set the config's `dataset` (token arrays, texts with "
        "a `tokenizer`, or CalibrationDataset::from_windows).");
  check(c.dataset->texts.empty() || *c.tokenizer, mode == "gptq" ? "GPTQ" : "AWQ",
        " quantization of texts requires a tokenizer: set the config's `tokenizer`.");
  check(c.structure, "For mode='", mode, "', a valid quantization structure must be provided "
        "via the config's quantization_layer_structure (keras-cpp has no "
        "get_quantization_layer_structure hook): {.pre_block_layers = {...}, "
        ".sequential_blocks = {...}}.");
  check(!c.structure->sequential_blocks.empty(),
        "No sequential blocks found in the provided structure to quantize.");
  for (const auto& layer : c.structure->pre_block_layers)
    check(layer != nullptr, "quantization_layer_structure: a pre-block layer is null.");
  for (const auto& layer : c.structure->sequential_blocks)
    check(layer != nullptr, "quantization_layer_structure: a sequential block is null.");
}

Tensor calibration_windows(const CalibrationDataset& dataset, const Tokenizer& tokenizer,
                           int64_t sequence_length, int64_t num_samples) {
  if (dataset.windows.defined()) {
    const Shape& s = dataset.windows.shape();
    check((s.rank() == 2 || (s.rank() == 3 && s[1] == 1)) && s.back() == sequence_length,
          "CalibrationDataset::from_windows: expected windows of shape (num_samples, ",
          sequence_length, ") or (num_samples, 1, ", sequence_length, "); got ", s, ".");
    const Tensor w = ops::cast(ops::reshape(dataset.windows, {s[0], sequence_length}), DType::Int32);
    return s[0] > num_samples ? ops::slice(w, {0, 0}, {num_samples, sequence_length}) : w;
  }
  std::vector<int32_t> tokens;
  auto append = [&tokens](const Tensor& t) {
    const std::vector<int32_t> v = ops::cast(t, DType::Int32).to_vector<int32_t>();
    tokens.insert(tokens.end(), v.begin(), v.end());
  };
  for (const std::string& text : dataset.texts) append(tokenizer(text));
  for (const Tensor& t : dataset.token_arrays) append(t);
  check(!tokens.empty(), "Provided dataset is empty.");
  const size_t required = static_cast<size_t>(num_samples * sequence_length);
  if (tokens.size() < required) {
    // Keras's np.tile: the tokens repeated until there are enough.
    const std::vector<int32_t> once = tokens;
    const size_t repeats = (required + once.size() - 1) / once.size();
    for (size_t r = 1; r < repeats; ++r) tokens.insert(tokens.end(), once.begin(), once.end());
  }
  const int64_t max_start = static_cast<int64_t>(tokens.size()) - sequence_length;
  check(max_start >= 0, "Not enough tokens to form one sample of length ", sequence_length,
        " (have ", tokens.size(), ").");
  // Strided starts from offset 0 (Keras: an offset from Python's salted hash of the seed).
  const int64_t stride = std::max<int64_t>(1, (max_start + 1) / num_samples);
  std::vector<int32_t> windows;
  windows.reserve(required);
  for (int64_t i = 0; i < num_samples; ++i) {
    const int64_t start = (i * stride) % (max_start + 1);
    windows.insert(windows.end(), tokens.begin() + start, tokens.begin() + start + sequence_length);
  }
  return Tensor::from_vector(windows, Shape{num_samples, sequence_length});
}

CalibratedMatrix round_to_nearest(const HostMatrix& w, const QuantizationConfigPtr& config) {
  if (const auto* g = gptq_options(config)) {
    HostMatrix identity(w.cols, w.cols);
    for (int64_t i = 0; i < w.cols; ++i) identity(i, i) = 1.0f;
    return gptq_quantize_matrix(w, identity,
                                {.weight_bits = g->weight_bits,
                                 .per_channel = g->per_channel,
                                 .symmetric = g->symmetric,
                                 .group_size = g->group_size});
  }
  const AWQConfigOptions* a = awq_options(config);
  check(a, "A GPTQ/AWQ layer's quantization_config is neither a GPTQConfig nor an AWQConfig.");
  return awq_quantize_matrix(w, std::vector<float>(static_cast<size_t>(w.cols), 1.0f), 1,
                             a->group_size);
}

void calibrate_model(const std::string& mode, const QuantizationConfigPtr& config) {
  const Calibration c = calibration_of(mode, config);
  const Tensor windows =
      calibration_windows(*c.dataset, *c.tokenizer, c.sequence_length, c.num_samples);
  const int64_t n = windows.shape()[0], length = windows.shape()[1];
  // Each window is one (1, sequence_length) batch through the pre-block layers, as Keras.
  std::vector<Tensor> inputs;
  for (int64_t i = 0; i < n; ++i) {
    Tensor batch = ops::slice(windows, {i, 0}, {1, length});
    for (const auto& layer : c.structure->pre_block_layers) batch = (*layer)(batch);
    inputs.push_back(batch);
  }
  const auto& blocks = c.structure->sequential_blocks;
  for (size_t b = 0; b < blocks.size(); ++b) {
    calibrate_block(blocks[b], mode, config, inputs);
    if (b + 1 < blocks.size())
      for (Tensor& x : inputs) x = (*blocks[b])(x);
  }
}

}  // namespace keras::quantizers::detail
