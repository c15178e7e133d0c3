#pragma once
// The vocabulary machinery of Keras's IndexLookup (keras/src/layers/preprocessing/
// index_lookup.py), shared by StringLookup (Key = std::string), IntegerLookup (Key = int64_t)
// and TextVectorization. It runs on the host, as Keras's does (tf.device("CPU:0")).
//
// Index layout, as Keras: [mask (only with a mask token and output_mode "int")]
// [num_oov_indices OOV slots] [the vocabulary's tokens]; vocabulary_size() counts all of them.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "keras/core/json.h"
#include "keras/tensor/tensor.h"

namespace keras::layers::detail {

/// The arguments IndexLookup takes besides the tokens (their names and meaning as Keras's).
struct IndexLookupArgs {
  std::optional<int64_t> max_tokens;
  int64_t num_oov_indices = 1;
  bool invert = false;
  /// "int", "one_hot", "multi_hot" ("binary"), "count", "tf_idf" ("tf-idf").
  std::string output_mode = "int";
  bool pad_to_max_tokens = false;
  bool sparse = false;
  /// "floormod" (integer keys only) or "farmhash": how OOV tokens spread over several slots.
  std::string oov_method = "floormod";
  /// SipHash key for "farmhash" OOV slots (Keras's `salt`); unset: FarmHash Fingerprint64.
  std::optional<std::array<int64_t, 2>> salt;
  /// The vocabulary size recorded in a config (Keras's `vocabulary_size`), for one_hot,
  /// multi_hot, count and tf_idf outputs before the vocabulary assets are loaded.
  std::optional<int64_t> vocabulary_size;
  /// True when the vocabulary was passed in (then adapt() is refused).
  bool has_input_vocabulary = false;
};

/// Canonical output_mode ("binary" -> "multi_hot", "tf-idf" -> "tf_idf"); ValueError naming
/// `layer` for anything else.
std::string standardize_output_mode(const std::string& layer, const std::string& output_mode);

template <typename Key>
class IndexLookup {
 public:
  /// Validates the arguments as Keras does (ValueErrors naming `layer`).
  IndexLookup(std::string layer, IndexLookupArgs args, std::optional<Key> mask_token,
              std::optional<Key> oov_token);

  const IndexLookupArgs& args() const { return args_; }
  const std::optional<Key>& mask_token() const { return mask_token_; }
  const std::optional<Key>& oov_token() const { return oov_token_; }

  /// Replaces the vocabulary (and, in tf_idf mode, the idf weights). `vocabulary` may start
  /// with the special tokens in Keras's order; repeated tokens, a misplaced mask or OOV token,
  /// or more than max_tokens entries are ValueErrors.
  void set_vocabulary(const std::vector<Key>& vocabulary,
                      const std::optional<std::vector<double>>& idf_weights = std::nullopt);
  /// Every index's token: mask and OOV tokens first unless include_special_tokens is false.
  std::vector<Key> get_vocabulary(bool include_special_tokens = true) const;
  /// The number of indices, special ones included (before any vocabulary: the mask and OOV
  /// indices alone).
  int64_t vocabulary_size() const;
  /// The learned tokens (without special tokens) and whether there are any.
  bool has_vocabulary() const { return !tokens_.empty(); }

  /// The tf_idf weights, one per index (empty in other modes or before a vocabulary).
  const std::vector<float>& idf_weights() const { return idf_weights_; }
  /// Replaces the tf_idf weights as loaded from a weights file (Keras's load_own_variables).
  void load_idf_weights(std::vector<float> weights) { idf_weights_ = std::move(weights); }

  /// adapt(): reset_state, update_state per batch (each row one document), finalize_state.
  void reset_state();
  void update_state(const std::vector<std::vector<Key>>& documents);
  void finalize_state();

  /// The index of each token (invert == false): the mask token's index, an OOV slot, or the
  /// token's index; ValueError for an OOV token when num_oov_indices is 0.
  std::vector<int64_t> lookup(const std::vector<Key>& tokens) const;
  /// The token of each index (invert == true): the mask token for 0 when there is one, the
  /// OOV token for indices outside the vocabulary.
  std::vector<Key> invert(const std::vector<int64_t>& indices) const;

  /// The depth of the encoded outputs (max_tokens with pad_to_max_tokens, else the vocabulary
  /// size); RuntimeError when it is not known yet.
  int64_t depth() const;
  /// Whether depth() is known (pad_to_max_tokens, or a vocabulary given, adapted or loaded).
  bool depth_known() const { return args_.pad_to_max_tokens || args_.vocabulary_size.has_value(); }
  /// Encodes the indices of a lookup (`indices` in C order with `shape`) in output_mode
  /// one_hot, multi_hot, count or tf_idf as Keras's encode_categorical_inputs: int64 counts,
  /// or float32 for tf_idf.
  Tensor encode(const std::vector<int64_t>& indices, const Shape& shape) const;

  /// Keras's get_config keys of IndexLookup that do not depend on Key's JSON form.
  void write_config(Config& c) const;

 private:
  int64_t oov_start_index() const;
  int64_t token_start_index() const;
  int64_t oov_slot(const Key& token) const;
  // Installs `tokens` (no special tokens) and, in tf_idf mode, the weights of every index.
  void assign_tokens(std::vector<Key> tokens, std::vector<float> idf_weights);

  std::string layer_;
  IndexLookupArgs args_;
  std::optional<Key> mask_token_, oov_token_;
  std::vector<Key> tokens_;
  std::unordered_map<Key, int64_t> index_;
  std::vector<float> idf_weights_;
  // adapt() state: token counts, document counts (tf_idf) and the number of documents.
  std::unordered_map<Key, int64_t> token_counts_, document_counts_;
  int64_t num_documents_ = 0;
};

extern template class IndexLookup<std::string>;
extern template class IndexLookup<int64_t>;

}  // namespace keras::layers::detail
