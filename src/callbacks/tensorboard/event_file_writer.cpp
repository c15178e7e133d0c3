// TFRecord framing, CRC-32C and the tensorflow.Event encoding (field numbers from
// tensorflow/core/util/event.proto, core/framework/{summary,tensor,tensor_shape}.proto).

#include "callbacks/tensorboard/event_file_writer.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "keras/core/errors.h"
#include "saving/onnx/protobuf.h"

namespace keras::callbacks::tensorboard {

using onnx::ProtoWriter;

// ---- TFRecord ---------------------------------------------------------------------------------

namespace {

std::array<uint32_t, 256> make_crc32c_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;  // reflected
    table[i] = c;
  }
  return table;
}

void append_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

}  // namespace

uint32_t crc32c(std::string_view data) {
  static const std::array<uint32_t, 256> table = make_crc32c_table();
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char b : data) crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t masked_crc32c(std::string_view data) {
  uint32_t crc = crc32c(data);
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::string tfrecord(std::string_view data) {
  std::string length;
  append_le(length, data.size(), 8);
  std::string out = length;
  append_le(out, masked_crc32c(length), 4);
  out.append(data);
  append_le(out, masked_crc32c(data), 4);
  return out;
}

// ---- Event messages ---------------------------------------------------------------------------

namespace {

// Field numbers.
constexpr int kEventWallTime = 1, kEventStep = 2, kEventFileVersion = 3, kEventSummary = 5,
              kEventSourceMetadata = 10, kSourceMetadataWriter = 1;
constexpr int kSummaryValue = 1, kValueTag = 1, kValueTensor = 8, kValueMetadata = 9;
constexpr int kMetadataPluginData = 1, kPluginName = 1, kPluginContent = 2;
constexpr int kTensorDtype = 1, kTensorShape = 2, kTensorContent = 4, kTensorStringVal = 8;
constexpr int kShapeDim = 2, kDimSize = 1;
// tensorflow.DataType.
constexpr int kDtFloat = 1, kDtDouble = 2, kDtString = 7;

ProtoWriter shape_proto(const std::vector<int64_t>& dims) {
  ProtoWriter shape;
  for (int64_t d : dims) {
    ProtoWriter dim;
    dim.varint(kDimSize, d);
    shape.message(kShapeDim, dim);
  }
  return shape;
}

// An Event with one summary value. Fields go in number order, as protobuf's own serializer
// writes them (proto3: a zero step is left out).
std::string summary_event(double wall_time, int64_t step, const std::string& tag,
                          const ProtoWriter& tensor, const SummaryPlugin& plugin) {
  ProtoWriter plugin_data;
  plugin_data.bytes(kPluginName, plugin.name);
  if (!plugin.content.empty()) plugin_data.bytes(kPluginContent, plugin.content);
  ProtoWriter metadata;
  metadata.message(kMetadataPluginData, plugin_data);
  ProtoWriter value;
  value.bytes(kValueTag, tag);
  value.message(kValueTensor, tensor);
  value.message(kValueMetadata, metadata);
  ProtoWriter summary;
  summary.message(kSummaryValue, value);
  ProtoWriter e;
  e.float64(kEventWallTime, wall_time);
  if (step != 0) e.varint(kEventStep, step);
  e.message(kEventSummary, summary);
  return e.data();
}

}  // namespace

namespace event {

std::string file_version(double wall_time) {
  ProtoWriter source;
  source.bytes(kSourceMetadataWriter, "tensorflow.core.util.events_writer");
  ProtoWriter e;
  e.float64(kEventWallTime, wall_time);
  e.bytes(kEventFileVersion, "brain.Event:2");
  e.message(kEventSourceMetadata, source);
  return e.data();
}

// TensorFlow writes numeric tensors as tensor_content (Tensor::AsProtoTensorContent).
std::string scalar(double wall_time, int64_t step, const std::string& tag, float value) {
  ProtoWriter tensor;
  tensor.varint(kTensorDtype, kDtFloat);
  tensor.message(kTensorShape, shape_proto({}));
  std::string content(4, '\0');
  std::memcpy(content.data(), &value, 4);
  tensor.bytes(kTensorContent, content);
  return summary_event(wall_time, step, tag, tensor, {"scalars", ""});
}

std::string float64_matrix(double wall_time, int64_t step, const std::string& tag,
                           const std::vector<double>& values, int64_t rows, int64_t columns,
                           const SummaryPlugin& plugin) {
  ProtoWriter tensor;
  tensor.varint(kTensorDtype, kDtDouble);
  tensor.message(kTensorShape, shape_proto({rows, columns}));
  std::string content(values.size() * 8, '\0');
  if (!values.empty()) std::memcpy(content.data(), values.data(), content.size());
  if (!content.empty()) tensor.bytes(kTensorContent, content);
  return summary_event(wall_time, step, tag, tensor, plugin);
}

// ... and string tensors as string_val (so that Python's MakeNdarray reads them).
std::string text(double wall_time, int64_t step, const std::string& tag, const std::string& value,
                 const SummaryPlugin& plugin) {
  ProtoWriter tensor;
  tensor.varint(kTensorDtype, kDtString);
  tensor.message(kTensorShape, shape_proto({}));
  tensor.bytes(kTensorStringVal, value);
  return summary_event(wall_time, step, tag, tensor, plugin);
}

}  // namespace event

// ---- Histogram buckets ------------------------------------------------------------------------

std::vector<double> histogram_buckets(const std::vector<double>& data, int bucket_count) {
  if (data.empty()) return {};
  double min = data[0], max = data[0];
  for (double v : data) {
    min = std::min(min, v);
    max = std::max(max, v);
  }
  double range = max - min;
  if (range == 0) return {min - 0.5, min + 0.5, static_cast<double>(data.size())};
  double width = range / bucket_count;
  std::vector<double> counts(bucket_count, 0.0);
  for (double v : data) {
    auto index = static_cast<int64_t>(std::floor((v - min) / width));
    counts[std::min<int64_t>(index, bucket_count - 1)] += 1;
  }
  // tf.linspace(min, max, n + 1) is min + i * (range / n); the last edge is max itself.
  std::vector<double> edges(bucket_count + 1);
  for (int i = 0; i < bucket_count; ++i) edges[i] = min + width * i;
  edges[bucket_count] = max;
  std::vector<double> rows;
  rows.reserve(3 * bucket_count);
  for (int i = 0; i < bucket_count; ++i) {
    rows.push_back(edges[i]);
    rows.push_back(edges[i + 1]);
    rows.push_back(counts[i]);
  }
  return rows;
}

// ---- The file ---------------------------------------------------------------------------------

double wall_time_now() {
  auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  return static_cast<double>(micros) / 1e6;
}

EventFileWriter::EventFileWriter(const std::string& folder) {
  static std::atomic<int64_t> writers{0};
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  double now = wall_time_now();
  char host[256] = {};
  if (::gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  char name[512];
  std::snprintf(name, sizeof(name), "events.out.tfevents.%010lld.%s.%d.%lld.v2",
                static_cast<long long>(now), host, static_cast<int>(::getpid()),
                static_cast<long long>(writers++));
  path_ = (std::filesystem::path(folder) / name).string();
  out_.open(path_, std::ios::binary | std::ios::trunc);
  if (!out_) throw IOError("TensorBoard: cannot create the event file " + path_ + ".");
  write(event::file_version(now));
}

// Flushed at once: TensorBoard reads the files while training runs, and a callback writes a few
// records per batch at most.
void EventFileWriter::write(const std::string& event) {
  out_ << tfrecord(event);
  out_.flush();
  if (!out_) throw IOError("TensorBoard: cannot write the event file " + path_ + ".");
}

void EventFileWriter::scalar(int64_t step, const std::string& tag, float value) {
  write(event::scalar(wall_time_now(), step, tag, value));
}

void EventFileWriter::histogram(int64_t step, const std::string& tag,
                                const std::vector<double>& data) {
  std::vector<double> rows = histogram_buckets(data);
  write(event::float64_matrix(wall_time_now(), step, tag, rows,
                              static_cast<int64_t>(rows.size() / 3), 3, {"histograms", ""}));
}

void EventFileWriter::text(int64_t step, const std::string& tag, const std::string& value,
                           const SummaryPlugin& plugin) {
  write(event::text(wall_time_now(), step, tag, value, plugin));
}

void EventFileWriter::flush() {
  out_.flush();
}

}  // namespace keras::callbacks::tensorboard
