// Converters of the preprocessing layers that encode values as categories: Discretization
// (bucket indices of sorted boundaries) and CategoryEncoding (one-hot, multi-hot and count
// vectors of integer ids), each as keras-cpp computes it, so the graph agrees on every input:
// ids out of range give all-zero vectors (Keras's one_hot compares with arange; ONNX's OneHot
// would wrap negative ids), and boundaries compare in the input's float type.

#include <cstdint>
#include <string>
#include <vector>

#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

constexpr int64_t kFloat = 1, kInt32 = 6, kDouble = 11;

// one_hot / multi_hot / count of integer ids `ids` (rank `rank`) over `depth` classes, as
// keras-cpp's CategoryEncoding and Discretization encode them: float32 vectors on a new last
// axis; multi_hot takes the maximum and count the sum over axis 1 (axis 0 for rank 1 ids).
std::string encode(LayerCall& c, const std::string& ids, int rank, int64_t depth,
                   const std::string& mode) {
  const std::string s = c.scope();
  std::string x = ids;
  if (mode == "one_hot" && rank > 1 && c.input_shapes[0][rank - 1] == 1) {
    x = c.g.node("Squeeze", {x, c.g.constant_i64(s + "/last", {-1})}, {}, s);
    --rank;
  }
  if (mode != "one_hot" && rank > 2)
    c.fail("output_mode \"" + mode + "\" takes inputs of rank <= 2");
  // Compared as float64: exact for every integer id and every float32 value.
  std::vector<int64_t> classes(static_cast<size_t>(depth));
  for (int64_t k = 0; k < depth; ++k) classes[static_cast<size_t>(k)] = k;
  const std::string range =
      c.g.node("Cast", {c.g.constant_i64(s + "/classes", classes)}, {{"to", kDouble}}, s);
  const std::string wide = c.g.node("Cast", {x}, {{"to", kDouble}}, s);
  const std::string expanded =
      c.g.node("Unsqueeze", {wide, c.g.constant_i64(s + "/new_axis", {-1})}, {}, s);
  const std::string hot = c.g.node(
      "Cast", {c.g.node("Equal", {expanded, range}, {}, s)}, {{"to", kFloat}}, s);
  if (mode == "one_hot") return hot;
  const int64_t axis = rank > 1 ? 1 : 0;
  if (mode == "multi_hot") return reduce(c.g, "ReduceMax", hot, {axis}, false, s);
  if (mode == "count") return reduce(c.g, "ReduceSum", hot, {axis}, false, s);
  c.fail("output_mode \"" + mode + "\" has no ONNX mapping");
}

void require_float32_output(LayerCall& c) {
  const std::string dtype = c.config.contains("dtype") && c.config["dtype"].is_string()
                                ? c.config["dtype"].get<std::string>()
                                : "float32";
  if (dtype != "float32")
    c.fail("the dtype policy \"" + dtype + "\" is not float32; export writes float32 models");
}

Values discretization(LayerCall& c) {
  if (c.config.value("sparse", false)) c.fail("sparse=true has no ONNX mapping");
  const Config& b = c.at("bin_boundaries");
  if (b.is_null()) c.fail("the layer has no bin_boundaries (call adapt() first)");
  const std::vector<double> bounds = b.get<std::vector<double>>();
  if (bounds.empty()) c.fail("an empty bin_boundaries list has no ONNX mapping");
  require_float32_output(c);
  const std::string s = c.scope();
  // The bucket of x is how many boundaries are <= x (searchsorted "right" on sorted
  // boundaries), the boundaries rounded to float32 as the layer casts them to its input's type.
  std::vector<float> f(bounds.begin(), bounds.end());
  const std::string edges =
      c.g.constant_f32(s + "/bin_boundaries", f, Shape{static_cast<int64_t>(f.size())});
  const std::string x = c.g.node("Cast", {c.inputs[0]}, {{"to", kFloat}}, s);
  const std::string expanded =
      c.g.node("Unsqueeze", {x, c.g.constant_i64(s + "/new_axis", {-1})}, {}, s);
  const std::string at_or_above = c.g.node(
      "Cast", {c.g.node("GreaterOrEqual", {expanded, edges}, {}, s)}, {{"to", kInt32}}, s);
  const std::string bucket = reduce(c.g, "ReduceSum", at_or_above, {-1}, false, s);
  const std::string mode = c.config.value("output_mode", std::string("int"));
  if (mode == "int") return {bucket};
  return {encode(c, bucket, c.rank(), static_cast<int64_t>(bounds.size()) + 1, mode)};
}

Values category_encoding(LayerCall& c) {
  if (c.config.value("sparse", false)) c.fail("sparse=true has no ONNX mapping");
  if (c.inputs.size() > 1) c.fail("count_weights (a second input) has no ONNX mapping");
  require_float32_output(c);
  const int64_t depth = c.at("num_tokens").get<int64_t>();
  const std::string mode = c.config.value("output_mode", std::string("multi_hot"));
  return {encode(c, c.inputs[0], c.rank(), depth, mode)};
}

}  // namespace

void register_preprocessing(std::map<std::string, Converter>& t) {
  t["Discretization"] = discretization;
  t["CategoryEncoding"] = category_encoding;
}

}  // namespace keras::onnx
