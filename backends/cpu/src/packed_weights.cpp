#include "packed_weights.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace keras::cpu {
namespace {

struct Entry {
  Ref<backend::Storage> storage;
  int64_t offset;
  Shape shape;
  std::shared_ptr<const PackedInt8Matrix> packed;

  bool matches(const backend::Array& b, Int8Kernel kernel) const {
    return storage.get() == b.storage.get() && offset == b.offset && shape == b.shape &&
           packed->kernel == kernel;
  }
};

class Cache {
 public:
  std::shared_ptr<const PackedInt8Matrix> get(const backend::Array& b) {
    const Int8Kernel kernel = int8_kernel_for_isa();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      drop_unreferenced();
      for (const Entry& e : entries_)
        if (e.matches(b, kernel)) return e.packed;
    }
    // Packed outside the lock (it runs on the thread pool); a concurrent first call for the same
    // buffer packs it too, and the first to finish is kept.
    auto packed = std::make_shared<const PackedInt8Matrix>(
        pack_int8_matrix(b.data_as<int8_t>(), b.shape[0], b.shape[1]));
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Entry& e : entries_)
      if (e.matches(b, kernel)) return e.packed;
    entries_.push_back({b.storage, b.offset, b.shape, packed});
    return packed;
  }

  size_t bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    drop_unreferenced();
    size_t total = 0;
    for (const Entry& e : entries_) total += e.packed->bytes();
    return total;
  }

 private:
  // Entries whose Storage only the cache still holds: their tensor is gone.
  void drop_unreferenced() {
    std::erase_if(entries_, [](const Entry& e) { return e.storage->use_count() == 1; });
  }

  std::mutex mutex_;
  std::vector<Entry> entries_;  // one per quantized kernel in use: a short list
};

// Never destroyed: entries hold Storages, which must not be freed after their backend at exit.
Cache& cache() {
  static Cache* instance = new Cache;
  return *instance;
}

}  // namespace

std::shared_ptr<const PackedInt8Matrix> packed_int8_weights(const backend::Array& b) {
  return cache().get(b);
}

size_t packed_int8_weights_bytes() { return cache().bytes(); }

}  // namespace keras::cpu
