#pragma once
// Host round trips for the metrics whose updates are counted on the host (confusion matrices,
// IoU): values as float64 vectors, and back as tensors of the metric's dtype.

#include <sstream>
#include <string>
#include <vector>

#include "keras/ops/ops.h"
#include "keras/tensor/tensor.h"

namespace keras::metrics::detail {

inline std::vector<double> host(const Tensor& x) { return x.to_vector<double>(); }

inline Tensor device(const std::vector<double>& values, const Shape& shape, DType dtype) {
  return ops::cast(Tensor::from_vector(values, shape), dtype);
}

inline std::string shape_str(const Shape& s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

}  // namespace keras::metrics::detail
