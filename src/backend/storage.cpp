#include "keras/backend/storage.h"

#include "keras/backend/backend.h"

namespace keras::backend {

Storage::Storage(Backend* backend, void* data, size_t nbytes)
    : backend_(backend), data_(data), nbytes_(nbytes) {}

Storage::Storage(Backend* backend, void* data, size_t nbytes, Deleter deleter, void* context)
    : backend_(backend), data_(data), nbytes_(nbytes), deleter_(deleter), context_(context) {}

Storage::~Storage() {
  if (deleter_) {
    deleter_(context_, data_, nbytes_);
  } else if (data_) {
    backend_->deallocate(data_, nbytes_);
  }
}

bool Array::is_contiguous() const {
  int64_t expected = 1;
  for (int i = shape.rank() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

}  // namespace keras::backend
