// Bad inputs: the error type, and a message that names the op and the shapes or values.

#include <gtest/gtest.h>

#include <string>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using test::make;

// Runs fn, expecting an E whose message contains every fragment.
template <typename E, typename Fn>
void expect_error(const std::string& name, Fn fn, std::initializer_list<std::string> fragments) {
  try {
    fn();
    ADD_FAILURE() << name << ": no error was thrown";
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const std::string& f : fragments)
      EXPECT_NE(msg.find(f), std::string::npos) << name << ": '" << f << "' missing from: " << msg;
  } catch (const std::exception& e) {
    ADD_FAILURE() << name << ": wrong error type: " << e.what();
  }
}

Tensor zeros(const Shape& s) { return ops::zeros(s); }

TEST(LinalgErrors, Products) {
  expect_error<ValueError>("dot", [] { ops::dot(zeros({3, 4}), zeros({3, 2})); }, {"dot", "(3, 4)", "(3, 2)"});
  expect_error<ValueError>("dot_vec", [] { ops::dot(zeros({3, 4}), zeros({3})); }, {"dot", "(3, 4)", "(3,)"});
  expect_error<ValueError>("tensordot", [] { ops::tensordot(zeros({2, 3}), zeros({4, 5}), {{1}, {0}}); },
                           {"tensordot", "(2, 3)", "(4, 5)"});
  expect_error<ValueError>("tensordot_axes", [] { ops::tensordot(zeros({2}), zeros({2}), 2); },
                           {"tensordot", "axes=2"});
  expect_error<ValueError>("tensordot_lists", [] { ops::tensordot(zeros({2}), zeros({2}), {{0}, {0, 1}}); },
                           {"tensordot", "same length"});
  expect_error<ValueError>("tensordot_range", [] { ops::tensordot(zeros({2}), zeros({2}), {{3}, {0}}); },
                           {"tensordot", "axis 3"});
  expect_error<ValueError>("inner", [] { ops::inner(zeros({3}), zeros({4})); }, {"inner", "(3,)", "(4,)"});
  expect_error<ValueError>("vdot", [] { ops::vdot(zeros({3}), zeros({2, 2})); }, {"vdot", "(3,)", "(2, 2)"});
  expect_error<ValueError>("matmul", [] { ops::matmul(zeros({3}), zeros({4})); }, {"matmul", "(3,)", "(4,)"});
  expect_error<ValueError>("cross_dim", [] { ops::cross(zeros({4}), zeros({3})); }, {"cross", "(4,)", "2 or 3"});
  expect_error<ValueError>("cross_axis", [] { ops::cross(zeros({3}), zeros({3}), 1); }, {"cross", "axis 1"});
  expect_error<ValueError>("cross_broadcast", [] { ops::cross(zeros({2, 3}), zeros({4, 3})); },
                           {"cross", "(2,)", "(4,)"});
  expect_error<ValueError>("correlate_rank", [] { ops::correlate(zeros({2, 2}), zeros({2})); },
                           {"correlate", "(2, 2)"});
  expect_error<ValueError>("correlate_mode", [] { ops::correlate(zeros({3}), zeros({2}), "middle"); },
                           {"correlate", "middle"});
  expect_error<ValueError>("correlate_empty", [] { ops::correlate(zeros({0}), zeros({2})); },
                           {"correlate", "(0,)"});
  expect_error<ValueError>("undefined", [] { ops::dot(Tensor(), zeros({2})); }, {"dot", "undefined"});
}

TEST(LinalgErrors, Einsum) {
  expect_error<ValueError>("rank", [] { ops::einsum("ijk->i", zeros({3, 4})); }, {"einsum", "(3, 4)", "ijk->i"});
  expect_error<ValueError>("char", [] { ops::einsum("i1", zeros({3, 4})); }, {"einsum", "'1'", "i1"});
  expect_error<ValueError>("output", [] { ops::einsum("ij->k", zeros({3, 4})); }, {"einsum", "'k'"});
  expect_error<ValueError>("repeated output", [] { ops::einsum("ij->ii", zeros({3, 4})); }, {"einsum", "'i'", "repeated"});
  expect_error<ValueError>("count", [] { ops::einsum("ij,jk", zeros({3, 4})); }, {"einsum", "2 operand", "1 were given"});
  expect_error<ValueError>("extent", [] { ops::einsum("ij,jk", zeros({3, 4}), zeros({5, 2})); },
                           {"einsum", "'j'", "4", "5"});
  expect_error<ValueError>("diagonal", [] { ops::einsum("ii", zeros({3, 4})); }, {"einsum", "'i'", "(3, 4)"});
  expect_error<ValueError>("ellipsis", [] { ops::einsum("....i", zeros({3, 4})); }, {"einsum", "ellipsis"});
  expect_error<ValueError>("arrows", [] { ops::einsum("i->i->i", zeros({3})); }, {"einsum", "'->'"});
  expect_error<ValueError>("none", [] { ops::einsum("", std::vector<Tensor>{}); }, {"einsum", "at least one"});
}

TEST(LinalgErrors, Decompositions) {
  expect_error<ValueError>("cholesky_pd", [] { ops::cholesky(make({1, 2, 2, 1}, {2, 2})); },
                           {"cholesky", "(2, 2)", "positive definite"});
  expect_error<ValueError>("cholesky_square", [] { ops::cholesky(zeros({2, 3})); }, {"cholesky", "(2, 3)", "square"});
  expect_error<ValueError>("det_rank", [] { ops::det(zeros({3})); }, {"det", "(3,)", "rank >= 2"});
  expect_error<ValueError>("inv_square", [] { ops::inv(zeros({2, 3, 4})); }, {"inv", "(2, 3, 4)"});
  expect_error<ValueError>("eigh_square", [] { ops::eigh(zeros({3, 4})); }, {"eigh", "(3, 4)"});
  expect_error<ValueError>("slogdet", [] { ops::slogdet(zeros({3, 4})); }, {"slogdet", "(3, 4)"});
  expect_error<ValueError>("logdet", [] { ops::logdet(zeros({4})); }, {"slogdet", "(4,)"});
  expect_error<ValueError>("qr_mode", [] { ops::qr(zeros({3, 3}), "r"); }, {"qr", "'r'"});
  expect_error<ValueError>("qr_rank", [] { ops::qr(zeros({3})); }, {"qr", "(3,)"});
  expect_error<ValueError>("svd_rank", [] { ops::svd(zeros({3})); }, {"svd", "(3,)"});
  expect_error<ValueError>("lu_rank", [] { ops::lu_factor(zeros({3})); }, {"lu_factor", "(3,)"});
  expect_error<ValueError>("pinv_rank", [] { ops::pinv(zeros({3})); }, {"pinv", "(3,)"});
  expect_error<ValueError>("matrix_rank", [] { ops::matrix_rank(zeros({3})); }, {"matrix_rank", "(3,)"});
  expect_error<ValueError>("matrix_power", [] { ops::matrix_power(zeros({2, 3}), 2); }, {"matrix_power", "(2, 3)"});
  expect_error<ValueError>("cholesky_inverse", [] { ops::cholesky_inverse(zeros({2, 3})); },
                           {"cholesky_inverse", "(2, 3)"});
}

TEST(LinalgErrors, Solvers) {
  expect_error<ValueError>("solve_rows", [] { ops::solve(zeros({3, 3}), zeros({4, 2})); },
                           {"solve", "(3, 3)", "(4, 2)"});
  expect_error<ValueError>("solve_vector", [] { ops::solve(zeros({3, 3}), zeros({4})); },
                           {"solve", "(3, 3)", "(4,)"});
  expect_error<ValueError>("solve_batch", [] { ops::solve(zeros({2, 3, 3}), zeros({4, 3, 1})); },
                           {"solve", "(2,)", "(4,)"});
  expect_error<ValueError>("solve_0d", [] { ops::solve(zeros({3, 3}), Tensor(1.0)); }, {"solve", "rank >= 1"});
  expect_error<ValueError>("solve_triangular", [] { ops::solve_triangular(zeros({3, 4}), zeros({3})); },
                           {"solve_triangular", "(3, 4)", "square"});
  expect_error<ValueError>("lstsq_rank", [] { ops::lstsq(zeros({2, 3, 3}), zeros({3})); }, {"lstsq", "(2, 3, 3)"});
  expect_error<ValueError>("lstsq_b", [] { ops::lstsq(zeros({3, 3}), zeros({2, 3, 3})); }, {"lstsq", "(2, 3, 3)"});
  expect_error<ValueError>("lstsq_rows", [] { ops::lstsq(zeros({4, 3}), zeros({3})); }, {"lstsq", "(4, 3)", "(3,)"});
  expect_error<ValueError>("backends", [] {
    ops::solve(zeros({2, 2}), Tensor::from_vector(std::vector<float>{1, 2}, {2}, "stub"));
  }, {"solve", "cpu", "stub"});
}

TEST(LinalgErrors, NormAndSequences) {
  expect_error<ValueError>("ord_string", [] { ops::NormOrd("max"); }, {"norm", "'max'"});
  expect_error<ValueError>("fro_vector", [] { ops::norm(zeros({4}), "fro"); }, {"norm", "'fro'", "(4,)"});
  expect_error<ValueError>("matrix_ord", [] { ops::norm(zeros({3, 4}), 3); }, {"norm", "ord=3", "(3, 4)"});
  expect_error<ValueError>("rank3_ord", [] { ops::norm(zeros({2, 3, 4}), 2); }, {"norm", "(2, 3, 4)"});
  expect_error<ValueError>("three_axes", [] { ops::norm(zeros({2, 3, 4}), {}, {0, 1, 2}); }, {"norm", "(2, 3, 4)"});
  expect_error<ValueError>("same_axes", [] { ops::norm(zeros({2, 3}), {}, {1, -1}); }, {"norm", "differ"});
  expect_error<ValueError>("axis_range", [] { ops::norm(zeros({2, 3}), {}, 2); }, {"norm", "axis 2"});
  expect_error<ValueError>("seq_rank", [] { ops::extract_sequences(Tensor(1.0), 1, 1); },
                           {"extract_sequences", "()"});
  expect_error<ValueError>("seq_stride", [] { ops::extract_sequences(zeros({5}), 2, 0); },
                           {"extract_sequences", "0"});
  expect_error<ValueError>("cdist_dims", [] { ops::cdist(zeros({3, 4}), zeros({2, 5})); }, {"cdist", "(3, 4)", "(2, 5)"});
  expect_error<ValueError>("cdist_rank", [] { ops::cdist(zeros({4}), zeros({2, 4})); }, {"cdist", "(4,)"});
  expect_error<ValueError>("cdist_batch", [] { ops::cdist(zeros({2, 3, 4}), zeros({3, 3, 4})); }, {"cdist", "(2,)", "(3,)"});
  expect_error<ValueError>("cdist_p", [] { ops::cdist(zeros({3, 4}), zeros({2, 4}), -1); }, {"cdist", "-1"});
  expect_error<ValueError>("jvp_shapes", [] {
    ops::jvp([](const Tensor& x) { return x; }, zeros({3}), zeros({4}));
  }, {"jvp", "(4,)", "(3,)"});
}

TEST(LinalgErrors, QrCompleteTallGradient) {
  // Q's extra columns are not unique: the gradient refuses, naming the shape.
  expect_error<ValueError>("qr_grad", [] {
    Tensor x = make({1, 2, 3, 4, 5, 7}, {3, 2}, DType::Float64);
    keras::grad([](const Tensor& a) { return ops::sum(ops::qr(a, "complete").first); }, x);
  }, {"qr", "(3, 2)", "mode='reduced'"});
}

}  // namespace
}  // namespace keras
