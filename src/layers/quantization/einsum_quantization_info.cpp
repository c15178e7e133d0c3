#include "layers/quantization/einsum_quantization_info.h"

#include <algorithm>
#include <regex>
#include <set>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {
namespace {

struct Specs {
  std::string input, kernel, output;
};

// Keras's get_specs: "..." becomes labels not otherwise used (sorted), on the left or right.
Specs specs_of(const std::string& equation, int input_rank) {
  const std::string dotted = std::regex_replace(equation, std::regex("\\.\\.\\."), "0");
  std::smatch m;
  auto fresh_labels = [](const Specs& s) {
    std::set<char> used(s.input.begin(), s.input.end());
    used.insert(s.kernel.begin(), s.kernel.end());
    used.insert(s.output.begin(), s.output.end());
    std::vector<char> labels;
    for (char c = 'A'; c <= 'Z'; ++c) if (!used.count(c)) labels.push_back(c);
    for (char c = 'a'; c <= 'z'; ++c) if (!used.count(c)) labels.push_back(c);
    return labels;  // sorted as Python sorts str: upper case first
  };
  if (std::regex_match(dotted, m, std::regex("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)")))
    return {m[1], m[2], m[3]};
  if (std::regex_match(dotted, m, std::regex("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)"))) {
    Specs s{m[1], m[2], m[3]};
    std::vector<char> labels = fresh_labels(s);
    const int elided = input_rank - static_cast<int>(s.input.size());
    for (int i = 0; i < elided; ++i) {
      s.input.insert(s.input.begin(), labels[static_cast<size_t>(i)]);
      s.output.insert(s.output.begin(), labels[static_cast<size_t>(i)]);
    }
    return s;
  }
  if (std::regex_match(dotted, m, std::regex("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0"))) {
    Specs s{m[1], m[2], m[3]};
    std::vector<char> labels = fresh_labels(s);
    const int elided = input_rank - static_cast<int>(s.input.size());
    for (int i = 0; i < elided; ++i) {
      s.input.push_back(labels[static_cast<size_t>(i)]);
      s.output.push_back(labels[static_cast<size_t>(i)]);
    }
    return s;
  }
  throw ValueError("Invalid einsum equation '" + equation +
                   "'. Equations must be in the form [X],[Y]->[Z], ...[X],[Y]->...[Z], or "
                   "[X]...,[Y]->[Z]....");
}

ScaleLayout layout_of(const std::string& spec, const std::string& output) {
  ScaleLayout l;
  for (int i = 0; i < static_cast<int>(spec.size()); ++i)
    if (output.find(spec[static_cast<size_t>(i)]) == std::string::npos) l.reduced.push_back(i);
  for (int i = 0; i < static_cast<int>(output.size()); ++i) {
    const size_t at = spec.find(output[static_cast<size_t>(i)]);
    if (at == std::string::npos) l.expand.push_back(i);
    else l.transpose.push_back(static_cast<int>(at));
  }
  // Each reduced axis takes the place of an output axis the operand lacks; once none is left,
  // it is squeezed and reuses the last position (as Keras's loop does).
  std::optional<int> index;
  for (int axis : l.reduced) {
    if (!l.expand.empty()) {
      index = l.expand.front();
      l.expand.erase(l.expand.begin());
    } else {
      l.squeeze.push_back(axis);
    }
    check(index.has_value(), "EinsumDense: cannot quantize the equation's operand '", spec,
          "' (Keras fails on it too: no output axis to place its reduced axis).");
    l.transpose.insert(l.transpose.begin() + *index, axis);
  }
  return l;
}

}  // namespace

EinsumQuantizationInfo analyze_einsum_quantization(const std::string& equation, int input_rank) {
  if (equation.find("...") != std::string::npos)
    throw TypeError("EinsumDense: cannot quantize the equation '" + equation +
                    "': Keras 3.15 cannot either (its _analyze_quantization_info fails with "
                    "\"TypeError: object of type 'int' has no len()\" on an ellipsis), so no "
                    "quantized file with it could be loaded there. Write the axes out instead.");
  Specs s = specs_of(equation, input_rank);
  EinsumQuantizationInfo info;
  info.input = layout_of(s.input, s.output);
  info.kernel = layout_of(s.kernel, s.output);
  info.gradient_equation = s.output + "," + s.kernel + "->" + s.input;
  return info;
}

Tensor scale_for_output(const Tensor& scale, const ScaleLayout& l) {
  Tensor out = scale;
  if (!l.transpose.empty()) out = ops::transpose(out, l.transpose);
  if (!l.expand.empty()) out = ops::expand_dims(out, ops::Axes(l.expand));
  if (!l.squeeze.empty()) out = ops::squeeze(out, ops::Axes(l.squeeze));
  return out;
}

Tensor scale_for_kernel(const Tensor& scale, const ScaleLayout& l) {
  Tensor out = scale;
  if (!l.squeeze.empty()) out = ops::expand_dims(out, ops::Axes(l.squeeze));
  if (!l.expand.empty()) out = ops::squeeze(out, ops::Axes(l.expand));
  if (!l.transpose.empty()) {
    std::vector<int> reverse(l.transpose.size());
    for (size_t i = 0; i < l.transpose.size(); ++i)
      reverse[static_cast<size_t>(l.transpose[i])] = static_cast<int>(i);
    out = ops::transpose(out, reverse);
  }
  return out;
}

Shape kernel_scale_shape(const Shape& kernel_shape, const ScaleLayout& l) {
  std::vector<int64_t> dims(kernel_shape.begin(), kernel_shape.end());
  for (int axis : l.reduced) dims[static_cast<size_t>(axis)] = 1;
  std::vector<int64_t> out;
  for (int axis : l.transpose) out.push_back(dims[static_cast<size_t>(axis)]);
  std::vector<int> expand = l.expand, squeeze = l.squeeze;
  std::sort(expand.begin(), expand.end());
  for (int a : expand) out.insert(out.begin() + a, 1);
  std::sort(squeeze.rbegin(), squeeze.rend());
  for (int a : squeeze) out.erase(out.begin() + a);
  return Shape(out.begin(), out.end());
}

}  // namespace keras::layers::detail
