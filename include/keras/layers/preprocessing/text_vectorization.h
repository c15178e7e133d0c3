#pragma once
// keras.layers.TextVectorization: raw strings to token indices (or multi_hot / count / tf_idf
// vectors): standardize, split, n-grams, then a StringLookup with "" as the padding (mask)
// token and "[UNK]" as OOV.
//
//   auto vectorize = layers::TextVectorization({.max_tokens = 20000,
//                                               .output_sequence_length = 200});
//   vectorize->adapt(train_texts);            // a StringTensor of documents
//   Tensor ids = vectorize(StringTensor({"The cat sat.", "A dog!"}));   // (2, 200) int64
//
// Strings stay on the host (Keras runs this layer on the CPU too); keras-cpp models take
// numeric inputs, so it runs before the model, as in a tf.data pipeline. Its config, weights
// and vocabulary files (assets/.../vocabulary.txt, twice, as Keras writes them) are Keras's.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keras/layers/host_layer.h"
#include "keras/layers/options.h"
#include "keras/layers/preprocessing/string_layer_ptr.h"
#include "keras/layers/preprocessing/string_lookup.h"
#include "keras/saving/layer_assets.h"
#include "keras/tensor/string_tensor.h"

#pragma GCC visibility push(default)
namespace keras::layers {

/// The arguments of keras.layers.TextVectorization.
struct TextVectorizationOptions {
  /// The most vocabulary entries, padding and OOV included; unset: no limit.
  std::optional<int64_t> max_tokens;
  /// "lower_and_strip_punctuation", "lower", "strip_punctuation", or the registered name of
  /// a function ("package>name", register_standardize_function); unset: none.
  /// Lowercasing is ASCII-only, as TensorFlow's tf.strings.lower.
  std::optional<std::string> standardize = "lower_and_strip_punctuation";
  /// "whitespace", "character", or the registered name of a function ("package>name",
  /// register_split_function); unset: each string is one token.
  std::optional<std::string> split = "whitespace";
  /// n: n-grams of widths 1..n (Keras's ngrams=n).
  std::optional<int64_t> ngrams;
  /// Exactly these widths (Keras's ngrams=(2, 3)); give ngrams or ngram_widths.
  std::vector<int64_t> ngram_widths;
  /// "int", "multi_hot", "count" or "tf_idf" ("one_hot" only without split, as in Keras).
  std::string output_mode = "int";
  /// "int" outputs padded with 0 or truncated to this length; unset: the longest row.
  std::optional<int64_t> output_sequence_length;
  /// Encoded outputs have max_tokens entries whatever the vocabulary size.
  bool pad_to_max_tokens = false;
  /// A fixed vocabulary (then adapt() is refused), or a file of one token per line.
  std::optional<std::vector<std::string>> vocabulary;
  /// A text file with one token per line, as the vocabulary (Keras's vocabulary=path).
  std::string vocabulary_path;
  /// The inverse document frequencies of a fixed vocabulary, for "tf_idf".
  std::optional<std::vector<double>> idf_weights;
  /// Sparse and ragged outputs are not supported (NotImplementedError): keras-cpp has neither.
  bool sparse = false;
  /// Ragged outputs are not supported (NotImplementedError): keras-cpp has no ragged tensors.
  bool ragged = false;
  /// Only "utf-8".
  std::string encoding = "utf-8";
  /// The layer's name (Keras's `name`); empty picks a unique one from the class name.
  std::string name;
  /// Keras's `trainable`: whether the layer's weights, if any, are updated in training.
  bool trainable = true;
  /// The dtype policy name (Keras's `dtype`); empty means the global policy.
  std::string dtype;
};

/// A custom standardize step (Keras's standardize=callable): one document in, one out.
using StandardizeFunction = std::function<std::string(const std::string& document)>;
/// A custom split step (Keras's split=callable): one standardized document in, its tokens out.
using SplitFunction = std::function<std::vector<std::string>(const std::string& document)>;

/// Registers `fn` under Keras's registered name "package>name", the name
/// `keras.saving.register_keras_serializable(package=..., name=...)` gives the Python function:
/// TextVectorizationOptions::standardize = "package>name" then calls it, configs name it as
/// Keras writes a registered function, and Keras files that name it load. ValueError for a
/// name already registered, or an empty package or name, or one holding '>'.
void register_standardize_function(const std::string& package, const std::string& name,
                                   StandardizeFunction fn);
/// The same for split functions (TextVectorizationOptions::split = "package>name").
void register_split_function(const std::string& package, const std::string& name,
                             SplitFunction fn);

/// The TextVectorization layer (Keras's "TextVectorization"): call it on a StringTensor of
/// documents, shape (batch,) or (batch, 1) (any shape without split).
class TextVectorizationLayer : public Layer,
                               public saving::LayerAssets,
                               public saving::NamedVariables,
                               public HostComputedLayer {
 public:
  /// Builds the layer, with its fixed vocabulary when `options` gives one.
  explicit TextVectorizationLayer(TextVectorizationOptions options = {});
  std::string class_name() const override { return "TextVectorization"; }
  /// Numeric tensors cannot hold strings: a TypeError pointing at call_strings.
  Tensor call(const Tensor& inputs, const CallContext& ctx) override;
  Config get_config() const override;
  /// Rebuilds the layer from a get_config() config (Keras's from_config).
  static std::shared_ptr<Layer> from_config(const Config& config);

  /// Documents to int64 token indices (batch, length) or encoded (batch, depth) vectors.
  Tensor call_strings(const StringTensor& texts);
  /// The tokens of each document after standardize, split and n-grams (Keras's _preprocess).
  std::vector<std::vector<std::string>> preprocess(const StringTensor& texts) const;

  /// Learns the vocabulary from documents: most frequent tokens first, ties by the greater
  /// token (byte order), truncated to max_tokens; tf_idf also learns idf weights.
  void adapt(const StringTensor& data);
  /// The same over batches (a dataset); `steps` limits the batches read.
  void adapt(const std::vector<StringTensor>& batches,
             std::optional<int64_t> steps = std::nullopt);
  /// Replaces the vocabulary (and the tf_idf weights, required in "tf_idf" mode).
  void set_vocabulary(const std::vector<std::string>& vocabulary,
                      const std::optional<std::vector<double>>& idf_weights = std::nullopt);
  /// The vocabulary in index order; with `include_special_tokens`, the padding and OOV tokens
  /// come first, so a token's position is its index.
  std::vector<std::string> get_vocabulary(bool include_special_tokens = true) const;
  /// The number of indices, padding and OOV indices included.
  int64_t vocabulary_size() const;

  std::map<std::string, std::string> save_assets() const override;
  void load_assets(const std::map<std::string, std::string>& files) override;
  std::vector<Variable> variables_to_save() const override;
  std::vector<Variable> variables_to_load() const override;
  void variables_loaded() override;
  std::vector<std::string> variable_keys() const override;

 private:
  TextVectorizationOptions options_;
  std::vector<int64_t> widths_;  // the n-gram widths; empty: no n-grams
  // Keras's _lookup_layer, tracked under that name (its weights and assets are saved too).
  LayerPtr<StringLookupLayer> lookup_;
};

/// A layer turning documents into token indices; call it on a StringTensor.
StringLayerPtr<TextVectorizationLayer> TextVectorization(TextVectorizationOptions options = {});

}  // namespace keras::layers

#pragma GCC visibility pop
