// vectorize: a loop over the broadcast "loop" axes of the arguments, with a gufunc signature
// deciding which trailing axes form each call's core block.

#include <map>
#include <string>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace numpy {

namespace {

constexpr std::string_view kOp = "vectorize";

using CoreDims = std::vector<std::string>;

// "(m,n),(n)" -> {{"m","n"}, {"n"}}.
std::vector<CoreDims> parse_groups(const std::string& text, const std::string& signature) {
  std::vector<CoreDims> groups;
  size_t i = 0;
  auto bad = [&] {
    throw ValueError("vectorize: invalid signature '" + signature +
                     "'; expected the form \"(m,n),(n)->(m)\".");
  };
  while (i < text.size()) {
    if (text[i] != '(') bad();
    size_t close = text.find(')', i);
    if (close == std::string::npos) bad();
    CoreDims dims;
    std::string inner = text.substr(i + 1, close - i - 1), name;
    for (char c : inner + ",") {
      if (c == ',') {
        if (!name.empty()) dims.push_back(name);
        else if (!inner.empty()) bad();
        name.clear();
      } else if (c != ' ') {
        name.push_back(c);
      }
    }
    groups.push_back(dims);
    i = close + 1;
    if (i < text.size()) {
      if (text[i] != ',') bad();
      ++i;
    }
  }
  return groups;
}

struct Signature {
  std::vector<CoreDims> inputs;
  CoreDims output;
};

Signature parse_signature(const std::string& signature) {
  std::string s;
  for (char c : signature)
    if (c != ' ') s.push_back(c);
  size_t arrow = s.find("->");
  if (arrow == std::string::npos)
    throw ValueError("vectorize: the signature '" + signature + "' has no '->'.");
  Signature sig;
  sig.inputs = parse_groups(s.substr(0, arrow), signature);
  auto outputs = parse_groups(s.substr(arrow + 2), signature);
  if (outputs.size() != 1)
    throw ValueError("vectorize: the signature '" + signature +
                     "' must name exactly one output (keras-cpp's vectorize returns one tensor).");
  sig.output = outputs[0];
  return sig;
}

}  // namespace

VectorizeFn vectorize(VectorizeFn pyfunc, VectorizeOptions options) {
  check(static_cast<bool>(pyfunc), kOp, ": pyfunc must be a callable.");
  std::optional<Signature> sig;
  if (!options.signature.empty()) sig = parse_signature(options.signature);
  return [pyfunc = std::move(pyfunc), options, sig](const TensorList& args) -> Tensor {
    auto excluded = [&](size_t i) {
      for (int e : options.excluded)
        if (e == static_cast<int>(i)) return true;
      return false;
    };
    size_t vectorized = 0;
    for (size_t i = 0; i < args.size(); ++i) vectorized += excluded(i) ? 0 : 1;
    if (sig)
      check(sig->inputs.size() == vectorized, kOp, ": the signature '", options.signature,
            "' names ", sig->inputs.size(), " inputs but ", vectorized,
            " vectorized arguments were passed.");
    // Each vectorized argument: its core shape (from the signature) and its loop shape.
    std::map<std::string, int64_t> sizes;
    std::vector<Shape> core(args.size());
    Shape loop;
    for (size_t i = 0, k = 0; i < args.size(); ++i) {
      if (excluded(i)) continue;
      check(args[i].defined(), kOp, ": argument ", i, " is an undefined tensor.");
      const CoreDims dims = sig ? sig->inputs[k++] : CoreDims{};
      const int c = static_cast<int>(dims.size());
      check(args[i].ndim() >= c, kOp, ": argument ", i, " has shape ", args[i].shape(),
            " but the signature gives it ", c, " core axes.");
      for (int d = 0; d < c; ++d) {
        int64_t extent = args[i].shape()[args[i].ndim() - c + d];
        auto [it, fresh] = sizes.emplace(dims[d], extent);
        check(fresh || it->second == extent, kOp, ": core dimension '", dims[d],
              "' is ", it->second, " in one argument and ", extent, " in argument ", i, ".");
        core[i].push_back(extent);
      }
      Shape lead(args[i].shape().begin(), args[i].shape().end() - c);
      loop = detail::broadcast_shapes(kOp, loop, lead);
    }
    const int64_t n = loop.numel();
    // Each vectorized argument as (n, *core), one row per call.
    TensorList rows(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      if (excluded(i)) continue;
      Shape full = loop, flat{n};
      for (int64_t d : core[i]) {
        full.push_back(d);
        flat.push_back(d);
      }
      rows[i] = reshape(broadcast_to(args[i], full), flat);
    }
    auto call = [&](int64_t j) {
      TensorList call_args(args.size());
      for (size_t i = 0; i < args.size(); ++i)
        call_args[i] = excluded(i) ? args[i] : rows[i][j];
      return pyfunc(call_args);
    };
    check(n > 0, kOp, ": the arguments' loop shape ", loop,
          " is empty; vectorize needs at least one element to call pyfunc on.");
    std::vector<Tensor> outputs;
    for (int64_t j = 0; j < n; ++j) outputs.push_back(call(j));
    const size_t out_core = sig ? sig->output.size() : 0;
    Shape result_shape = loop;
    const Tensor& first = outputs.front();
    check(static_cast<size_t>(first.ndim()) == out_core, kOp, ": pyfunc returned shape ",
          first.shape(), " but the signature gives the result ", out_core, " core axes.");
    for (int64_t d : first.shape()) result_shape.push_back(d);
    return reshape(stack(outputs), result_shape);
  };
}

}  // namespace numpy
}  // namespace keras::ops
