// The op classes of keras.src.ops.linalg that keras-cpp implements (keras/ops/operation.h).
//
// Not here: JVP (it takes a Python function, which Keras cannot serialize either).

#include "keras/ops/linalg.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

constexpr const char* kModule = "keras.src.ops.linalg";

OperationSpec op(std::string name, std::function<Tensor(const OperationCall&)> f) {
  return one_output(std::move(name), kModule, std::move(f));
}

OperationSpec unary(std::string name, Tensor (*f)(const Tensor&)) {
  return unary_op(std::move(name), kModule, f);
}

// Ops returning a pair (Eigh, LuFactor, Qr), from call(x).
OperationSpec pair(std::string name,
                   std::function<std::pair<Tensor, Tensor>(const OperationCall&)> f) {
  return {std::move(name), kModule, [f = std::move(f)](const OperationCall& c) {
            auto [a, b] = f(c);
            return TensorList{a, b};
          }};
}

std::optional<double> optional_number(const OperationCall& c, const std::string& name) {
  if (c.attr(name).is_null()) return std::nullopt;
  return c.number(name, 0);
}

NormOrd norm_ord(const OperationCall& c) {
  Config v = c.attr("ord");
  if (v.is_null()) return {};
  if (v.is_string()) return NormOrd(v.get<std::string>());
  return NormOrd(c.number("ord", 0));
}

}  // namespace

void add_linalg_operations(OperationTable& table) {
  table.insert(
      table.end(),
      {
          op("Cholesky",
             [](const OperationCall& c) { return cholesky(c.tensor(0), c.flag("upper", false)); }),
          op("CholeskyInverse",
             [](const OperationCall& c) {
               return cholesky_inverse(c.tensor(0), c.flag("upper", false));
             }),
          unary("Det", det),
          pair("Eig", [](const OperationCall& c) { return eig(c.tensor(0)); }),
          pair("Eigh", [](const OperationCall& c) { return eigh(c.tensor(0)); }),
          unary("Inv", inv),
          pair("LuFactor", [](const OperationCall& c) { return lu_factor(c.tensor(0)); }),
          op("Norm",
             [](const OperationCall& c) {
               auto axes = c.axes("axis");
               return norm(c.tensor(0), norm_ord(c), axes ? Axes(*axes) : Axes(),
                           c.flag("keepdims", false));
             }),
          pair("Qr",
               [](const OperationCall& c) { return qr(c.tensor(0), c.string("mode", "reduced")); }),
          op("Solve", [](const OperationCall& c) { return solve(c.tensor(0), c.tensor(1)); }),
          op("SolveTriangular",
             [](const OperationCall& c) {
               return solve_triangular(c.tensor(0), c.tensor(1), c.flag("lower", false));
             }),
          // Without compute_uv Keras returns s alone.
          {"SVD", kModule,
           [](const OperationCall& c) {
             bool compute_uv = c.flag("compute_uv", true);
             auto [u, s, vh] = svd(c.tensor(0), c.flag("full_matrices", true), compute_uv);
             return compute_uv ? TensorList{u, s, vh} : TensorList{s};
           }},
          op("Lstsq",
             [](const OperationCall& c) {
               return lstsq(c.tensor(0), c.tensor(1), optional_number(c, "rcond"));
             }),
          op("MatrixRank",
             [](const OperationCall& c) {
               return matrix_rank(c.tensor(0), optional_number(c, "tol"));
             }),
          op("Pinv",
             [](const OperationCall& c) { return pinv(c.tensor(0), optional_number(c, "rcond")); }),
      });
}

}  // namespace keras::ops::detail
