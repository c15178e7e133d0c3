#include "layers/reshaping/reshaping_utils.h"

#include <algorithm>
#include <cctype>

#include "keras/core/config.h"
#include "keras/ops/ops.h"

namespace keras::layers::detail {

std::string standardize_data_format(const std::string& data_format) {
  if (data_format.empty()) return config::image_data_format();
  std::string f = data_format;
  std::transform(f.begin(), f.end(), f.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  check(f == "channels_last" || f == "channels_first",
        "The `data_format` argument must be one of {\"channels_first\", \"channels_last\"}. "
        "Received: data_format=", data_format);
  return f;
}

void check_input_rank(const Layer& layer, const Shape& shape, int rank) {
  check(shape.rank() == rank, "Input 0 of layer \"", layer.name(), "\" (", layer.class_name(),
        ") is incompatible with the layer: expected ndim=", rank, ", found ndim=", shape.rank(),
        ". Full shape received: ", shape_string(shape));
}

std::pair<int64_t, int64_t> resolve_pair(const SidePair& pair, const std::string& who,
                                         const std::string& arg) {
  check(pair.before >= 0 && pair.after >= 0, who, ": the `", arg,
        "` argument must be a tuple of 2 integers >= 0. Received ", arg, "=(", pair.before, ", ",
        pair.after, ").");
  return {pair.before, pair.after};
}

Pairs resolve_pairs(const SidePairs& pairs, int n, const std::string& who, const std::string& arg) {
  Pairs out;
  if (pairs.is_scalar()) {
    check(pairs.all() >= 0, who, ": `", arg, "` cannot be negative. Received: ", arg, "=",
          pairs.all(), ".");
    out.assign(static_cast<size_t>(n), {pairs.all(), pairs.all()});
    return out;
  }
  check(static_cast<int>(pairs.axes().size()) == n, who, ": `", arg, "` should have ", n,
        " elements (one per spatial axis). Received ", pairs.axes().size(), " elements.");
  static const char* ordinal[] = {"1st", "2nd", "3rd"};
  for (int i = 0; i < n; ++i)
    out.push_back(resolve_pair(pairs.axes()[static_cast<size_t>(i)], who,
                               std::string(i < 3 ? ordinal[i] : "") + " entry of " + arg));
  return out;
}

Config pair_config(const std::pair<int64_t, int64_t>& pair) {
  return Config::array({pair.first, pair.second});
}

Config pairs_config(const Pairs& pairs) {
  Config out = Config::array();
  for (const auto& p : pairs) out.push_back(pair_config(p));
  return out;
}

SidePair side_pair_from_config(const Config& value, const std::string& who) {
  if (value.is_number_integer()) return SidePair(value.get<int64_t>());
  check(value.is_array() && value.size() == 2 && value[0].is_number_integer() &&
            value[1].is_number_integer(),
        who, ": expected an int or a pair of ints in the config; got ", value.dump(), ".");
  return SidePair(value[0].get<int64_t>(), value[1].get<int64_t>());
}

SidePairs side_pairs_from_config(const Config& value, const std::string& who) {
  if (value.is_number_integer()) return SidePairs(value.get<int64_t>());
  check(value.is_array(), who, ": expected an int or a list in the config; got ", value.dump(),
        ".");
  std::vector<SidePair> axes;
  for (const Config& v : value) axes.push_back(side_pair_from_config(v, who));
  return SidePairs(std::move(axes));
}

std::vector<int64_t> resolve_factors(const std::vector<int64_t>& values, bool scalar, int n,
                                     const std::string& who, const std::string& arg) {
  std::vector<int64_t> out = scalar ? std::vector<int64_t>(static_cast<size_t>(n), values.at(0))
                                    : values;
  check(static_cast<int>(out.size()) == n, who, ": the `", arg, "` argument must be a tuple of ",
        n, " integers. Received ", out.size(), " values.");
  for (int64_t v : out)
    check(v > 0, who, ": the `", arg, "` argument must be a tuple of ", n,
          " integers > 0. Received a value of ", v, ".");
  return out;
}

Tensor upsample_nearest(const Tensor& x, int first_axis, const std::vector<int64_t>& factors) {
  // (..., d, ...) -> (..., d, 1, ...) broadcast to (..., d, f, ...) -> (..., d * f, ...).
  Shape expanded, wide, out;
  for (int a = 0; a < x.ndim(); ++a) {
    const int64_t d = x.shape()[a];
    const int i = a - first_axis;
    if (i >= 0 && i < static_cast<int>(factors.size())) {
      expanded.push_back(d), expanded.push_back(1);
      wide.push_back(d), wide.push_back(factors[static_cast<size_t>(i)]);
      out.push_back(d * factors[static_cast<size_t>(i)]);
    } else {
      expanded.push_back(d), wide.push_back(d), out.push_back(d);
    }
  }
  return ops::reshape(ops::broadcast_to(ops::reshape(x, expanded), wide), out);
}

namespace {

// x enlarged `s` times along `axis`: output o samples input position (o + 0.5) / s - 0.5,
// clamped to the edges. Output s*i + p mixes x[i] with x[i - 1] or x[i + 1] by weights that
// depend on the phase p only, so each phase is two scaled shifted views of the edge-padded x.
Tensor upsample_linear_axis(const Tensor& x, int axis, int64_t s) {
  if (s == 1) return x;
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  widths[static_cast<size_t>(axis)] = {1, 1};
  Tensor padded = ops::pad(x, widths, "edge");
  auto shifted = [&](int64_t start) {  // x[i - 1 + start] for i in [0, n)
    std::vector<int64_t> starts(static_cast<size_t>(x.ndim()), 0);
    starts[static_cast<size_t>(axis)] = start;
    return ops::slice(padded, starts, x.shape());
  };
  const Tensor prev = shifted(0), cur = shifted(1), next = shifted(2);
  TensorList phases;
  for (int64_t p = 0; p < s; ++p) {
    const double d = (static_cast<double>(p) + 0.5) / static_cast<double>(s) - 0.5;
    if (d < 0) phases.push_back(ops::add(ops::multiply(prev, -d), ops::multiply(cur, 1.0 + d)));
    else if (d > 0) phases.push_back(ops::add(ops::multiply(cur, 1.0 - d), ops::multiply(next, d)));
    else phases.push_back(cur);
  }
  Shape out = x.shape();
  out[static_cast<size_t>(axis)] *= s;
  return ops::reshape(ops::stack(phases, axis + 1), out);
}

}  // namespace

Tensor upsample_linear(const Tensor& x, int first_axis, const std::vector<int64_t>& factors) {
  Tensor y = x;
  for (size_t i = 0; i < factors.size(); ++i)
    y = upsample_linear_axis(y, first_axis + static_cast<int>(i), factors[i]);
  return y;
}

}  // namespace keras::layers::detail
