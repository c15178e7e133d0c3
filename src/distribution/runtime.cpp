// The job this process belongs to (runtime.h): joined once by initialize(), then read by
// everything that distributes.

#include "keras/distribution/runtime.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include "distribution/job.h"
#include "distribution/rendezvous.h"
#include "keras/backend/backend.h"
#include "keras/backend/registry.h"
#include "keras/core/errors.h"
#ifdef KERAS_WITH_GLOO
#include "distribution/gloo_collectives.h"
#endif

namespace keras::distribution {
namespace {

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

int env_int(const char* name, const std::string& text) {
  try {
    size_t used = 0;
    int v = std::stoi(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw Error(keras::detail::cat("keras::distribution: ", name, " must be an integer; got '", text, "'."));
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  return out;
}

// A job of one process: every collective is the identity.
class LocalCollectives : public Collectives {
 public:
  std::string name() const override { return "local"; }
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void all_reduce_sum(void*, size_t, DType, const std::string&) override {}
  void broadcast(void*, size_t, int, const std::string&) override {}
  void all_gather(const void* in, void* out, size_t bytes, const std::string&) override {
    std::memcpy(out, in, bytes);
  }
  void barrier(const std::string&) override {}
};

}  // namespace

namespace detail {

Job& job() {
  // Never destroyed: the rendezvous threads and Gloo's connections live until the process ends,
  // and other statics may still use them during exit.
  static Job* the_job = [] {
    auto* j = new Job;
    j->collectives = std::make_unique<LocalCollectives>();
    return j;
  }();
  return *the_job;
}

}  // namespace detail

void initialize(const std::optional<std::string>& job_addresses, std::optional<int> num_processes,
                std::optional<int> process_id, const InitializeOptions& options) {
  detail::Job& j = detail::job();
  std::lock_guard<std::mutex> lock(j.mutex);
  std::string addresses = job_addresses.value_or(env("KERAS_DISTRIBUTION_JOB_ADDRESSES").value_or(""));
  int size = num_processes.value_or(0);
  if (!num_processes) {
    auto text = env("KERAS_DISTRIBUTION_NUM_PROCESSES");
    size = text ? env_int("KERAS_DISTRIBUTION_NUM_PROCESSES", *text) : 1;
  }
  int rank = process_id.value_or(0);
  if (!process_id) {
    auto text = env("KERAS_DISTRIBUTION_PROCESS_ID");
    rank = text ? env_int("KERAS_DISTRIBUTION_PROCESS_ID", *text) : 0;
  }
  check(size >= 1, "keras::distribution::initialize: num_processes must be >= 1; got ", size, ".");
  check(rank >= 0 && rank < size, "keras::distribution::initialize: process_id must be in 0..",
        size - 1, " for a job of ", size, " processes; got ", rank,
        ". (Is KERAS_DISTRIBUTION_NUM_PROCESSES the same for every process?)");
  if (j.initialized) {
    check(j.rank == rank && j.size == size && j.addresses == addresses,
          "keras::distribution::initialize was already called with process_id=", j.rank,
          ", num_processes=", j.size, ", job_addresses='", j.addresses,
          "'; a process joins one job.");
    return;
  }
  std::chrono::milliseconds timeout = options.timeout;
  if (auto text = env("KERAS_DISTRIBUTION_TIMEOUT")) {
    double seconds = 0;
    try {
      seconds = std::stod(*text);
    } catch (const std::exception&) {
      seconds = -1;
    }
    check(seconds > 0, "KERAS_DISTRIBUTION_TIMEOUT must be a number of seconds > 0; got '", *text,
          "'.");
    timeout = std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }
  if (size > 1) {
    std::vector<std::string> list = split_commas(addresses);
    check(!list.empty(), "keras::distribution::initialize: a job of ", size,
          " processes needs the coordinator's address: pass job_addresses (\"host:port\") or set "
          "KERAS_DISTRIBUTION_JOB_ADDRESSES (keras-cpp launch sets it).");
    check(list.size() == 1 || static_cast<int>(list.size()) == size,
          "keras::distribution::initialize: job_addresses lists ", list.size(),
          " addresses for ", size, " processes; give the coordinator's alone or one per process.");
#ifdef KERAS_WITH_GLOO
    auto [host, port] = detail::parse_address(list[0]);
    // Where the others reach this process's Gloo connections: its own address when every
    // process's is listed, else this machine's address on the route to the coordinator.
    std::string own_host = list.size() > 1 ? detail::parse_address(list[rank]).first
                           : rank == 0     ? host
                                           : detail::local_address_towards(host, port);
    if (rank == 0) j.server = std::make_unique<detail::RendezvousServer>(host, port);
    j.rendezvous = std::make_unique<detail::RendezvousClient>(host, port, rank, timeout);
    // Every process must agree on the size of the job: process 0 publishes its own.
    if (rank == 0) {
      std::string text = std::to_string(size);
      j.rendezvous->set("job/num_processes", std::vector<char>(text.begin(), text.end()));
    }
    auto published = j.rendezvous->get("job/num_processes", timeout);
    check(published.has_value(), "keras::distribution: process ", rank,
          " reached the coordinator but it did not publish the job within the timeout.");
    std::string theirs(published->begin(), published->end());
    check(theirs == std::to_string(size), "keras::distribution: process ", rank,
          " was started with num_processes=", size, " but the coordinator (process 0) with ",
          theirs, "; start every process with the same KERAS_DISTRIBUTION_NUM_PROCESSES.");
    j.collectives = detail::make_gloo_collectives(*j.rendezvous, rank, size, own_host, timeout);
#else
    throw Error(keras::detail::cat("keras::distribution::initialize: this keras-cpp was built without "
                            "Gloo, so it cannot join a job of ", size,
                            " processes; install libgloo-dev and rebuild."));
#endif
  }
  j.rank = rank;
  j.size = size;
  j.addresses = addresses;
  j.timeout = timeout;
  j.initialized = true;
}

bool is_multi_process() { return detail::job().size > 1; }
int process_id() { return detail::job().rank; }
int num_processes() { return detail::job().size; }

namespace {

// The kind of device this process computes on: "cpu" on a host backend (cpu, torch), else the
// kind in its backend's device name ("cuda" of "cuda:1"): the job's devices are named after it.
std::string device_kind() {
  backend::Backend& b = backend::current_real();
  if (b.is_host()) return "cpu";
  const std::string device = b.device();
  return device.substr(0, device.find(':'));
}

// Whether list_devices(device_type) asks for devices of `kind` ("" for all; "gpu", Keras's
// and JAX's name, for CUDA devices; upper case as Keras accepts it).
bool asks_for(std::string device_type, const std::string& kind) {
  for (char& c : device_type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return device_type.empty() || device_type == kind || (device_type == "gpu" && kind == "cuda");
}

}  // namespace

int local_device_count() {
  static const int virtual_cpus = [] {
    auto text = env("KERAS_CPU_DEVICES_PER_PROCESS");
    int k = text ? env_int("KERAS_CPU_DEVICES_PER_PROCESS", *text) : 1;
    check(k >= 1, "KERAS_CPU_DEVICES_PER_PROCESS must be >= 1; got ", k, ".");
    return k;
  }();
  return device_kind() == "cpu" ? virtual_cpus : 1;  // a process drives one GPU
}

std::vector<std::string> list_devices(const std::string& device_type) {
  std::vector<std::string> out;
  const std::string kind = device_kind();
  if (!asks_for(device_type, kind)) return out;
  const int total = num_processes() * local_device_count();
  for (int i = 0; i < total; ++i) out.push_back(kind + ":" + std::to_string(i));
  return out;
}

int get_device_count(const std::string& device_type) {
  return static_cast<int>(list_devices(device_type).size());
}

int process_of_device(const std::string& device) {
  const std::string prefix = device_kind() + ":";
  const int total = num_processes() * local_device_count();
  int index = -1;
  if (device.rfind(prefix, 0) == 0) {
    try {
      size_t used = 0;
      index = std::stoi(device.substr(prefix.size()), &used);
      if (used != device.size() - prefix.size()) index = -1;
    } catch (const std::exception&) {
      index = -1;
    }
  }
  check(index >= 0 && index < total, "'", device, "' is not a device of this job; its devices are ",
        prefix, "0 ... ", prefix, total - 1, " (list_devices()).");
  return index / local_device_count();
}

Collectives& collectives() { return *detail::job().collectives; }

}  // namespace keras::distribution
