#pragma once
// The processes of a distributed job and their devices (Keras 3's keras.distribution.initialize,
// list_devices, get_device_count). A job is N processes started with the same program (by
// `keras-cpp launch`, or by hand with Keras's three environment variables). On a host backend
// (cpu, torch) each process holds one or more virtual cpu devices
// (KERAS_CPU_DEVICES_PER_PROCESS, as JAX's xla_force_host_platform_device_count), numbered
// globally "cpu:0" ... "cpu:<N*k-1>", process p holding the devices p*k ... p*k+k-1. On a GPU
// backend (cuda, torch:cuda) each process drives one GPU: the devices are "cuda:0" ...
// "cuda:<N-1>", process p holding "cuda:p" (the job's numbering, as JAX's; the GPU a process
// uses on its machine is its backend's, which `keras-cpp launch --device-backend` picks).
// The names follow the backend of the calling thread. Without initialize() a program is a job
// of one process.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::distribution {

/// initialize()'s options beyond Keras's arguments.
struct InitializeOptions {
  /// How long a collective (and the rendezvous) waits for the other processes before it fails
  /// with an error naming the collective and the ranks it waited for. KERAS_DISTRIBUTION_TIMEOUT
  /// (seconds) overrides the default.
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
};

/// Joins the job, as Keras's keras.distribution.initialize(job_addresses, num_processes,
/// process_id). job_addresses is "host:port[,host:port...]": the first is the coordinator (process
/// 0 listens there for the rendezvous); when there is one address per process, process i's own
/// collective connections bind to the host of the i-th. Arguments left empty are read from
/// KERAS_DISTRIBUTION_JOB_ADDRESSES, KERAS_DISTRIBUTION_NUM_PROCESSES and
/// KERAS_DISTRIBUTION_PROCESS_ID. Calling it in a job of one process is allowed and does nothing
/// else. A second call with other values is an error.
void initialize(const std::optional<std::string>& job_addresses = std::nullopt,
                std::optional<int> num_processes = std::nullopt,
                std::optional<int> process_id = std::nullopt,
                const InitializeOptions& options = {});

/// True after initialize() joined a job of more than one process.
bool is_multi_process();
/// This process's rank, 0 ... num_processes()-1 (0 without initialize()).
int process_id();
/// The number of processes in the job (1 without initialize()).
int num_processes();
/// Devices this process holds: KERAS_CPU_DEVICES_PER_PROCESS (default 1) on a host backend, 1 on
/// a GPU backend.
int local_device_count();

/// Every device of the job, "cpu:0" ... or "cuda:0" ... (Keras: list_devices(device_type=None)).
/// device_type "" gives them all; "cpu", or "gpu" (also "cuda"), gives them when they are of
/// that kind and an empty list otherwise, as Keras does for a kind the machine lacks.
std::vector<std::string> list_devices(const std::string& device_type = "");
/// The number of devices list_devices(device_type) returns.
int get_device_count(const std::string& device_type = "");
/// The process that holds `device` ("cpu:5" -> 5 / local_device_count(), "cuda:3" -> 3); an
/// error for a name that is not a device of the job.
int process_of_device(const std::string& device);

}  // namespace keras::distribution

#pragma GCC visibility pop
