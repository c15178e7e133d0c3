#pragma once
// Helpers shared by the built-in cells and their layers: the input projection, dropout masks,
// and the config keys the cell options have in common.

#include <algorithm>
#include <optional>
#include <utility>

#include "keras/layers/options.h"
#include "keras/ops/ops.h"
#include "keras/random/random.h"

namespace keras::layers::detail {

/// x (..., features) @ kernel (features, n) + bias (n), over all leading axes at once.
inline Tensor project_last_axis(const Tensor& x, const Tensor& kernel, const Tensor& bias) {
  check(x.shape().back() == kernel.shape()[0], "expected inputs with last axis ",
        kernel.shape()[0], "; got shape ", x.shape(), ".");
  Tensor y;
  if (x.ndim() == 2) {
    y = ops::matmul(x, kernel);
  } else {
    Shape out = x.shape();
    out[out.rank() - 1] = kernel.shape()[1];
    y = ops::reshape(ops::matmul(ops::reshape(x, {-1, x.shape().back()}), kernel), out);
  }
  return bias.defined() ? ops::add(y, bias) : y;
}

/// The bias of an LSTM-like cell with unit_forget_bias (4 gates i, f, c, o of `units` each):
/// the bias initializer for i, ones for f, the bias initializer for c and o. Serializes as the
/// inner initializer, as Keras's config records bias_initializer.
class ForgetBiasInitializer final : public initializers::Initializer {
 public:
  ForgetBiasInitializer(initializers::InitializerPtr inner, int64_t units)
      : inner_(std::move(inner)), units_(units) {}
  Tensor operator()(const Shape&, DType dtype) const override {
    return ops::concatenate({(*inner_)({units_}, dtype), ops::ones({units_}, dtype),
                             (*inner_)({2 * units_}, dtype)},
                            0);
  }
  std::string class_name() const override { return inner_->class_name(); }
  Config get_config() const override { return inner_->get_config(); }

 private:
  initializers::InitializerPtr inner_;
  int64_t units_;
};

/// True for tanh and sigmoid, the activations detail::lstm_step (recurrent_ops.h) fuses.
inline bool default_lstm_activations(const activations::Activation& activation,
                                     const activations::Activation& recurrent_activation) {
  return activation.name() == "tanh" && recurrent_activation.name() == "sigmoid";
}

/// One LSTM step from the gate pre-activations z (i, f, c, o stacked on `gate_axis`) with any
/// activations (lstm_step in recurrent_ops.h fuses the default ones): returns (h, c).
inline std::pair<Tensor, Tensor> lstm_gates(const Tensor& z, int gate_axis, const Tensor& c_prev,
                                            const activations::Activation& activation,
                                            const activations::Activation& recurrent_activation) {
  TensorList g = ops::split(z, 4, gate_axis);
  Tensor i = recurrent_activation(g[0]), f = recurrent_activation(g[1]),
         o = recurrent_activation(g[3]);
  Tensor c = ops::add(ops::multiply(f, c_prev), ops::multiply(i, activation(g[2])));
  return {ops::multiply(o, activation(c)), c};
}

/// A dropout mask like `like` (values 0 or 1 / (1 - rate)), one draw from `generator`.
inline Tensor dropout_mask(const Tensor& like, double rate, random::SeedGenerator& generator) {
  return random::dropout(ops::ones_like(like), rate, std::nullopt, generator);
}

/// Appends `count` dropout masks like `like` (one per gate) to `masks` when 0 < rate < 1; Keras
/// draws none otherwise (a rate of 1 drops nothing).
inline void draw_dropout_masks(TensorList& masks, const Tensor& like, double rate, int count,
                               random::SeedGenerator& generator) {
  if (rate <= 0 || rate >= 1) return;
  for (int g = 0; g < count; ++g) masks.push_back(dropout_mask(like, rate, generator));
}

/// x times a step mask (batch, features); a sequence (batch, time, features) shares it over
/// time.
inline Tensor apply_mask(const Tensor& x, const Tensor& mask) {
  if (!mask.defined()) return x;
  return ops::multiply(x, x.ndim() == 3 ? ops::expand_dims(mask, 1) : mask);
}

inline double clip01(double rate) { return std::min(1.0, std::max(0.0, rate)); }

inline std::optional<uint64_t> generator_seed(std::optional<int64_t> seed) {
  if (!seed) return std::nullopt;
  return static_cast<uint64_t>(*seed);
}

inline Config seed_config(std::optional<int64_t> seed) {
  return seed ? Config(*seed) : Config(nullptr);
}

inline std::optional<int64_t> read_seed(const Config& c) {
  if (!c.contains("seed") || c["seed"].is_null()) return std::nullopt;
  return c["seed"].get<int64_t>();
}

/// The keys the cells (and their layers) write for their options, in Keras's names.
template <typename O>
void write_cell_config(Config& c, const O& o) {
  c["activation"] = activations::serialize(o.activation);
  if constexpr (requires { o.recurrent_activation; })
    c["recurrent_activation"] = activations::serialize(o.recurrent_activation);
  c["use_bias"] = o.use_bias;
  c["kernel_initializer"] = initializers::serialize(*o.kernel_initializer);
  c["recurrent_initializer"] = initializers::serialize(*o.recurrent_initializer);
  c["bias_initializer"] = initializers::serialize(*o.bias_initializer);
  if constexpr (requires { o.unit_forget_bias; }) c["unit_forget_bias"] = o.unit_forget_bias;
  c["kernel_regularizer"] = regularizers::serialize(o.kernel_regularizer.get());
  c["recurrent_regularizer"] = regularizers::serialize(o.recurrent_regularizer.get());
  c["bias_regularizer"] = regularizers::serialize(o.bias_regularizer.get());
  if constexpr (requires { o.activity_regularizer; })
    c["activity_regularizer"] = regularizers::serialize(o.activity_regularizer.get());
  c["kernel_constraint"] = constraints::serialize(o.kernel_constraint.get());
  c["recurrent_constraint"] = constraints::serialize(o.recurrent_constraint.get());
  c["bias_constraint"] = constraints::serialize(o.bias_constraint.get());
  c["dropout"] = o.dropout;
  c["recurrent_dropout"] = o.recurrent_dropout;
  if constexpr (requires { o.reset_after; }) c["reset_after"] = o.reset_after;
}

template <typename O>
void read_cell_config(const Config& c, O& o) {
  read_base_config(c, o);
  if (c.contains("activation")) o.activation = activations::deserialize(c["activation"]);
  if constexpr (requires { o.recurrent_activation; })
    if (c.contains("recurrent_activation"))
      o.recurrent_activation = activations::deserialize(c["recurrent_activation"]);
  o.use_bias = c.value("use_bias", true);
  if (c.contains("kernel_initializer"))
    o.kernel_initializer = initializers::deserialize(c["kernel_initializer"]);
  if (c.contains("recurrent_initializer"))
    o.recurrent_initializer = initializers::deserialize(c["recurrent_initializer"]);
  if (c.contains("bias_initializer"))
    o.bias_initializer = initializers::deserialize(c["bias_initializer"]);
  if constexpr (requires { o.unit_forget_bias; })
    o.unit_forget_bias = c.value("unit_forget_bias", true);
  if (c.contains("kernel_regularizer"))
    o.kernel_regularizer = regularizers::deserialize(c["kernel_regularizer"]);
  if (c.contains("recurrent_regularizer"))
    o.recurrent_regularizer = regularizers::deserialize(c["recurrent_regularizer"]);
  if (c.contains("bias_regularizer"))
    o.bias_regularizer = regularizers::deserialize(c["bias_regularizer"]);
  if constexpr (requires { o.activity_regularizer; })
    if (c.contains("activity_regularizer"))
      o.activity_regularizer = regularizers::deserialize(c["activity_regularizer"]);
  if (c.contains("kernel_constraint"))
    o.kernel_constraint = constraints::deserialize(c["kernel_constraint"]);
  if (c.contains("recurrent_constraint"))
    o.recurrent_constraint = constraints::deserialize(c["recurrent_constraint"]);
  if (c.contains("bias_constraint"))
    o.bias_constraint = constraints::deserialize(c["bias_constraint"]);
  o.dropout = c.value("dropout", 0.0);
  o.recurrent_dropout = c.value("recurrent_dropout", 0.0);
  if constexpr (requires { o.reset_after; }) o.reset_after = c.value("reset_after", true);
  if constexpr (requires { o.seed; }) o.seed = read_seed(c);
}

/// A cell's options from its layer's options (LSTM -> LSTMCell, ConvLSTM -> ConvLSTMCell): the
/// fields they share; the layer keeps its RNN arguments and activity_regularizer.
template <typename CellOptions, typename LayerOptions>
CellOptions cell_options_of(const LayerOptions& o, std::string cell_name) {
  CellOptions c;
  c.activation = o.activation;
  c.recurrent_activation = o.recurrent_activation;
  c.use_bias = o.use_bias;
  c.kernel_initializer = o.kernel_initializer;
  c.recurrent_initializer = o.recurrent_initializer;
  c.bias_initializer = o.bias_initializer;
  c.unit_forget_bias = o.unit_forget_bias;
  c.kernel_regularizer = o.kernel_regularizer;
  c.recurrent_regularizer = o.recurrent_regularizer;
  c.bias_regularizer = o.bias_regularizer;
  c.kernel_constraint = o.kernel_constraint;
  c.recurrent_constraint = o.recurrent_constraint;
  c.bias_constraint = o.bias_constraint;
  c.dropout = o.dropout;
  c.recurrent_dropout = o.recurrent_dropout;
  c.seed = o.seed;
  c.name = std::move(cell_name);
  c.trainable = o.trainable;
  c.dtype = o.dtype;
  return c;
}

/// The RNN keyword arguments of a layer's options (SimpleRNN, LSTM, GRU).
template <typename O>
RNNOptions rnn_options_of(const O& o) {
  RNNOptions r;
  r.return_sequences = o.return_sequences;
  r.return_state = o.return_state;
  r.go_backwards = o.go_backwards;
  r.stateful = o.stateful;
  r.unroll = o.unroll;
  r.activity_regularizer = o.activity_regularizer;
  r.name = o.name;
  r.trainable = o.trainable;
  r.dtype = o.dtype;
  return r;
}

/// The RNN keyword arguments read back into a layer's options.
template <typename O>
void read_rnn_fields(const Config& c, O& o) {
  RNNOptions r = read_rnn_options(c);
  o.return_sequences = r.return_sequences;
  o.return_state = r.return_state;
  o.go_backwards = r.go_backwards;
  o.stateful = r.stateful;
  o.unroll = r.unroll;
}

}  // namespace keras::layers::detail
