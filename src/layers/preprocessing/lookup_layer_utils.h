#pragma once
// Pieces the lookup layers (IntegerLookup, StringLookup, TextVectorization) share: config
// fields, vocabulary files and assets, and the documents adapt() counts.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "keras/autograd/variable.h"
#include "keras/core/json.h"
#include "keras/tensor/tensor.h"
#include "layers/preprocessing/index_lookup.h"

namespace keras::layers::detail {

/// Keras's `salt`: null, an integer s (read as {s, s}) or a pair; ValueError otherwise.
std::optional<std::array<int64_t, 2>> salt_from_config(const Config& c, const std::string& layer);

/// The IndexLookup arguments of a lookup layer's config (the keys Keras's get_config writes).
IndexLookupArgs lookup_args_from_config(const Config& c, const std::string& layer);

/// The contents of vocabulary.txt: the tokens joined by "\n" (Keras's save_assets).
std::string vocabulary_text(const std::vector<std::string>& tokens);
/// The lines of a vocabulary file (as str.splitlines), trailing empty lines dropped.
std::vector<std::string> vocabulary_lines(const std::string& text);
/// The lines of the vocabulary file at `path`; IOError naming it when it cannot be read.
std::vector<std::string> read_vocabulary_file(const std::string& path, const std::string& layer);

/// ValueError unless `vocabulary` is null: a path inside a config is refused as Keras's safe
/// mode refuses it (a config must not make the loader read arbitrary files).
void refuse_vocabulary_path(const Config& vocabulary, const std::string& layer);

/// The documents adapt() counts in one batch, as Keras's update_state reshapes it: a scalar
/// or a vector is one document, a matrix one per row (higher ranks: rows of the first axis).
/// `as_array` is adapt()'s own reshape of a whole array, where a vector is one token per row.
std::vector<std::vector<int64_t>> integer_documents(const Tensor& batch, bool as_array);

/// The tf_idf weights of `lookup` as the variable a weights file holds under "idf_weights"
/// (none in other modes); `holder` keeps it alive while the file is written.
template <typename Key>
std::vector<Variable> idf_variables_to_save(const IndexLookup<Key>& lookup, Variable& holder) {
  if (lookup.args().output_mode != "tf_idf") return {};
  const std::vector<float>& w = lookup.idf_weights();
  holder = Variable(Tensor::from_vector(w, {static_cast<int64_t>(w.size())}),
                    {.trainable = false, .name = "idf_weights"});
  return {holder};
}

/// A variable shaped like the idf weights Keras saved (one per index, max_tokens when
/// padded), for the weights loader to fill; `holder` receives it.
template <typename Key>
std::vector<Variable> idf_variables_to_load(const IndexLookup<Key>& lookup, Variable& holder) {
  if (lookup.args().output_mode != "tf_idf") return {};
  const int64_t n = lookup.depth();
  holder = Variable(Tensor::from_vector(std::vector<float>(static_cast<size_t>(n), 0.0f), {n}),
                    {.trainable = false, .name = "idf_weights"});
  return {holder};
}

/// Hands the loaded idf weights in `holder` to `lookup`.
template <typename Key>
void idf_variables_loaded(IndexLookup<Key>& lookup, const Variable& holder) {
  if (lookup.args().output_mode == "tf_idf" && holder.value().defined())
    lookup.load_idf_weights(holder.value().to_vector<float>());
}

/// The weight names of a lookup layer's weights file entry.
template <typename Key>
std::vector<std::string> idf_variable_keys(const IndexLookup<Key>& lookup) {
  if (lookup.args().output_mode != "tf_idf") return {};
  return {"idf_weights"};
}

/// Keras's load_assets: the vocabulary file's tokens (special tokens first) become the
/// vocabulary, keeping the idf weights loaded with the variables.
template <typename Key>
void load_vocabulary_asset(IndexLookup<Key>& lookup, const std::vector<Key>& tokens) {
  if (tokens.empty()) return;
  if (lookup.args().output_mode == "tf_idf") {
    const std::vector<float>& w = lookup.idf_weights();
    lookup.set_vocabulary(tokens, std::vector<double>(w.begin(), w.end()));
  } else {
    lookup.set_vocabulary(tokens);
  }
}

}  // namespace keras::layers::detail
