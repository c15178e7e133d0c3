#pragma once
// The state of the job this process joined (runtime.cpp owns it).

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "distribution/rendezvous.h"
#include "keras/distribution/collectives.h"

namespace keras::distribution::detail {

struct Job {
  std::mutex mutex;
  bool initialized = false;
  int rank = 0;
  int size = 1;
  std::string addresses;
  std::chrono::milliseconds timeout{120000};
  std::unique_ptr<RendezvousServer> server;      // process 0 only
  std::unique_ptr<RendezvousClient> rendezvous;  // every process of a multi-process job
  std::unique_ptr<Collectives> collectives;
};

Job& job();

}  // namespace keras::distribution::detail
