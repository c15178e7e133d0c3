#pragma once
// keras::TensorStruct: what fit/evaluate/predict take for x, y and sample_weight, as Keras
// takes an array, a list of arrays (one per model input or output) or a dict keyed by
// input/output name. An undefined struct stands for Keras's None.

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras {

/// One tensor, a list of tensors, or tensors by name; every tensor's first axis is the
/// sample axis.
class TensorStruct {
 public:
  enum class Kind { None, Single, List, Map };

  TensorStruct() = default;
  TensorStruct(Tensor t);                                  // NOLINT
  TensorStruct(TensorList list);                           // NOLINT
  TensorStruct(std::initializer_list<Tensor> list);        // NOLINT
  TensorStruct(std::map<std::string, Tensor> by_name);     // NOLINT

  Kind kind() const { return kind_; }
  bool defined() const { return kind_ != Kind::None; }
  /// The tensors in order (map entries sorted by name).
  TensorList flat() const;
  /// The single tensor; ValueError for a list or map of more than one.
  const Tensor& single() const;
  const TensorList& list() const { return list_; }
  const std::map<std::string, Tensor>& map() const { return map_; }
  size_t size() const;

  /// The number of samples (first axis), checked equal across tensors.
  int64_t num_samples(const char* what) const;
  /// Samples [start, stop) of every tensor.
  TensorStruct slice(int64_t start, int64_t stop) const;
  /// The samples at `indices` (an int64 1-d tensor), in that order.
  TensorStruct take(const Tensor& indices) const;
  /// The same structure holding `tensors` (in flat() order).
  TensorStruct with_flat(const TensorList& tensors) const;

 private:
  Kind kind_ = Kind::None;
  TensorList list_;
  std::map<std::string, Tensor> map_;
};

}  // namespace keras

#pragma GCC visibility pop
