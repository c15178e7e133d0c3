// Converters of the attention layers (EinsumDense, MultiHeadAttention, GroupedQueryAttention,
// Attention, AdditiveAttention) and of Dot. Each mirrors the layer's inference call: the same
// products in the same order, the same scaling, and the same masking constants, so that fully
// masked rows come out as keras-cpp computes them too.

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>
#include <optional>

#include "keras/autograd/variable.h"
#include "keras/core/config.h"
#include "keras/layers/attention/additive_attention.h"
#include "keras/layers/attention/attention.h"
#include "keras/layers/attention/grouped_query_attention.h"
#include "keras/layers/attention/multi_head_attention.h"
#include "keras/layers/merging/dot.h"
#include "keras/ops/ops.h"
#include "layer_call.h"

namespace keras::onnx {
namespace {

using Values = std::vector<std::string>;

// A weight of `layer` (the converted layer or one of its sublayers) by name, with its LoRA
// update merged in; undefined when it has none.
Tensor find_weight(const Layer& layer, const std::string& name) { return layer_weight(layer, name); }

std::string scalar_i64(Graph& g, const std::string& base, int64_t v) {
  return g.initializer(base, Tensor::from_vector(std::vector<int64_t>{v}, Shape{}));
}

std::string unsqueeze(Graph& g, const std::string& x, const std::vector<int64_t>& axes,
                      const std::string& base) {
  return g.node("Unsqueeze", {x, g.constant_i64(base + "/axes", axes)}, {}, base);
}

std::string reshape(Graph& g, const std::string& x, const std::vector<int64_t>& shape,
                    const std::string& base) {
  return g.node("Reshape", {x, g.constant_i64(base + "/shape", shape)}, {}, base);
}

bool is_identity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// ---- EinsumDense -----------------------------------------------------------------------------

// einsum(equation, x, kernel) (+ bias, activation) of `layer` (an EinsumDense, or a projection
// sublayer of the attention layers) for an input `x` of rank `rank`, as one MatMul: the input's
// contracted axes are moved last and flattened, the kernel is permuted and flattened at export
// time to (contracted, produced), and the product is reshaped and permuted to the output's
// axes. Equations with an axis in all three specs (a batched kernel) or a summed-out axis fail.
std::string einsum_dense_value(LayerCall& c, const Layer& layer, const Config& config,
                               const std::string& x, int rank, const std::string& base) {
  Graph& g = c.g;
  if (!config.contains("equation") || !config["equation"].is_string())
    c.fail("EinsumDense \"" + layer.name() + "\" has no equation in its config");
  const std::string equation = config["equation"].get<std::string>();
  const size_t comma = equation.find(','), arrow = equation.find("->");
  if (comma == std::string::npos || arrow == std::string::npos || arrow < comma)
    c.fail("the einsum equation \"" + equation + "\" is not of the form in,kernel->out");
  std::string in = equation.substr(0, comma), w = equation.substr(comma + 1, arrow - comma - 1),
              out = equation.substr(arrow + 2);
  // "..." (leading or trailing) stands for the input's extra axes: give them labels of their own.
  const size_t in_dots = in.find("..."), out_dots = out.find("...");
  if ((in_dots == std::string::npos) != (out_dots == std::string::npos) ||
      w.find("...") != std::string::npos)
    c.fail("the einsum equation \"" + equation + "\" elides axes in a way EinsumDense does not");
  if (in_dots != std::string::npos) {
    const int elided = rank - static_cast<int>(in.size() - 3);
    if (elided < 0) c.fail("its input rank " + std::to_string(rank) + " is below its equation's");
    std::string labels;
    for (int i = 0; i < elided; ++i) labels += static_cast<char>('0' + i);
    in.replace(in_dots, 3, labels);
    out.replace(out_dots, 3, labels);
  }
  if (static_cast<int>(in.size()) != rank)
    c.fail("its equation \"" + equation + "\" expects inputs of rank " +
           std::to_string(in.size()) + ", got rank " + std::to_string(rank));
  auto has = [](const std::string& s, char ch) { return s.find(ch) != std::string::npos; };
  for (const std::string* spec : {&in, &w, &out})
    for (char ch : *spec)
      if (std::count(spec->begin(), spec->end(), ch) != 1)
        c.fail("its equation \"" + equation + "\" repeats a label within one operand");

  std::string free, contracted, produced;
  for (char ch : in) {
    if (has(w, ch) && has(out, ch))
      c.fail("its equation \"" + equation + "\" keeps axis '" + std::string(1, ch) +
             "' in the input, kernel and output (a batched kernel); only equations that " +
             "contract the input with the kernel map to a MatMul");
    if (!has(w, ch) && !has(out, ch))
      c.fail("its equation \"" + equation + "\" sums input axis '" + std::string(1, ch) +
             "' out; only equations that contract the input with the kernel map to a MatMul");
    (has(w, ch) ? contracted : free) += ch;
  }
  for (char ch : out)
    if (!has(in, ch)) produced += ch;
  for (char ch : w)
    if (!has(in, ch) && !has(out, ch))
      c.fail("its equation \"" + equation + "\" sums kernel axis '" + std::string(1, ch) + "' out");

  // The kernel as (contracted in input order, produced in output order), flattened.
  const Tensor kernel = find_weight(layer, "kernel");
  if (!kernel.defined()) c.fail("EinsumDense \"" + layer.name() + "\" is not built");
  std::vector<int> kperm;
  std::vector<int64_t> produced_dims;
  int64_t n_contracted = 1, n_produced = 1;
  for (char ch : contracted) {
    kperm.push_back(static_cast<int>(w.find(ch)));
    n_contracted *= kernel.shape()[kperm.back()];
  }
  for (char ch : produced) {
    kperm.push_back(static_cast<int>(w.find(ch)));
    produced_dims.push_back(kernel.shape()[kperm.back()]);
    n_produced *= produced_dims.back();
  }
  const Tensor flat =
      ops::reshape(ops::transpose(kernel, kperm), Shape{n_contracted, n_produced});
  const std::string k = float_initializer(c, base + "/kernel", flat);

  // The input as (free..., contracted) with the contracted axes flattened into one.
  std::vector<int64_t> in_perm;
  for (char ch : free + contracted) in_perm.push_back(static_cast<int64_t>(in.find(ch)));
  std::string y = is_identity(in_perm) ? x : transpose(g, x, in_perm, base);
  std::vector<int64_t> zeros(free.size(), 0);  // Reshape's 0: the input's extent
  if (contracted.size() != 1) {
    std::vector<int64_t> shape = zeros;
    shape.push_back(n_contracted);
    y = reshape(g, y, shape, base);
  }
  y = g.node("MatMul", {y, k}, {}, base);
  if (produced.size() != 1) {
    std::vector<int64_t> shape = zeros;
    shape.insert(shape.end(), produced_dims.begin(), produced_dims.end());
    y = reshape(g, y, shape, base);
  }
  // (free..., produced...) to the output's order.
  const std::string have = free + produced;
  std::vector<int64_t> out_perm;
  for (char ch : out) out_perm.push_back(static_cast<int64_t>(have.find(ch)));
  if (!is_identity(out_perm)) y = transpose(g, y, out_perm, base);
  const Tensor bias = find_weight(layer, "bias");
  if (bias.defined()) y = g.node("Add", {y, float_initializer(c, base + "/bias", bias)}, {}, base);
  return apply_activation(c, y, activation_name(c, config));
}

Values einsum_dense(LayerCall& c) {
  return {einsum_dense_value(c, c.layer, c.config, c.inputs[0], c.rank(), c.scope())};
}

// ---- masks from dynamic lengths --------------------------------------------------------------

// The extent of axis `axis` of `x` as a scalar (int64).
std::string dim_of(Graph& g, const std::string& x, int64_t axis, const std::string& base) {
  return g.node("Gather", {g.node("Shape", {x}, {}, base), scalar_i64(g, base + "/axis", axis)},
                {{"axis", int64_t{0}}}, base);
}

// arange(0, n) as int64.
std::string arange(Graph& g, const std::string& n, const std::string& base) {
  return g.node("Range", {scalar_i64(g, base + "/zero", 0), n, scalar_i64(g, base + "/one", 1)},
                {}, base);
}

// Query rows (T, 1) and key columns (S,) of a (T, S) mask.
struct RowsCols {
  std::string rows, cols;
};

RowsCols rows_cols(Graph& g, const std::string& t, const std::string& s, const std::string& base) {
  return {unsqueeze(g, arange(g, t, base), {1}, base), arange(g, s, base)};
}

// keras-cpp's causal_mask: row >= column, (T, S) bool.
std::string causal_mask(Graph& g, const RowsCols& rc, const std::string& base) {
  return g.node("GreaterOrEqual", {rc.rows, rc.cols}, {}, base);
}

// sliding_window_mask: |row - column| < window, (T, S) bool.
std::string sliding_window_mask(Graph& g, const RowsCols& rc, int64_t window,
                                const std::string& base) {
  const std::string d = g.node("Abs", {g.node("Sub", {rc.rows, rc.cols}, {}, base)}, {}, base);
  return g.node("Less", {d, g.constant_i64(base + "/window", {window})}, {}, base);
}

std::string mask_and(Graph& g, const std::string& a, const std::string& b,
                     const std::string& base) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return g.node("And", {a, b}, {}, base);
}

// ---- MultiHeadAttention / GroupedQueryAttention ----------------------------------------------

// The attention of projected q (B, T, N, H), k (B, S, N, H), v (B, S, N, V) under `mask`
// (bool, broadcastable to (B, N, T, S); "" for none): keras-cpp's fused path
// (ops::dot_product_attention: scale after the product, masked logits replaced by -0.7 * max)
// or its explicit one (query scaled first, masked_softmax: -1e9, then masked probabilities 0).
// Returns the output (B, T, N, V) and the probabilities (B, N, T, S).
std::pair<std::string, std::string> attend(Graph& g, const std::string& q, const std::string& k,
                                           const std::string& v, const std::string& mask,
                                           float scale, bool fused, const std::string& base) {
  const std::string sc = g.scalar_f32(base + "/scale", scale);
  const std::string qs = fused ? q : g.node("Mul", {q, sc}, {}, base);
  const std::string qt = transpose(g, qs, {0, 2, 1, 3}, base);  // (B, N, T, H)
  const std::string kt = transpose(g, k, {0, 2, 3, 1}, base);   // (B, N, H, S)
  std::string logits = g.node("MatMul", {qt, kt}, {}, base);
  if (fused) logits = g.node("Mul", {logits, sc}, {}, base);
  std::string probs;
  if (mask.empty()) {
    probs = g.node("Softmax", {logits}, {{"axis", int64_t{-1}}}, base);
  } else if (fused) {
    const std::string low = g.scalar_f32(base + "/masked", -0.7f * FLT_MAX);
    probs = g.node("Softmax", {g.node("Where", {mask, logits, low}, {}, base)},
                   {{"axis", int64_t{-1}}}, base);
  } else {
    const std::string low = g.scalar_f32(base + "/masked", -1e9f);
    probs = g.node("Softmax", {g.node("Where", {mask, logits, low}, {}, base)},
                   {{"axis", int64_t{-1}}}, base);
    probs = g.node("Where", {mask, probs, g.scalar_f32(base + "/zero", 0.0f)}, {}, base);
  }
  const std::string vt = transpose(g, v, {0, 2, 1, 3}, base);  // (B, N, S, V)
  const std::string out = g.node("MatMul", {probs, vt}, {}, base);
  return {transpose(g, out, {0, 2, 1, 3}, base), probs};
}

// The merged attention mask of a MultiHeadAttention / GroupedQueryAttention call (the Keras
// masks of query, value and key, causal, sliding window, attention_mask input), broadcastable
// to (B, N, T, S); "" for none. With a query mask, the output carries it (compute_mask).
std::string attention_mask(LayerCall& c, bool causal, std::optional<int64_t> window) {
  Graph& g = c.g;
  const std::string base = c.scope() + "/mask";
  std::string mask;
  if (c.masked()) {
    // Query (B, T) as (B, 1, T, 1); value and key (B, S) as (B, 1, 1, S).
    const auto at = [&](size_t i) { return i < c.input_masks.size() ? c.input_masks[i] : ""; };
    if (!at(0).empty()) mask = unsqueeze(g, at(0), {1, 3}, base);
    for (size_t i : {size_t{1}, size_t{2}})
      if (!at(i).empty()) mask = mask_and(g, mask, unsqueeze(g, at(i), {1, 2}, base), base);
    c.output_masks = MaskValues{at(0)};
  }
  if (causal || window) {
    const RowsCols rc = rows_cols(g, dim_of(g, c.inputs[0], 1, base),
                                  dim_of(g, c.inputs[1], 1, base), base);
    if (causal) mask = mask_and(g, mask, causal_mask(g, rc, base), base);
    if (window) mask = mask_and(g, mask, sliding_window_mask(g, rc, *window, base), base);
  }
  if (c.inputs.size() > 3) {
    std::string m = g.node("Cast", {c.inputs[3]}, {{"to", int64_t{9}}}, base);  // BOOL
    int r = c.input_shapes[3].rank();
    if (r > 4) c.fail("its attention_mask has rank " + std::to_string(r) + " (at most 4)");
    for (; r < 4; ++r) m = unsqueeze(g, m, {-3}, base);  // as expand_mask(mask, 4, -3)
    mask = mask_and(g, m, mask, base);
  }
  return mask;
}

// The flags (return_attention_scores, use_causal_mask) of this call: the Functional node's.
template <class L>
layers::detail::AttentionFlags call_flags(const LayerCall& c, const L& layer) {
  return c.node ? layer.node_flags(*c.node) : layers::detail::AttentionFlags{};
}

std::optional<int64_t> sliding_window(const LayerCall& c) {
  if (!c.config.contains("sliding_window") || c.config["sliding_window"].is_null())
    return std::nullopt;
  return c.config["sliding_window"].get<int64_t>();
}

// The checks both layers share: (batch, length, features) inputs.
void check_sequences(LayerCall& c) {
  if (c.inputs.size() < 3 || c.inputs.size() > 4)
    c.fail("it was called with " + std::to_string(c.inputs.size()) +
           " inputs; expected query, value, key and an optional attention_mask");
  for (int i = 0; i < 3; ++i)
    if (c.input_shapes[i].rank() != 3)
      c.fail("its inputs have shape " + shape_string(c.input_shapes[i]) +
             "; export handles (batch, length, features) query, value and key (attention over " +
             "axis 1, the default attention_axes)");
}

// A projection sublayer applied to `x` (a rank `rank` value).
std::string project(LayerCall& c, const std::shared_ptr<Layer>& sub, const std::string& x,
                    int rank, const std::string& what) {
  if (!sub) c.fail("it is not built");
  return einsum_dense_value(c, *sub, sub->get_config(), x, rank, c.scope() + "/" + what);
}

Values multi_head_attention(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::MultiHeadAttentionLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's MultiHeadAttention layer");
  check_sequences(c);
  const auto flags = call_flags(c, *layer);
  const int64_t key_dim = c.at("key_dim").get<int64_t>();
  const int64_t value_dim = c.config.value("value_dim", key_dim);
  const double dropout = c.config.value("dropout", 0.0);
  Graph& g = c.g;
  const std::string s = c.scope();
  // As the layer: the causal mask alone goes to the fused kernel as is_causal; any other mask
  // merges the causal one in.
  const std::string mask = attention_mask(c, flags.use_causal_mask, sliding_window(c));
  std::string gate;
  if (layer->gate_dense()) gate = project(c, layer->gate_dense(), c.inputs[0], 3, "gate");
  const std::string q = project(c, layer->query_dense(), c.inputs[0], 3, "query");
  const std::string k = project(c, layer->key_dense(), c.inputs[2], 3, "key");
  const std::string v = project(c, layer->value_dense(), c.inputs[1], 3, "value");
  const bool fused = !flags.return_attention_scores && dropout == 0.0 && key_dim == value_dim;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(key_dim)));
  auto [out, probs] = attend(g, q, k, v, mask, scale, fused, s);
  if (!gate.empty()) out = g.node("Mul", {out, gate}, {}, s);
  out = project(c, layer->output_dense(), out, 4, "attention_output");
  if (flags.return_attention_scores) return {out, probs};
  return {out};
}

// Keras repeats each key/value head over its group of query heads (head n = k * G + g uses
// head k): (B, S, K, H) to (B, S, K * G, H).
std::string repeat_heads(Graph& g, const std::string& x, int64_t heads, int64_t groups,
                         int64_t dim, const std::string& base) {
  if (groups == 1) return x;
  const std::string t = g.node("Tile", {unsqueeze(g, x, {3}, base),
                                        g.constant_i64(base + "/repeats", {1, 1, 1, groups, 1})},
                               {}, base);
  return reshape(g, t, {0, 0, heads * groups, dim}, base);
}

Values grouped_query_attention(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::GroupedQueryAttentionLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's GroupedQueryAttention layer");
  check_sequences(c);
  const auto flags = call_flags(c, *layer);
  const int64_t head_dim = c.at("head_dim").get<int64_t>();
  const int64_t nq = c.at("num_query_heads").get<int64_t>();
  const int64_t nkv = c.at("num_key_value_heads").get<int64_t>();
  const double dropout = c.config.value("dropout", 0.0);
  Graph& g = c.g;
  const std::string s = c.scope();
  const std::string mask = attention_mask(c, flags.use_causal_mask, sliding_window(c));
  std::string gate;
  if (layer->gate_dense()) gate = project(c, layer->gate_dense(), c.inputs[0], 3, "gate");
  const std::string q = project(c, layer->query_dense(), c.inputs[0], 3, "query");
  std::string k = project(c, layer->key_dense(), c.inputs[2], 3, "key");
  std::string v = project(c, layer->value_dense(), c.inputs[1], 3, "value");
  k = repeat_heads(g, k, nkv, nq / nkv, head_dim, s + "/key");
  v = repeat_heads(g, v, nkv, nq / nkv, head_dim, s + "/value");
  const bool fused = !flags.return_attention_scores && dropout == 0.0;
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(head_dim)));
  auto [out, probs] = attend(g, q, k, v, mask, scale, fused, s);
  if (!gate.empty()) out = g.node("Mul", {out, gate}, {}, s);
  out = project(c, layer->output_dense(), out, 4, "attention_output");
  if (flags.return_attention_scores) return {out, probs};
  return {out};
}

// ---- Attention / AdditiveAttention -----------------------------------------------------------

// AttentionLayer::call_list: scores, the value and causal masks as a -1e9 bias, softmax, the
// product with the values, masked query rows zeroed.
Values dot_attention(LayerCall& c, bool additive) {
  const auto* layer = dynamic_cast<const layers::AttentionLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's Attention layer");
  if (c.inputs.size() < 2 || c.inputs.size() > 3)
    c.fail("it was called with " + std::to_string(c.inputs.size()) + " inputs");
  const auto flags = call_flags(c, *layer);
  Graph& g = c.g;
  const std::string s = c.scope();
  const int rank = c.rank();
  const std::string& query = c.inputs[0];
  const std::string& value = c.inputs[1];
  const std::string& key = c.inputs.size() > 2 ? c.inputs[2] : value;
  const bool use_scale = c.config.value("use_scale", additive);
  const std::string mode = additive ? "additive" : c.config.value("score_mode", std::string("dot"));
  std::string scores;
  if (mode == "dot") {
    std::vector<int64_t> perm(static_cast<size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[rank - 1], perm[rank - 2]);
    scores = g.node("MatMul", {query, transpose(g, key, perm, s)}, {}, s);
    if (use_scale) scores = g.node("Mul", {scores, c.weight_value("scale")}, {}, s);
  } else {
    // (batch, Tq, 1, dim) + (batch, 1, Tv, dim).
    std::string sum = g.node("Add", {unsqueeze(g, query, {-2}, s), unsqueeze(g, key, {-3}, s)},
                             {}, s);
    if (mode == "concat") {
      if (use_scale) sum = g.node("Mul", {c.weight_value("scale"), sum}, {}, s);
      scores = reduce(g, "ReduceSum", g.node("Tanh", {sum}, {}, s), {-1}, false, s);
      scores = g.node("Mul", {c.weight_value("concat_score_weight"), scores}, {}, s);
    } else {
      std::string t = g.node("Tanh", {sum}, {}, s);
      if (use_scale) t = g.node("Mul", {c.weight_value("scale"), t}, {}, s);
      scores = reduce(g, "ReduceSum", t, {-1}, false, s);
    }
  }
  // Keras masks: the value mask (batch, 1, Tv) joins the causal one on the scores; query rows
  // that are masked give zeros, and the output keeps the query mask.
  const auto input_mask = [&](size_t i) {
    return i < c.input_masks.size() ? c.input_masks[i] : std::string();
  };
  std::string mask;
  if (!input_mask(1).empty()) mask = unsqueeze(g, input_mask(1), {-2}, s);
  if (flags.use_causal_mask) {
    const std::string shape = g.node("Shape", {scores}, {}, s);
    auto dim = [&](int64_t axis) {
      return g.node("Gather", {shape, scalar_i64(g, s + "/axis", axis)}, {{"axis", int64_t{0}}},
                    s);
    };
    mask = mask_and(g, mask, causal_mask(g, rows_cols(g, dim(rank - 2), dim(rank - 1), s), s), s);
  }
  if (!mask.empty()) {
    const std::string biased = g.node("Sub", {scores, g.scalar_f32(s + "/max", 1.0e9f)}, {}, s);
    scores = g.node("Where", {mask, scores, biased}, {}, s);
  }
  const std::string weights = g.node("Softmax", {scores}, {{"axis", int64_t{-1}}}, s);
  std::string out = g.node("MatMul", {weights, value}, {}, s);
  if (c.masked()) {
    if (!input_mask(0).empty())
      out = g.node("Where", {unsqueeze(g, input_mask(0), {-1}, s), out,
                             g.scalar_f32(s + "/zero", 0.0f)},
                   {}, s);
    c.output_masks = MaskValues{input_mask(0)};
  }
  if (flags.return_attention_scores) return {out, weights};
  return {out};
}

Values attention(LayerCall& c) { return dot_attention(c, false); }
Values additive_attention(LayerCall& c) { return dot_attention(c, true); }

// ---- Dot -------------------------------------------------------------------------------------

// DotLayer::merge_function: optional L2 normalization (x * rsqrt(max(sum(x^2), eps^2))), then
// Keras's batch_dot as one batched MatMul of (batch, middle, k) by (batch, k, trailing).
Values dot(LayerCall& c) {
  const auto* layer = dynamic_cast<const layers::DotLayer*>(&c.layer);
  if (!layer) c.fail("it is not keras-cpp's Dot layer");
  if (c.inputs.size() != 2) c.fail("it takes exactly two inputs");
  Graph& g = c.g;
  const std::string s = c.scope();
  const int r0 = c.input_shapes[0].rank(), r1 = c.input_shapes[1].rank();
  const auto& v = layer->axes().values();
  auto fix = [](int64_t a, int rank) { return a < 0 ? a + rank : a; };
  const int64_t a0 = fix(v[0], r0), a1 = fix(layer->axes().is_scalar() ? v[0] : v[1], r1);
  const int64_t depth = c.input_shapes[0][a0];
  if (depth < 0) c.fail("its dot axis has an unknown extent");
  std::string x = c.inputs[0], y = c.inputs[1];
  if (layer->normalize()) {
    const float eps = static_cast<float>(config::epsilon());
    auto normalize = [&](const std::string& t, int64_t axis) {
      const std::string sq = reduce(g, "ReduceSum", g.node("Mul", {t, t}, {}, s), {axis}, true, s);
      const std::string m = g.node("Max", {sq, g.scalar_f32(s + "/eps2", eps * eps)}, {}, s);
      return g.node("Mul", {t, g.node("Reciprocal", {g.node("Sqrt", {m}, {}, s)}, {}, s)}, {}, s);
    };
    x = normalize(x, a0);
    y = normalize(y, a1);
  }
  // x: the dot axis last; y: the dot axis second.
  std::vector<int64_t> px, py{0, a1};
  for (int64_t i = 0; i < r0; ++i)
    if (i != a0) px.push_back(i);
  px.push_back(a0);
  for (int64_t i = 1; i < r1; ++i)
    if (i != a1) py.push_back(i);
  if (!is_identity(px)) x = transpose(g, x, px, s);
  if (!is_identity(py)) y = transpose(g, y, py, s);
  x = reshape(g, x, {0, -1, depth}, s);
  y = reshape(g, y, {0, depth, -1}, s);
  std::vector<int64_t> out{0};
  const Shape& os = c.output_shapes.at(0);
  int unknown = 0;
  for (int i = 1; i < os.rank(); ++i) {
    out.push_back(os[i] < 0 ? -1 : os[i]);
    unknown += os[i] < 0;
  }
  if (unknown > 1) c.fail("its output shape " + shape_string(os) + " has several unknown axes");
  return {reshape(g, g.node("MatMul", {x, y}, {}, s), out, s)};
}

}  // namespace

void register_attention(std::map<std::string, Converter>& t) {
  t["EinsumDense"] = einsum_dense;
  t["MultiHeadAttention"] = multi_head_attention;
  t["GroupedQueryAttention"] = grouped_query_attention;
  t["Attention"] = attention;
  t["AdditiveAttention"] = additive_attention;
  t["Dot"] = dot;
}

}  // namespace keras::onnx
