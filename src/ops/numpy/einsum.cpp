// einsum decomposed into views, sums and matrix products, so it is differentiable through
// them: repeated labels within an operand become a strided diagonal view, labels used once are
// summed early, and the operands are contracted left to right, each pair through one batched
// matmul (or one broadcast multiply when nothing is contracted).

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

constexpr std::string_view kOp = "einsum";
// Labels are letters (their character codes, so sorting is alphabetical as NumPy's implicit
// output) or broadcast axes of "..." (kEllipsis + position).
constexpr int kEllipsis = 256;

using Labels = std::vector<int>;

struct Spec {
  Labels labels;         // -1 marks the ellipsis
  bool ellipsis = false;
};

Spec parse_spec(std::string_view s, std::string_view subscripts) {
  Spec spec;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      spec.labels.push_back(c);
    } else if (c == '.') {
      check(s.substr(i, 3) == "..." && !spec.ellipsis, kOp, ": invalid ellipsis in subscripts '",
            subscripts, "' (at most one '...' per operand).");
      spec.ellipsis = true;
      spec.labels.push_back(-1);
      i += 2;
    } else {
      throw ValueError(keras::detail::cat(kOp, ": invalid character '", c, "' in subscripts '",
                                          subscripts, "' (expected letters, ',', '->' and '...')."));
    }
  }
  return spec;
}

struct Term {
  Tensor t;
  Labels labels;  // one per axis
};

bool contains(const Labels& l, int x) { return std::find(l.begin(), l.end(), x) != l.end(); }

// Position of each label in `from`, in the order of `order`.
std::vector<int> positions(const Labels& from, const Labels& order) {
  std::vector<int> out;
  for (int l : order) out.push_back(static_cast<int>(std::find(from.begin(), from.end(), l) - from.begin()));
  return out;
}

// Sums the axes of `term` whose labels fail `keep`.
template <typename Keep>
Term sum_out(const Term& term, Keep keep) {
  std::vector<int> axes;
  Labels left;
  for (size_t i = 0; i < term.labels.size(); ++i) {
    if (keep(term.labels[i])) left.push_back(term.labels[i]);
    else axes.push_back(static_cast<int>(i));
  }
  if (axes.empty()) return term;
  return {linalg_detail::sum_keep_dtype(term.t, axes), left};
}

// Merges repeated labels of one operand into a diagonal view.
Term diagonalize(const Term& term) {
  Labels unique;
  for (int l : term.labels)
    if (!contains(unique, l)) unique.push_back(l);
  if (unique.size() == term.labels.size()) return term;
  Shape shape;
  linalg_detail::StrideMap coef;
  for (int l : unique) {
    SmallVector<int64_t, 8> row(term.labels.size(), 0);
    int64_t extent = -1;
    for (size_t i = 0; i < term.labels.size(); ++i) {
      if (term.labels[i] != l) continue;
      row[i] = 1;
      const int64_t d = term.t.shape()[i];
      check(extent < 0 || extent == d, kOp, ": the repeated label '", static_cast<char>(l),
            "' spans axes of different extents (", extent, " and ", d, ") in an operand of shape ",
            term.t.shape(), ".");
      extent = d;
    }
    shape.push_back(extent);
    coef.push_back(row);
  }
  return {linalg_detail::restride(term.t, shape, coef), unique};
}

int64_t extent_of(const Term& t, int label) {
  auto it = std::find(t.labels.begin(), t.labels.end(), label);
  return it == t.labels.end() ? 1 : t.t.shape()[it - t.labels.begin()];
}

// x's axes rearranged to `order`, with axes of extent 1 inserted for labels x lacks.
Tensor arrange(const Term& x, const Labels& order) {
  Labels present;
  for (int l : order)
    if (contains(x.labels, l)) present.push_back(l);
  Tensor t = transpose(x.t, positions(x.labels, present));
  Shape shape;
  for (int l : order) shape.push_back(extent_of(x, l));
  return t.shape() == shape ? t : reshape(t, shape);
}

// The product of two terms, keeping the labels in `needed` (those of the output and of the
// operands still to come) and summing the others.
Term contract_pair(Term a, Term b, const Labels& needed) {
  // Labels only one side has and nobody needs are summed right away.
  a = sum_out(a, [&](int l) { return contains(b.labels, l) || contains(needed, l); });
  b = sum_out(b, [&](int l) { return contains(a.labels, l) || contains(needed, l); });
  Labels batch, contracted, free_a, free_b;
  for (int l : a.labels) {
    if (!contains(b.labels, l)) free_a.push_back(l);
    else if (contains(needed, l)) batch.push_back(l);
    else contracted.push_back(l);
  }
  for (int l : b.labels)
    if (!contains(a.labels, l)) free_b.push_back(l);
  // A contracted label of extent 1 on one side broadcasts: sum the other side over it first.
  for (int l : contracted) {
    if (extent_of(a, l) == extent_of(b, l)) continue;
    Term& wide = extent_of(a, l) == 1 ? b : a;
    const int axis = positions(wide.labels, {l})[0];
    wide.t = linalg_detail::sum_keep_dtype(wide.t, {axis}, /*keepdims=*/true);
  }
  Labels out_labels = batch;
  out_labels.insert(out_labels.end(), free_a.begin(), free_a.end());
  out_labels.insert(out_labels.end(), free_b.begin(), free_b.end());
  if (contracted.empty()) {
    // Nothing to sum: an outer or elementwise product.
    return {multiply(arrange(a, out_labels), arrange(b, out_labels)), out_labels};
  }
  if (free_a.empty() && free_b.empty() && !batch.empty()) {
    // A batch of dot products: multiply and sum rather than many 1 x 1 matmuls.
    Labels order = batch;
    order.insert(order.end(), contracted.begin(), contracted.end());
    std::vector<int> axes(contracted.size());
    std::iota(axes.begin(), axes.end(), static_cast<int>(batch.size()));
    Tensor prod = multiply(arrange(a, order), arrange(b, order));
    return {linalg_detail::sum_keep_dtype(prod, axes), batch};
  }
  // One batched matmul: a as (batch..., P, K), b as (batch..., K, Q).
  int64_t P = 1, Q = 1, K = 1;
  for (int l : free_a) P *= extent_of(a, l);
  for (int l : free_b) Q *= extent_of(b, l);
  for (int l : contracted) K *= extent_of(a, l);
  Shape shape_a, shape_b, shape_out;
  for (int l : batch) {
    shape_a.push_back(extent_of(a, l));
    shape_b.push_back(extent_of(b, l));
    shape_out.push_back(std::max(extent_of(a, l), extent_of(b, l)));
  }
  Labels order_a = batch, order_b = batch;
  order_a.insert(order_a.end(), free_a.begin(), free_a.end());
  order_a.insert(order_a.end(), contracted.begin(), contracted.end());
  order_b.insert(order_b.end(), contracted.begin(), contracted.end());
  order_b.insert(order_b.end(), free_b.begin(), free_b.end());
  shape_a.push_back(P);
  shape_a.push_back(K);
  shape_b.push_back(K);
  shape_b.push_back(Q);
  for (int l : free_a) shape_out.push_back(extent_of(a, l));
  for (int l : free_b) shape_out.push_back(extent_of(b, l));
  Tensor ta = reshape(transpose(a.t, positions(a.labels, order_a)), shape_a);
  Tensor tb = reshape(transpose(b.t, positions(b.labels, order_b)), shape_b);
  return {reshape(linalg_detail::product(ta, tb), shape_out), out_labels};
}

DType einsum_dtype(const std::vector<Tensor>& operands) {
  bool all_int8 = true;
  std::vector<DTypeLike> types;
  for (const Tensor& t : operands) {
    all_int8 = all_int8 && !t.is_weak() && t.dtype() == DType::Int8;
    if (t.is_weak()) {
      const Scalar& v = t.impl()->weak_value;
      types.push_back(v.is_bool() ? DTypeLike(DType::Bool)
                                  : (v.is_floating() ? weak_float : weak_int));
    } else {
      types.push_back(t.dtype());
    }
  }
  // Keras asks JAX for int32 accumulation when every operand is int8.
  return all_int8 ? DType::Int32 : result_type(types);
}

}  // namespace

Tensor einsum(std::string_view subscripts, const std::vector<Tensor>& operands) {
  check(!operands.empty(), kOp, ": at least one operand is required.");
  for (const Tensor& t : operands) check(t.defined(), kOp, ": an operand is an undefined tensor.");
  auto& be = detail::common_backend(kOp, std::span<const Tensor>(operands));
  const DType dtype = einsum_dtype(operands);

  std::string s;
  for (char c : subscripts)
    if (c != ' ') s.push_back(c);
  const size_t arrow = s.find("->");
  check(arrow == std::string::npos || s.find("->", arrow + 2) == std::string::npos, kOp,
        ": at most one '->' is allowed; got subscripts '", subscripts, "'.");
  const std::string lhs = s.substr(0, arrow);
  std::vector<Spec> specs;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    specs.push_back(parse_spec(std::string_view(lhs).substr(start, comma - start), subscripts));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  check(specs.size() == operands.size(), kOp, ": subscripts '", subscripts, "' name ",
        specs.size(), " operand(s) but ", operands.size(), " were given.");

  // Expand "..." into broadcast labels, right-aligned across operands.
  int ellipsis_rank = 0;
  std::vector<Term> terms;
  for (size_t k = 0; k < specs.size(); ++k) {
    const int named = static_cast<int>(specs[k].labels.size()) - (specs[k].ellipsis ? 1 : 0);
    const int rank = operands[k].ndim();
    check(specs[k].ellipsis ? rank >= named : rank == named, kOp, ": operand ", k, " has shape ",
          operands[k].shape(), " (rank ", rank, ") but its subscripts name ", named, " axes",
          specs[k].ellipsis ? " besides '...'" : "", " (subscripts '", subscripts, "').");
    ellipsis_rank = std::max(ellipsis_rank, rank - named);
  }
  for (size_t k = 0; k < specs.size(); ++k) {
    const int named = static_cast<int>(specs[k].labels.size()) - (specs[k].ellipsis ? 1 : 0);
    const int own = operands[k].ndim() - named;
    Labels labels;
    for (int l : specs[k].labels) {
      if (l >= 0) labels.push_back(l);
      else
        for (int j = 0; j < own; ++j) labels.push_back(kEllipsis + ellipsis_rank - own + j);
    }
    terms.push_back({detail::prepare(operands[k], dtype, be), labels});
  }

  // Extents must agree (or be 1, which broadcasts). For each label: extent and operand.
  std::map<int, std::pair<int64_t, size_t>> extents;
  for (size_t k = 0; k < terms.size(); ++k)
    for (size_t i = 0; i < terms[k].labels.size(); ++i) {
      const int l = terms[k].labels[i];
      const int64_t d = terms[k].t.shape()[i];
      auto [it, fresh] = extents.emplace(l, std::make_pair(d, k));
      if (fresh || d == it->second.first || d == 1) continue;
      const size_t first = it->second.second;
      check(it->second.first == 1, kOp, ": label '",
            l >= kEllipsis ? std::string("...") : std::string(1, static_cast<char>(l)),
            "' has extent ", it->second.first, " in operand ", first, " (shape ",
            operands[first].shape(), ") and ", d, " in operand ", k, " (shape ",
            operands[k].shape(), "); subscripts '", subscripts,
            "' (extents must match or be 1).");
      it->second = {d, k};
    }

  // The output labels: explicit, or "..." then the letters used once, alphabetically.
  Labels output;
  if (arrow != std::string::npos) {
    Spec out = parse_spec(std::string_view(s).substr(arrow + 2), subscripts);
    for (int l : out.labels) {
      if (l < 0) {
        for (int j = 0; j < ellipsis_rank; ++j) output.push_back(kEllipsis + j);
        continue;
      }
      check(!contains(output, l), kOp, ": the output label '", static_cast<char>(l),
            "' is repeated in subscripts '", subscripts, "'.");
      check(extents.count(l) > 0, kOp, ": the output label '", static_cast<char>(l),
            "' does not appear in the inputs of subscripts '", subscripts, "'.");
      output.push_back(l);
    }
  } else {
    std::map<int, int> counts;
    for (const Term& t : terms)
      for (int l : t.labels) ++counts[l];
    for (int j = 0; j < ellipsis_rank; ++j) output.push_back(kEllipsis + j);
    for (auto [l, n] : counts)
      if (l < kEllipsis && n == 1) output.push_back(l);
  }

  // Per operand: diagonals, then labels nobody else uses are summed.
  for (size_t k = 0; k < terms.size(); ++k) {
    terms[k] = diagonalize(terms[k]);
    terms[k] = sum_out(terms[k], [&](int l) {
      if (contains(output, l)) return true;
      for (size_t j = 0; j < terms.size(); ++j)
        if (j != k && contains(terms[j].labels, l)) return true;
      return false;
    });
  }

  Term acc = terms[0];
  for (size_t k = 1; k < terms.size(); ++k) {
    Labels needed = output;
    for (size_t j = k + 1; j < terms.size(); ++j)
      needed.insert(needed.end(), terms[j].labels.begin(), terms[j].labels.end());
    acc = contract_pair(acc, terms[k], needed);
  }
  acc = sum_out(acc, [&](int l) { return contains(output, l); });
  // Output labels of extent 1 that every operand broadcast away come back as axes of extent 1.
  return arrange(acc, output);
}

}  // namespace numpy
}  // namespace keras::ops
