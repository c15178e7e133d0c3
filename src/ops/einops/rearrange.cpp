// keras.ops.rearrange (keras/src/ops/einops.py): parse "in -> out", learn every axis's length
// from the input (an input group's one unknown axis is inferred by division), then reshape to
// the split input axes, transpose into the output's order and reshape to the merged groups.

#include "keras/ops/einops.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::ops {
inline namespace einops {
namespace {

using Group = std::vector<std::string>;  // one axis, or the axes of a "( ... )" group

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "b (h h1) c" -> {{b}, {h, h1}, {c}}.
std::vector<Group> parse_side(const std::string& side, const std::string& pattern) {
  std::vector<Group> groups;
  size_t i = 0;
  auto name_at = [&](size_t& j) {
    size_t start = j;
    while (j < side.size() && is_name_char(side[j])) ++j;
    return side.substr(start, j - start);
  };
  while (i < side.size()) {
    const char c = side[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(') {
      Group group;
      ++i;
      while (i < side.size() && side[i] != ')') {
        if (std::isspace(static_cast<unsigned char>(side[i]))) {
          ++i;
          continue;
        }
        check(is_name_char(side[i]), "rearrange: unexpected '", side[i], "' in the pattern '",
              pattern, "'; axes are names, grouped by parentheses.");
        group.push_back(name_at(i));
      }
      check(i < side.size(), "rearrange: a '(' is not closed in the pattern '", pattern, "'.");
      check(!group.empty(), "rearrange: an empty group '()' in the pattern '", pattern, "'.");
      ++i;
      groups.push_back(std::move(group));
    } else {
      check(is_name_char(c), "rearrange: unexpected '", c, "' in the pattern '", pattern,
            "'; axes are names, grouped by parentheses.");
      groups.push_back({name_at(i)});
    }
  }
  return groups;
}

std::vector<std::string> flatten(const std::vector<Group>& groups) {
  std::vector<std::string> names;
  for (const Group& g : groups) names.insert(names.end(), g.begin(), g.end());
  return names;
}

}  // namespace

Tensor rearrange(const Tensor& tensor, const std::string& pattern,
                 const std::map<std::string, int64_t>& axes_lengths) {
  check(tensor.defined(), "rearrange: the input is an undefined tensor.");
  const size_t arrow = pattern.find("->");
  check(arrow != std::string::npos && pattern.find("->", arrow + 2) == std::string::npos,
        "rearrange: the pattern '", pattern, "' must have one '->' between the input axes and "
        "the output axes, e.g. 'b h w c -> b c h w'.");
  const std::vector<Group> in = parse_side(pattern.substr(0, arrow), pattern);
  const std::vector<Group> out = parse_side(pattern.substr(arrow + 2), pattern);
  const Shape& shape = tensor.shape();
  check(static_cast<int>(in.size()) == tensor.ndim(), "rearrange: the pattern '", pattern,
        "' names ", in.size(), " input axes but the tensor has rank ", tensor.ndim(),
        " (shape ", shape, ").");

  // Every axis's length: a plain axis from the shape, a group's from axes_lengths, its one
  // unknown axis inferred (Keras: dim // product of the known ones).
  std::map<std::string, int64_t> length;
  for (size_t a = 0; a < in.size(); ++a) {
    const Group& g = in[a];
    const int64_t dim = shape[a];
    if (g.size() == 1 && !axes_lengths.count(g[0])) {
      length[g[0]] = dim;
      continue;
    }
    int64_t known = 1;
    std::vector<std::string> unknown;
    for (const std::string& name : g) {
      auto it = axes_lengths.find(name);
      if (it == axes_lengths.end()) unknown.push_back(name);
      else known *= it->second, length[name] = it->second;
    }
    check(unknown.size() <= 1, "rearrange: the group (", g.size(), " axes) at input axis ", a,
          " of '", pattern, "' leaves ", unknown.size(), " lengths unknown; give all but one "
          "in axes_lengths.");
    check(known > 0 && (unknown.empty() ? known == dim : dim % known == 0), "rearrange: input "
          "axis ", a, " of length ", dim, " cannot be split as '", pattern,
          "' says with the given axes_lengths (their product is ", known, ").");
    if (!unknown.empty()) length[unknown[0]] = dim / known;
  }

  const std::vector<std::string> in_names = flatten(in), out_names = flatten(out);
  for (const std::string& name : out_names)
    check(std::find(in_names.begin(), in_names.end(), name) != in_names.end(),
          "rearrange: the output axis '", name, "' of '", pattern,
          "' is not among the input axes.");
  check(in_names.size() == out_names.size(), "rearrange: '", pattern, "' must use every input "
        "axis once on the output side (", in_names.size(), " input axes, ", out_names.size(),
        " output axes).");

  // 1. Split the input groups.
  std::vector<int64_t> split;
  for (const std::string& name : in_names) split.push_back(length.at(name));
  Tensor x = Shape(split) == shape ? tensor : reshape(tensor, Shape(split));
  // 2. Into the output's order.
  std::vector<int> order;
  for (const std::string& name : out_names)
    order.push_back(static_cast<int>(std::find(in_names.begin(), in_names.end(), name) -
                                     in_names.begin()));
  x = transpose(x, order);
  // 3. Merge the output groups.
  std::vector<int64_t> merged;
  for (const Group& g : out) {
    int64_t size = 1;
    for (const std::string& name : g) size *= length.at(name);
    merged.push_back(size);
  }
  return reshape(x, Shape(merged));
}

}  // namespace einops
}  // namespace keras::ops
