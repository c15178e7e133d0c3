#pragma once
// TensorFlow event files without TensorFlow: what tf.summary.create_file_writer writes and
// TensorBoard reads. A file is a sequence of TFRecord records, each
//   uint64 length, uint32 masked_crc32c(length), the serialized tensorflow.Event,
//   uint32 masked_crc32c(data)
// (little-endian). The first Event holds the file version "brain.Event:2" and the writer's
// name; every summary is an Event {wall_time, step, summary {value {tag, tensor, metadata}}}
// as TensorFlow's summary file writer stores the tensor of tf.summary.write.

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace keras::callbacks::tensorboard {

/// CRC-32C (Castagnoli) of `data`, the checksum TFRecord uses.
uint32_t crc32c(std::string_view data);
/// TFRecord's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t masked_crc32c(std::string_view data);
/// One TFRecord record framing `data`.
std::string tfrecord(std::string_view data);

/// The plugin that displays a summary: SummaryMetadata.plugin_data (name, content).
struct SummaryPlugin {
  std::string name;
  std::string content;
};

/// Serialized tensorflow.Event messages (the writer uses them; tests compare them with the
/// records TensorFlow writes).
namespace event {
/// The file's first event: file_version "brain.Event:2", source_metadata.writer.
std::string file_version(double wall_time);
/// A float32 scalar tensor summary (tf.summary.scalar: plugin "scalars").
std::string scalar(double wall_time, int64_t step, const std::string& tag, float value);
/// A float64 tensor of shape (rows, columns), row-major (tf.summary.histogram's buckets).
std::string float64_matrix(double wall_time, int64_t step, const std::string& tag,
                           const std::vector<double>& values, int64_t rows, int64_t columns,
                           const SummaryPlugin& plugin);
/// A scalar string tensor summary (Keras's keras_model_summary: the model's JSON).
std::string text(double wall_time, int64_t step, const std::string& tag, const std::string& value,
                 const SummaryPlugin& plugin);
}  // namespace event

/// One events.out.tfevents.* file in a folder (created with its parents), as
/// tf.summary.create_file_writer(folder) names it:
/// events.out.tfevents.<10-digit seconds>.<host>.<pid>.<writer number>.v2
class EventFileWriter {
 public:
  explicit EventFileWriter(const std::string& folder);
  const std::string& path() const { return path_; }

  void scalar(int64_t step, const std::string& tag, float value);
  /// tf.summary.histogram(tag, data, step): TensorBoard's 30 buckets of `data`.
  void histogram(int64_t step, const std::string& tag, const std::vector<double>& data);
  void text(int64_t step, const std::string& tag, const std::string& value,
            const SummaryPlugin& plugin);
  void flush();

 private:
  void write(const std::string& event);
  std::string path_;
  std::ofstream out_;
};

/// TensorBoard's histogram buckets (tensorboard/plugins/histogram/summary_v2.py, _buckets):
/// rows of (left edge, right edge, count); `bucket_count` equal-width buckets between the min
/// and max (the last edge is the max itself, the last bucket holds the max), one bucket
/// (value - 0.5, value + 0.5, n) when all values are equal, none when there are no values.
std::vector<double> histogram_buckets(const std::vector<double>& data, int bucket_count = 30);

/// Seconds since the epoch, with microseconds (an Event's wall_time).
double wall_time_now();

}  // namespace keras::callbacks::tensorboard
