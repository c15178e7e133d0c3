// keras.layers.TextVectorization (keras/src/layers/preprocessing/text_vectorization.py).

#include "keras/layers/preprocessing/text_vectorization.h"

#include <algorithm>
#include <limits>

#include "keras/backend/backend.h"
#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/index_lookup.h"
#include "layers/preprocessing/text_ops.h"
#include "layers/symbolic_extent.h"

namespace keras::layers {
namespace {

const char* kLayer = "TextVectorization";

// The inner StringLookup's config: Keras builds it with mask_token "" (index 0 pads) and the
// default "[UNK]" OOV token.
Config lookup_config(const TextVectorizationOptions& o, std::optional<int64_t> vocabulary_size) {
  Config c;
  c["name"] = "string_lookup";
  c["max_tokens"] = o.max_tokens ? Config(*o.max_tokens) : Config(nullptr);
  c["mask_token"] = "";
  c["output_mode"] = o.output_mode;
  c["pad_to_max_tokens"] = o.pad_to_max_tokens;
  c["sparse"] = o.sparse;
  c["encoding"] = o.encoding;
  c["vocabulary"] = o.vocabulary ? Config(*o.vocabulary) : Config(nullptr);
  c["idf_weights"] = o.idf_weights ? Config(*o.idf_weights) : Config(nullptr);
  c["vocabulary_size"] = vocabulary_size ? Config(*vocabulary_size) : Config(nullptr);
  return c;
}

std::vector<int64_t> ngram_widths(const TextVectorizationOptions& o) {
  check(!(o.ngrams && !o.ngram_widths.empty()),
        "TextVectorization: give `ngrams` (n: widths 1..n) or `ngram_widths`, not both.");
  std::vector<int64_t> widths = o.ngram_widths;
  if (o.ngrams) {
    check(*o.ngrams >= 1, "`ngrams` must be None, an integer, or a tuple of integers. "
          "Received: ngrams=", *o.ngrams);
    for (int64_t n = 1; n <= *o.ngrams; ++n) widths.push_back(n);
  }
  for (int64_t w : widths)
    check(w >= 1, "TextVectorization: n-gram widths must be >= 1; got ", w, ".");
  return widths;
}

}  // namespace

TextVectorizationLayer::TextVectorizationLayer(TextVectorizationOptions options)
    : Layer(base_options(options), "text_vectorization"), options_(std::move(options)) {
  auto& o = options_;
  check<NotImplementedError>(!o.sparse, "TextVectorization: sparse=True needs sparse tensors, "
                             "which keras-cpp does not have; use the dense output.");
  check<NotImplementedError>(!o.ragged, "TextVectorization: ragged=True needs ragged tensors, "
                             "which keras-cpp does not have; use output_sequence_length or "
                             "the padded output (ragged=False).");
  if (o.standardize)
    check(*o.standardize == "lower_and_strip_punctuation" || *o.standardize == "lower" ||
              *o.standardize == "strip_punctuation" ||
              detail::find_standardize_function(*o.standardize),
          "The `standardize` argument value of TextVectorization must be one of "
          "\"lower_and_strip_punctuation\", \"lower\", \"strip_punctuation\", None or the name "
          "of a function registered with keras::layers::register_standardize_function "
          "(\"package>name\"). Received: standardize=", *o.standardize);
  if (o.split)
    check(*o.split == "whitespace" || *o.split == "character" ||
              detail::find_split_function(*o.split),
          "The `split` argument value of TextVectorization must be one of \"whitespace\", "
          "\"character\", None or the name of a function registered with "
          "keras::layers::register_split_function (\"package>name\"). Received: split=",
          *o.split);
  o.output_mode = detail::standardize_output_mode(kLayer, o.output_mode);
  check(o.output_mode == "int" || !o.output_sequence_length,
        "`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
        "output_sequence_length=", o.output_sequence_length.value_or(0), ".");
  check(!o.output_sequence_length || *o.output_sequence_length >= 0,
        "TextVectorization: output_sequence_length must be >= 0; got ",
        o.output_sequence_length.value_or(0), ".");
  check(!(o.output_mode == "one_hot" && o.split), "TextVectorization: output_mode 'one_hot' "
        "gives one vector per token, which needs ragged tensors after a split; use "
        "'multi_hot' or 'count', or split=None.");
  widths_ = ngram_widths(o);
  lookup_ = track("_lookup_layer", LayerPtr<StringLookupLayer>(
                                       std::dynamic_pointer_cast<StringLookupLayer>(
                                           StringLookupLayer::from_config(
                                               lookup_config(o, std::nullopt)))));
  if (!o.vocabulary_path.empty()) {
    check(o.output_mode != "tf_idf",
          "output_mode `'tf_idf'` does not support loading a vocabulary from file.");
    lookup_ = track("_lookup_layer",
                    StringLookup({.max_tokens = o.max_tokens, .mask_token = "",
                                  .vocabulary_path = o.vocabulary_path,
                                  .output_mode = o.output_mode,
                                  .pad_to_max_tokens = o.pad_to_max_tokens,
                                  .name = "string_lookup"}));
  }
}

Tensor TextVectorizationLayer::call(const Tensor& inputs, const CallContext&) {
  check<TypeError>(inputs.dtype() == DType::String, "TextVectorization '", name(),
                   "' takes strings; got a ", inputs.dtype(), " tensor. Make string tensors from "
                   "a keras::StringTensor (Tensor(texts)) or a string Input.");
  if (!inputs.backend().is_symbolic()) return call_strings(inputs.to_strings());
  // Shape inference: the layer run on empty documents of the input's shape has the output's
  // shape, except the token axis of "int" without output_sequence_length, which depends on
  // the documents, and the depth of the encoded modes before adapt (without
  // pad_to_max_tokens), which depends on the vocabulary to come (Keras: None for both).
  const bool int_mode = options_.output_mode == "int";
  if (!int_mode && !lookup_->index_lookup().depth_known()) {
    // (batch, depth) or (depth,), int64 counts (float32 for tf_idf), the depth unknown.
    Shape shape{detail::data_dependent_extent()};
    if (inputs.ndim() > 0) shape.insert(0, inputs.shape()[0]);
    return ops::zeros(shape, options_.output_mode == "tf_idf" ? DType::Float32 : DType::Int64);
  }
  const StringTensor blanks(std::vector<std::string>(static_cast<size_t>(inputs.size())),
                            inputs.shape());
  Tensor real;
  {
    backend::BackendScope host(backend::current_real().name());
    real = call_strings(blanks);
  }
  Shape shape = real.shape();
  if (options_.split && int_mode && !options_.output_sequence_length && shape.rank() > 0)
    shape[shape.rank() - 1] = detail::data_dependent_extent();
  return ops::zeros(shape, real.dtype());
}

std::vector<std::vector<std::string>> TextVectorizationLayer::preprocess(
    const StringTensor& texts) const {
  std::vector<std::string> values = texts.values();
  if (options_.standardize) {
    const std::string& s = *options_.standardize;
    if (std::optional<StandardizeFunction> fn = detail::find_standardize_function(s)) {
      for (std::string& v : values) v = (*fn)(v);
    } else {
      for (std::string& v : values) {
        if (s != "strip_punctuation") v = detail::ascii_lower(std::move(v));
        if (s != "lower") v = detail::strip_punctuation(v);
      }
    }
  }
  std::vector<std::vector<std::string>> rows;
  if (options_.split) {
    const Shape& shape = texts.shape();
    check(shape.rank() <= 1 || shape[shape.rank() - 1] == 1,
          "When using `TextVectorization` to tokenize strings, the input rank must be 1 or the "
          "last shape dimension must be 1. Received: inputs.shape=", shape.to_string(),
          " with rank=", shape.rank());
    const std::string& s = *options_.split;
    std::optional<SplitFunction> fn = detail::find_split_function(s);
    for (const std::string& v : values)
      rows.push_back(fn ? (*fn)(v)
                        : s == "whitespace" ? detail::split_whitespace(v)
                                            : detail::split_characters(v));
  } else {
    // Each string is one token: one row per string of the last axis' rows.
    for (const std::string& v : values) rows.push_back({v});
  }
  if (!widths_.empty())
    for (auto& row : rows) row = detail::ngrams(row, widths_);
  return rows;
}

Tensor TextVectorizationLayer::call_strings(const StringTensor& texts) {
  std::vector<std::vector<std::string>> rows = preprocess(texts);
  auto& lookup = lookup_->index_lookup();
  const std::string& mode = options_.output_mode;
  if (!options_.split) {
    // Unsplit strings keep their shape (the lookup of each one, n-grams of a single token).
    std::vector<std::string> tokens;
    for (auto& row : rows) tokens.push_back(row.empty() ? std::string() : row[0]);
    StringTensor same(tokens, texts.shape());
    Tensor out = lookup_->call_strings(same);
    if (mode != "int" || !options_.output_sequence_length || out.ndim() == 0) return out;
    // int: the last axis cut or padded with 0 to output_sequence_length.
    const int64_t length = *options_.output_sequence_length;
    const int64_t last = out.shape()[out.ndim() - 1];
    std::vector<int64_t> v = out.to_vector<int64_t>();
    Shape shape = out.shape();
    shape[shape.rank() - 1] = length;
    std::vector<int64_t> padded(static_cast<size_t>(shape.numel()), 0);
    for (int64_t r = 0; r < (last ? static_cast<int64_t>(v.size()) / last : 0); ++r)
      for (int64_t k = 0; k < std::min(length, last); ++k)
        padded[static_cast<size_t>(r * length + k)] = v[static_cast<size_t>(r * last + k)];
    return Tensor::from_vector(padded, shape);
  }
  // A scalar document gives one row of tokens (rank 1 out), a batch one row each.
  const bool scalar = texts.ndim() == 0;
  int64_t longest = 0;
  for (const auto& row : rows) longest = std::max<int64_t>(longest, static_cast<int64_t>(row.size()));
  const auto batch = static_cast<int64_t>(rows.size());
  if (mode == "int") {
    const int64_t length = options_.output_sequence_length.value_or(longest);
    std::vector<int64_t> ids(static_cast<size_t>(batch * length), 0);
    for (int64_t r = 0; r < batch; ++r) {
      std::vector<int64_t> row_ids = lookup.lookup(rows[static_cast<size_t>(r)]);
      for (int64_t k = 0; k < std::min<int64_t>(length, static_cast<int64_t>(row_ids.size())); ++k)
        ids[static_cast<size_t>(r * length + k)] = row_ids[static_cast<size_t>(k)];
    }
    return Tensor::from_vector(ids, scalar ? Shape{length} : Shape{batch, length});
  }
  // multi_hot / count / tf_idf: each row's indices, padded with a value the encoding drops.
  std::vector<int64_t> ids(static_cast<size_t>(batch * longest),
                           std::numeric_limits<int64_t>::max());
  for (int64_t r = 0; r < batch; ++r) {
    std::vector<int64_t> row_ids = lookup.lookup(rows[static_cast<size_t>(r)]);
    std::copy(row_ids.begin(), row_ids.end(), ids.begin() + r * longest);
  }
  return lookup.encode(ids, scalar ? Shape{longest} : Shape{batch, longest});
}

void TextVectorizationLayer::adapt(const StringTensor& data) { adapt(std::vector{data}); }

void TextVectorizationLayer::adapt(const std::vector<StringTensor>& batches,
                                   std::optional<int64_t> steps) {
  auto& lookup = lookup_->index_lookup();
  lookup.reset_state();
  int64_t seen = 0;
  for (const StringTensor& batch : batches) {
    if (steps && seen++ >= *steps) break;
    // Each document (string) is one row of tokens.
    lookup.update_state(preprocess(batch));
  }
  lookup.finalize_state();
}

void TextVectorizationLayer::set_vocabulary(const std::vector<std::string>& vocabulary,
                                            const std::optional<std::vector<double>>& idf_weights) {
  lookup_->set_vocabulary(vocabulary, idf_weights);
}

std::vector<std::string> TextVectorizationLayer::get_vocabulary(bool include_special_tokens) const {
  return lookup_->get_vocabulary(include_special_tokens);
}

int64_t TextVectorizationLayer::vocabulary_size() const { return lookup_->vocabulary_size(); }

Config TextVectorizationLayer::get_config() const {
  Config c = Layer::get_config();
  const auto& o = options_;
  // A registered function as Keras serializes one ("package>name" in a "function" record).
  auto step = [](const std::optional<std::string>& s) {
    if (!s) return Config(nullptr);
    if (s->find('>') == std::string::npos) return Config(*s);
    return Config{{"module", "builtins"},
                  {"class_name", "function"},
                  {"config", *s},
                  {"registered_name", "function"}};
  };
  c["max_tokens"] = o.max_tokens ? Config(*o.max_tokens) : Config(nullptr);
  c["standardize"] = step(o.standardize);
  c["split"] = step(o.split);
  c["ngrams"] = o.ngrams ? Config(*o.ngrams)
                         : (o.ngram_widths.empty() ? Config(nullptr) : Config(o.ngram_widths));
  c["output_mode"] = o.output_mode;
  c["output_sequence_length"] =
      o.output_sequence_length ? Config(*o.output_sequence_length) : Config(nullptr);
  c["pad_to_max_tokens"] = o.pad_to_max_tokens;
  c["sparse"] = o.sparse;
  c["ragged"] = o.ragged;
  c["vocabulary"] = o.vocabulary ? Config(*o.vocabulary) : Config(nullptr);
  c["idf_weights"] = o.idf_weights ? Config(*o.idf_weights) : Config(nullptr);
  c["encoding"] = o.encoding;
  c["vocabulary_size"] = vocabulary_size();
  return c;
}

std::shared_ptr<Layer> TextVectorizationLayer::from_config(const Config& c) {
  TextVectorizationOptions o;
  read_base_config(c, o);
  auto opt_int = [&](const char* key) -> std::optional<int64_t> {
    if (!c.contains(key) || c[key].is_null()) return std::nullopt;
    return c[key].get<int64_t>();
  };
  // A mode's name, or a registered function's record ({"class_name": "function", "config":
  // "package>name", ...}), which must be registered in C++ too.
  auto opt_string = [&](const char* key, std::optional<std::string> fallback) {
    if (!c.contains(key)) return fallback;
    const Config& v = c[key];
    if (v.is_null()) return std::optional<std::string>();
    if (v.is_string()) return std::optional<std::string>(v.get<std::string>());
    const bool named = v.is_object() && v.value("class_name", Config()) == "function" &&
                       v.contains("config") && v["config"].is_string();
    check<NotImplementedError>(named, "TextVectorization: the `", key, "` value ", v.dump(),
                               " is a Python object that is not a registered function; "
                               "keras-cpp takes the named modes and registered functions.");
    const std::string name = v["config"].get<std::string>();
    const bool registered = std::string(key) == "standardize"
                                ? detail::find_standardize_function(name).has_value()
                                : detail::find_split_function(name).has_value();
    check(registered, "TextVectorization: the file's `", key, "` is the function '", name,
          "' (keras.saving.register_keras_serializable in Python), which is not registered in "
          "C++: call keras::layers::register_", key, "_function(\"",
          name.substr(0, name.find('>')), "\", \"", name.substr(name.find('>') + 1),
          "\", fn) with its C++ twin before loading.");
    return std::optional<std::string>(name);
  };
  o.max_tokens = opt_int("max_tokens");
  o.standardize = opt_string("standardize", "lower_and_strip_punctuation");
  o.split = opt_string("split", "whitespace");
  if (c.contains("ngrams") && !c["ngrams"].is_null()) {
    if (c["ngrams"].is_array()) {
      o.ngram_widths = c["ngrams"].get<std::vector<int64_t>>();
    } else {
      o.ngrams = c["ngrams"].get<int64_t>();
    }
  }
  o.output_mode = c.value("output_mode", std::string("int"));
  o.output_sequence_length = opt_int("output_sequence_length");
  o.pad_to_max_tokens = c.value("pad_to_max_tokens", false);
  o.sparse = c.value("sparse", false);
  o.ragged = c.value("ragged", false);
  o.encoding = c.value("encoding", std::string("utf-8"));
  const Config vocabulary = c.value("vocabulary", Config());
  check(!vocabulary.is_string(), "Requested the loading of a vocabulary file outside of the "
        "model archive (TextVectorization: vocabulary='",
        vocabulary.is_string() ? vocabulary.get<std::string>() : "", "'). This is disallowed, as "
        "in Keras's safe mode. Build the layer with vocabulary_path set in C++ instead.");
  if (!vocabulary.is_null()) o.vocabulary = vocabulary.get<std::vector<std::string>>();
  if (c.contains("idf_weights") && !c["idf_weights"].is_null())
    o.idf_weights = c["idf_weights"].get<std::vector<double>>();
  auto layer = std::make_shared<TextVectorizationLayer>(o);
  // An adapted layer's recorded size, so encoded outputs and idf weights are shaped before the
  // vocabulary asset loads.
  if (!o.vocabulary && opt_int("vocabulary_size"))
    layer->lookup_ = layer->track(
        "_lookup_layer", LayerPtr<StringLookupLayer>(std::dynamic_pointer_cast<StringLookupLayer>(
                             StringLookupLayer::from_config(
                                 lookup_config(o, opt_int("vocabulary_size"))))));
  return layer;
}

std::map<std::string, std::string> TextVectorizationLayer::save_assets() const {
  return lookup_->save_assets();
}

void TextVectorizationLayer::load_assets(const std::map<std::string, std::string>& files) {
  lookup_->load_assets(files);
}

std::vector<Variable> TextVectorizationLayer::variables_to_save() const {
  return lookup_->variables_to_save();
}

std::vector<Variable> TextVectorizationLayer::variables_to_load() const {
  return lookup_->variables_to_load();
}

void TextVectorizationLayer::variables_loaded() { lookup_->variables_loaded(); }

std::vector<std::string> TextVectorizationLayer::variable_keys() const {
  return lookup_->variable_keys();
}

StringLayerPtr<TextVectorizationLayer> TextVectorization(TextVectorizationOptions options) {
  return LayerPtr<TextVectorizationLayer>(
      std::make_shared<TextVectorizationLayer>(std::move(options)));
}

}  // namespace keras::layers
