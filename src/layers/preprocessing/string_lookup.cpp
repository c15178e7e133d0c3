// keras.layers.StringLookup (keras/src/layers/preprocessing/string_lookup.py over
// index_lookup.py).

#include "keras/layers/preprocessing/string_lookup.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/index_lookup.h"
#include "layers/preprocessing/lookup_layer_utils.h"
#include "layers/preprocessing/lookup_output_spec.h"

namespace keras::layers {
namespace {

std::vector<std::vector<std::string>> string_documents(const StringTensor& batch, bool as_array) {
  const std::vector<std::string>& values = batch.values();
  if (batch.ndim() == 0) return {values};
  std::vector<std::vector<std::string>> docs;
  if (batch.ndim() == 1) {
    if (!as_array) return {values};
    for (const std::string& v : values) docs.push_back({v});
    return docs;
  }
  const int64_t rows = batch.shape()[0];
  const int64_t per_row = rows == 0 ? 0 : batch.size() / rows;
  for (int64_t r = 0; r < rows; ++r)
    docs.emplace_back(values.begin() + r * per_row, values.begin() + (r + 1) * per_row);
  return docs;
}

detail::IndexLookupArgs lookup_args(const StringLookupOptions& o) {
  detail::IndexLookupArgs args;
  args.max_tokens = o.max_tokens;
  args.num_oov_indices = o.num_oov_indices;
  args.invert = o.invert;
  args.output_mode = o.output_mode;
  args.pad_to_max_tokens = o.pad_to_max_tokens;
  args.sparse = o.sparse;
  args.salt = o.salt;
  args.has_input_vocabulary = o.vocabulary || !o.vocabulary_path.empty();
  return args;
}

}  // namespace

StringLookupLayer::StringLookupLayer(StringLookupOptions options)
    : Layer(base_options(options), "string_lookup"), options_(std::move(options)) {
  check<NotImplementedError>(options_.encoding == "utf-8" || options_.encoding == "UTF-8",
                             "StringLookup: keras-cpp strings are UTF-8; encoding '",
                             options_.encoding, "' is not supported. Use encoding=\"utf-8\".");
  check(!(options_.vocabulary && !options_.vocabulary_path.empty()),
        "StringLookup: give `vocabulary` or `vocabulary_path`, not both.");
  lookup_ = std::make_unique<detail::IndexLookup<std::string>>(
      "StringLookup", lookup_args(options_), options_.mask_token, options_.oov_token);
  options_.output_mode = lookup_->args().output_mode;
  check(!(options_.output_mode == "tf_idf" && options_.vocabulary && !options_.idf_weights),
        "When specifying the `vocabulary` argument, in TF-IDF output mode, the `idf_weights` "
        "argument must also be provided.");
  check(!options_.idf_weights || options_.output_mode == "tf_idf",
        "`idf_weights` should only be set if `output_mode` is `'tf_idf'`. Received: "
        "output_mode=", options_.output_mode);
  if (options_.vocabulary) {
    lookup_->set_vocabulary(*options_.vocabulary, options_.idf_weights);
  } else if (!options_.vocabulary_path.empty()) {
    check(options_.output_mode != "tf_idf",
          "output_mode `'tf_idf'` does not support loading a vocabulary from file.");
    lookup_->set_vocabulary(
        detail::read_vocabulary_file(options_.vocabulary_path, "StringLookup"));
  }
}

StringLookupLayer::~StringLookupLayer() = default;

Tensor StringLookupLayer::call(const Tensor& inputs, const CallContext&) {
  const bool symbolic = inputs.backend().is_symbolic();
  if (options_.invert && is_integer(inputs.dtype())) {
    // Indices back to their tokens: a string tensor of the same shape.
    if (symbolic) return ops::zeros(inputs.shape(), DType::String);
    return Tensor(tokens_of(inputs));
  }
  check<TypeError>(inputs.dtype() == DType::String, "StringLookup '", name(), "' takes ",
                   options_.invert ? "integer indices" : "strings", "; got a ", inputs.dtype(),
                   " tensor.", options_.invert ? "" : " Make string tensors from a "
                   "keras::StringTensor (Tensor(strings)) or a string Input.");
  if (symbolic) {
    const std::string& mode = options_.output_mode;
    return detail::lookup_output_spec(inputs, mode, mode == "int" ? 0 : lookup_->depth());
  }
  return call_strings(inputs.to_strings());
}

Tensor StringLookupLayer::call_strings(const StringTensor& tokens) {
  check(!options_.invert, "StringLookup '", name(), "' has invert=True: it maps indices to "
        "strings; call tokens_of(indices).");
  std::vector<int64_t> indices = lookup_->lookup(tokens.values());
  if (options_.output_mode == "int") return Tensor::from_vector(indices, tokens.shape());
  return lookup_->encode(indices, tokens.shape());
}

StringTensor StringLookupLayer::tokens_of(const Tensor& indices) const {
  check(options_.invert, "StringLookup '", name(), "': tokens_of maps indices back to strings "
        "and needs invert=True.");
  check(is_integer(indices.dtype()), "StringLookup '", name(), "': tokens_of takes integer "
        "indices; got dtype ", indices.dtype(), ".");
  return StringTensor(lookup_->invert(ops::cast(indices, DType::Int64).to_vector<int64_t>()),
                      indices.shape());
}

void StringLookupLayer::adapt(const StringTensor& data) {
  lookup_->reset_state();
  lookup_->update_state(string_documents(data, true));
  lookup_->finalize_state();
}

void StringLookupLayer::adapt(const std::vector<StringTensor>& batches,
                              std::optional<int64_t> steps) {
  lookup_->reset_state();
  int64_t seen = 0;
  for (const StringTensor& batch : batches) {
    if (steps && seen++ >= *steps) break;
    lookup_->update_state(string_documents(batch, false));
  }
  lookup_->finalize_state();
}

void StringLookupLayer::set_vocabulary(const std::vector<std::string>& vocabulary,
                                       const std::optional<std::vector<double>>& idf_weights) {
  lookup_->set_vocabulary(vocabulary, idf_weights);
}

std::vector<std::string> StringLookupLayer::get_vocabulary(bool include_special_tokens) const {
  return lookup_->get_vocabulary(include_special_tokens);
}

int64_t StringLookupLayer::vocabulary_size() const { return lookup_->vocabulary_size(); }

Config StringLookupLayer::get_config() const {
  Config c = Layer::get_config();
  lookup_->write_config(c);
  auto token = [](const std::optional<std::string>& t) {
    return t ? Config(*t) : Config(nullptr);
  };
  c["oov_token"] = token(options_.oov_token);
  c["mask_token"] = token(options_.mask_token);
  c["idf_weights"] = options_.idf_weights ? Config(*options_.idf_weights) : Config(nullptr);
  c["vocabulary"] = options_.vocabulary ? Config(*options_.vocabulary) : Config(nullptr);
  c["encoding"] = options_.encoding;
  return c;
}

std::shared_ptr<Layer> StringLookupLayer::from_config(const Config& c) {
  StringLookupOptions o;
  read_base_config(c, o);
  const detail::IndexLookupArgs a = detail::lookup_args_from_config(c, "StringLookup");
  o.max_tokens = a.max_tokens;
  o.num_oov_indices = a.num_oov_indices;
  o.invert = a.invert;
  o.output_mode = a.output_mode;
  o.pad_to_max_tokens = a.pad_to_max_tokens;
  o.sparse = a.sparse;
  o.salt = a.salt;
  auto token = [&](const char* key, std::optional<std::string> fallback) {
    if (!c.contains(key)) return fallback;
    return c[key].is_null() ? std::nullopt
                            : std::optional<std::string>(c[key].get<std::string>());
  };
  o.mask_token = token("mask_token", std::nullopt);
  o.oov_token = token("oov_token", "[UNK]");
  o.encoding = c.value("encoding", std::string("utf-8"));
  const Config vocabulary = c.value("vocabulary", Config());
  detail::refuse_vocabulary_path(vocabulary, "StringLookup");
  if (!vocabulary.is_null()) o.vocabulary = vocabulary.get<std::vector<std::string>>();
  if (c.contains("idf_weights") && !c["idf_weights"].is_null())
    o.idf_weights = c["idf_weights"].get<std::vector<double>>();
  auto layer = std::make_shared<StringLookupLayer>(o);
  // The recorded size lets encoded outputs (and the idf weights' shape) be known before the
  // vocabulary asset is loaded.
  if (!o.vocabulary && a.vocabulary_size) {
    detail::IndexLookupArgs with_size = lookup_args(o);
    with_size.vocabulary_size = a.vocabulary_size;
    with_size.oov_method = a.oov_method;
    layer->lookup_ = std::make_unique<detail::IndexLookup<std::string>>(
        "StringLookup", with_size, o.mask_token, o.oov_token);
  }
  return layer;
}

std::map<std::string, std::string> StringLookupLayer::save_assets() const {
  // A vocabulary passed in is part of the config; a learned one is an asset (as Keras).
  if (options_.vocabulary) return {};
  return {{"vocabulary.txt", detail::vocabulary_text(get_vocabulary(true))}};
}

void StringLookupLayer::load_assets(const std::map<std::string, std::string>& files) {
  if (options_.vocabulary) return;
  auto it = files.find("vocabulary.txt");
  check<IOError>(it != files.end(), "StringLookup '", name(),
                 "': the archive has no vocabulary.txt for this layer.");
  detail::load_vocabulary_asset(*lookup_, detail::vocabulary_lines(it->second));
}

std::vector<Variable> StringLookupLayer::variables_to_save() const {
  return detail::idf_variables_to_save(*lookup_, idf_variable_);
}

std::vector<Variable> StringLookupLayer::variables_to_load() const {
  return detail::idf_variables_to_load(*lookup_, idf_variable_);
}

void StringLookupLayer::variables_loaded() { detail::idf_variables_loaded(*lookup_, idf_variable_); }

std::vector<std::string> StringLookupLayer::variable_keys() const {
  return detail::idf_variable_keys(*lookup_);
}

StringLayerPtr<StringLookupLayer> StringLookup(StringLookupOptions options) {
  return LayerPtr<StringLookupLayer>(std::make_shared<StringLookupLayer>(std::move(options)));
}

}  // namespace keras::layers
