#pragma once
// keras::serving::HttpServer: a RequestHandler (TensorFlow Serving's REST API over a
// ModelRegistry) behind an event loop (Boost.Asio and Boost.Beast's HTTP/1.1 parser, one
// thread for every connection): connections, request bodies and their size limit, time limits
// on reading and writing, and the graceful stop. A predict waiting for its batch holds no
// thread; the model's worker hands its reply back to the loop.

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
  /// Most connections open at once; more wait in the listening socket's queue until one
  /// closes.
  int max_connections = 1024;
  /// A request's header, and then its body, must arrive within this long, and a reply must be
  /// taken within this long, or the connection is closed (slow, stalled and trickling
  /// clients).
  int io_timeout_s = 5;
  /// A connection that starts no request for this long (idle keep-alive) is closed.
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
  /// Starts what stop() does and returns at once; listen() returns when it is done. Safe from
  /// any thread, more than once.
  void request_stop();
  /// The bound port, or -1 before bind().
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
};

}  // namespace keras::serving
