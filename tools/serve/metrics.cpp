#include "serve/metrics.h"

#include <cmath>
#include <cstdio>

namespace keras::serving {
namespace {

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void Histogram::observe(double value) {
  size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  ++counts_[i];
  sum_ += value;
  ++count_;
}

std::string Histogram::text(const std::string& name) const {
  std::string out;
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += counts_[i];
    std::string le = i < bounds_.size() ? number(bounds_[i]) : "+Inf";
    out += name + "_bucket{le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += name + "_sum " + number(sum_) + "\n";
  out += name + "_count " + std::to_string(count_) + "\n";
  return out;
}

Metrics::Metrics()
    : latency_({0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}),
      batch_rows_({1, 2, 4, 8, 16, 32, 64, 128, 256, 512}) {}

void Metrics::record_request(int status) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[status];
}

void Metrics::record_grpc_call(const std::string& method, const std::string& code) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++grpc_calls_[{method, code}];
}

void Metrics::record_latency(double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  latency_.observe(seconds);
}

void Metrics::record_batch(int64_t rows, int64_t requests) {
  std::lock_guard<std::mutex> lock(mutex_);
  batch_rows_.observe(static_cast<double>(rows));
  if (requests > 1) ++merged_batches_;
}

void Metrics::record_reload(bool ok) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++(ok ? reloads_ok_ : reloads_failed_);
}

uint64_t Metrics::requests(int status) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = requests_.find(status);
  return it == requests_.end() ? 0 : it->second;
}

uint64_t Metrics::grpc_calls(const std::string& method, const std::string& code) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = grpc_calls_.find({method, code});
  return it == grpc_calls_.end() ? 0 : it->second;
}

uint64_t Metrics::batches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return batch_rows_.count();
}

uint64_t Metrics::merged_batches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return merged_batches_;
}

std::string Metrics::prometheus_text(size_t queue_size) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  out += "# HELP keras_serving_requests_total HTTP requests answered, by status code.\n";
  out += "# TYPE keras_serving_requests_total counter\n";
  for (const auto& [code, n] : requests_)
    out += "keras_serving_requests_total{code=\"" + std::to_string(code) + "\"} " +
           std::to_string(n) + "\n";
  out += "# HELP keras_serving_grpc_calls_total gRPC calls answered, by method and status code.\n";
  out += "# TYPE keras_serving_grpc_calls_total counter\n";
  for (const auto& [key, n] : grpc_calls_)
    out += "keras_serving_grpc_calls_total{method=\"" + key.first + "\",code=\"" + key.second +
           "\"} " + std::to_string(n) + "\n";
  out +=
      "# HELP keras_serving_request_duration_seconds Time from a request reaching its "
      "handler to its response (REST requests and gRPC Predict calls).\n";
  out += "# TYPE keras_serving_request_duration_seconds histogram\n";
  out += latency_.text("keras_serving_request_duration_seconds");
  out += "# HELP keras_serving_batch_size Rows per predict_on_batch call.\n";
  out += "# TYPE keras_serving_batch_size histogram\n";
  out += batch_rows_.text("keras_serving_batch_size");
  out += "# HELP keras_serving_merged_batches_total Batches made of more than one request.\n";
  out += "# TYPE keras_serving_merged_batches_total counter\n";
  out += "keras_serving_merged_batches_total " + std::to_string(merged_batches_) + "\n";
  out += "# HELP keras_serving_queue_size Requests waiting for the model.\n";
  out += "# TYPE keras_serving_queue_size gauge\n";
  out += "keras_serving_queue_size " + std::to_string(queue_size) + "\n";
  out += "# HELP keras_serving_model_reloads_total Changed model files, served or refused.\n";
  out += "# TYPE keras_serving_model_reloads_total counter\n";
  out += "keras_serving_model_reloads_total{result=\"ok\"} " + std::to_string(reloads_ok_) + "\n";
  out += "keras_serving_model_reloads_total{result=\"failed\"} " +
         std::to_string(reloads_failed_) + "\n";
  return out;
}

}  // namespace keras::serving
