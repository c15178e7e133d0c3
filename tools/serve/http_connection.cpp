#include "serve/http_connection.h"

#include <cctype>
#include <chrono>
#include <string_view>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "serve/rest_api.h"

namespace keras::serving::detail {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using std::chrono::seconds;

namespace {

constexpr size_t kReadChunk = 16 * 1024;
constexpr uint32_t kHeaderLimit = 16 * 1024;
// Request bytes a closing connection still reads and drops (see linger_then_close).
constexpr size_t kLingerBytes = size_t{1} << 20;

// Boost 1.74's string_view is its own type.
std::string_view view(beast::string_view s) {
  return {s.data(), s.size()};
}

// The path of a request target: without the query, %XX decoded.
std::string request_path(std::string_view target) {
  target = target.substr(0, target.find('?'));
  std::string path;
  path.reserve(target.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == '%' && i + 2 < target.size() && hex(target[i + 1]) >= 0 &&
        hex(target[i + 2]) >= 0) {
      path += static_cast<char>(hex(target[i + 1]) * 16 + hex(target[i + 2]));
      i += 2;
    } else {
      path += target[i];
    }
  }
  return path;
}

// Whether a read ended because the peer went away or was too slow (close quietly), rather
// than because it sent something that is not HTTP (answer 400).
bool connection_ended(beast::error_code ec) {
  return ec == beast::error::timeout || ec == asio::error::eof ||
         ec == asio::error::operation_aborted || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::bad_descriptor ||
         ec == http::error::end_of_stream || ec == http::error::partial_message;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace

HttpConnection::HttpConnection(LoopState& loop, asio::ip::tcp::socket socket)
    : loop_(loop), stream_(std::move(socket)), deadline_(loop.io) {
  ++loop_.open_connections;
}

HttpConnection::~HttpConnection() {
  --loop_.open_connections;
  if (loop_.connection_closed) loop_.connection_closed();
}

void HttpConnection::start() {
  wait_for_request();
}

void HttpConnection::stop() {
  if (idle_) close();
}

void HttpConnection::wait_for_request() {
  idle_ = true;
  if (loop_.stopping) return close();
  parser_.emplace();
  parser_->body_limit(loop_.options.max_body_bytes);
  parser_->header_limit(kHeaderLimit);
  if (buffer_.size() > 0) return read_header();  // a pipelined request is already here
  stream_.expires_after(seconds(loop_.options.keep_alive_timeout_s));
  stream_.async_read_some(buffer_.prepare(kReadChunk),
                          [self = shared_from_this()](beast::error_code ec, size_t n) {
                            self->buffer_.commit(n);
                            if (ec) return self->close();
                            self->read_header();
                          });
}

void HttpConnection::read_header() {
  idle_ = false;
  stream_.expires_after(seconds(loop_.options.io_timeout_s));
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, size_t) {
                            self->on_header(ec);
                          });
}

void HttpConnection::on_header(beast::error_code ec) {
  // A Content-Length over the body limit ends the header's read with body_limit.
  if (ec == http::error::body_limit) return refuse(413, too_large());
  if (ec) {
    if (connection_ended(ec)) return close();
    return refuse(400, "malformed HTTP request: " + ec.message());
  }
  const auto& req = parser_->get();
  version_ = req.version();
  head_ = req.method() == http::verb::head;
  keep_alive_ = req.keep_alive();
  if (std::string_view type = view(req[http::field::content_type]);
      type.substr(0, 19) == "multipart/form-data")
    return refuse(400, "a multipart body: send the JSON request as the body");
  path_ = request_path(view(req.target()));
  arriving_ = loop_.handler.announce(std::string(req.method_string()), path_);
  if (iequals(view(req[http::field::expect]), "100-continue")) {
    // curl asks before sending a body over 1 KiB.
    static const std::string kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
    stream_.expires_after(seconds(loop_.options.io_timeout_s));
    asio::async_write(stream_, asio::buffer(kContinue),
                      [self = shared_from_this()](beast::error_code ec2, size_t) {
                        if (ec2) return self->close();
                        self->read_body();
                      });
    return;
  }
  read_body();
}

void HttpConnection::read_body() {
  if (parser_->is_done()) return on_request();
  stream_.expires_after(seconds(loop_.options.io_timeout_s));
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, size_t) {
                     if (!ec) return self->on_request();
                     self->arriving_.reset();
                     if (ec == http::error::body_limit) return self->refuse(413, self->too_large());
                     if (connection_ended(ec)) return self->close();
                     self->refuse(400, "the request body could not be read: " + ec.message());
                   });
}

void HttpConnection::on_request() {
  stream_.expires_never();  // the model's time is bounded by the request timeout below
  auto& req = parser_->get();
  HttpRequest request{std::string(req.method_string()), std::move(path_), std::move(req.body())};
  // The reply comes back through the loop: from the model's worker thread, or at once.
  // `self` moves into the posted handler so that the connection is released on this thread.
  auto pending = loop_.handler.handle(
      request, [self = shared_from_this()](HttpReply reply) mutable {
        asio::io_context& io = self->loop_.io;
        asio::post(io, [self = std::move(self), reply = std::move(reply)]() mutable {
          self->write(std::move(reply));
        });
      });
  arriving_.reset();
  if (!pending) return;
  pending_ = std::move(pending);
  deadline_.expires_at(pending_->deadline());
  deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (ec || !self->pending_) return;  // answered (the timer was cancelled)
    if (std::optional<HttpReply> late = self->pending_->expire()) self->write(std::move(*late));
  });
}

void HttpConnection::write(HttpReply reply, bool close_after) {
  deadline_.cancel();
  pending_.reset();
  if (closed_) return;
  response_ = {};
  response_.version(version_);
  response_.result(static_cast<unsigned>(reply.status));
  response_.set(http::field::content_type, reply.content_type);
  for (const auto& [key, value] : reply.headers) response_.set(key, value);
  response_.keep_alive(keep_alive_ && !close_after && !loop_.stopping);
  status_ = reply.status;
  if (head_) {
    response_.content_length(reply.body.size());
  } else {
    response_.body() = std::move(reply.body);
    response_.prepare_payload();
  }
  stream_.expires_after(seconds(loop_.options.io_timeout_s));
  http::async_write(stream_, response_,
                    [self = shared_from_this()](beast::error_code ec, size_t) {
                      self->on_written(ec);
                    });
}

void HttpConnection::on_written(beast::error_code ec) {
  loop_.handler.models().metrics().record_request(status_);
  if (ec) return close();
  if (!response_.keep_alive()) return linger_then_close();
  wait_for_request();
}

std::string HttpConnection::too_large() const {
  return "the request body is larger than the limit of " +
         std::to_string(loop_.options.max_body_bytes) + " bytes (--max-body-bytes)";
}

void HttpConnection::refuse(int status, const std::string& message) {
  HttpReply reply;
  reply.status = status;
  reply.body = error_response(message);
  write(std::move(reply), /*close_after=*/true);
}

void HttpConnection::linger_then_close() {
  beast::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  stream_.expires_after(seconds(1));
  drain(0);
}

void HttpConnection::drain(size_t dropped) {
  buffer_.clear();
  stream_.async_read_some(buffer_.prepare(kReadChunk),
                          [self = shared_from_this(), dropped](beast::error_code ec, size_t n) {
                            if (ec || dropped + n > kLingerBytes) return self->close();
                            self->drain(dropped + n);
                          });
}

void HttpConnection::close() {
  if (closed_) return;
  closed_ = true;
  deadline_.cancel();
  beast::error_code ignored;
  stream_.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

}  // namespace keras::serving::detail
