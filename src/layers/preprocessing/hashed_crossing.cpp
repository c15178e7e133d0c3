#include "keras/layers/preprocessing/hashed_crossing.h"

#include <sstream>
#include <utility>

#include "keras/backend/backend.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/encode_categorical.h"
#include "layers/preprocessing/string_hash.h"

namespace keras::layers {
namespace {

HashedCrossingOptions with_default_dtype(HashedCrossingOptions o) {
  if (o.dtype.empty())
    o.dtype = o.output_mode == "int" ? "int64" : std::string(dtype_name(config::floatx()));
  return o;
}

const Shape& shape_of(const CrossFeature& f) {
  return std::visit([](const auto& t) -> const Shape& { return t.shape(); }, f);
}

std::string describe(const CrossFeature& f) {
  std::ostringstream out;
  if (const auto* t = std::get_if<Tensor>(&f))
    out << dtype_name(t->dtype());
  else
    out << "string";
  out << ' ' << shape_of(f);
  return out.str();
}

std::string describe(const std::vector<CrossFeature>& fs) {
  std::string s = "[";
  for (size_t i = 0; i < fs.size(); ++i) s += (i ? ", " : "") + describe(fs[i]);
  return s + "]";
}

// tf.sparse.cross_hashed's hash of each value of one feature, in C order.
std::vector<uint64_t> feature_hashes(const CrossFeature& f) {
  std::vector<uint64_t> out;
  if (const auto* t = std::get_if<Tensor>(&f)) {
    for (int64_t v : t->to_vector<int64_t>()) out.push_back(layers::detail::cross_feature_hash(v));
  } else {
    for (const std::string& s : std::get<StringTensor>(f).values())
      out.push_back(layers::detail::cross_feature_hash(std::string_view(s)));
  }
  return out;
}

}  // namespace

HashedCrossingLayer::HashedCrossingLayer(int64_t num_bins, HashedCrossingOptions options)
    : Layer(base_options(with_default_dtype(options)), "hashed_crossing"),
      num_bins_(num_bins),
      options_(with_default_dtype(std::move(options))) {
  check<NotImplementedError>(!options_.sparse, "HashedCrossing '", name(),
                             "': `sparse=True` can only be used with the TensorFlow backend "
                             "(keras-cpp has no sparse tensors); use the dense output.");
  const std::string& mode = options_.output_mode;
  check(mode == "int" || mode == "one_hot", "HashedCrossing '", name(),
        "': unknown value for `output_mode` argument of HashedCrossing. Allowed values are: "
        "('int', 'one_hot'). Received: output_mode=",
        mode);
  // TF's cross_hashed takes num_buckets >= 0 (0: the hash modulo 2^63 - 1).
  check(num_bins >= 0, "HashedCrossing '", name(),
        "': num_bins must be >= 0 (tf.sparse.cross_hashed's num_buckets); got ", num_bins, ".");
  set_convert_input_args(false);
  set_built(true);
}

Tensor HashedCrossingLayer::cross(const std::vector<CrossFeature>& features) const {
  check(features.size() >= 2, "HashedCrossing '", name(),
        "': `HashedCrossing` should be called on at least two inputs. Received: inputs=",
        describe(features));
  const Shape& first = shape_of(features[0]);
  const int rank = first.rank();
  check(rank <= 2 && !(rank == 2 && first[1] != 1), "HashedCrossing '", name(),
        "': all `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
        "`(batch_size, 1)`. Received: inputs=",
        describe(features));
  for (const CrossFeature& f : features)
    check(shape_of(f) == first, "HashedCrossing '", name(),
          "': all `HashedCrossing` inputs should have equal shape. Received: inputs=",
          describe(features));
  bool symbolic = false;
  std::string backend;
  for (const CrossFeature& f : features) {
    const auto* t = std::get_if<Tensor>(&f);
    if (!t) continue;
    check(is_integer(t->dtype()) || t->dtype() == DType::String, "HashedCrossing '", name(),
          "': all `HashedCrossing` inputs should have an integer or string dtype. Received: "
          "inputs=",
          describe(features));
    symbolic = symbolic || t->backend().is_symbolic();
    if (backend.empty()) backend = t->backend_name();
  }
  Tensor indices;
  if (symbolic) {
    indices = ops::zeros(first, DType::Int64);
  } else {
    std::vector<std::vector<uint64_t>> hashes;
    for (const CrossFeature& f : features) hashes.push_back(feature_hashes(f));
    const size_t n = static_cast<size_t>(first.numel());
    std::vector<int64_t> ids(n);
    std::vector<uint64_t> row(features.size());
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < features.size(); ++j) row[j] = hashes[j][i];
      ids[i] = detail::cross_hashed_bucket(row.data(), row.size(), num_bins_);
    }
    indices = Tensor::from_vector(ids, first, backend);
  }
  // Keras encodes in the compute dtype, then converts to the layer's dtype.
  return ops::cast(
      detail::encode_categorical(indices, options_.output_mode, num_bins_, compute_dtype()),
      variable_dtype());
}

Tensor HashedCrossingLayer::call(const Tensor& inputs, const CallContext&) {
  std::ostringstream shape;
  shape << inputs.shape();
  throw ValueError("HashedCrossing '" + name() +
                   "': `HashedCrossing` should be called on a list or tuple of inputs. "
                   "Received: one tensor of shape " +
                   shape.str() + "; pass a TensorList of the features.");
}

TensorList HashedCrossingLayer::call_list(const TensorList& inputs, const CallContext&) {
  std::vector<CrossFeature> features;
  for (const Tensor& t : inputs) {
    // Real string tensors cross by their text; symbolic ones only give the output's shape.
    if (t.defined() && t.dtype() == DType::String && !t.backend().is_symbolic())
      features.emplace_back(t.to_strings());
    else
      features.emplace_back(t);
  }
  return {cross(features)};
}

Tensor HashedCrossingLayer::call_features(const std::vector<CrossFeature>& features) {
  return cross(features);
}

Config HashedCrossingLayer::get_config() const {
  // Keras's HashedCrossing.get_config does not start from Layer's: no trainable, and the
  // dtype as a name rather than a policy record.
  Config c;
  c["num_bins"] = num_bins_;
  c["output_mode"] = options_.output_mode;
  c["sparse"] = options_.sparse;
  c["name"] = name();
  c["dtype"] = std::string(dtype_name(variable_dtype()));
  return c;
}

std::shared_ptr<Layer> HashedCrossingLayer::from_config(const Config& c) {
  HashedCrossingOptions o;
  read_base_config(c, o);
  check(c.contains("num_bins") && c["num_bins"].is_number_integer(),
        "HashedCrossing: num_bins must be an integer; got ",
        c.contains("num_bins") ? c["num_bins"].dump() : "nothing", ".");
  o.output_mode = c.value("output_mode", std::string("int"));
  o.sparse = c.value("sparse", false);
  return std::make_shared<HashedCrossingLayer>(c["num_bins"].get<int64_t>(), o);
}

LayerPtr<HashedCrossingLayer> HashedCrossing(int64_t num_bins, HashedCrossingOptions options) {
  return make_layer<HashedCrossingLayer>(num_bins, std::move(options));
}

}  // namespace keras::layers
