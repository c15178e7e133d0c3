#include "keras/layers/normalization/axes_arg.h"

#include <algorithm>
#include <sstream>

#include "keras/core/errors.h"

namespace keras::layers {

Config AxesArg::to_config() const {
  if (!is_list_) return axes_.at(0);
  Config list = Config::array();
  for (int a : axes_) list.push_back(a);
  return list;
}

AxesArg AxesArg::from_config(const Config& value, const std::string& layer) {
  if (value.is_number_integer()) return AxesArg(value.get<int>());
  if (value.is_array()) {
    std::vector<int> axes;
    for (const Config& a : value) {
      if (!a.is_number_integer())
        throw TypeError(layer + ": expected an int or a list of ints for the argument 'axis'; got " +
                        value.dump() + ".");
      axes.push_back(a.get<int>());
    }
    return AxesArg(std::move(axes));
  }
  throw TypeError(layer + ": expected an int or a list of ints for the argument 'axis'; got " +
                  value.dump() + ".");
}

std::vector<int> AxesArg::canonical(int ndim, const std::string& layer) const {
  check(!axes_.empty(), layer, ": argument 'axis' is an empty list; give at least one axis.");
  std::vector<int> out;
  for (int a : axes_) {
    check(a >= -ndim && a < ndim, layer, ": axis ", a, " is out of bounds for an input of rank ",
          ndim, " (axis=", str(), ").");
    int c = a < 0 ? a + ndim : a;
    check(std::find(out.begin(), out.end(), c) == out.end(), layer,
          ": duplicate axes are not allowed; got axis=", str(), " for an input of rank ", ndim,
          ".");
    out.push_back(c);
  }
  return out;
}

std::string AxesArg::str() const {
  std::ostringstream s;
  if (!is_list_) {
    s << axes_.at(0);
    return s.str();
  }
  s << "[";
  for (size_t i = 0; i < axes_.size(); ++i) s << (i ? ", " : "") << axes_[i];
  s << "]";
  return s.str();
}

}  // namespace keras::layers
