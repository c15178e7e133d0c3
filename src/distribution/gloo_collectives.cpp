#include "distribution/gloo_collectives.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/common/error.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/transport/tcp/device.h>

#include <mutex>
#include <thread>

#include "keras/core/errors.h"

namespace keras::distribution::detail {
namespace {

// Gloo's rendezvous store on the coordinator's key-value service.
class StoreAdapter : public gloo::rendezvous::Store {
 public:
  StoreAdapter(RendezvousClient& client, std::chrono::milliseconds timeout)
      : client_(client), timeout_(timeout) {}
  void set(const std::string& key, const std::vector<char>& data) override {
    client_.set("gloo/" + key, data);
  }
  std::vector<char> get(const std::string& key) override {
    auto value = client_.get("gloo/" + key, timeout_);
    if (!value) GLOO_THROW_IO_EXCEPTION("timed out waiting for key ", key);
    return *value;
  }
  void wait(const std::vector<std::string>& keys) override { wait(keys, timeout_); }
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override {
    for (const auto& k : keys)
      if (!client_.get("gloo/" + k, timeout))
        GLOO_THROW_IO_EXCEPTION("timed out waiting for key ", k);
  }

 private:
  RendezvousClient& client_;
  std::chrono::milliseconds timeout_;
};

template <typename T>
void sum_into(gloo::AllreduceOptions& options, void* data, size_t count) {
  options.setOutput(static_cast<T*>(data), count);
  options.setReduceFunction(
      static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<T>));
}

class GlooCollectives : public Collectives {
 public:
  GlooCollectives(RendezvousClient& rendezvous, int rank, int size, const std::string& own_host,
                  std::chrono::milliseconds timeout)
      : rendezvous_(rendezvous), timeout_(timeout) {
    guarded("the rendezvous (connecting every process to every other)", [&] {
      gloo::transport::tcp::attr attr;
      attr.hostname = own_host;
      auto device = gloo::transport::tcp::CreateDevice(attr);
      auto context = std::make_shared<gloo::rendezvous::Context>(rank, size);
      context->setTimeout(timeout);
      StoreAdapter store(rendezvous, timeout);
      context->connectFullMesh(store, device);
      context_ = context;
    });
  }

  std::string name() const override { return "gloo"; }
  int rank() const override { return context_->rank; }
  int size() const override { return context_->size; }

  void all_reduce_sum(void* data, size_t count, DType dtype, const std::string& what) override {
    if (count == 0) return;
    guarded(what, [&] {
      gloo::AllreduceOptions options(context_);
      options.setTimeout(timeout_);
      switch (dtype) {
        case DType::Float32: sum_into<float>(options, data, count); break;
        case DType::Float64: sum_into<double>(options, data, count); break;
        case DType::Int64: sum_into<int64_t>(options, data, count); break;
        case DType::Int32: sum_into<int32_t>(options, data, count); break;
        default:
          throw Error(keras::detail::cat("all_reduce_sum: dtype ", dtype_name(dtype),
                                         " is not supported (float32, float64, int32, int64)."));
      }
      gloo::allreduce(options);
    });
  }

  void broadcast(void* data, size_t bytes, int root, const std::string& what) override {
    guarded(what, [&] {
      gloo::BroadcastOptions options(context_);
      options.setTimeout(timeout_);
      options.setRoot(root);
      options.setOutput(static_cast<char*>(data), bytes);
      gloo::broadcast(options);
    });
  }

  void all_gather(const void* in, void* out, size_t bytes, const std::string& what) override {
    guarded(what, [&] {
      gloo::AllgatherOptions options(context_);
      options.setTimeout(timeout_);
      options.setInput(const_cast<char*>(static_cast<const char*>(in)), bytes);
      options.setOutput(static_cast<char*>(out), bytes * static_cast<size_t>(size()));
      gloo::allgather(options);
    });
  }

  void barrier(const std::string& what) override {
    guarded(what, [&] {
      gloo::BarrierOptions options(context_);
      options.setTimeout(timeout_);
      gloo::barrier(options);
    });
  }

 private:
  // Runs one collective; Gloo's failure becomes an error that says which processes have gone
  // (their connection to the coordinator closed) or that none has (one hangs).
  template <typename F>
  void guarded(const std::string& what, F&& body) {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      body();
    } catch (const gloo::Exception& e) {
      throw RuntimeError(describe_failure(what, e.what()));
    }
  }

  std::string describe_failure(const std::string& what, const std::string& cause) {
    std::string who;
    // A process that died closes its Gloo connections and its connection to the coordinator
    // at once, but the coordinator may notice a moment after Gloo: give it a second.
    auto gone = rendezvous_.gone_ranks();
    for (int i = 0; i < 20 && gone && gone->empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      gone = rendezvous_.gone_ranks();
    }
    if (!gone) {
      who = "process 0 (the coordinator) has exited or crashed";
    } else if (!gone->empty()) {
      std::string list;
      for (int r : *gone) list += (list.empty() ? "" : ", ") + std::to_string(r);
      who = (gone->size() == 1 ? "process " : "processes ") + list + " exited or crashed";
    } else {
      who = keras::detail::cat("no process has exited: one hangs, or is slower than the timeout (",
                               timeout_.count() / 1000.0,
                               " s; set KERAS_DISTRIBUTION_TIMEOUT in seconds to wait longer)");
    }
    return keras::detail::cat("keras::distribution: ", what, " failed on process ",
                              context_ ? context_->rank : -1, ": ", who, ". (Gloo: ", cause, ")");
  }

  RendezvousClient& rendezvous_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<gloo::Context> context_;
  std::mutex mutex_;
};

}  // namespace

std::unique_ptr<Collectives> make_gloo_collectives(RendezvousClient& rendezvous, int rank,
                                                   int size, const std::string& own_host,
                                                   std::chrono::milliseconds timeout) {
  return std::make_unique<GlooCollectives>(rendezvous, rank, size, own_host, timeout);
}

}  // namespace keras::distribution::detail
