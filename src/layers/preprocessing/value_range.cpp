#include "layers/preprocessing/value_range.h"

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::layers::preprocessing_detail {

Config value_range_to_config(const std::pair<double, double>& range) {
  return Config::array({range.first, range.second});
}

std::pair<double, double> value_range_from_config(const Config& c, const std::string& what) {
  check(c.is_array() && c.size() == 2 && c[0].is_number() && c[1].is_number(), what,
        " must be a list of two numbers; got ", c.dump(), ".");
  return {c[0].get<double>(), c[1].get<double>()};
}

Tensor transform_value_range(const Tensor& images, const std::pair<double, double>& from,
                             const std::pair<double, double>& to) {
  if (from == to) return images;
  Tensor unit = ops::divide(ops::subtract(images, from.first), from.second - from.first);
  return ops::add(ops::multiply(unit, to.second - to.first), to.first);
}

}  // namespace keras::layers::preprocessing_detail
