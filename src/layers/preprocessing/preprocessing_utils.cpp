#include "layers/preprocessing/preprocessing_utils.h"

#include <functional>

#include "keras/backend/backend.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"

namespace keras::layers::preprocessing_detail {

Config tensor_to_config(const Tensor& t) {
  Tensor host = t.is_weak() ? ops::convert_to_tensor(t, DType::Float64) : t;
  if (is_integer(host.dtype()) || host.dtype() == DType::Bool) {
    std::vector<int64_t> v = host.to_vector<int64_t>();
    if (host.ndim() == 0) return v.at(0);
    std::function<Config(int, size_t&)> nest = [&](int axis, size_t& pos) {
      Config out = Config::array();
      for (int64_t i = 0; i < host.shape()[axis]; ++i)
        out.push_back(axis + 1 == host.ndim() ? Config(v[pos++]) : nest(axis + 1, pos));
      return out;
    };
    size_t pos = 0;
    return nest(0, pos);
  }
  std::vector<double> v = host.to_vector<double>();
  if (host.ndim() == 0) return v.at(0);
  std::function<Config(int, size_t&)> nest = [&](int axis, size_t& pos) {
    Config out = Config::array();
    for (int64_t i = 0; i < host.shape()[axis]; ++i)
      out.push_back(axis + 1 == host.ndim() ? Config(v[pos++]) : nest(axis + 1, pos));
    return out;
  };
  size_t pos = 0;
  return nest(0, pos);
}

Tensor config_to_tensor(const Config& c, const std::string& what) {
  if (c.is_null()) return Tensor();
  if (c.is_object()) {
    check(c.contains("config") && c["config"].contains("value"), what,
          ": expected a number, a list of numbers or a \"__numpy__\" record; got ", c.dump(), ".");
    return config_to_tensor(c["config"]["value"], what);
  }
  if (c.is_number()) return ops::convert_to_tensor(std::vector<double>{c.get<double>()}, Shape{});
  check(c.is_array(), what, ": expected a number or a list of numbers; got ", c.dump(), ".");
  // Nested lists: the shape from the first element at each depth, then every element checked.
  Shape shape;
  const Config* level = &c;
  while (level->is_array()) {
    shape.push_back(static_cast<int64_t>(level->size()));
    if (level->empty()) break;
    level = &(*level)[0];
  }
  std::vector<double> values;
  std::function<void(const Config&, int)> walk = [&](const Config& node, int depth) {
    if (depth == shape.rank()) {
      check(node.is_number() || node.is_boolean(), what, ": expected numbers; got ", node.dump(), ".");
      values.push_back(node.is_boolean() ? double(node.get<bool>()) : node.get<double>());
      return;
    }
    check(node.is_array() && static_cast<int64_t>(node.size()) == shape[depth], what,
          ": a ragged nested list is not an array: ", c.dump(), ".");
    for (const Config& child : node) walk(child, depth + 1);
  };
  walk(c, 0);
  return ops::convert_to_tensor(values, shape);
}

std::string standardize_data_format(const std::string& layer, const std::string& data_format) {
  if (data_format.empty()) return config::image_data_format();
  check(data_format == "channels_last" || data_format == "channels_first", layer,
        ": data_format must be \"channels_last\" or \"channels_first\"; got \"", data_format,
        "\".");
  return data_format;
}

Config seed_to_config(const std::optional<int64_t>& seed) {
  return seed ? Config(*seed) : Config(nullptr);
}

std::optional<int64_t> seed_from_config(const Config& c) {
  if (!c.contains("seed") || c["seed"].is_null()) return std::nullopt;
  return c["seed"].get<int64_t>();
}

std::optional<uint64_t> generator_seed(const std::optional<int64_t>& seed) {
  if (!seed) return std::nullopt;
  return static_cast<uint64_t>(*seed);
}

}  // namespace keras::layers::preprocessing_detail

namespace keras::layers::preprocessing_detail {

Tensor on_backend_of(const Tensor& t, const Tensor& like) {
  if (!t.defined() || like.backend().is_symbolic() || &t.backend() == &like.backend()) return t;
  return t.to(like.backend_name());
}

}  // namespace keras::layers::preprocessing_detail

namespace keras::layers::preprocessing_detail {

Tensor compute_affine_matrix(double center_x, double center_y, const Tensor& angle,
                             const Tensor& translate_x, const Tensor& translate_y,
                             const Tensor& scale, const Tensor& shear_x, const Tensor& shear_y,
                             int64_t height, int64_t width) {
  const DType dtype = angle.dtype();
  const Tensor to_radians = ops::cast(Tensor(3.14159265358979323846 / 180.0), dtype);
  Tensor theta = ops::multiply(angle, to_radians);
  Tensor shx = ops::tan(ops::multiply(shear_x, to_radians));
  Tensor shy = ops::tan(ops::multiply(shear_y, to_radians));
  const Tensor w = ops::cast(Tensor(static_cast<double>(width)), dtype);
  const Tensor h = ops::cast(Tensor(static_cast<double>(height)), dtype);
  Tensor cx = ops::multiply(Tensor(center_x), ops::subtract(w, 1.0));
  Tensor cy = ops::multiply(Tensor(center_y), ops::subtract(h, 1.0));
  Tensor cos_t = ops::cos(theta), sin_t = ops::sin(theta);
  Tensor a0 = ops::multiply(scale, ops::add(cos_t, ops::multiply(shx, sin_t)));
  Tensor a1 = ops::multiply(scale, ops::add(ops::negative(sin_t), ops::multiply(shx, cos_t)));
  Tensor a2 = ops::subtract(ops::subtract(ops::add(translate_x, cx), ops::multiply(cx, a0)),
                            ops::multiply(cy, a1));
  Tensor b0 = ops::multiply(scale, ops::add(ops::multiply(shy, cos_t), sin_t));
  Tensor b1 = ops::multiply(scale, ops::add(ops::multiply(shy, ops::negative(sin_t)), cos_t));
  Tensor b2 = ops::subtract(ops::subtract(ops::add(translate_y, cy), ops::multiply(cx, b0)),
                            ops::multiply(cy, b1));
  Tensor zero = ops::zeros_like(a0);
  return ops::stack({a0, a1, a2, b0, b1, b2, zero, zero}, 1);
}

}  // namespace keras::layers::preprocessing_detail
