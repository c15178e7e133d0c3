// The op classes of keras.src.ops.math that keras-cpp implements (keras/ops/operation.h).
//
// The Fourier ops take and return complex values as (real, imag) lists, as Keras's do.

#include "keras/ops/math.h"
#include "keras/ops/math/fourier.h"
#include "ops/operations/operation_tables.h"

namespace keras::ops::detail {
namespace {

constexpr const char* kModule = "keras.src.ops.math";

OperationSpec op(std::string name, std::function<Tensor(const OperationCall&)> f) {
  return one_output(std::move(name), kModule, std::move(f));
}

OperationSpec unary(std::string name, Tensor (*f)(const Tensor&)) {
  return unary_op(std::move(name), kModule, f);
}

// SegmentSum, SegmentMax, ...: SegmentReduction(num_segments, sorted), call(data, segment_ids).
OperationSpec segment(std::string name,
                      Tensor (*f)(const Tensor&, const Tensor&, std::optional<int64_t>, bool)) {
  return op(std::move(name), [f](const OperationCall& c) {
    return f(c.tensor(0), c.tensor(1), c.optional_integer("num_segments"), c.flag("sorted", false));
  });
}

int64_t required_integer(const OperationCall& c, const std::string& name) {
  if (c.attr(name).is_null()) c.fail("the argument " + name + " is required.");
  return c.integer(name, 0);
}

// The (real, imag) list argument of FFT, IRFFT, ISTFT, ...
ComplexPair complex_arg(const OperationCall& c) {
  TensorList parts = c.tensors(0);
  if (parts.size() != 2) c.fail("x must be a (real, imaginary) pair of tensors.");
  return {parts[0], parts[1]};
}

TensorList pair(const ComplexPair& x) {
  return {x.first, x.second};
}

OperationSpec complex_op(std::string name, ComplexPair (*f)(const ComplexPair&)) {
  return {std::move(name), kModule,
          [f](const OperationCall& c) { return pair(f(complex_arg(c))); }};
}

// STFT's and ISTFT's window: "hann" when absent, a name, null (none) or a list of numbers.
StftWindow window_arg(const OperationCall& c) {
  if (!c.has("window")) return "hann";
  Config w = c.attr("window");
  if (w.is_null()) return nullptr;
  if (w.is_string()) return w.get<std::string>();
  auto values = w.get<std::vector<double>>();
  return Tensor::from_vector(values, Shape{static_cast<int64_t>(values.size())});
}

}  // namespace

void add_math_operations(OperationTable& table) {
  table.insert(
      table.end(),
      {
          segment("SegmentSum", segment_sum),
          segment("SegmentMax", segment_max),
          segment("SegmentMin", segment_min),
          segment("SegmentProd", segment_prod),
          {"TopK", kModule,
           [](const OperationCall& c) {
             auto [values, indices] =
                 top_k(c.tensor(0), required_integer(c, "k"), c.flag("sorted", true));
             return TensorList{values, indices};
           }},
          op("InTopK",
             [](const OperationCall& c) {
               return in_top_k(c.tensor(0), c.tensor(1), required_integer(c, "k"));
             }),
          op("Logsumexp",
             [](const OperationCall& c) {
               auto axes = c.axes("axis");
               return logsumexp(c.tensor(0), axes ? Axes(*axes) : Axes(),
                                c.flag("keepdims", false));
             }),
          // Keras's CDist has no order argument: always the Euclidean distance.
          op("CDist", [](const OperationCall& c) { return cdist(c.tensor(0), c.tensor(1)); }),
          op("ExtractSequences",
             [](const OperationCall& c) {
               return extract_sequences(c.tensor(0), required_integer(c, "sequence_length"),
                                        required_integer(c, "sequence_stride"));
             }),
          unary("Rsqrt", rsqrt),
          unary("Erf", erf),
          unary("Erfc", erfc),
          unary("Erfinv", erfinv),
          unary("Logdet", logdet),
          unary("ViewAsComplex", view_as_complex),
          unary("ViewAsReal", view_as_real),
          complex_op("FFT", fft),
          complex_op("FFT2", fft2),
          complex_op("IFFT2", ifft2),
          {"RFFT", kModule,
           [](const OperationCall& c) {
             return pair(rfft(c.tensor(0), c.optional_integer("fft_length")));
           }},
          op("IRFFT",
             [](const OperationCall& c) {
               return irfft(complex_arg(c), c.optional_integer("fft_length"));
             }),
          {"STFT", kModule,
           [](const OperationCall& c) {
             return pair(stft(c.tensor(0), required_integer(c, "sequence_length"),
                              required_integer(c, "sequence_stride"),
                              required_integer(c, "fft_length"), window_arg(c),
                              c.flag("center", true)));
           }},
          op("ISTFT",
             [](const OperationCall& c) {
               return istft(complex_arg(c), required_integer(c, "sequence_length"),
                            required_integer(c, "sequence_stride"),
                            required_integer(c, "fft_length"), c.optional_integer("length"),
                            window_arg(c), c.flag("center", true));
             }),
      });
}

}  // namespace keras::ops::detail
