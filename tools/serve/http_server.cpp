#include "serve/http_server.h"

#include <algorithm>
#include <chrono>
#include <future>

#include <httplib.h>

#include "keras/core/errors.h"
#include "serve/rest_api.h"

namespace keras::serving {
namespace {

constexpr const char* kJson = "application/json";

void send_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_response(message), kJson);
}

}  // namespace

struct HttpServer::Impl {
  RequestHandler& handler;
  HttpOptions options;
  httplib::Server server;
  std::atomic<bool> listening{false}, stop_requested{false}, stop_sent{false}, done{false};
  // The listening socket (the last one httplib's socket options saw).
  socket_t listen_socket = -1;

  Impl(RequestHandler& h, HttpOptions o) : handler(h), options(std::move(o)) {}

  void dispatch(const std::string& method, const httplib::Request& req, std::string body,
                httplib::Response& res) {
    HttpReply reply = handler.handle({method, req.path, std::move(body)});
    res.status = reply.status;
    for (const auto& [key, value] : reply.headers) res.set_header(key.c_str(), value);
    res.set_content(std::move(reply.body), reply.content_type.c_str());
  }

  std::string too_large() const {
    return "the request body is larger than the limit of " +
           std::to_string(options.max_body_bytes) + " bytes (--max-body-bytes)";
  }
};

HttpServer::HttpServer(RequestHandler& handler, HttpOptions options)
    : impl_(std::make_unique<Impl>(handler, std::move(options))) {
  httplib::Server& svr = impl_->server;
  Impl* impl = impl_.get();
  // httplib serves a connection on one pool thread from its first request to its close, and
  // a predict request holds its thread while it waits for its batch: the pool is sized for
  // concurrent connections, not for cores (waiting threads cost no CPU).
  const int threads = impl->options.threads > 0 ? impl->options.threads : 64;
  svr.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  svr.set_payload_max_length(impl->options.max_body_bytes);
  svr.set_keep_alive_timeout(impl->options.keep_alive_timeout_s);
  // httplib closes a keep-alive connection after 5 requests by default, which makes a busy
  // client reconnect every 5 requests; the idle timeout above is what frees threads.
  svr.set_keep_alive_max_count(100000);
  svr.set_read_timeout(impl->options.io_timeout_s, 0);
  svr.set_write_timeout(impl->options.io_timeout_s, 0);
  // Responses go out as headers then body: without TCP_NODELAY, Nagle's algorithm and the
  // client's delayed ACK hold each response back by tens of milliseconds.
  svr.set_tcp_nodelay(true);
  // httplib's default sets SO_REUSEPORT, which lets a second server bind a port in use and
  // share its connections; SO_REUSEADDR alone allows a restart while old connections linger.
  svr.set_socket_options([impl](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    impl->listen_socket = sock;
  });
  const std::string any = ".*";
  // Bodies are read through a content reader: httplib then leaves them as they are, whatever
  // the Content-Type (it would parse application/x-www-form-urlencoded, what `curl -d` sends,
  // and refuse such a body over 8 KiB).
  auto with_body = [impl](const char* method) {
    return [impl, method](const httplib::Request& req, httplib::Response& res,
                          const httplib::ContentReader& reader) {
      std::string body;
      if (req.is_multipart_form_data()) {
        send_error(res, 400, "a multipart body: send the JSON request as the body");
        return;
      }
      const bool read = reader([&body](const char* data, size_t n) {
        body.append(data, n);
        return true;
      });
      if (!read) {
        if (res.status == 413)
          send_error(res, 413, impl->too_large());
        else
          send_error(res, 400, "the request body could not be read");
        return;
      }
      impl->dispatch(method, req, std::move(body), res);
    };
  };
  auto without_body = [impl](const char* method) {
    return [impl, method](const httplib::Request& req, httplib::Response& res) {
      impl->dispatch(method, req, req.body, res);
    };
  };
  svr.Get(any, without_body("GET"));
  svr.Options(any, without_body("OPTIONS"));
  svr.Post(any, httplib::Server::HandlerWithContentReader(with_body("POST")));
  svr.Put(any, httplib::Server::HandlerWithContentReader(with_body("PUT")));
  svr.Patch(any, httplib::Server::HandlerWithContentReader(with_body("PATCH")));
  svr.Delete(any, httplib::Server::HandlerWithContentReader(with_body("DELETE")));
  // Errors httplib answers itself (413, unparsable requests) get a JSON body too.
  svr.set_error_handler([impl](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = "HTTP error " + std::to_string(res.status);
    if (res.status == 413)
      message = impl->too_large();
    else if (res.status == 400)
      message = "malformed HTTP request";
    res.set_content(error_response(message), kJson);
  });
  svr.set_logger([impl](const httplib::Request&, const httplib::Response& res) {
    impl->handler.models().metrics().record_request(res.status);
  });
}

HttpServer::~HttpServer() {
  stop();
}

int HttpServer::bind() {
  if (port_ >= 0) return port_;
  httplib::Server& svr = impl_->server;
  const HttpOptions& o = impl_->options;
  if (o.port == 0) {
    port_ = svr.bind_to_any_port(o.host);
  } else if (svr.bind_to_port(o.host, o.port)) {
    port_ = o.port;
  }
  if (port_ < 0)
    throw IOError("cannot listen on " + o.host + ":" + std::to_string(o.port) +
                  " (the port is in use, or the address is not this machine's)");
  // httplib listens with a backlog of 5: concurrent clients that connect per request then
  // overflow it, and each dropped SYN costs its client a 1 s retransmission. Linux takes a
  // second listen() as a new backlog.
  if (impl_->listen_socket >= 0) ::listen(impl_->listen_socket, SOMAXCONN);
  return port_;
}

void HttpServer::listen() {
  bind();
  impl_->listening = true;
  if (!impl_->stop_requested) impl_->server.listen_after_bind();
  impl_->done = true;
}

void HttpServer::start() {
  bind();
  impl_->listening = true;  // so that a stop() right after start() waits for the thread
  thread_ = std::thread([this] { listen(); });
}

void HttpServer::stop() {
  impl_->stop_requested = true;
  if (impl_->listening) {
    while (!impl_->done) {
      // httplib's stop() does nothing before listen() runs: wait until it does.
      if (impl_->server.is_running() && !impl_->stop_sent.exchange(true)) impl_->server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

}  // namespace keras::serving
