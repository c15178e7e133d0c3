#pragma once
// keras.layers.HashedCrossing: crosses categorical features (ints or strings) into num_bins
// buckets by TensorFlow's tf.sparse.cross_hashed, so each combination lands in the bucket
// Keras gives it.
//
//   auto cross = layers::HashedCrossing(5);
//   cross(TensorList{ids_a, ids_b});                          // int features, (batch,) -> (batch,)
//   cross->call_features({ids, StringTensor({"a", "b"})});    // int x string
//   auto hot = layers::HashedCrossing(5, {.output_mode = "one_hot"});   // -> (batch, 5)

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "keras/layers/host_layer.h"
#include "keras/layers/options.h"
#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.HashedCrossing other than `num_bins`.
struct HashedCrossingOptions {
  /// "int" (the bucket) or "one_hot" (a last axis of num_bins, replacing one of extent 1).
  std::string output_mode = "int";
  /// Sparse outputs are not supported (keras-cpp has no sparse tensors): NotImplementedError.
  bool sparse = false;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// Empty: "int64" for output_mode "int", floatx otherwise.
  std::string dtype;
};

/// One feature of a cross: an integer tensor or a tensor of strings.
using CrossFeature = std::variant<Tensor, StringTensor>;

/// The HashedCrossing layer (Keras's "HashedCrossing"). Its inputs are two or more features
/// of one shape: () (one sample), (batch,) or (batch, 1). Integer features are crossed by
/// their values, strings by their FarmHash fingerprints, in input order. Integer features
/// alone make it an ordinary list-input layer (Functional models, .keras files).
class HashedCrossingLayer : public Layer, public HostComputedLayer {
 public:
  /// A layer crossing features into `num_bins` hashed buckets (Keras's `num_bins`).
  HashedCrossingLayer(int64_t num_bins, HashedCrossingOptions options = {});
  std::string class_name() const override { return "HashedCrossing"; }
  /// ValueError: the layer takes a list of features.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  /// Crosses integer features.
  TensorList call_list(const TensorList& inputs, const CallContext& ctx) override;
  /// Crosses integer and string features; the result is on the backend of the first integer
  /// feature (the current backend when all are strings).
  Tensor call_features(const std::vector<CrossFeature>& features);
  /// Keras's keys only: num_bins, output_mode, sparse, name, dtype (a dtype name).
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Keras's `num_bins`: the number of hash buckets.
  int64_t num_bins() const { return num_bins_; }
  /// Keras's `output_mode`: "int" or "one_hot".
  const std::string& output_mode() const { return options_.output_mode; }

 private:
  Tensor cross(const std::vector<CrossFeature>& features) const;

  int64_t num_bins_;
  HashedCrossingOptions options_;
};

/// A layer crossing features into `num_bins` hashed buckets.
LayerPtr<HashedCrossingLayer> HashedCrossing(int64_t num_bins, HashedCrossingOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
