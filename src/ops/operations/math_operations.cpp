// The op classes of keras.src.ops.math that keras-cpp implements (keras/ops/operation.h).
//
// Not here: FFT, FFT2, IFFT2, RFFT, IRFFT, STFT and ISTFT (keras-cpp has no Fourier transforms)
// and ViewAsComplex, ViewAsReal (complex dtypes).

#include "keras/ops/math.h"
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
      });
}

}  // namespace keras::ops::detail
