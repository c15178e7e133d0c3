#pragma once
// One HTTP/1.1 connection of HttpServer's event loop (internal to tools/serve): reads a request
// with Beast's parser, hands it to the RequestHandler, writes the reply when it comes (at once,
// or from the model's worker through the loop), and then reads the next one (keep-alive) or
// closes. Everything here runs on the loop's thread.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "serve/http_server.h"
#include "serve/request_handler.h"

namespace keras::serving::detail {

class HttpConnection;

/// What the connections of one HttpServer share. The loop's thread alone touches it, except
/// `io`, which other threads post to.
struct LoopState {
  RequestHandler& handler;
  HttpOptions options;
  bool stopping = false;
  int open_connections = 0;
  std::vector<std::weak_ptr<HttpConnection>> connections;
  // Called when a connection closes (the acceptor may take the next one).
  std::function<void()> connection_closed;
  // Last, so that it is destroyed first: handlers it still holds may own connections, whose
  // destructors use the members above.
  boost::asio::io_context io{1};

  LoopState(RequestHandler& h, HttpOptions o) : handler(h), options(std::move(o)) {}
};

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(LoopState& loop, boost::asio::ip::tcp::socket socket);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  void start();
  /// The server is stopping: a connection waiting for a request closes now, one inside a
  /// request closes after its reply.
  void stop();

 private:
  using Parser = boost::beast::http::request_parser<boost::beast::http::string_body>;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;

  void wait_for_request();
  void read_header();
  void on_header(boost::beast::error_code ec);
  void read_body();
  void on_request();
  void write(HttpReply reply, bool close_after = false);
  void on_written(boost::beast::error_code ec);
  // Answers a request the transport refuses (malformed, too large) and closes.
  void refuse(int status, const std::string& message);
  std::string too_large() const;
  // Closes after a reply: stops sending, then reads and drops what the client still sends for
  // a moment, so that unread request bytes do not reset the connection before the client has
  // read its reply.
  void linger_then_close();
  // Reads and drops request bytes until the client closes, the second is over or
  // kLingerBytes are dropped.
  void drain(size_t dropped);
  void close();

  LoopState& loop_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  Response response_;
  // A predict waiting for its model: answered by it, or expired by this timer.
  boost::asio::steady_timer deadline_;
  std::shared_ptr<PendingReply> pending_;
  std::shared_ptr<void> arriving_;  // the handler's announce() token while a body is read
  std::string path_;                // the request's path, decoded once its header is read
  unsigned version_ = 11;           // HTTP/1.x of the request
  bool idle_ = true;                // no byte of a request read yet
  bool head_ = false;
  bool keep_alive_ = true;
  bool closed_ = false;
  int status_ = 0;
};

}  // namespace keras::serving::detail
