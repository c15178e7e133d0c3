#include "keras/trainers/tensor_struct.h"

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras {

TensorStruct::TensorStruct(Tensor t) {
  if (!t.defined()) return;
  kind_ = Kind::Single;
  list_ = {std::move(t)};
}

TensorStruct::TensorStruct(TensorList list) : kind_(Kind::List), list_(std::move(list)) {
  for (const Tensor& t : list_)
    check(t.defined(), "A list of tensors for fit/evaluate/predict holds an undefined tensor.");
}

TensorStruct::TensorStruct(std::initializer_list<Tensor> list) : TensorStruct(TensorList(list)) {}

TensorStruct::TensorStruct(std::map<std::string, Tensor> by_name)
    : kind_(Kind::Map), map_(std::move(by_name)) {
  for (const auto& [name, t] : map_)
    check(t.defined(), "The tensor for '", name, "' is undefined.");
}

TensorList TensorStruct::flat() const {
  if (kind_ != Kind::Map) return list_;
  TensorList out;
  for (const auto& [name, t] : map_) out.push_back(t);
  return out;
}

size_t TensorStruct::size() const { return kind_ == Kind::Map ? map_.size() : list_.size(); }

const Tensor& TensorStruct::single() const {
  check(size() == 1, "Expected a single tensor; got ", size(), ".");
  return kind_ == Kind::Map ? map_.begin()->second : list_[0];
}

int64_t TensorStruct::num_samples(const char* what) const {
  int64_t n = -1;
  for (const Tensor& t : flat()) {
    check(t.ndim() >= 1, what, ": every tensor needs a sample axis; got a tensor of shape ",
          t.shape(), ".");
    if (n < 0) n = t.shape()[0];
    check(t.shape()[0] == n, what, ": all tensors need the same number of samples; got ", n,
          " and ", t.shape()[0], ".");
  }
  return n < 0 ? 0 : n;
}

TensorStruct TensorStruct::with_flat(const TensorList& tensors) const {
  TensorStruct out = *this;
  if (kind_ == Kind::Map) {
    size_t i = 0;
    for (auto& [name, t] : out.map_) t = tensors[i++];
  } else {
    out.list_ = tensors;
  }
  return out;
}

TensorStruct TensorStruct::slice(int64_t start, int64_t stop) const {
  TensorList parts;
  for (const Tensor& t : flat()) parts.push_back(t.slice({{start, stop}}));
  return with_flat(parts);
}

TensorStruct TensorStruct::take(const Tensor& indices) const {
  TensorList parts;
  for (const Tensor& t : flat()) parts.push_back(ops::take(t, indices, 0));
  return with_flat(parts);
}

}  // namespace keras
