#pragma once
// keras::serving::Metrics: the counters behind GET /metrics (Prometheus text format 0.0.4):
// requests by status code, a request latency histogram and a batch size histogram.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace keras::serving {

/// A Prometheus histogram: cumulative counts per upper bound, the sum and the count.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void observe(double value);
  /// The `NAME_bucket{le=...}`, `NAME_sum` and `NAME_count` lines.
  std::string text(const std::string& name) const;
  uint64_t count() const { return count_; }

 private:
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_;  // per bound, not cumulative; one more for +Inf
  double sum_ = 0;
  uint64_t count_ = 0;
};

/// The server's metrics; thread-safe.
class Metrics {
 public:
  Metrics();
  /// One answered HTTP request.
  void record_request(int status);
  /// One answered gRPC call: its method ("Predict") and its status code's name ("OK").
  void record_grpc_call(const std::string& method, const std::string& code);
  /// The time from a request's arrival at its handler to its response.
  void record_latency(double seconds);
  /// One predict_on_batch of `rows` rows made of `requests` requests.
  void record_batch(int64_t rows, int64_t requests);

  /// One reload of a changed model file: served (ok) or refused.
  void record_reload(bool ok);

  /// Requests answered with `status` so far.
  uint64_t requests(int status) const;
  /// gRPC calls of `method` answered with `code` so far.
  uint64_t grpc_calls(const std::string& method, const std::string& code) const;
  /// Batches run so far, and those of more than one request.
  uint64_t batches() const;
  uint64_t merged_batches() const;

  /// Everything in Prometheus's text format; `queue_size` becomes a gauge.
  std::string prometheus_text(size_t queue_size) const;

 private:
  mutable std::mutex mutex_;
  std::map<int, uint64_t> requests_;
  std::map<std::pair<std::string, std::string>, uint64_t> grpc_calls_;  // (method, code)
  Histogram latency_, batch_rows_;
  uint64_t merged_batches_ = 0;
  uint64_t reloads_ok_ = 0, reloads_failed_ = 0;
};

}  // namespace keras::serving
