// keras.layers.IntegerLookup (keras/src/layers/preprocessing/integer_lookup.py over
// index_lookup.py).

#include "keras/layers/preprocessing/integer_lookup.h"

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/index_lookup.h"
#include "layers/preprocessing/lookup_layer_utils.h"
#include "layers/preprocessing/lookup_output_spec.h"
#include "layers/preprocessing/preprocessing_utils.h"

namespace keras::layers {
namespace {

std::vector<std::string> as_text(const std::vector<int64_t>& tokens) {
  std::vector<std::string> out;
  for (int64_t t : tokens) out.push_back(std::to_string(t));
  return out;
}

int64_t parse_token(const std::string& line, const std::string& source) {
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(line, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  check(used == line.size() && !line.empty(), source, ": '", line,
        "' is not an integer; an IntegerLookup vocabulary holds one integer per line.");
  return v;
}

}  // namespace

IntegerLookupLayer::IntegerLookupLayer(IntegerLookupOptions options)
    : Layer(base_options(options), "integer_lookup"), options_(std::move(options)) {
  check(!options_.max_tokens || *options_.max_tokens > 1,
        "If `max_tokens` is set for `IntegerLookup`, it must be greater than 1. Received: "
        "max_tokens=", options_.max_tokens.value_or(0));
  check(options_.num_oov_indices >= 0, "The value of `num_oov_indices` argument for "
        "`IntegerLookup` must >= 0. Received: num_oov_indices=", options_.num_oov_indices);
  check(options_.vocabulary_dtype == "int64", "Only `vocabulary_dtype='int64'` is supported "
        "at this time. Received: vocabulary_dtype=", options_.vocabulary_dtype);
  check(!(options_.vocabulary && !options_.vocabulary_path.empty()),
        "IntegerLookup: give `vocabulary` or `vocabulary_path`, not both.");
  detail::IndexLookupArgs args;
  args.max_tokens = options_.max_tokens;
  args.num_oov_indices = options_.num_oov_indices;
  args.invert = options_.invert;
  args.output_mode = options_.output_mode;
  args.pad_to_max_tokens = options_.pad_to_max_tokens;
  args.sparse = options_.sparse;
  args.oov_method = options_.oov_method;
  args.salt = options_.salt;
  args.has_input_vocabulary = options_.vocabulary || !options_.vocabulary_path.empty();
  lookup_ = std::make_unique<detail::IndexLookup<int64_t>>("IntegerLookup", args,
                                                           options_.mask_token,
                                                           options_.oov_token);
  options_.output_mode = lookup_->args().output_mode;
  check(!(options_.output_mode == "tf_idf" && args.has_input_vocabulary &&
          !options_.idf_weights && options_.vocabulary_path.empty()),
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
    std::vector<int64_t> tokens;
    for (const std::string& line :
         detail::read_vocabulary_file(options_.vocabulary_path, "IntegerLookup"))
      tokens.push_back(parse_token(line, options_.vocabulary_path));
    lookup_->set_vocabulary(tokens);
  }
}

IntegerLookupLayer::~IntegerLookupLayer() = default;

Tensor IntegerLookupLayer::call(const Tensor& inputs, const CallContext&) {
  check(is_integer(inputs.dtype()), "IntegerLookup '", name(), "' takes integer tokens; got "
        "dtype ", inputs.dtype(), ". Cast the inputs to int64 first.");
  const std::string& mode = options_.output_mode;
  if (inputs.backend().is_symbolic())
    return detail::lookup_output_spec(inputs, mode, mode == "int" ? 0 : lookup_->depth());
  const std::vector<int64_t> values = ops::cast(inputs, DType::Int64).to_vector<int64_t>();
  Tensor out;
  if (options_.invert) {
    out = Tensor::from_vector(lookup_->invert(values), inputs.shape());
  } else if (mode == "int") {
    out = Tensor::from_vector(lookup_->lookup(values), inputs.shape());
  } else {
    out = lookup_->encode(lookup_->lookup(values), inputs.shape());
  }
  return preprocessing_detail::on_backend_of(out, inputs);
}

void IntegerLookupLayer::adapt(const Tensor& data) {
  lookup_->reset_state();
  lookup_->update_state(detail::integer_documents(data, true));
  lookup_->finalize_state();
}

void IntegerLookupLayer::adapt(const TensorList& batches, std::optional<int64_t> steps) {
  lookup_->reset_state();
  int64_t seen = 0;
  for (const Tensor& batch : batches) {
    if (steps && seen++ >= *steps) break;
    lookup_->update_state(detail::integer_documents(batch, false));
  }
  lookup_->finalize_state();
}

void IntegerLookupLayer::set_vocabulary(const std::vector<int64_t>& vocabulary,
                                        const std::optional<std::vector<double>>& idf_weights) {
  lookup_->set_vocabulary(vocabulary, idf_weights);
}

std::vector<int64_t> IntegerLookupLayer::get_vocabulary(bool include_special_tokens) const {
  return lookup_->get_vocabulary(include_special_tokens);
}

int64_t IntegerLookupLayer::vocabulary_size() const { return lookup_->vocabulary_size(); }

Config IntegerLookupLayer::get_config() const {
  Config c = Layer::get_config();
  lookup_->write_config(c);
  auto token = [](const std::optional<int64_t>& t) { return t ? Config(*t) : Config(nullptr); };
  c["oov_token"] = token(options_.oov_token);
  c["mask_token"] = token(options_.mask_token);
  c["vocabulary_dtype"] = "int64";
  c["idf_weights"] = options_.idf_weights ? Config(*options_.idf_weights) : Config(nullptr);
  c["vocabulary"] = options_.vocabulary ? Config(*options_.vocabulary) : Config(nullptr);
  return c;
}

std::shared_ptr<Layer> IntegerLookupLayer::from_config(const Config& c) {
  IntegerLookupOptions o;
  read_base_config(c, o);
  const detail::IndexLookupArgs a = detail::lookup_args_from_config(c, "IntegerLookup");
  o.max_tokens = a.max_tokens;
  o.num_oov_indices = a.num_oov_indices;
  o.invert = a.invert;
  o.output_mode = a.output_mode;
  o.pad_to_max_tokens = a.pad_to_max_tokens;
  o.sparse = a.sparse;
  o.oov_method = a.oov_method;
  o.salt = a.salt;
  auto token = [&](const char* key, std::optional<int64_t> fallback) -> std::optional<int64_t> {
    if (!c.contains(key)) return fallback;
    return c[key].is_null() ? std::nullopt : std::optional<int64_t>(c[key].get<int64_t>());
  };
  o.mask_token = token("mask_token", std::nullopt);
  o.oov_token = token("oov_token", -1);
  o.vocabulary_dtype = c.value("vocabulary_dtype", std::string("int64"));
  const Config vocabulary = c.value("vocabulary", Config());
  detail::refuse_vocabulary_path(vocabulary, "IntegerLookup");
  if (!vocabulary.is_null()) o.vocabulary = vocabulary.get<std::vector<int64_t>>();
  if (c.contains("idf_weights") && !c["idf_weights"].is_null())
    o.idf_weights = c["idf_weights"].get<std::vector<double>>();
  auto layer = std::make_shared<IntegerLookupLayer>(o);
  // The recorded size lets encoded outputs (and the idf weights' shape) be known before the
  // vocabulary asset is loaded.
  if (!o.vocabulary && a.vocabulary_size)
    layer->lookup_ = std::make_unique<detail::IndexLookup<int64_t>>(
        "IntegerLookup", a, o.mask_token, o.oov_token);
  return layer;
}

std::map<std::string, std::string> IntegerLookupLayer::save_assets() const {
  // A vocabulary passed in is part of the config; a learned one is an asset (as Keras).
  if (options_.vocabulary) return {};
  return {{"vocabulary.txt", detail::vocabulary_text(as_text(get_vocabulary(true)))}};
}

void IntegerLookupLayer::load_assets(const std::map<std::string, std::string>& files) {
  if (options_.vocabulary) return;
  auto it = files.find("vocabulary.txt");
  check<IOError>(it != files.end(), "IntegerLookup '", name(),
                 "': the archive has no vocabulary.txt for this layer.");
  std::vector<int64_t> tokens;
  for (const std::string& line : detail::vocabulary_lines(it->second))
    tokens.push_back(parse_token(line, "vocabulary.txt of IntegerLookup '" + name() + "'"));
  detail::load_vocabulary_asset(*lookup_, tokens);
}

std::vector<Variable> IntegerLookupLayer::variables_to_save() const {
  return detail::idf_variables_to_save(*lookup_, idf_variable_);
}

std::vector<Variable> IntegerLookupLayer::variables_to_load() const {
  return detail::idf_variables_to_load(*lookup_, idf_variable_);
}

void IntegerLookupLayer::variables_loaded() { detail::idf_variables_loaded(*lookup_, idf_variable_); }

std::vector<std::string> IntegerLookupLayer::variable_keys() const {
  return detail::idf_variable_keys(*lookup_);
}

LayerPtr<IntegerLookupLayer> IntegerLookup(IntegerLookupOptions options) {
  return LayerPtr<IntegerLookupLayer>(std::make_shared<IntegerLookupLayer>(std::move(options)));
}

}  // namespace keras::layers
