#include "saving/shape_json.h"

#include "keras/core/errors.h"
#include "keras/layers/keras_tensor.h"

namespace keras::saving {

Config shape_to_json(const Shape& shape) {
  Config out = Config::array();
  for (int64_t d : shape) out.push_back(d < 0 ? Config(nullptr) : Config(d));
  return out;
}

Shape shape_from_json(const Config& json, const std::string& where) {
  check(json.is_array() && json.size() <= 64, where,
        ": expected a shape (a list of sizes or null), got ", json.dump().substr(0, 200), ".");
  Shape shape;
  for (const Config& d : json) {
    check(d.is_null() || (d.is_number_integer() && d.get<int64_t>() >= 0), where,
          ": invalid dimension ", d.dump(), " in shape ", json.dump().substr(0, 200), ".");
    shape.push_back(d.is_null() ? kUnknownDim : d.get<int64_t>());
  }
  return shape;
}

}  // namespace keras::saving
