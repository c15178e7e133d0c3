#pragma once
// keras.layers.StringLookup: string tokens to contiguous indices through a vocabulary (or
// back, with invert), optionally encoded as one_hot / multi_hot / count / tf_idf vectors.
//
//   auto lookup = layers::StringLookup({.vocabulary = std::vector<std::string>{"a", "b", "c"}});
//   lookup(StringTensor({"a", "c", "zz"}));          // [1, 3, 0]: "zz" is OOV (index 0)
//   auto learned = layers::StringLookup({.max_tokens = 1000});
//   learned->adapt(words);                           // most frequent first
//   auto back = layers::StringLookup({.vocabulary = ..., .invert = true});
//   back->tokens_of(ids);                            // a StringTensor
//
// Strings stay on the host (Keras runs this layer on the CPU too). keras-cpp models take
// numeric inputs, so StringLookup runs before the model, the way Keras's guides use it in a
// tf.data pipeline; its config and vocabulary file (assets/.../vocabulary.txt) are Keras's.

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/host_layer.h"
#include "keras/layers/options.h"
#include "keras/layers/preprocessing/string_layer_ptr.h"
#include "keras/saving/layer_assets.h"
#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::layers {

namespace detail {
template <typename Key>
class IndexLookup;
}

/// The arguments of keras.layers.StringLookup.
struct StringLookupOptions {
  /// The most indices, special ones included (> 1); unset: no limit.
  std::optional<int64_t> max_tokens;
  /// OOV indices; several spread unknown tokens by FarmHash (or SipHash keyed by salt).
  int64_t num_oov_indices = 1;
  /// The token that means "masked" (index 0 in "int" mode); unset: none.
  std::optional<std::string> mask_token;
  /// The token returned for OOV indices when inverting.
  std::optional<std::string> oov_token = "[UNK]";
  /// A fixed vocabulary (then adapt() is refused); it may start with the special tokens.
  std::optional<std::vector<std::string>> vocabulary;
  /// Or a text file with one token per line (Keras's vocabulary=`path`).
  std::string vocabulary_path;
  /// The inverse document frequencies of a fixed vocabulary, for output_mode "tf_idf".
  std::optional<std::vector<double>> idf_weights;
  /// Indices to tokens (tokens_of) instead of tokens to indices.
  bool invert = false;
  /// "int", "one_hot", "multi_hot", "count" or "tf_idf".
  std::string output_mode = "int";
  /// Encoded outputs have max_tokens entries whatever the vocabulary size.
  bool pad_to_max_tokens = false;
  /// Sparse outputs are not supported (NotImplementedError): keras-cpp has no sparse tensors.
  bool sparse = false;
  /// Only "utf-8" (keras-cpp strings are UTF-8).
  std::string encoding = "utf-8";
  /// The SipHash key for OOV slots (Keras's salt; an int s is {s, s}); unset: FarmHash.
  std::optional<std::array<int64_t, 2>> salt;
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// The StringLookup layer (Keras's "StringLookup"). call_strings (or layer(strings)) maps
/// tokens of any shape (rank <= 2 when encoding) to int64 indices, int64 counts for one_hot /
/// multi_hot / count, float32 for tf_idf; tokens_of maps indices back when invert is set.
class StringLookupLayer : public Layer,
                          public saving::LayerAssets,
                          public saving::NamedVariables,
                          public HostComputedLayer {
 public:
  /// Builds the layer, with its fixed vocabulary when `options` gives one.
  explicit StringLookupLayer(StringLookupOptions options = {});
  ~StringLookupLayer() override;
  std::string class_name() const override { return "StringLookup"; }
  /// Numeric tensors cannot hold strings: a TypeError pointing at call_strings / tokens_of.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Tokens to indices (or encoded vectors).
  Tensor call_strings(const StringTensor& tokens);
  /// Indices to tokens (invert = true): the mask token for 0 when there is one, the OOV token
  /// for indices outside the vocabulary.
  StringTensor tokens_of(const Tensor& indices) const;

  /// Learns the vocabulary from `data` (each row one document), most frequent tokens first,
  /// ties by the greater token (byte order), truncated to max_tokens; tf_idf also learns idf
  /// weights.
  void adapt(const StringTensor& data);
  /// The same over batches (a dataset); `steps` limits the batches read.
  void adapt(const std::vector<StringTensor>& batches,
             std::optional<int64_t> steps = std::nullopt);
  /// Replaces the vocabulary (and the tf_idf weights).
  void set_vocabulary(const std::vector<std::string>& vocabulary,
                      const std::optional<std::vector<double>>& idf_weights = std::nullopt);
  /// The vocabulary in index order; with `include_special_tokens`, the mask and OOV tokens come
  /// first, so a token's position is its index.
  std::vector<std::string> get_vocabulary(bool include_special_tokens = true) const;
  /// The number of indices, mask and OOV indices included.
  int64_t vocabulary_size() const;

  std::map<std::string, std::string> save_assets() const override;
  void load_assets(const std::map<std::string, std::string>& files) override;
  std::vector<Variable> variables_to_save() const override;
  std::vector<Variable> variables_to_load() const override;
  void variables_loaded() override;
  std::vector<std::string> variable_keys() const override;

  /// The lookup itself, for layers built on it (TextVectorization).
  detail::IndexLookup<std::string>& index_lookup() { return *lookup_; }
  /// The lookup itself, read-only.
  const detail::IndexLookup<std::string>& index_lookup() const { return *lookup_; }

 private:
  StringLookupOptions options_;
  std::unique_ptr<detail::IndexLookup<std::string>> lookup_;
  // The tf_idf weights as a variable of the weights file (Keras's store["idf_weights"]).
  mutable Variable idf_variable_;
};

/// A layer mapping string tokens to indices; call it on a StringTensor.
StringLayerPtr<StringLookupLayer> StringLookup(StringLookupOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
