#include "layers/preprocessing/index_lookup.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

#include "keras/core/errors.h"
#include "layers/preprocessing/string_hash.h"

namespace keras::layers::detail {
namespace {

std::string text(const std::string& s) { return "'" + s + "'"; }
std::string text(int64_t v) { return std::to_string(v); }

template <typename Key>
std::string list_text(const std::vector<Key>& keys) {
  std::string out = "[";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + text(keys[i]);
  return out + "]";
}

// Python's floor modulo (tf.math.floormod): the result has the divisor's sign.
int64_t floormod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

}  // namespace

std::string standardize_output_mode(const std::string& layer, const std::string& output_mode) {
  if (output_mode == "binary") return "multi_hot";
  if (output_mode == "tf-idf") return "tf_idf";
  check(output_mode == "int" || output_mode == "one_hot" || output_mode == "multi_hot" ||
            output_mode == "count" || output_mode == "tf_idf",
        "The `output_mode` argument value of ", layer,
        " must be one of \"int\", \"one_hot\", \"multi_hot\", \"count\", \"tf_idf\" (or "
        "\"binary\", \"tf-idf\"). Received: output_mode=", output_mode);
  return output_mode;
}

template <typename Key>
IndexLookup<Key>::IndexLookup(std::string layer, IndexLookupArgs args,
                              std::optional<Key> mask_token, std::optional<Key> oov_token)
    : layer_(std::move(layer)),
      args_(std::move(args)),
      mask_token_(std::move(mask_token)),
      oov_token_(std::move(oov_token)) {
  constexpr bool kIntegerKeys = std::is_same_v<Key, int64_t>;
  check(!args_.max_tokens || *args_.max_tokens > 1,
        "If set, `max_tokens` must be greater than 1. Received: max_tokens=",
        args_.max_tokens.value_or(0));
  check(!args_.pad_to_max_tokens || args_.max_tokens.has_value(),
        "If pad_to_max_tokens is True, must set `max_tokens`. Received: max_tokens=None");
  check(args_.num_oov_indices >= 0,
        "`num_oov_indices` must be greater than or equal to 0. Received: num_oov_indices=",
        args_.num_oov_indices);
  check(args_.oov_method == "floormod" || args_.oov_method == "farmhash",
        "The `oov_method` argument value of ", layer_,
        " must be \"floormod\" or \"farmhash\". Received: oov_method=", args_.oov_method);
  if (args_.salt && kIntegerKeys)
    check(args_.oov_method == "farmhash",
          "`salt` can only be used when `oov_method='farmhash'`. Received: oov_method=",
          args_.oov_method);
  args_.output_mode = standardize_output_mode(layer_, args_.output_mode);
  check(!args_.invert || args_.output_mode == "int",
        "`output_mode` must be `'int'` when `invert` is true. Received: output_mode=",
        args_.output_mode);
  check(!(args_.sparse && args_.output_mode == "int"),
        "`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` "
        "or `'tf_idf'`. Received: sparse=True and output_mode=", args_.output_mode);
  // keras-cpp has no sparse tensors (as CategoryEncoding).
  check<NotImplementedError>(!args_.sparse, layer_,
                             ": sparse=True needs sparse tensors, which keras-cpp does not "
                             "have; use the dense output (sparse=False).");
}

template <typename Key>
int64_t IndexLookup<Key>::oov_start_index() const {
  return mask_token_.has_value() && args_.output_mode == "int" ? 1 : 0;
}

template <typename Key>
int64_t IndexLookup<Key>::token_start_index() const {
  return oov_start_index() + args_.num_oov_indices;
}

template <typename Key>
int64_t IndexLookup<Key>::vocabulary_size() const {
  return static_cast<int64_t>(tokens_.size()) + token_start_index();
}

template <typename Key>
void IndexLookup<Key>::set_vocabulary(const std::vector<Key>& vocabulary,
                                      const std::optional<std::vector<double>>& idf_weights) {
  if (args_.output_mode == "tf_idf") {
    check(idf_weights.has_value(), "`idf_weights` must be set if output_mode is 'tf_idf'.");
  } else {
    check(!idf_weights.has_value(),
          "`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: "
          "output_mode=", args_.output_mode, " and idf_weights of ",
          idf_weights ? idf_weights->size() : 0, " values");
  }
  check(!vocabulary.empty(), "Cannot set an empty vocabulary. Received: vocabulary=[]");
  const int64_t oov_start = oov_start_index(), token_start = token_start_index();
  // The special tokens may lead the vocabulary (as get_vocabulary() returns it).
  std::vector<std::optional<Key>> special(static_cast<size_t>(oov_start), mask_token_);
  special.insert(special.end(), static_cast<size_t>(args_.num_oov_indices), oov_token_);
  bool found_special = static_cast<int64_t>(vocabulary.size()) >= token_start;
  for (int64_t i = 0; found_special && i < token_start; ++i)
    found_special = special[static_cast<size_t>(i)].has_value() &&
                    *special[static_cast<size_t>(i)] == vocabulary[static_cast<size_t>(i)];
  std::vector<Key> tokens(vocabulary.begin() + (found_special ? token_start : 0),
                          vocabulary.end());
  std::unordered_map<Key, int64_t> seen;
  std::vector<Key> repeated;
  for (const Key& t : tokens)
    if (++seen[t] == 2) repeated.push_back(t);
  check(repeated.empty(), "The passed vocabulary has at least one repeated term. Please "
        "uniquify your dataset. The repeated terms are: ", list_text(repeated));
  std::vector<Key> special_list;
  for (const auto& s : special)
    if (s) special_list.push_back(*s);
  if (mask_token_)
    check(!seen.count(*mask_token_), "Found reserved mask token at unexpected location in "
          "`vocabulary`. Note that passed `vocabulary` does not need to include the OOV and "
          "mask tokens. Either remove all mask and OOV tokens, or include them only at the "
          "start of the vocabulary in precisely this order: ", list_text(special_list),
          ". Received: mask_token=", text(*mask_token_));
  if (oov_token_ && args_.invert)
    check(!seen.count(*oov_token_), "Found reserved OOV token at unexpected location in "
          "`vocabulary`. Note that passed `vocabulary` does not need to include the OOV and "
          "mask tokens. Either remove all mask and OOV tokens, or include them only at the "
          "start of the vocabulary in precisely this order: ", list_text(special_list),
          ". Received: oov_token=", text(*oov_token_));
  const int64_t new_size = token_start + static_cast<int64_t>(tokens.size());
  check(!args_.max_tokens || new_size <= *args_.max_tokens,
        "Attempted to set a vocabulary larger than the maximum vocab size. Received "
        "vocabulary size is ", new_size, "; `max_tokens` is ", args_.max_tokens.value_or(0), ".");
  std::vector<float> weights;
  if (args_.output_mode == "tf_idf") {
    check(idf_weights->size() == vocabulary.size(),
          "`idf_weights` must be the same length as vocabulary. len(idf_weights) is ",
          idf_weights->size(), "; len(vocabulary) is ", vocabulary.size());
    // Keras pads the special tokens' slots with the mean weight when the vocabulary left
    // them out.
    const double mean = std::accumulate(idf_weights->begin(), idf_weights->end(), 0.0) /
                        static_cast<double>(idf_weights->size());
    weights.assign(found_special ? 0 : static_cast<size_t>(token_start), static_cast<float>(mean));
    for (double w : *idf_weights) weights.push_back(static_cast<float>(w));
  }
  assign_tokens(std::move(tokens), std::move(weights));
}

template <typename Key>
void IndexLookup<Key>::assign_tokens(std::vector<Key> tokens, std::vector<float> idf_weights) {
  const int64_t token_start = token_start_index();
  const int64_t new_size = token_start + static_cast<int64_t>(tokens.size());
  // The vocabulary size of a layer that encodes cannot change once known (Keras's
  // _ensure_vocab_size_unchanged).
  if (args_.output_mode != "int" && !args_.pad_to_max_tokens && args_.vocabulary_size)
    check<RuntimeError>(*args_.vocabulary_size == new_size, "When using `output_mode=",
                        args_.output_mode, "` and `pad_to_max_tokens=False`, the vocabulary "
                        "size cannot be changed after the layer is called. Old vocab size is ",
                        *args_.vocabulary_size, ", new vocab size is ", new_size);
  if (args_.output_mode == "tf_idf") {
    // max_tokens padding is zeros.
    if (args_.pad_to_max_tokens && args_.max_tokens)
      idf_weights.resize(std::max<size_t>(idf_weights.size(),
                                          static_cast<size_t>(*args_.max_tokens)), 0.0f);
    idf_weights_ = std::move(idf_weights);
  }
  tokens_ = std::move(tokens);
  index_.clear();
  for (size_t i = 0; i < tokens_.size(); ++i)
    index_.emplace(tokens_[i], token_start + static_cast<int64_t>(i));
  args_.vocabulary_size = new_size;
}

template <typename Key>
std::vector<Key> IndexLookup<Key>::get_vocabulary(bool include_special_tokens) const {
  std::vector<Key> vocab;
  if (include_special_tokens) {
    for (int64_t i = 0; i < token_start_index(); ++i)
      vocab.push_back(i < oov_start_index() ? *mask_token_ : oov_token_.value_or(Key{}));
  }
  vocab.insert(vocab.end(), tokens_.begin(), tokens_.end());
  return vocab;
}

template <typename Key>
void IndexLookup<Key>::reset_state() {
  token_counts_.clear();
  document_counts_.clear();
  num_documents_ = 0;
}

template <typename Key>
void IndexLookup<Key>::update_state(const std::vector<std::vector<Key>>& documents) {
  check(!args_.has_input_vocabulary, "Cannot adapt layer '", layer_,
        "' after setting a static vocabulary via `vocabulary` argument or `set_vocabulary()` "
        "method.");
  for (const auto& doc : documents) {
    for (const Key& t : doc) ++token_counts_[t];
    if (args_.output_mode == "tf_idf") {
      std::set<Key> unique(doc.begin(), doc.end());
      for (const Key& t : unique) ++document_counts_[t];
    }
  }
  num_documents_ += static_cast<int64_t>(documents.size());
}

template <typename Key>
void IndexLookup<Key>::finalize_state() {
  if (args_.has_input_vocabulary || token_counts_.empty()) return;
  if (mask_token_) token_counts_.erase(*mask_token_);
  if (oov_token_) token_counts_.erase(*oov_token_);
  // np.lexsort((tokens, counts))[::-1]: most frequent first, ties by token, greatest first.
  std::vector<std::pair<int64_t, Key>> ranked;
  ranked.reserve(token_counts_.size());
  for (const auto& [token, count] : token_counts_) ranked.emplace_back(count, token);
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a > b; });
  if (args_.max_tokens)
    ranked.resize(std::min<size_t>(
        ranked.size(), static_cast<size_t>(std::max<int64_t>(
                           0, *args_.max_tokens - token_start_index()))));
  std::vector<Key> tokens;
  for (auto& r : ranked) tokens.push_back(r.second);
  std::vector<float> weights;
  if (args_.output_mode == "tf_idf") {
    // log(1 + num_documents / (1 + document_count)) in float64, then float32; the special
    // tokens' slots get the mean of those.
    std::vector<float> learned;
    for (const Key& t : tokens)
      learned.push_back(static_cast<float>(std::log(
          1.0 + static_cast<double>(num_documents_) /
                    (1.0 + static_cast<double>(document_counts_[t])))));
    float sum = 0.0f;
    for (float w : learned) sum += w;
    const float mean = learned.empty() ? 0.0f : sum / static_cast<float>(learned.size());
    weights.assign(static_cast<size_t>(token_start_index()), mean);
    weights.insert(weights.end(), learned.begin(), learned.end());
  }
  assign_tokens(std::move(tokens), std::move(weights));
  reset_state();
}

template <typename Key>
int64_t IndexLookup<Key>::oov_slot(const Key& token) const {
  const int64_t n = args_.num_oov_indices;
  if constexpr (std::is_same_v<Key, int64_t>) {
    if (args_.oov_method != "farmhash") return floormod(token, n);
  }
  // Keras hashes the text of the token (tf.strings.as_string for integers): SipHash keyed by
  // the salt, else FarmHash's Fingerprint64.
  std::string bytes;
  if constexpr (std::is_same_v<Key, int64_t>) {
    bytes = int_as_string(token);
  } else {
    bytes = token;
  }
  if (args_.salt) {
    const std::array<uint64_t, 2> key = {static_cast<uint64_t>((*args_.salt)[0]),
                                         static_cast<uint64_t>((*args_.salt)[1])};
    return hash_bucket_strong(bytes, n, key);
  }
  return hash_bucket_fast(bytes, n);
}

template <typename Key>
std::vector<int64_t> IndexLookup<Key>::lookup(const std::vector<Key>& tokens) const {
  const bool encodes = args_.output_mode != "int";
  // Keras maps the mask token to 0 in "int" mode and to int64 max (dropped when encoding)
  // otherwise.
  const int64_t mask_value = encodes ? std::numeric_limits<int64_t>::max() : 0;
  const int64_t oov_start = oov_start_index();
  std::vector<int64_t> out(tokens.size());
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Key& t = tokens[i];
    if (mask_token_ && t == *mask_token_) {
      out[i] = mask_value;
      continue;
    }
    auto it = index_.find(t);
    if (it != index_.end()) {
      out[i] = it->second;
      continue;
    }
    // Keras's tf.Assert fails at run time: a RuntimeError, as Keras reports it.
    check<RuntimeError>(args_.num_oov_indices > 0, "When `num_oov_indices=0` all inputs should be in "
          "vocabulary, found OOV values [", text(t), "], consider setting `num_oov_indices=1`.");
    out[i] = oov_start + (args_.num_oov_indices == 1 ? 0 : oov_slot(t));
  }
  return out;
}

template <typename Key>
std::vector<Key> IndexLookup<Key>::invert(const std::vector<int64_t>& indices) const {
  const int64_t token_start = token_start_index();
  std::vector<Key> out;
  out.reserve(indices.size());
  for (int64_t i : indices) {
    if (mask_token_ && i == 0) {
      out.push_back(*mask_token_);
    } else if (i >= token_start && i - token_start < static_cast<int64_t>(tokens_.size())) {
      out.push_back(tokens_[static_cast<size_t>(i - token_start)]);
    } else {
      out.push_back(oov_token_.value_or(Key{}));
    }
  }
  return out;
}

template <typename Key>
int64_t IndexLookup<Key>::depth() const {
  if (args_.pad_to_max_tokens) return *args_.max_tokens;
  check<RuntimeError>(args_.vocabulary_size.has_value(), "When using `output_mode=",
                      args_.output_mode, "` and `pad_to_max_tokens=False`, you must set the "
                      "layer's vocabulary before calling it. Either pass a `vocabulary` "
                      "argument to the layer, or call `adapt` with some sample data.");
  return *args_.vocabulary_size;
}

template <typename Key>
Tensor IndexLookup<Key>::encode(const std::vector<int64_t>& indices, const Shape& shape) const {
  const std::string& mode = args_.output_mode;
  const int64_t depth = this->depth();
  Shape in = shape;
  if (in.rank() == 0) in = Shape{1};
  Shape out_shape;
  int64_t rows, per_row;
  if (mode == "one_hot") {
    // A last axis of 1 is replaced (numerical_utils.encode_categorical_inputs).
    out_shape = in;
    if (in.rank() > 1 && in[in.rank() - 1] == 1) out_shape.pop_back();
    rows = out_shape.numel();
    per_row = 1;
    out_shape.push_back(depth);
  } else {
    check(in.rank() <= 2, "When output_mode is not `'int'`, maximum supported output rank is "
          "2. Received output_mode ", mode, " and input shape ", shape.to_string(), ".");
    rows = in.rank() == 2 ? in[0] : 1;
    per_row = in.rank() == 2 ? in[1] : in[0];
    out_shape = in.rank() == 2 ? Shape{in[0], depth} : Shape{depth};
  }
  const bool binary = mode == "one_hot" || mode == "multi_hot";
  std::vector<float> counts(static_cast<size_t>(rows * depth), 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < per_row; ++k) {
      const int64_t v = indices[static_cast<size_t>(r * per_row + k)];
      if (v < 0 || v >= depth) continue;  // mask values and indices past the depth drop out
      float& slot = counts[static_cast<size_t>(r * depth + v)];
      slot = binary ? 1.0f : slot + 1.0f;
    }
  if (mode == "tf_idf") {
    check(static_cast<int64_t>(idf_weights_.size()) >= depth, layer_,
          ": output_mode 'tf_idf' needs idf weights for ", depth, " indices; it has ",
          idf_weights_.size(), ". Set the vocabulary with idf_weights or adapt the layer.");
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t v = 0; v < depth; ++v)
        counts[static_cast<size_t>(r * depth + v)] *= idf_weights_[static_cast<size_t>(v)];
    return Tensor::from_vector(counts, out_shape);
  }
  std::vector<int64_t> as_int(counts.begin(), counts.end());
  return Tensor::from_vector(as_int, out_shape);
}

template <typename Key>
void IndexLookup<Key>::write_config(Config& c) const {
  c["invert"] = args_.invert;
  c["max_tokens"] = args_.max_tokens ? Config(*args_.max_tokens) : Config(nullptr);
  c["num_oov_indices"] = args_.num_oov_indices;
  c["output_mode"] = args_.output_mode;
  c["sparse"] = args_.sparse;
  c["pad_to_max_tokens"] = args_.pad_to_max_tokens;
  c["vocabulary_size"] =
      args_.vocabulary_size ? Config(*args_.vocabulary_size) : Config(nullptr);
  c["oov_method"] = args_.oov_method;
  c["salt"] = args_.salt ? Config({(*args_.salt)[0], (*args_.salt)[1]}) : Config(nullptr);
}

template class IndexLookup<std::string>;
template class IndexLookup<int64_t>;

}  // namespace keras::layers::detail
