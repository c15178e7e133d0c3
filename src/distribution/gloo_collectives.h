#pragma once
// Gloo's collectives over TCP (built when CMake finds libgloo-dev: KERAS_WITH_GLOO).

#include <chrono>
#include <memory>
#include <string>

#include "distribution/rendezvous.h"
#include "keras/distribution/collectives.h"

namespace keras::distribution::detail {

/// Connects process `rank` of `size` to every other through Gloo's TCP transport, its own end
/// bound to `own_host`, the addresses exchanged through `rendezvous`. Every collective fails
/// after `timeout` with an error naming the collective and the processes that have gone.
std::unique_ptr<Collectives> make_gloo_collectives(RendezvousClient& rendezvous, int rank,
                                                   int size, const std::string& own_host,
                                                   std::chrono::milliseconds timeout);

}  // namespace keras::distribution::detail
