#include "stream.h"

namespace keras::cuda {
namespace {
thread_local cudaStream_t current = nullptr;
}  // namespace

cudaStream_t launch_stream() {
  return current;
}
void set_launch_stream(cudaStream_t stream) {
  current = stream;
}

}  // namespace keras::cuda
