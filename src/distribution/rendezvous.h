#pragma once
// The job's rendezvous: a small key-value store served by process 0 at the coordinator address,
// through which the processes exchange their collective library's connection addresses (Gloo's
// rendezvous needs a store; PyTorch's TCPStore plays the same part). Each process keeps one
// connection to it for the whole job, so the coordinator also knows which processes have gone:
// a process whose connection closed is named in the error a failed collective raises.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace keras::distribution::detail {

/// Process 0's side: listens on host:port until destroyed.
class RendezvousServer {
 public:
  RendezvousServer(const std::string& host, int port);
  ~RendezvousServer();
  RendezvousServer(const RendezvousServer&) = delete;
  RendezvousServer& operator=(const RendezvousServer&) = delete;

 private:
  void accept_loop();
  void serve(int fd);

  int listen_fd_ = -1;
  int wake_fd_[2] = {-1, -1};  // a pipe that stops accept_loop
  std::thread acceptor_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<char>> values_;
  std::set<int> gone_;   // ranks whose connection closed
  std::vector<int> client_fds_;
  int active_clients_ = 0;  // connection threads still running (detached)
  std::condition_variable clients_done_;
  bool stopping_ = false;
};

/// Every process's side (process 0's too).
class RendezvousClient {
 public:
  /// Connects to host:port, retrying until `timeout` (process 0 may start last), and registers
  /// as `rank`.
  RendezvousClient(const std::string& host, int port, int rank,
                   std::chrono::milliseconds timeout);
  ~RendezvousClient();
  RendezvousClient(const RendezvousClient&) = delete;
  RendezvousClient& operator=(const RendezvousClient&) = delete;

  void set(const std::string& key, const std::vector<char>& value);
  /// The value of `key`, waiting up to `timeout` for some process to set it; nullopt on timeout.
  std::optional<std::vector<char>> get(const std::string& key, std::chrono::milliseconds timeout);
  /// The ranks whose connection to the coordinator closed; nullopt when the coordinator itself
  /// cannot be reached (process 0 is gone).
  std::optional<std::set<int>> gone_ranks();

 private:
  std::optional<std::vector<char>> request(char op, const std::string& key,
                                           const std::vector<char>& value, uint32_t wait_ms);
  int fd_ = -1;
  std::mutex mutex_;
};

/// This machine's address on the route to host:port (what the others of a job reach this process
/// at when only the coordinator's address is given).
std::string local_address_towards(const std::string& host, int port);

/// "host:port" split; an error naming `text` when it is not of that form.
std::pair<std::string, int> parse_address(const std::string& text);

}  // namespace keras::distribution::detail
