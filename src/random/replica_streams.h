#pragma once
// Per-replica random streams for data-parallel training: while a ReplicaStreamScope lives on a
// thread, every draw from a SeedGenerator or the global generator on that thread takes its seed
// offset by the replica number, so dropout and noise differ between the processes of a job while
// each stays reproducible. Integer (stateless) seeds are left alone, as in Keras.

#include <cstdint>

namespace keras::random::detail {

class ReplicaStreamScope {
 public:
  explicit ReplicaStreamScope(int replica);
  ~ReplicaStreamScope();
  ReplicaStreamScope(const ReplicaStreamScope&) = delete;
  ReplicaStreamScope& operator=(const ReplicaStreamScope&) = delete;

 private:
  uint64_t previous_;
};

}  // namespace keras::random::detail
