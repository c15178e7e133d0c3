#pragma once
// keras::serving::HttpServer: a RequestHandler (TensorFlow Serving's REST API over a
// ModelRegistry) behind cpp-httplib: connections, request bodies and their size limit, time
// limits on reading and writing, and the graceful stop.

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <thread>

#include "serve/request_handler.h"

namespace keras::serving {

/// Where and how the server listens (keras-cpp serve's flags).
struct HttpOptions {
  std::string host = "0.0.0.0";
  /// 0 picks a free port (see HttpServer::port()).
  int port = 8501;
  /// Larger request bodies get 413.
  size_t max_body_bytes = size_t{16} << 20;
  /// Connection threads: each open connection holds one while it is served (0: 64).
  int threads = 0;
  /// A connection that sends nothing for this long while a request is read (a slow or
  /// stalled client), or takes no bytes for this long while a reply is written, is closed.
  int io_timeout_s = 5;
  /// An idle keep-alive connection is closed after this long.
  int keep_alive_timeout_s = 2;
};

/// The HTTP front of a RequestHandler, which must outlive it.
class HttpServer {
 public:
  HttpServer(RequestHandler& handler, HttpOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// Binds the address; returns the port (the chosen one for port 0). IOError when the port
  /// cannot be bound.
  int bind();
  /// Serves until stop() (binds first when bind() was not called). Blocks.
  void listen();
  /// listen() on a thread of its own.
  void start();
  /// Stops accepting connections; returns once the requests in flight are answered (and the
  /// thread of start() has ended). Safe from any thread, more than once.
  void stop();
  int port() const { return port_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = -1;
  std::thread thread_;
};

}  // namespace keras::serving
