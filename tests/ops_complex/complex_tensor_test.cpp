// Complex tensors themselves: dtypes, host values, printing as NumPy prints them, views that
// share memory, every layout of the parts, and the clear errors of ops that take no complex
// input.

#include <gtest/gtest.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "assertions.h"
#include "keras/keras.h"

namespace keras {
namespace {

using C64 = std::complex<float>;
using C128 = std::complex<double>;

TEST(ComplexTensor, DtypesAndHostValues) {
  EXPECT_EQ(dtype_from_string("complex64"), DType::Complex64);
  EXPECT_EQ(dtype_name(DType::Complex128), "complex128");
  EXPECT_EQ(itemsize(DType::Complex64), 8u);
  EXPECT_EQ(itemsize(DType::Complex128), 16u);
  EXPECT_EQ(complex_part_dtype(DType::Complex64), DType::Float32);
  Tensor z = Tensor::from_vector(std::vector<C64>{{1, 2}, {3, -4}}, {2});
  EXPECT_EQ(z.dtype(), DType::Complex64);
  EXPECT_EQ(z.to_vector<C64>()[1], C64(3, -4));
  EXPECT_EQ(z.to_vector<C128>()[0], C128(1, 2));
  EXPECT_EQ(z[1].item<C64>(), C64(3, -4));
  // A real read of complex values keeps the real parts, as NumPy's astype does.
  EXPECT_EQ(z.to_vector<double>(), (std::vector<double>{1, 3}));
  EXPECT_TENSOR_EQ(ops::zeros_like(z), Tensor::from_vector(std::vector<C64>{{0, 0}, {0, 0}}, {2}));
  EXPECT_TENSOR_EQ(ops::ones({2}, DType::Complex128),
                   Tensor::from_vector(std::vector<C128>{{1, 0}, {1, 0}}, {2}));
  EXPECT_EQ(ops::add(z, 1.5).dtype(), DType::Complex64);  // a C++ literal adapts, as in Keras
  EXPECT_EQ(ops::multiply(z, ops::ones({2}, DType::Float64)).dtype(), DType::Complex128);
}

// The strings are numpy.array2string(a, separator=", ") of the same arrays (NumPy 2.3).
TEST(ComplexTensor, PrintsLikeNumpy) {
  EXPECT_EQ(to_string(Tensor::from_vector(std::vector<C64>{{1, 2}, {3.5, -4}}, {2})),
            "tensor([1. +2.j, 3.5-4.j], dtype=complex64)");
  EXPECT_EQ(to_string(Tensor::from_vector(
                std::vector<C128>{{0.5, -0.25}, {-2, 0}, {1e-3, 100}, {3, 0}}, {2, 2})),
            "tensor([[ 5.e-01  -0.25j, -2.e+00  +0.j  ],\n"
            "        [ 1.e-03+100.j  ,  3.e+00  +0.j  ]], dtype=complex128)");
  EXPECT_EQ(to_string(Tensor::from_vector(std::vector<C64>{{1, -1}}, {})),
            "tensor(1.-1.j, dtype=complex64)");
  EXPECT_EQ(to_string(Tensor::from_vector(std::vector<C64>{{1e9, 1}, {2, -3}}, {2})),
            "tensor([1.e+09+1.j, 2.e+00-3.j], dtype=complex64)");
  // The float rule the complex parts share: a range wider than 1e3 is scientific.
  EXPECT_EQ(to_string(Tensor::from_vector(std::vector<float>{0.001f, 2.0f}, {2})),
            "tensor([1.e-03, 2.e+00], dtype=float32)");
}

TEST(ComplexTensor, ViewsShareMemoryAndEveryLayoutReads) {
  std::vector<C64> values;
  for (int i = 0; i < 12; ++i) values.emplace_back(static_cast<float>(i), static_cast<float>(-i));
  Tensor z = Tensor::from_vector(values, {3, 4});
  Tensor r = ops::view_as_real(z);
  EXPECT_EQ(r.shape(), Shape({3, 4, 2}));
  EXPECT_EQ(r.array().storage.get(), z.array().storage.get());  // no copy
  EXPECT_TRUE(ops::view_as_complex(r).is_contiguous());
  EXPECT_EQ(ops::view_as_complex(r).array().storage.get(), z.array().storage.get());
  // A strided, transposed complex view: its pairs, and a copy that makes it contiguous.
  Tensor t = z.slice({{}, {1, None, 2}}).transpose();  // (2, 3): columns 1 and 3
  EXPECT_EQ(t.to_vector<C64>(), (std::vector<C64>{{1, -1}, {5, -5}, {9, -9}, {3, -3}, {7, -7},
                                                  {11, -11}}));
  EXPECT_EQ(ops::view_as_real(t).to_vector<float>()[3], -5.0f);
  // Real pairs that are not adjacent in memory (the pair axis is not the last in memory).
  Tensor split = ops::transpose(ops::reshape(ops::arange(0, 6, 1, DType::Float32), {2, 3}));
  EXPECT_EQ(ops::view_as_complex(split).to_vector<C64>(),
            (std::vector<C64>{{0, 3}, {1, 4}, {2, 5}}));
  EXPECT_EQ(ops::reshape(t, {6}).to_vector<C64>(), t.to_vector<C64>());
}

// pad copies the pairs into a filled tensor: constant (real) fill, and the edge mode's
// repeated elements, as NumPy pads complex arrays.
TEST(ComplexTensor, Pads) {
  Tensor z = Tensor::from_vector(std::vector<C64>{{1, 2}, {3, -4}}, {2});
  EXPECT_EQ(ops::pad(z, {{1, 2}}, "constant", 5).to_vector<C64>(),
            (std::vector<C64>{{5, 0}, {1, 2}, {3, -4}, {5, 0}, {5, 0}}));
  EXPECT_EQ(ops::pad(z, {{2, 1}}, "edge").to_vector<C64>(),
            (std::vector<C64>{{1, 2}, {1, 2}, {1, 2}, {3, -4}, {3, -4}}));
}

TEST(ComplexTensor, NpyFilesAsNumpyWritesThem) {
  // complex64.npy, big_endian_c16.npy and fortran_c8.npy are checked against reference.npz by
  // Npy.LoadsEveryLayoutNumpyWrites (tests/utils); here keras-cpp's own file is NumPy's format.
  Tensor z = Tensor::from_vector(std::vector<C128>{{1, 2}, {-3, 0.5}}, {2});
  auto path = std::filesystem::temp_directory_path() / "kc_complex.npy";
  utils::save_npy(path.string(), z);
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  EXPECT_NE(bytes.find("'descr': '<c16'"), std::string::npos);
  const double expected[4] = {1, 2, -3, 0.5};
  EXPECT_EQ(bytes.compare(bytes.size() - sizeof expected, sizeof expected,
                          reinterpret_cast<const char*>(expected), sizeof expected),
            0);
  EXPECT_TENSOR_EQ(utils::load_npy(path.string()), z);
  std::filesystem::remove(path);
}

TEST(ComplexTensor, OpsWithoutComplexSupportSayWhich) {
  Tensor z = Tensor::from_vector(std::vector<C64>{{1, 2}, {3, -4}}, {2});
  auto message = [](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const TypeError& e) {
      return e.what();
    }
    return "no TypeError";
  };
  EXPECT_NE(message([&] { ops::erf(z); }).find("erf does not take complex64"),
            std::string::npos);
  EXPECT_NE(message([&] { ops::floor(z); }).find("floor does not take complex64"),
            std::string::npos);
  EXPECT_NE(message([&] { ops::mod(z, z); }).find("mod does not take complex64"),
            std::string::npos);
  EXPECT_NE(message([&] { ops::argmax(z); }).find("does not take complex64 tensors"),
            std::string::npos);  // JAX (so Keras) refuses it too
  EXPECT_NE(message([&] { ops::clip(z, 0, 1); }).find("clip does not take complex64"),
            std::string::npos);
  EXPECT_NE(message([&] { ops::i0(z); }).find("i0 does not take complex64"),
            std::string::npos);  // JAX casts the imaginary part away
  EXPECT_NE(message([&] { ops::relu(z); }).find("relu does not take complex64"),
            std::string::npos);  // the activations name themselves, not a kernel
  EXPECT_NE(message([&] {
              layers::Dense(2, {.activation = "gelu"})(ops::reshape(z, {1, 2}));
            }).find("gelu does not take complex64"),
            std::string::npos);
  EXPECT_THROW(ops::view_as_complex(ops::ones({3, 3})), ValueError);
  EXPECT_THROW(ops::view_as_complex(z), TypeError);
  EXPECT_THROW(ops::polar(z, z), TypeError);
  GradientTape tape;
  Tensor m = ops::ones({2, 2});
  tape.watch(m);
  EXPECT_THROW(ops::eig(m), NotImplementedError);
}

// The eigen-equation A v = w v for every pair, and unit vectors: the properties that hold on
// every backend and LAPACK build (MatchesKeras compares the values themselves).
// scipy.special.logsumexp (so JAX's) of nothing is -inf, for complex input -inf + 0j.
TEST(ComplexTensor, LogsumexpOfNothingIsMinusInfinity) {
  Tensor z = ops::cast(ops::zeros({2, 0}), DType::Complex64);
  const std::vector<C64> got = ops::logsumexp(z, 1).to_vector<C64>();
  ASSERT_EQ(got.size(), 2u);
  for (const C64& v : got) {
    EXPECT_EQ(v.real(), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(v.imag(), 0.0f);
  }
}

TEST(ComplexTensor, EigSatisfiesTheEigenEquation) {
  Tensor a = Tensor::from_vector(std::vector<double>{2, -1, 0, 4, 1, 3, 0, -2, 5, 1, 1, 0,
                                                     0.5, 2, -3, 1},
                                 {4, 4});
  auto [w, v] = ops::eig(a);
  ASSERT_EQ(w.dtype(), DType::Complex128);
  Tensor av = ops::matmul(ops::cast(a, DType::Complex128), v);
  Tensor vw = ops::multiply(v, ops::expand_dims(w, 0));
  EXPECT_TRUE(test::tensors_near(av, vw, 1e-10, 1e-10, true));
  Tensor norms = ops::sum(ops::square(ops::abs(v)), 0);
  EXPECT_TRUE(test::tensors_near(norms, ops::ones({4}, DType::Float64), 1e-12, 1e-12, true));
}

}  // namespace
}  // namespace keras
