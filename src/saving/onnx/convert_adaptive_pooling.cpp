// Converters of AdaptiveAveragePooling1D/2D/3D and AdaptiveMaxPooling1D/2D/3D. Output position
// j of a spatial axis of extent L pools [floor(j L / n), ceil((j + 1) L / n)), as keras-cpp
// (and PyTorch, and Keras's JAX backend) computes it. A window of several axes is the product
// of per-axis intervals, so the pool is separable: each axis in turn becomes n slices, each
// reduced (mean or max) and concatenated back. The extents must be known at export.

#include <cstdint>
#include <string>
#include <vector>

#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

Values adaptive_pool(LayerCall& c, int spatial, const char* reduce_op) {
  const std::vector<int64_t> sizes = int_tuple(c, "output_size", spatial);
  const bool channels_first = c.config.value("data_format", std::string("channels_last")) ==
                              "channels_first";
  const Shape& in = c.input_shapes.at(0);
  if (in.rank() != spatial + 2) c.fail("expects inputs of rank " + std::to_string(spatial + 2));
  const std::string s = c.scope();
  std::string x = c.inputs[0];
  for (int i = 0; i < spatial; ++i) {
    const int64_t axis = channels_first ? 2 + i : 1 + i;
    const int64_t length = in[static_cast<int>(axis)], n = sizes[static_cast<size_t>(i)];
    if (length < 0)
      c.fail("spatial axis " + std::to_string(axis) + " has no fixed extent; adaptive pooling " +
             "exports for inputs whose spatial extents are known");
    if (n < 1) c.fail("output_size must be >= 1");
    if (length == n) continue;  // every window is one element
    std::vector<std::string> pieces;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t start = j * length / n, stop = ((j + 1) * length + n - 1) / n;
      const std::string tag = s + "/axis" + std::to_string(axis) + "_" + std::to_string(j);
      const std::string window = c.g.node(
          "Slice",
          {x, c.g.constant_i64(tag + "/start", {start}), c.g.constant_i64(tag + "/stop", {stop}),
           c.g.constant_i64(tag + "/axis", {axis})},
          {}, s);
      pieces.push_back(reduce(c.g, reduce_op, window, {axis}, true, s));
    }
    x = pieces.size() == 1 ? pieces[0] : c.g.node("Concat", pieces, {{"axis", axis}}, s);
  }
  if (x == c.inputs[0]) x = c.g.node("Identity", {x}, {}, s);
  return {x};
}

template <int Spatial>
Values adaptive_average(LayerCall& c) {
  return adaptive_pool(c, Spatial, "ReduceMean");
}
template <int Spatial>
Values adaptive_max(LayerCall& c) {
  return adaptive_pool(c, Spatial, "ReduceMax");
}

}  // namespace

void register_adaptive_pooling(std::map<std::string, Converter>& t) {
  t["AdaptiveAveragePooling1D"] = adaptive_average<1>;
  t["AdaptiveAveragePooling2D"] = adaptive_average<2>;
  t["AdaptiveAveragePooling3D"] = adaptive_average<3>;
  t["AdaptiveMaxPooling1D"] = adaptive_max<1>;
  t["AdaptiveMaxPooling2D"] = adaptive_max<2>;
  t["AdaptiveMaxPooling3D"] = adaptive_max<3>;
}

}  // namespace keras::onnx
