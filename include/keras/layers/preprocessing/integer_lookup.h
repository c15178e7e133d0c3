#pragma once
// keras.layers.IntegerLookup: integer tokens to contiguous indices through a vocabulary (or
// back, with invert), optionally encoded as one_hot / multi_hot / count / tf_idf vectors.
//
//   auto lookup = layers::IntegerLookup({.vocabulary = std::vector<int64_t>{12, 36, 1138}});
//   lookup(ids);                              // 12 -> 1, 36 -> 2, unknown -> 0 (the OOV index)
//   auto learned = layers::IntegerLookup({.max_tokens = 100});
//   learned->adapt(ids);                      // most frequent ids first
//
// It runs on the host (Keras runs it on the CPU too) and works inside Functional and
// Sequential models: an adapted vocabulary is saved in .keras files as
// assets/<layer path>/vocabulary.txt, as Keras writes it.

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/host_layer.h"
#include "keras/layers/options.h"
#include "keras/saving/layer_assets.h"

#pragma GCC visibility push(default)
namespace keras::layers {

namespace detail {
template <typename Key>
class IndexLookup;
}

/// The arguments of keras.layers.IntegerLookup.
struct IntegerLookupOptions {
  /// The most indices, special ones included (> 1); unset: no limit.
  std::optional<int64_t> max_tokens;
  /// OOV indices; several spread unknown tokens by floor modulo (or hash, see oov_method).
  int64_t num_oov_indices = 1;
  /// The token that means "masked" (index 0 in "int" mode); unset: none.
  std::optional<int64_t> mask_token;
  /// The token returned for OOV indices when inverting.
  std::optional<int64_t> oov_token = -1;
  /// A fixed vocabulary (then adapt() is refused); it may start with the special tokens.
  std::optional<std::vector<int64_t>> vocabulary;
  /// Or a text file with one token per line (Keras's vocabulary=`path`).
  std::string vocabulary_path;
  /// Only "int64", as Keras.
  std::string vocabulary_dtype = "int64";
  /// The inverse document frequencies of a fixed vocabulary, for output_mode "tf_idf".
  std::optional<std::vector<double>> idf_weights;
  /// Indices to tokens instead of tokens to indices.
  bool invert = false;
  /// "int", "one_hot", "multi_hot", "count" or "tf_idf".
  std::string output_mode = "int";
  /// Sparse outputs are not supported (NotImplementedError): keras-cpp has no sparse tensors.
  bool sparse = false;
  /// Encoded outputs have max_tokens entries whatever the vocabulary size.
  bool pad_to_max_tokens = false;
  /// "floormod" or "farmhash" (FarmHash of the decimal text, or SipHash keyed by salt).
  std::string oov_method = "floormod";
  /// The SipHash key for oov_method "farmhash" (Keras's salt; an int s is {s, s}).
  std::optional<std::array<int64_t, 2>> salt;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The IntegerLookup layer (Keras's "IntegerLookup"). Inputs are integer tensors of any rank
/// (rank <= 2 when encoding, as Keras); outputs int64 indices or tokens, int64 counts for
/// one_hot / multi_hot / count and float32 for tf_idf.
class IntegerLookupLayer : public Layer,
                           public saving::LayerAssets,
                           public saving::NamedVariables,
                           public HostComputedLayer {
 public:
  /// Builds the layer, with its fixed vocabulary when `options` gives one.
  explicit IntegerLookupLayer(IntegerLookupOptions options = {});
  ~IntegerLookupLayer() override;
  std::string class_name() const override { return "IntegerLookup"; }
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Learns the vocabulary from `data` (each row one document), most frequent tokens first,
  /// ties by the greater token, truncated to max_tokens; tf_idf also learns idf weights.
  void adapt(const Tensor& data);
  /// The same over batches (a dataset); `steps` limits the batches read.
  void adapt(const TensorList& batches, std::optional<int64_t> steps = std::nullopt);
  /// Replaces the vocabulary (and the tf_idf weights).
  void set_vocabulary(const std::vector<int64_t>& vocabulary,
                      const std::optional<std::vector<double>>& idf_weights = std::nullopt);
  /// The vocabulary in index order; with `include_special_tokens`, the mask and OOV tokens come
  /// first, so a token's position is its index.
  std::vector<int64_t> get_vocabulary(bool include_special_tokens = true) const;
  /// The number of indices, mask and OOV indices included.
  int64_t vocabulary_size() const;

  std::map<std::string, std::string> save_assets() const override;
  void load_assets(const std::map<std::string, std::string>& files) override;
  std::vector<Variable> variables_to_save() const override;
  std::vector<Variable> variables_to_load() const override;
  void variables_loaded() override;
  std::vector<std::string> variable_keys() const override;

 private:
  IntegerLookupOptions options_;
  std::unique_ptr<detail::IndexLookup<int64_t>> lookup_;
  // The tf_idf weights as a variable of the weights file (Keras's store["idf_weights"]).
  mutable Variable idf_variable_;
};

/// A layer mapping integer tokens to indices.
LayerPtr<IntegerLookupLayer> IntegerLookup(IntegerLookupOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
