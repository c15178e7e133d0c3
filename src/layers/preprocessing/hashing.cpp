#include "keras/layers/preprocessing/hashing.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "keras/backend/backend.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "layers/preprocessing/encode_categorical.h"
#include "layers/preprocessing/string_hash.h"

namespace keras::layers {
namespace {

// Keras's default dtype: int64 bucket ids for "int", floatx vectors otherwise.
HashingOptions with_default_dtype(HashingOptions o) {
  if (o.dtype.empty())
    o.dtype = o.output_mode == "int" ? "int64" : std::string(dtype_name(config::floatx()));
  return o;
}

std::string quoted_modes() {
  return "('int', 'one_hot', 'multi_hot', 'count')";
}

}  // namespace

HashingLayer::HashingLayer(int64_t num_bins, HashingOptions options)
    : Layer(base_options(with_default_dtype(options)), "hashing"),
      num_bins_(num_bins),
      options_(with_default_dtype(std::move(options))) {
  // Keras's checks, in its order and with its wording.
  check(num_bins > 0, "Hashing '", name(),
        "': the `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
        "num_bins=",
        num_bins, ".");
  const std::string& mode = options_.output_mode;
  const std::string& policy = dtype_policy().name;
  check(mode != "int" || policy == "int32" || policy == "int64", "Hashing '", name(),
        "': when `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or "
        "'int64'. Received: dtype=",
        policy);
  check(mode == "int" || mode == "one_hot" || mode == "multi_hot" || mode == "count", "Hashing '",
        name(), "': invalid value for argument `output_mode`. Expected one of ", quoted_modes(),
        ". Received: output_mode=", mode);
  check(!(options_.sparse && mode == "int"), "Hashing '", name(),
        "': `sparse` may only be true if `output_mode` is `\"one_hot\"`, `\"multi_hot\"`, or "
        "`\"count\"`. Received: sparse=True and output_mode=",
        mode);
  if (const auto* one = std::get_if<int64_t>(&options_.salt)) {
    salt_ = std::array<int64_t, 2>{*one, *one};
  } else if (const auto* list = std::get_if<std::vector<int64_t>>(&options_.salt)) {
    std::ostringstream got;
    for (size_t i = 0; i < list->size(); ++i) got << (i ? ", " : "") << (*list)[i];
    check(list->size() == 2, "Hashing '", name(),
          "': the `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
          "single integer. Received: salt=[",
          got.str(), "].");
    salt_ = std::array<int64_t, 2>{(*list)[0], (*list)[1]};
  }
  check<NotImplementedError>(!options_.sparse, "Hashing '", name(),
                             "': sparse=true is not supported (keras-cpp has no sparse "
                             "tensors); use the dense output.");
  set_convert_input_args(false);  // ints stay ints, floats keep their width (Keras)
  set_built(true);                // no weights
}

Shape HashingLayer::hashed_shape(const Shape& input_shape) const {
  if (options_.output_mode != "one_hot") return input_shape;
  // Keras reads inputs.shape[-1], which a scalar does not have.
  check<IndexError>(input_shape.rank() > 0, "Hashing '", name(),
                    "': output_mode \"one_hot\" needs inputs of rank >= 1; got a scalar. "
                    "Reshape it to (1,).");
  if (input_shape.back() != 1) return input_shape;
  return Shape(std::vector<int64_t>(input_shape.begin(), input_shape.end() - 1));
}

bool HashingLayer::compares_mask() const {
  // Keras reserves bin 0 for the mask only when there is more than one bin.
  return !std::holds_alternative<std::monostate>(options_.mask_value) && num_bins_ > 1;
}

std::string HashingLayer::mask_text() const {
  if (const auto* m = std::get_if<int64_t>(&options_.mask_value)) return std::to_string(*m);
  if (const auto* s = std::get_if<std::string>(&options_.mask_value)) return *s;
  return "None";
}

template <typename Text, typename IsMask>
std::vector<int64_t> HashingLayer::buckets(int64_t count, Text text, IsMask is_mask) const {
  // With a mask value (and more than one bin), bin 0 is the mask's and the hash picks
  // among the num_bins - 1 others.
  const bool masked = compares_mask();
  const int64_t bins = masked ? num_bins_ - 1 : num_bins_;
  // TF reads the salt as two int64 attributes and keys SipHash with their bits.
  const std::array<uint64_t, 2> key =
      salt_ ? std::array<uint64_t, 2>{static_cast<uint64_t>((*salt_)[0]),
                                      static_cast<uint64_t>((*salt_)[1])}
            : std::array<uint64_t, 2>{0, 0};
  std::vector<int64_t> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    if (masked && is_mask(i)) {
      out[static_cast<size_t>(i)] = 0;
      continue;
    }
    const std::string s = text(i);
    const int64_t b =
        salt_ ? detail::hash_bucket_strong(s, bins, key) : detail::hash_bucket_fast(s, bins);
    out[static_cast<size_t>(i)] = masked ? b + 1 : b;
  }
  return out;
}

Tensor HashingLayer::encode(const Tensor& indices) const {
  return detail::encode_categorical(indices, options_.output_mode, num_bins_, variable_dtype());
}

Tensor HashingLayer::call(const Tensor& inputs, const CallContext&) {
  const Shape shape = hashed_shape(inputs.shape());
  // Data-free symbolic inputs (shape inference) give data-free buckets of the right shape.
  if (inputs.backend().is_symbolic()) return encode(ops::zeros(shape, DType::Int64));
  const DType dtype = inputs.dtype();
  if (dtype == DType::String) return call_strings(inputs.to_strings());
  const auto* int_mask = std::get_if<int64_t>(&options_.mask_value);
  if (compares_mask()) {
    // TF converts the mask to the inputs' dtype and fails when it cannot (tf.equal).
    check<TypeError>(int_mask != nullptr, "Hashing '", name(), "': the string mask_value \"",
                     mask_text(), "\" cannot be compared with ", dtype_name(dtype),
                     " inputs; pass an integer mask_value, or the inputs as a StringTensor to "
                     "call_strings().");
    check<TypeError>(dtype != DType::Bool, "Hashing '", name(), "': mask_value ", mask_text(),
                     " cannot be compared with bool inputs (TensorFlow cannot convert it to "
                     "bool); cast the inputs to an integer dtype.");
  }
  std::vector<int64_t> ids;
  if (is_floating(dtype)) {
    // TF compares the floats with the mask converted to their dtype, then hashes the values
    // truncated to int64.
    const std::vector<double> v = inputs.to_vector<double>();
    const double mask = int_mask ? ops::cast(Tensor::from_vector(std::vector<int64_t>{*int_mask},
                                                                 Shape{}, inputs.backend_name()),
                                             dtype)
                                       .item<double>()
                                 : 0.0;
    ids = buckets(
        inputs.size(),
        [&](int64_t i) {
          return detail::int_as_string(detail::float_to_int64(v[static_cast<size_t>(i)]));
        },
        [&](int64_t i) { return v[static_cast<size_t>(i)] == mask; });
  } else if (dtype == DType::Bool) {
    const std::vector<bool> v = inputs.to_vector<bool>();
    ids = buckets(
        inputs.size(),
        [&](int64_t i) { return std::string(v[static_cast<size_t>(i)] ? "true" : "false"); },
        [&](int64_t) { return false; });
  } else {
    const std::vector<int64_t> v = inputs.to_vector<int64_t>();
    ids = buckets(
        inputs.size(), [&](int64_t i) { return detail::int_as_string(v[static_cast<size_t>(i)]); },
        [&](int64_t i) { return v[static_cast<size_t>(i)] == *int_mask; });
  }
  return encode(Tensor::from_vector(ids, shape, inputs.backend_name()));
}

Tensor HashingLayer::call_strings(const StringTensor& inputs) {
  const Shape shape = hashed_shape(inputs.shape());
  const auto* string_mask = std::get_if<std::string>(&options_.mask_value);
  check<TypeError>(!compares_mask() || string_mask != nullptr, "Hashing '", name(),
                   "': the integer mask_value ", mask_text(),
                   " cannot be compared with string inputs; pass a string mask_value (\"1\" for "
                   "the text of 1).");
  const std::vector<std::string>& v = inputs.values();
  std::vector<int64_t> ids = buckets(
      inputs.size(), [&](int64_t i) { return v[static_cast<size_t>(i)]; },
      [&](int64_t i) { return v[static_cast<size_t>(i)] == *string_mask; });
  return encode(Tensor::from_vector(ids, shape));
}

Config HashingLayer::get_config() const {
  Config c = Layer::get_config();
  c["num_bins"] = num_bins_;
  c["salt"] = salt_ ? Config::array({(*salt_)[0], (*salt_)[1]}) : Config(nullptr);
  if (const auto* m = std::get_if<int64_t>(&options_.mask_value))
    c["mask_value"] = *m;
  else if (const auto* s = std::get_if<std::string>(&options_.mask_value))
    c["mask_value"] = *s;
  else
    c["mask_value"] = nullptr;
  c["output_mode"] = options_.output_mode;
  c["sparse"] = options_.sparse;
  return c;
}

std::shared_ptr<Layer> HashingLayer::from_config(const Config& c) {
  HashingOptions o;
  read_base_config(c, o);
  check(c.contains("num_bins") && c["num_bins"].is_number_integer(),
        "Hashing: the `num_bins` for `Hashing` cannot be `None` or non-positive values. "
        "Received: num_bins=",
        c.contains("num_bins") ? c["num_bins"].dump() : "None", ".");
  if (c.contains("mask_value") && !c["mask_value"].is_null()) {
    const Config& m = c["mask_value"];
    check(m.is_number_integer() || m.is_string(),
          "Hashing: mask_value must be null, an integer or a string; got ", m.dump(), ".");
    if (m.is_string())
      o.mask_value = m.get<std::string>();
    else
      o.mask_value = m.get<int64_t>();
  }
  if (c.contains("salt") && !c["salt"].is_null()) {
    const Config& s = c["salt"];
    if (s.is_number_integer()) {
      o.salt = s.get<int64_t>();
    } else {
      check(s.is_array() && std::all_of(s.begin(), s.end(),
                                        [](const Config& v) { return v.is_number_integer(); }),
            "Hashing: the `salt` argument for `Hashing` can only be a tuple of size 2 integers, "
            "or a single integer. Received: salt=",
            s.dump(), ".");
      o.salt = s.get<std::vector<int64_t>>();
    }
  }
  o.output_mode = c.value("output_mode", std::string("int"));
  o.sparse = c.value("sparse", false);
  return std::make_shared<HashingLayer>(c["num_bins"].get<int64_t>(), o);
}

StringLayerPtr<HashingLayer> Hashing(int64_t num_bins, HashingOptions options) {
  return make_layer<HashingLayer>(num_bins, std::move(options));
}

}  // namespace keras::layers
