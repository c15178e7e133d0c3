#include "tensor/string_backend.h"

#include <string>
#include <vector>

#include "keras/core/errors.h"

namespace keras::detail {
namespace {

using backend::Array;

int64_t index_at(const Array& index, int64_t offset) {
  const void* base = index.storage->data();
  return index.dtype == DType::Int32 ? static_cast<const int32_t*>(base)[offset]
                                     : static_cast<const int64_t*>(base)[offset];
}

class StringBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "strings"; }
  std::string device() const override { return "cpu:0"; }
  bool is_host() const override { return true; }

  // Storage is an array of constructed std::string objects (nbytes / sizeof(std::string) of
  // them), destroyed with it.
  Ref<backend::Storage> allocate(size_t nbytes) override {
    const size_t n = nbytes / sizeof(std::string);
    std::string* p = n ? new std::string[n] : nullptr;
    return make_ref<backend::Storage>(this, p, nbytes);
  }
  void deallocate(void* data, size_t) override { delete[] static_cast<std::string*>(data); }
  // Raw bytes of std::string objects mean nothing outside this process's heap.
  void copy_from_host(backend::Storage&, size_t, const void*, size_t) override { refuse(); }
  void copy_to_host(void*, const backend::Storage&, size_t, size_t) override { refuse(); }

  void copy(const Array& dst, const Array& src, backend::CopyMode mode) override {
    if (dst.dtype != DType::String || src.dtype != DType::String ||
        mode != backend::CopyMode::Assign || !is_string_backend(src.storage->owner()))
      refuse();
    const std::vector<int64_t> to = strided_offsets(dst), from = strided_offsets(src);
    auto* d = static_cast<std::string*>(dst.storage->data());
    const auto* s = static_cast<const std::string*>(src.storage->data());
    for (size_t k = 0; k < to.size(); ++k) d[to[k]] = s[from[k]];
  }

  void fill(const Array&, const Scalar&) override { refuse(); }
  void arange(const Array&, double, double) override { refuse(); }
  void random(const Array&, backend::RandomKind, uint64_t, uint64_t) override { refuse(); }
  void unary(backend::UnaryOp, const Array&, const Array&, double, double) override { refuse(); }
  void binary(backend::BinaryOp, const Array&, const Array&, const Array&) override { refuse(); }
  void where(const Array&, const Array&, const Array&, const Array&) override { refuse(); }
  void reduce(backend::ReduceOp, const Array&, const Array&, uint64_t) override { refuse(); }
  void arg_reduce(backend::ArgReduceOp, const Array&, const Array&, int) override { refuse(); }
  void scan(backend::ScanOp, const Array&, const Array&, int) override { refuse(); }
  void sort(const Array&, const Array&, const Array&, bool) override { refuse(); }
  // take / take_along_axis on strings (what fit's shuffling does to string inputs). The index
  // lives on a numeric host backend; the front end has checked its range.
  void gather(const Array& out, const Array& x, const Array& index, int axis) override {
    if (x.dtype != DType::String || !index.storage->owner().is_host() ||
        (index.dtype != DType::Int32 && index.dtype != DType::Int64))
      refuse();
    const std::vector<int64_t> out_at = strided_offsets(out), index_of = strided_offsets(index);
    auto* o = static_cast<std::string*>(out.storage->data());
    const auto* src = static_cast<const std::string*>(x.storage->data());
    std::vector<int64_t> pos(static_cast<size_t>(out.rank()), 0);
    for (size_t k = 0; k < out_at.size(); ++k) {
      int64_t from = x.offset;
      for (int d = 0; d < out.rank(); ++d) {
        const int64_t i = d == axis ? index_at(index, index_of[k]) : pos[static_cast<size_t>(d)];
        from += i * x.strides[d];
      }
      o[out_at[k]] = src[from];
      for (int d = out.rank() - 1; d >= 0; --d) {
        if (++pos[static_cast<size_t>(d)] < out.shape[d]) break;
        pos[static_cast<size_t>(d)] = 0;
      }
    }
  }
  void scatter(const Array&, const Array&, const Array&, int, backend::ScatterReduce) override {
    refuse();
  }
  void matmul(const Array&, const Array&, const Array&) override { refuse(); }
  void svd(const Array&, const Array&, const Array&, const Array&, bool) override { refuse(); }
  void eigh(const Array&, const Array&, const Array&, bool) override { refuse(); }
  bool eig(const Array&, const Array&, const Array&) override { refuse(); }

 private:
  [[noreturn]] static void refuse() { throw_string_not_supported(); }
};

}  // namespace

std::vector<int64_t> strided_offsets(const Array& a) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(a.numel()));
  std::vector<int64_t> index(static_cast<size_t>(a.rank()), 0);
  int64_t at = a.offset;
  for (int64_t k = 0; k < a.numel(); ++k) {
    out.push_back(at);
    for (int axis = a.rank() - 1; axis >= 0; --axis) {
      at += a.strides[axis];
      if (++index[static_cast<size_t>(axis)] < a.shape[axis]) break;
      at -= a.strides[axis] * a.shape[axis];
      index[static_cast<size_t>(axis)] = 0;
    }
  }
  return out;
}

backend::Backend& string_backend() {
  static StringBackend* backend = new StringBackend();  // never destroyed: tensors may outlive
  return *backend;                                      // static destruction order
}

bool is_string_backend(const backend::Backend& b) {
  return &b == &string_backend();
}

}  // namespace keras::detail
