#pragma once
// keras.layers.Hashing: each value to one of num_bins buckets by a stable hash, the bucket
// TensorFlow's ops give (FarmHash Fingerprint64, or SipHash-2-4 keyed by a salt), so buckets
// match Keras's on every platform. Integers are hashed as their decimal text, floats after a
// cast to int64, strings (keras::StringTensor) as their UTF-8 bytes.
//
//   auto h = layers::Hashing(3);
//   h->call_strings(StringTensor({"A", "B", "C", "D", "E"}, {5, 1}));   // [[1], [0], [1], [1],
//   [2]] auto m = layers::Hashing(3, {.mask_value = ""});               // "" -> 0, others in 1..2
//   auto s = layers::Hashing(3, {.salt = std::vector<int64_t>{133, 137}});
//   auto e = layers::Hashing(8, {.output_mode = "one_hot"});       // ints -> (batch, 8) floats
//   e(ids);

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "keras/layers/host_layer.h"
#include "keras/layers/options.h"
#include "keras/layers/preprocessing/string_layer_ptr.h"
#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.Hashing other than `num_bins`.
struct HashingOptions {
  /// A value mapped to bucket 0 (the others then go to 1..num_bins-1): an integer (compared
  /// with int and float inputs) or a string (compared with string inputs). None by default.
  /// With num_bins == 1 it is ignored, as in Keras.
  std::variant<std::monostate, int64_t, std::string> mask_value;
  /// Hash with SipHash-2-4 keyed by the salt instead of FarmHash: one integer (used for both
  /// key words, as Keras's salt=133 means [133, 133]) or exactly two.
  std::variant<std::monostate, int64_t, std::vector<int64_t>> salt;
  /// "int" (the bucket), "one_hot" (a new last axis of num_bins, replacing a last axis of
  /// extent 1), "multi_hot" or "count" (the last axis as the sample).
  std::string output_mode = "int";
  /// Sparse outputs are not supported (keras-cpp has no sparse tensors): NotImplementedError.
  bool sparse = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// Empty: "int64" for output_mode "int" (which needs int32 or int64), floatx otherwise.
  std::string dtype;
};

/// The Hashing layer (Keras's "Hashing"). It has no weights; on int and float tensors it is
/// an ordinary layer (Sequential, Functional, .keras files); strings go through
/// call_strings().
class HashingLayer : public Layer, public HostComputedLayer {
 public:
  /// A layer hashing values into `num_bins` buckets (Keras's `num_bins`).
  HashingLayer(int64_t num_bins, HashingOptions options = {});
  std::string class_name() const override { return "Hashing"; }
  /// Hashes an int or float tensor (floats truncated to int64 first, as Keras does).
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// Hashes a tensor of strings; the result is encoded as for call(), on the current backend.
  Tensor call_strings(const StringTensor& inputs);
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `num_bins`: the number of hash buckets, mask_value's bucket 0 included.
  int64_t num_bins() const { return num_bins_; }
  /// Keras's `output_mode`: "int", "one_hot", "multi_hot" or "count".
  const std::string& output_mode() const { return options_.output_mode; }
  /// The SipHash key, when a salt was given.
  const std::optional<std::array<int64_t, 2>>& salt() const { return salt_; }

 private:
  /// The bucket of each value (what Keras's _hash_values_to_bins returns), given how to read
  /// value i as hash input and whether it equals mask_value.
  template <typename Text, typename IsMask>
  std::vector<int64_t> buckets(int64_t count, Text text, IsMask is_mask) const;
  /// The buckets (int64, shape of `inputs` after the one_hot squeeze) encoded per output_mode.
  Tensor encode(const Tensor& indices) const;
  /// Whether values are compared with mask_value (set, and num_bins > 1).
  bool compares_mask() const;
  /// mask_value as text, for messages.
  std::string mask_text() const;
  /// Keras's one_hot squeeze of a last axis of extent 1 before hashing.
  Shape hashed_shape(const Shape& input_shape) const;

  int64_t num_bins_;
  HashingOptions options_;
  std::optional<std::array<int64_t, 2>> salt_;
};

/// A layer hashing values into `num_bins` buckets.
StringLayerPtr<HashingLayer> Hashing(int64_t num_bins, HashingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
