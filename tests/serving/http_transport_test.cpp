// The HTTP side of keras-cpp serve (tools/serve/http_connection.cpp) spoken to byte by byte on a
// raw socket, as clients other than cpp-httplib speak it: curl's `Expect: 100-continue`,
// chunked bodies, pipelined requests, HEAD, percent-encoded paths, HTTP/1.0, and a client
// that trickles its request one byte at a time.

#include <chrono>
#include <string>
#include <thread>

#include "serving_helpers.h"

namespace keras {
namespace {

using namespace serving_test;

const std::string kBody = R"({"instances": [[1, 2, 3, 4]]})";

std::string post_head(const std::string& extra) {
  return "POST /v1/models/small:predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
         extra + "\r\n";
}

// The body of the one HTTP response in `raw` (after its blank line).
std::string body_of(const std::string& raw) {
  const size_t end = raw.find("\r\n\r\n");
  return end == std::string::npos ? "" : raw.substr(end + 4);
}

TEST(ServingHttp, ExpectContinueIsAnsweredBeforeTheBody) {
  Served s(small_model(), "small");
  const std::string want = post(s, "/v1/models/small:predict", kBody).body;
  int fd = raw_connection(s.port, post_head("Expect: 100-continue\r\nContent-Length: " +
                                            std::to_string(kBody.size()) + "\r\n"));
  ASSERT_GE(fd, 0);
  const std::string interim = read_raw(fd, "\r\n\r\n");
  EXPECT_EQ(interim, "HTTP/1.1 100 Continue\r\n\r\n");
  ASSERT_GT(write(fd, kBody.data(), kBody.size()), 0);
  const std::string reply = read_raw(fd, "]]}");
  close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reply;
  EXPECT_EQ(body_of(reply), want) << reply;
}

TEST(ServingHttp, ChunkedPipelinedHeadAndEncodedPaths) {
  Served s(small_model(), "small");
  const std::string want = post(s, "/v1/models/small:predict", kBody).body;
  ASSERT_NE(want.find("predictions"), std::string::npos) << want;

  // A chunked body, in two chunks.
  const std::string half = kBody.substr(0, 10), rest = kBody.substr(10);
  auto hex = [](size_t n) {
    char b[16];
    std::snprintf(b, sizeof b, "%zx", n);
    return std::string(b);
  };
  int fd = raw_connection(s.port, post_head("Transfer-Encoding: chunked\r\n") + hex(half.size()) +
                                      "\r\n" + half + "\r\n" + hex(rest.size()) + "\r\n" + rest +
                                      "\r\n0\r\n\r\n");
  std::string reply = read_raw(fd, "]]}");
  close(fd);
  EXPECT_EQ(body_of(reply), want) << reply;

  // Two requests in one write: two replies, in order, on the same connection.
  const std::string one =
      post_head("Content-Length: " + std::to_string(kBody.size()) + "\r\n") + kBody;
  const std::string status = "GET /v1/models/sm%61ll HTTP/1.1\r\nHost: x\r\n\r\n";
  fd = raw_connection(s.port, one + status);
  reply = read_raw(fd, "AVAILABLE");
  const size_t second = reply.find("HTTP/1.1 200 OK", 1);
  ASSERT_NE(second, std::string::npos) << reply;
  EXPECT_NE(reply.find(want), std::string::npos) << reply;
  EXPECT_LT(reply.find(want), second) << "the predict's reply must come first: " << reply;
  EXPECT_NE(reply.find("AVAILABLE", second), std::string::npos) << reply;

  // HEAD: GET's status and headers, no body; the connection goes on.
  const std::string head = "HEAD /v1/models/small/metadata HTTP/1.1\r\nHost: x\r\n\r\n";
  ASSERT_GT(write(fd, head.data(), head.size()), 0);
  reply = read_raw(fd, "\r\n\r\n");
  EXPECT_EQ(reply.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << reply;
  const std::string metadata = get(s, "/v1/models/small/metadata").body;
  EXPECT_NE(reply.find("Content-Length: " + std::to_string(metadata.size())), std::string::npos)
      << reply;
  EXPECT_EQ(body_of(reply), "");
  EXPECT_EQ(read_raw(fd, "", std::chrono::milliseconds(200)), "") << "HEAD sent a body";
  close(fd);

  // HTTP/1.0 without keep-alive: the answer, then the server closes.
  fd = raw_connection(s.port, "GET /v1/models/small HTTP/1.0\r\n\r\n");
  reply = read_raw(fd);  // until closed
  close(fd);
  EXPECT_EQ(reply.rfind("HTTP/1.0 200 OK\r\n", 0), 0u) << reply;
  EXPECT_NE(reply.find("AVAILABLE"), std::string::npos) << reply;
}

// A client that sends its request a byte at a time, each byte well within the I/O timeout, is
// still cut off: the header has --io-timeout-s in all. Meanwhile others are served.
TEST(ServingHttp, ATricklingClientIsClosedAtItsRequestDeadline) {
  Served s(small_model(), "small", {}, {.io_timeout_s = 1});
  const std::string request = post_head("X-Padding: " + std::string(200, 'p') + "\r\n");
  int fd = raw_connection(s.port);
  ASSERT_GE(fd, 0);
  bool closed = false;
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < request.size() && !closed; ++i) {
    if (send(fd, &request[i], 1, MSG_NOSIGNAL) != 1) closed = true;
    pollfd p{fd, POLLIN, 0};
    // The server closing shows as readable (end of file or an answer then end of file).
    if (poll(&p, 1, 100) > 0) closed = true;
    if (i == 3) {
      EXPECT_EQ(post(s, "/v1/models/small:predict", kBody).status, 200);
    }
  }
  close(fd);
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(closed) << "the trickling client was served for " << took.count() << " s";
}

}  // namespace
}  // namespace keras
