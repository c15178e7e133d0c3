#pragma once
// Reading fixture kwargs (JSON) into keras-cpp arguments, shared by the golden tests.

#include <optional>
#include <vector>

#include "golden.h"
#include "keras/ops/ops.h"

namespace keras::test {

/// A number or a list of numbers as a list.
inline std::vector<int> ints(const json& j) {
  return j.is_array() ? j.get<std::vector<int>>() : std::vector<int>{j.get<int>()};
}
inline std::vector<int64_t> int64s(const json& j) {
  return j.is_array() ? j.get<std::vector<int64_t>>() : std::vector<int64_t>{j.get<int64_t>()};
}
inline Shape shape_of(const json& j) { return Shape(int64s(j)); }

/// A JSON number or bool as a weakly typed Scalar, the way a Python literal would be.
inline Scalar scalar_of(const json& j) {
  if (j.is_boolean()) return Scalar(j.get<bool>());
  if (j.is_number_integer()) return Scalar(j.get<int64_t>());
  return Scalar(j.get<double>());
}

/// kw[key] as an axis argument: absent gives `fallback`, null gives None, else one or a list.
inline ops::Axes axes_of(const json& kw, const char* key = "axis", ops::Axes fallback = {}) {
  if (!kw.contains(key)) return fallback;
  const json& a = kw[key];
  if (a.is_null()) return ops::Axes();
  return a.is_array() ? ops::Axes(ints(a)) : ops::Axes(a.get<int>());
}

/// kw[key] as a dtype, when present.
inline std::optional<DType> dtype_arg(const json& kw, const char* key = "dtype") {
  if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
  return dtype_from_string(kw[key].get<std::string>());
}

/// kw[key] as a number, when present and not null.
inline std::optional<double> opt_double(const json& kw, const char* key) {
  if (!kw.contains(key) || kw[key].is_null()) return std::nullopt;
  return kw[key].get<double>();
}

/// A fixture op that calls F on its one input.
template <Tensor (*F)(const Tensor&)>
GoldenFn unary() {
  return [](const TensorList& in, const json&) { return TensorList{F(in[0])}; };
}
/// A fixture op that calls F on its two inputs.
template <Tensor (*F)(const Tensor&, const Tensor&)>
GoldenFn binary() {
  return [](const TensorList& in, const json&) { return TensorList{F(in[0], in[1])}; };
}

/// The fixture ops for the views and joins every op family's fixtures use: reshape, transpose,
/// expand_dims, squeeze, broadcast_to, concatenate, stack.
inline void add_view_ops(GoldenOps& m) {
  m["reshape"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::reshape(in[0], shape_of(kw["shape"]))};
  };
  m["transpose"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::transpose(in[0], kw.contains("axes") ? ints(kw["axes"]) : std::vector<int>{})};
  };
  m["expand_dims"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::expand_dims(in[0], axes_of(kw))};
  };
  m["squeeze"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::squeeze(in[0], axes_of(kw))};
  };
  m["broadcast_to"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::broadcast_to(in[0], shape_of(kw["shape"]))};
  };
  m["concatenate"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::concatenate(in, kw.value("axis", 0))};
  };
  m["stack"] = [](const TensorList& in, const json& kw) {
    return TensorList{ops::stack(in, kw.value("axis", 0))};
  };
}

}  // namespace keras::test
