#include "serve/http_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "keras/core/errors.h"
#include "serve/http_connection.h"

namespace keras::serving {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct HttpServer::Impl {
  detail::LoopState loop;
  tcp::acceptor acceptor{loop.io};
  // Retries accepting after an error such as running out of file descriptors.
  asio::steady_timer accept_retry{loop.io};
  bool accepting = false;
  int port = -1;
  std::atomic<bool> listening{false}, stop_requested{false}, done{false};

  Impl(RequestHandler& handler, HttpOptions options) : loop(handler, std::move(options)) {
    loop.connection_closed = [this] { accept(); };
  }

  // Takes the next connection, unless max_connections are open (a closing connection calls
  // this again) or the server is stopping.
  void accept() {
    if (accepting || loop.stopping || !acceptor.is_open() ||
        loop.open_connections >= loop.options.max_connections)
      return;
    accepting = true;
    acceptor.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      accepting = false;
      if (loop.stopping) return;
      if (ec) {
        accept_retry.expires_after(std::chrono::milliseconds(10));
        accept_retry.async_wait([this](boost::system::error_code e) {
          if (!e) accept();
        });
        return;
      }
      // Replies go out as one write; without TCP_NODELAY the client's delayed ACK of the
      // previous reply would hold the next one back.
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      auto connection = std::make_shared<detail::HttpConnection>(loop, std::move(socket));
      std::erase_if(loop.connections, [](const auto& c) { return c.expired(); });
      loop.connections.push_back(connection);
      connection->start();
      accept();
    });
  }

  // On the loop's thread: no new connections; idle ones close now, busy ones after their reply.
  void begin_stop() {
    loop.stopping = true;
    boost::system::error_code ignored;
    acceptor.close(ignored);
    accept_retry.cancel();
    for (const auto& weak : loop.connections)
      if (auto connection = weak.lock()) connection->stop();
  }
};

HttpServer::HttpServer(RequestHandler& handler, HttpOptions options)
    : impl_(std::make_unique<Impl>(handler, std::move(options))) {
  if (impl_->loop.options.max_connections < 1)
    throw ValueError("max_connections must be >= 1, got " +
                     std::to_string(impl_->loop.options.max_connections));
}

HttpServer::~HttpServer() {
  stop();
  // Handlers the loop still holds may own connections, released with it below: they must not
  // call back into the acceptor, which goes first.
  impl_->loop.connection_closed = nullptr;
}

int HttpServer::port() const {
  return impl_->port;
}

int HttpServer::bind() {
  Impl& impl = *impl_;
  if (impl.port >= 0) return impl.port;
  const HttpOptions& o = impl.loop.options;
  const std::string where = o.host + ":" + std::to_string(o.port);
  boost::system::error_code ec;
  tcp::resolver resolver(impl.loop.io);
  auto endpoints = resolver.resolve(o.host, std::to_string(o.port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty())
    throw IOError("cannot listen on " + where + ": the host is not an address of this machine (" +
                  ec.message() + ")");
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  impl.acceptor.open(endpoint.protocol(), ec);
  // SO_REUSEADDR alone allows a restart while old connections linger; SO_REUSEPORT would let
  // a second server share a port in use, silently.
  if (!ec) impl.acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) impl.acceptor.bind(endpoint, ec);
  // A full backlog drops the SYNs of concurrent clients, each drop costing its client a 1 s
  // retransmission.
  if (!ec) impl.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    boost::system::error_code ignored;
    impl.acceptor.close(ignored);
    throw IOError("cannot listen on " + where + " (" + ec.message() +
                  ": the port is in use, or the address is not this machine's)");
  }
  impl.port = impl.acceptor.local_endpoint().port();
  return impl.port;
}

void HttpServer::listen() {
  bind();
  Impl& impl = *impl_;
  impl.listening = true;
  if (!impl.stop_requested) {
    impl.accept();
    impl.loop.io.run();
  }
  impl.done = true;
}

void HttpServer::start() {
  bind();
  impl_->listening = true;  // so that a stop() right after start() waits for the thread
  thread_ = std::thread([this] { listen(); });
}

void HttpServer::request_stop() {
  Impl& impl = *impl_;
  if (!impl.stop_requested.exchange(true) && impl.listening)
    asio::post(impl.loop.io, [&impl] { impl.begin_stop(); });
}

void HttpServer::stop() {
  Impl& impl = *impl_;
  request_stop();
  if (impl.listening && thread_.get_id() != std::this_thread::get_id())
    while (!impl.done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

}  // namespace keras::serving
