// OperationCall: the arguments of one recorded op call, read the way Keras's op classes read
// them (constructor config first, then the call's keyword and positional arguments).

#include "keras/core/errors.h"
#include "keras/ops/core/conversion.h"
#include "keras/ops/operation.h"

namespace keras::ops {
namespace {

bool is_tensor_slot(const Config& v) {
  return v.is_object() && v.contains("__tensor__");
}

// The shape and flat values of a nested JSON list of numbers or booleans.
void flatten(const Config& v, Shape& shape, size_t depth, std::vector<double>& out, bool& any_float,
             bool& all_bool, const std::string& what) {
  if (v.is_array()) {
    if (shape.rank() <= static_cast<int>(depth)) shape.push_back(static_cast<int64_t>(v.size()));
    check(shape[static_cast<int>(depth)] == static_cast<int64_t>(v.size()), what,
          ": a nested list constant has rows of different lengths.");
    for (const Config& e : v) flatten(e, shape, depth + 1, out, any_float, all_bool, what);
    return;
  }
  check(v.is_number() || v.is_boolean(), what, ": expected a number, got ", v.dump(), ".");
  any_float = any_float || v.is_number_float();
  all_bool = all_bool && v.is_boolean();
  out.push_back(v.is_boolean() ? (v.get<bool>() ? 1.0 : 0.0) : v.get<double>());
}

}  // namespace

OperationCall::OperationCall(std::string class_name, const Config& config, const Config& args,
                             const Config& kwargs, const TensorList& tensors)
    : class_name_(std::move(class_name)),
      config_(config),
      args_(args),
      kwargs_(kwargs),
      tensors_(tensors) {}

void OperationCall::fail(const std::string& message) const {
  throw ValueError(class_name_ + ": " + message);
}

bool OperationCall::has_arg(size_t i) const {
  return i < args_.size() && !args_[i].is_null();
}

Tensor OperationCall::resolve(const Config& v, const std::string& what) const {
  if (is_tensor_slot(v)) {
    size_t k = v["__tensor__"].get<size_t>();
    if (k >= tensors_.size())
      fail(what + " refers to tensor " + std::to_string(k) + " of " +
           std::to_string(tensors_.size()));
    return tensors_[k];
  }
  if (v.is_boolean()) return Tensor(Scalar(v.get<bool>()));
  if (v.is_number_integer()) return Tensor(Scalar(v.get<int64_t>()));
  if (v.is_number()) return Tensor(Scalar(v.get<double>()));
  if (v.is_array()) {
    Shape shape;
    std::vector<double> values;
    bool any_float = false, all_bool = true;
    flatten(v, shape, 0, values, any_float, all_bool, class_name_ + " " + what);
    if (values.empty()) all_bool = false;
    // Python lists become int32, float32 or bool tensors (Keras's convert_to_tensor).
    DType dtype = all_bool ? DType::Bool : any_float ? DType::Float32 : DType::Int32;
    return convert_to_tensor(values, shape, dtype);
  }
  fail(what + " must be a tensor or a number; got " + v.dump().substr(0, 200));
}

Tensor OperationCall::tensor(size_t i) const {
  if (i >= args_.size())
    fail("expected at least " + std::to_string(i + 1) + " positional argument(s); the call has " +
         std::to_string(args_.size()));
  return resolve(args_[i], "argument " + std::to_string(i));
}

TensorList OperationCall::tensors(size_t i) const {
  if (i >= args_.size())
    fail("expected at least " + std::to_string(i + 1) + " positional argument(s); the call has " +
         std::to_string(args_.size()));
  const Config& v = args_[i];
  TensorList out;
  if (v.is_array() && !v.empty() && is_tensor_slot(v[0])) {
    for (size_t k = 0; k < v.size(); ++k)
      out.push_back(resolve(v[k], "argument " + std::to_string(i) + "[" + std::to_string(k) + "]"));
  } else {
    out.push_back(resolve(v, "argument " + std::to_string(i)));
  }
  return out;
}

bool OperationCall::has(const std::string& name) const {
  return (config_.is_object() && config_.contains(name)) ||
         (kwargs_.is_object() && kwargs_.contains(name));
}

Config OperationCall::attr(const std::string& name, std::optional<size_t> position) const {
  if (config_.is_object() && config_.contains(name)) return config_[name];
  if (kwargs_.is_object() && kwargs_.contains(name)) return kwargs_[name];
  if (position && *position < args_.size()) return args_[*position];
  return nullptr;
}

Tensor OperationCall::tensor_attr(const std::string& name, std::optional<size_t> position) const {
  Config v = attr(name, position);
  return v.is_null() ? Tensor() : resolve(v, "argument " + name);
}

int64_t OperationCall::integer(const std::string& name, int64_t fallback,
                               std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return fallback;
  if (!v.is_number_integer()) fail(name + " must be an integer; got " + v.dump());
  return v.get<int64_t>();
}

std::optional<int64_t> OperationCall::optional_integer(const std::string& name,
                                                       std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return std::nullopt;
  return integer(name, 0, position);
}

double OperationCall::number(const std::string& name, double fallback,
                             std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return fallback;
  if (!v.is_number()) fail(name + " must be a number; got " + v.dump());
  return v.get<double>();
}

bool OperationCall::flag(const std::string& name, bool fallback,
                         std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return fallback;
  if (!v.is_boolean()) fail(name + " must be true or false; got " + v.dump());
  return v.get<bool>();
}

std::string OperationCall::string(const std::string& name, const std::string& fallback,
                                  std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return fallback;
  if (!v.is_string()) fail(name + " must be a string; got " + v.dump());
  return v.get<std::string>();
}

std::optional<std::vector<int>> OperationCall::axes(const std::string& name,
                                                    std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return std::nullopt;
  std::vector<int> out;
  if (v.is_number_integer()) return std::vector<int>{v.get<int>()};
  if (!v.is_array()) fail(name + " must be an axis or a list of axes; got " + v.dump());
  for (const Config& a : v) {
    if (!a.is_number_integer()) fail(name + " must hold integers; got " + v.dump());
    out.push_back(a.get<int>());
  }
  return out;
}

std::vector<int64_t> OperationCall::integers(const std::string& name,
                                             std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_number_integer()) return {v.get<int64_t>()};
  if (!v.is_array()) fail(name + " must be a list of integers; got " + v.dump());
  std::vector<int64_t> out;
  for (const Config& a : v) {
    // A None in a shape is an unknown dimension.
    if (a.is_null()) {
      out.push_back(-1);
      continue;
    }
    if (!a.is_number_integer()) fail(name + " must hold integers; got " + v.dump());
    out.push_back(a.get<int64_t>());
  }
  return out;
}

std::optional<DType> OperationCall::dtype(const std::string& name,
                                          std::optional<size_t> position) const {
  Config v = attr(name, position);
  if (v.is_null()) return std::nullopt;
  if (!v.is_string()) fail(name + " must be a dtype name; got " + v.dump());
  return dtype_from_string(v.get<std::string>());
}

}  // namespace keras::ops
