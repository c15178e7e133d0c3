#include "distribution/rendezvous.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "keras/core/errors.h"

namespace keras::distribution::detail {
namespace {

// A frame: op (1 byte), key length (4), key, value length (4), value, wait in ms (4).
// A reply: status (1 byte: 0 found, 1 not found in time), value length (4), value.
constexpr char kHello = 'H', kSet = 'S', kGet = 'G', kGone = 'D';

bool send_all(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool recv_all(int fd, void* data, size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    ssize_t r = ::recv(fd, p, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

bool send_bytes(int fd, const std::vector<char>& bytes) {
  uint32_t n = static_cast<uint32_t>(bytes.size());
  return send_all(fd, &n, 4) && (n == 0 || send_all(fd, bytes.data(), n));
}

bool recv_bytes(int fd, std::vector<char>& bytes) {
  uint32_t n = 0;
  if (!recv_all(fd, &n, 4)) return false;
  bytes.resize(n);
  return n == 0 || recv_all(fd, bytes.data(), n);
}

addrinfo* resolve(const std::string& host, int port, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  check(rc == 0 && found, "keras::distribution: cannot resolve the coordinator host '", host,
        "': ", ::gai_strerror(rc), ". Check KERAS_DISTRIBUTION_JOB_ADDRESSES.");
  return found;
}

}  // namespace

std::string local_address_towards(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  check(rc == 0 && found, "keras::distribution: cannot resolve the coordinator host '", host,
        "': ", ::gai_strerror(rc), ". Check KERAS_DISTRIBUTION_JOB_ADDRESSES.");
  std::string address;
  // Connecting a UDP socket sends nothing; it only chooses the route and so the local address.
  int fd = ::socket(found->ai_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_storage local{};
  socklen_t length = sizeof local;
  if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* where = local.ss_family == AF_INET
                            ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(&local)->sin_addr)
                            : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(&local)->sin6_addr);
    if (::inet_ntop(local.ss_family, where, text, sizeof text)) address = text;
  }
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(found);
  check(!address.empty(), "keras::distribution: no route from this machine to the coordinator ",
        host, ":", port, ".");
  return address;
}

std::pair<std::string, int> parse_address(const std::string& text) {
  size_t colon = text.rfind(':');
  check(colon != std::string::npos && colon > 0 && colon + 1 < text.size(),
        "keras::distribution: the job address '", text,
        "' is not of the form host:port (for example 10.0.0.1:1234).");
  int port = 0;
  try {
    size_t used = 0;
    port = std::stoi(text.substr(colon + 1), &used);
    check(used == text.size() - colon - 1, "");
  } catch (const std::exception&) {
    port = -1;
  }
  check(port >= 1 && port <= 65535, "keras::distribution: the port of the job address '", text,
        "' must be a number in 1..65535.");
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')  // [::1]:port
    host = host.substr(1, host.size() - 2);
  return {host, port};
}

// ---- server ----------------------------------------------------------------------------------

RendezvousServer::RendezvousServer(const std::string& host, int port) {
  addrinfo* addresses = resolve(host, port, true);
  std::string error = "no address";
  for (addrinfo* a = addresses; a && listen_fd_ < 0; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 128) == 0) {
      listen_fd_ = fd;
    } else {
      error = std::strerror(errno);
      ::close(fd);
    }
  }
  ::freeaddrinfo(addresses);
  check(listen_fd_ >= 0, "keras::distribution: process 0 cannot listen at the coordinator address ",
        host, ":", port, " (", error,
        "). Is another job using that port, or is the address not this machine's?");
  check(::pipe2(wake_fd_, O_CLOEXEC) == 0, "keras::distribution: pipe2 failed: ",
        std::strerror(errno));
  acceptor_ = std::thread([this] { accept_loop(); });
}

RendezvousServer::~RendezvousServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (int fd : client_fds_) ::shutdown(fd, SHUT_RDWR);
  }
  changed_.notify_all();
  char byte = 0;
  if (::write(wake_fd_[1], &byte, 1) < 0) {}
  acceptor_.join();
  {
    // The connection threads are detached (the job's server lives until the process ends, and
    // a finished thread nobody joins is a leak to the sanitizers); wait until they are done.
    std::unique_lock<std::mutex> lock(mutex_);
    clients_done_.wait(lock, [this] { return active_clients_ == 0; });
  }
  for (int fd : client_fds_) ::close(fd);
  ::close(listen_fd_);
  ::close(wake_fd_[0]);
  ::close(wake_fd_[1]);
}

void RendezvousServer::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno == EINTR) continue;
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) {
      ::close(fd);
      return;
    }
    client_fds_.push_back(fd);
    ++active_clients_;
    std::thread([this, fd] { serve(fd); }).detach();
  }
}

void RendezvousServer::serve(int fd) {
  int rank = -1;
  for (;;) {
    char op = 0;
    std::vector<char> key_bytes, value;
    uint32_t wait_ms = 0;
    if (!recv_all(fd, &op, 1) || !recv_bytes(fd, key_bytes) || !recv_bytes(fd, value) ||
        !recv_all(fd, &wait_ms, 4))
      break;
    const std::string key(key_bytes.begin(), key_bytes.end());
    char status = 0;
    std::vector<char> reply;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (op == kHello) {
        rank = std::stoi(key);
      } else if (op == kSet) {
        values_[key] = value;
        changed_.notify_all();
      } else if (op == kGet) {
        bool found = changed_.wait_for(lock, std::chrono::milliseconds(wait_ms), [&] {
          return stopping_ || values_.count(key) > 0;
        });
        if (found && values_.count(key)) reply = values_[key];
        else status = 1;
      } else if (op == kGone) {
        std::string text;
        for (int r : gone_) text += std::to_string(r) + ",";
        reply.assign(text.begin(), text.end());
      }
    }
    if (!send_all(fd, &status, 1) || !send_bytes(fd, reply)) break;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (rank >= 0 && !stopping_) gone_.insert(rank);
  --active_clients_;
  clients_done_.notify_all();
}

// ---- client ----------------------------------------------------------------------------------

RendezvousClient::RendezvousClient(const std::string& host, int port, int rank,
                                   std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string error;
  while (fd_ < 0) {
    addrinfo* addresses = resolve(host, port, false);
    for (addrinfo* a = addresses; a && fd_ < 0; a = a->ai_next) {
      int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        fd_ = fd;
      } else {
        error = std::strerror(errno);
        ::close(fd);
      }
    }
    ::freeaddrinfo(addresses);
    if (fd_ >= 0) break;
    check(std::chrono::steady_clock::now() < deadline,
          "keras::distribution: process ", rank, " could not reach the coordinator at ", host, ":",
          port, " within ", timeout.count() / 1000.0, " s (", error,
          "). Is process 0 running, and is KERAS_DISTRIBUTION_JOB_ADDRESSES the same for every "
          "process?");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  request(kHello, std::to_string(rank), {}, 0);
}

RendezvousClient::~RendezvousClient() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::vector<char>> RendezvousClient::request(char op, const std::string& key,
                                                           const std::vector<char>& value,
                                                           uint32_t wait_ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<char> key_bytes(key.begin(), key.end());
  char status = 0;
  std::vector<char> reply;
  bool ok = send_all(fd_, &op, 1) && send_bytes(fd_, key_bytes) && send_bytes(fd_, value) &&
            send_all(fd_, &wait_ms, 4) && recv_all(fd_, &status, 1) && recv_bytes(fd_, reply);
  if (!ok) throw RuntimeError("keras::distribution: the connection to the coordinator (process 0) "
                              "closed: process 0 has exited or crashed.");
  if (status != 0) return std::nullopt;
  return reply;
}

void RendezvousClient::set(const std::string& key, const std::vector<char>& value) {
  request(kSet, key, value, 0);
}

std::optional<std::vector<char>> RendezvousClient::get(const std::string& key,
                                                       std::chrono::milliseconds timeout) {
  return request(kGet, key, {}, static_cast<uint32_t>(timeout.count()));
}

std::optional<std::set<int>> RendezvousClient::gone_ranks() {
  std::optional<std::vector<char>> reply;
  try {
    reply = request(kGone, "", {}, 0);
  } catch (const RuntimeError&) {
    return std::nullopt;
  }
  std::set<int> out;
  std::string text(reply->begin(), reply->end()), item;
  for (char c : text) {
    if (c == ',') {
      out.insert(std::stoi(item));
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

}  // namespace keras::distribution::detail
