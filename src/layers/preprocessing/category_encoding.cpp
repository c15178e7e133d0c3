#include "keras/layers/preprocessing/category_encoding.h"

#include "keras/ops/ops.h"

namespace keras::layers {

CategoryEncodingLayer::CategoryEncodingLayer(int64_t num_tokens, CategoryEncodingOptions options)
    : Layer(base_options(options), "category_encoding"),
      num_tokens_(num_tokens),
      options_(std::move(options)) {
  set_convert_input_args(false);  // counts arrive as integers or floats, as given (Keras)
  if (options_.output_mode == "binary") options_.output_mode = "multi_hot";
  const std::string& mode = options_.output_mode;
  check(mode == "one_hot" || mode == "multi_hot" || mode == "count", "CategoryEncoding '",
        name(), "': unknown output_mode \"", mode,
        "\"; expected \"one_hot\", \"multi_hot\" or \"count\".");
  check(num_tokens >= 1, "CategoryEncoding '", name(), "': num_tokens must be >= 1; got ",
        num_tokens, ".");
  check<NotImplementedError>(!options_.sparse, "CategoryEncoding '", name(),
                             "': sparse=true is not supported (keras-cpp has no sparse "
                             "tensors); use the dense output.");
}

Tensor CategoryEncodingLayer::encode(const Tensor& inputs, const Tensor& count_weights) const {
  const std::string& mode = options_.output_mode;
  Tensor x = inputs;
  // A scalar is one sample.
  if (x.ndim() == 0) x = ops::expand_dims(x, -1);
  check(mode == "one_hot" || x.ndim() <= 2, "CategoryEncoding '", name(), "': output_mode \"",
        mode, "\" supports inputs of rank <= 2; got shape ", inputs.shape(), ".");
  const DType dtype = variable_dtype();
  if (mode == "multi_hot") return ops::multi_hot(x, num_tokens_, -1, dtype);
  if (mode == "one_hot") {
    if (x.ndim() > 1 && x.shape()[x.ndim() - 1] == 1) x = ops::squeeze(x, -1);
    return ops::one_hot(x, num_tokens_, -1, dtype);
  }
  // "count": one-hot rows (weighted) summed over the sample axis.
  const int reduce_axis = x.ndim() > 1 ? 1 : 0;
  Tensor hot = ops::one_hot(x, num_tokens_, -1,
                            count_weights.defined() ? count_weights.dtype() : dtype);
  if (count_weights.defined()) {
    Tensor w = count_weights.ndim() == 0 ? ops::expand_dims(count_weights, -1) : count_weights;
    check(w.shape() == x.shape(), "CategoryEncoding '", name(),
          "': count_weights must have the shape of the inputs ", inputs.shape(), "; got ",
          count_weights.shape(), ".");
    hot = ops::multiply(hot, ops::expand_dims(w, -1));
  }
  return ops::sum(hot, reduce_axis);
}

Tensor CategoryEncodingLayer::call(const Tensor& inputs, const CallContext&) {
  return encode(inputs, Tensor());
}

TensorList CategoryEncodingLayer::call_list(const TensorList& inputs, const CallContext&) {
  check(inputs.size() == 1 || inputs.size() == 2, "CategoryEncoding '", name(),
        "' takes the tokens and optionally count_weights; got ", inputs.size(), " inputs.");
  if (inputs.size() == 1) return {encode(inputs[0], Tensor())};
  check(options_.output_mode == "count", "CategoryEncoding '", name(),
        "': count_weights are only used with output_mode \"count\"; got output_mode \"",
        options_.output_mode, "\".");
  return {encode(inputs[0], ops::cast(inputs[1], compute_dtype()))};
}

Config CategoryEncodingLayer::get_config() const {
  Config c = Layer::get_config();
  c["num_tokens"] = num_tokens_;
  c["output_mode"] = options_.output_mode;
  return c;
}

std::shared_ptr<Layer> CategoryEncodingLayer::from_config(const Config& c) {
  CategoryEncodingOptions o;
  read_base_config(c, o);
  o.output_mode = c.value("output_mode", std::string("multi_hot"));
  o.sparse = c.value("sparse", false);
  check(c.contains("num_tokens") && !c["num_tokens"].is_null(),
        "CategoryEncoding: num_tokens must be set to use this layer; if the number of tokens "
        "is not known beforehand, use the IntegerLookup layer instead.");
  return std::make_shared<CategoryEncodingLayer>(c["num_tokens"].get<int64_t>(), o);
}

LayerPtr<CategoryEncodingLayer> CategoryEncoding(int64_t num_tokens,
                                                 CategoryEncodingOptions options) {
  return make_layer<CategoryEncodingLayer>(num_tokens, std::move(options));
}

}  // namespace keras::layers
