// The template for a new backend: memory works (host memory, so tensors can be made and read),
// and every primitive throws NotImplementedError naming itself. Implementing the primitives
// one by one, with the conformance suite as the checklist, gives a working backend; the fused
// capabilities are optional (supports() returns false, so the front end decomposes).

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "backend/builtin_backends.h"
#include "keras/backend/backend.h"

namespace keras::stub {

using backend::Array;

class StubBackend final : public backend::Backend {
 public:
  std::string_view name() const override { return "stub"; }
  std::string device() const override { return "cpu:0"; }
  bool is_host() const override { return true; }

  Ref<backend::Storage> allocate(size_t nbytes) override {
    void* p = nbytes ? std::aligned_alloc(64, (nbytes + 63) / 64 * 64) : nullptr;
    if (nbytes && !p) throw std::bad_alloc();
    return make_ref<backend::Storage>(this, p, nbytes);
  }
  void deallocate(void* data, size_t) override { std::free(data); }
  void copy_from_host(backend::Storage& dst, size_t off, const void* src, size_t n) override {
    if (n) std::memcpy(static_cast<char*>(dst.data()) + off, src, n);
  }
  void copy_to_host(void* dst, const backend::Storage& src, size_t off, size_t n) override {
    if (n) std::memcpy(dst, static_cast<const char*>(src.data()) + off, n);
  }

  void fill(const Array&, const Scalar&) override { unsupported("the primitive 'fill'"); }
  void arange(const Array&, double, double) override { unsupported("the primitive 'arange'"); }
  void random(const Array&, backend::RandomKind kind, uint64_t, uint64_t) override {
    unsupported("the primitive 'random(" + std::string(backend::name_of(kind)) + ")'");
  }
  void copy(const Array&, const Array&, backend::CopyMode) override {
    unsupported("the primitive 'copy'");
  }
  void unary(backend::UnaryOp op, const Array&, const Array&, double, double) override {
    unsupported("the primitive 'unary(" + std::string(backend::name_of(op)) + ")'");
  }
  void binary(backend::BinaryOp op, const Array&, const Array&, const Array&) override {
    unsupported("the primitive 'binary(" + std::string(backend::name_of(op)) + ")'");
  }
  void where(const Array&, const Array&, const Array&, const Array&) override {
    unsupported("the primitive 'where'");
  }
  void reduce(backend::ReduceOp op, const Array&, const Array&, uint64_t) override {
    unsupported("the primitive 'reduce(" + std::string(backend::name_of(op)) + ")'");
  }
  void arg_reduce(backend::ArgReduceOp op, const Array&, const Array&, int) override {
    unsupported("the primitive 'arg_reduce(" + std::string(backend::name_of(op)) + ")'");
  }
  void scan(backend::ScanOp op, const Array&, const Array&, int) override {
    unsupported("the primitive 'scan(" + std::string(backend::name_of(op)) + ")'");
  }
  void sort(const Array&, const Array&, const Array&, bool) override {
    unsupported("the primitive 'sort'");
  }
  void gather(const Array&, const Array&, const Array&, int) override {
    unsupported("the primitive 'gather'");
  }
  void scatter(const Array&, const Array&, const Array&, int, backend::ScatterReduce) override {
    unsupported("the primitive 'scatter'");
  }
  void matmul(const Array&, const Array&, const Array&) override {
    unsupported("the primitive 'matmul'");
  }
};

}  // namespace keras::stub

namespace keras::backend::detail {

std::unique_ptr<Backend> make_stub_backend() { return std::make_unique<stub::StubBackend>(); }

}  // namespace keras::backend::detail
