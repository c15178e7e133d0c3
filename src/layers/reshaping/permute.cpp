#include "keras/layers/reshaping/permute.h"

#include <algorithm>

#include "keras/ops/ops.h"
#include "layers/reshaping/reshaping_utils.h"

namespace keras::layers {
namespace {

std::string list_string(const std::vector<int>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

}  // namespace

PermuteLayer::PermuteLayer(std::vector<int> dims, PermuteOptions options)
    : Layer(base_options(options), "permute"), dims_(std::move(dims)) {
  std::vector<int> sorted = dims_;
  std::sort(sorted.begin(), sorted.end());
  bool ok = true;
  for (size_t i = 0; i < sorted.size(); ++i) ok = ok && sorted[i] == static_cast<int>(i) + 1;
  check(ok, "Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
        "must be consecutive and start from 1. Received dims=", list_string(dims_));
}

void PermuteLayer::build(const Shape& input_shape) {
  detail::check_input_rank(*this, input_shape, static_cast<int>(dims_.size()) + 1);
}

Tensor PermuteLayer::call(const Tensor& inputs, const CallContext&) {
  build(inputs.shape());
  std::vector<int> perm{0};
  perm.insert(perm.end(), dims_.begin(), dims_.end());
  return ops::transpose(autocast(inputs), perm);
}

Config PermuteLayer::get_config() const {
  Config c = Layer::get_config();
  c["dims"] = dims_;
  return c;
}

std::shared_ptr<Layer> PermuteLayer::from_config(const Config& c) {
  PermuteOptions o;
  read_base_config(c, o);
  return std::make_shared<PermuteLayer>(c.at("dims").get<std::vector<int>>(), o);
}

LayerPtr<PermuteLayer> Permute(std::vector<int> dims, PermuteOptions options) {
  return make_layer<PermuteLayer>(std::move(dims), std::move(options));
}

}  // namespace keras::layers
