#pragma once
// Reads TensorFlow event files back for the TensorBoard tests: TFRecord framing with both CRCs
// checked, and a protobuf decoder for the Event fields the callback writes. (TensorFlow itself
// reads the same files in tools/keras_oracle/tensorboard_events.py --check.)

#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "callbacks/tensorboard/event_file_writer.h"

namespace keras::test {

/// The data of every record in a TFRecord file; throws on a bad length or CRC.
inline std::vector<std::string> read_tfrecords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  const std::string bytes = s.str();
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  std::vector<std::string> records;
  for (size_t at = 0; at < bytes.size();) {
    if (at + 12 > bytes.size()) throw std::runtime_error("truncated record header");
    uint64_t length;
    std::memcpy(&length, bytes.data() + at, 8);
    if (u32(at + 8) != callbacks::tensorboard::masked_crc32c(bytes.substr(at, 8)))
      throw std::runtime_error("bad length CRC");
    if (at + 16 + length > bytes.size()) throw std::runtime_error("truncated record");
    std::string data = bytes.substr(at + 12, length);
    if (u32(at + 12 + length) != callbacks::tensorboard::masked_crc32c(data))
      throw std::runtime_error("bad data CRC");
    records.push_back(data);
    at += 16 + length;
  }
  return records;
}

/// One protobuf message's fields: number -> values (varints and fixed as integers, the rest
/// as bytes).
struct ProtoFields {
  std::multimap<int, uint64_t> numbers;
  std::multimap<int, std::string> bytes;
  std::string str(int field) const {
    auto it = bytes.find(field);
    return it == bytes.end() ? "" : it->second;
  }
  uint64_t num(int field) const {
    auto it = numbers.find(field);
    return it == numbers.end() ? 0 : it->second;
  }
};

inline ProtoFields parse_proto(const std::string& m) {
  ProtoFields f;
  size_t at = 0;
  auto varint = [&]() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      auto b = static_cast<unsigned char>(m.at(at++));
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (at < m.size()) {
    uint64_t key = varint();
    int field = static_cast<int>(key >> 3);
    switch (key & 7) {
      case 0:
        f.numbers.emplace(field, varint());
        break;
      case 1: {
        uint64_t v;
        std::memcpy(&v, m.data() + at, 8);
        at += 8;
        f.numbers.emplace(field, v);
        break;
      }
      case 2: {
        uint64_t n = varint();
        f.bytes.emplace(field, m.substr(at, n));
        at += n;
        break;
      }
      case 5: {
        uint32_t v;
        std::memcpy(&v, m.data() + at, 4);
        at += 4;
        f.numbers.emplace(field, v);
        break;
      }
      default:
        throw std::runtime_error("unexpected wire type");
    }
  }
  return f;
}

/// A summary value of an Event, decoded.
struct SummaryRecord {
  std::string tag;
  int64_t step = 0;
  std::string plugin, content;
  int dtype = 0;
  std::vector<int64_t> shape;
  std::vector<double> values;  // float and double tensors
  std::string text;            // string tensors
};

/// The summaries of a file (the file-version event is checked and left out).
inline std::vector<SummaryRecord> read_summaries(const std::string& path) {
  std::vector<SummaryRecord> out;
  std::vector<std::string> records = read_tfrecords(path);
  if (records.empty() || parse_proto(records[0]).str(3) != "brain.Event:2")
    throw std::runtime_error("no file version event");
  for (size_t i = 1; i < records.size(); ++i) {
    ProtoFields e = parse_proto(records[i]);
    ProtoFields summary = parse_proto(e.str(5));
    for (auto [it, end] = summary.bytes.equal_range(1); it != end; ++it) {
      ProtoFields v = parse_proto(it->second);
      ProtoFields tensor = parse_proto(v.str(8));
      ProtoFields plugin = parse_proto(parse_proto(v.str(9)).str(1));
      SummaryRecord r;
      r.tag = v.str(1);
      r.step = static_cast<int64_t>(e.num(2));
      r.plugin = plugin.str(1);
      r.content = plugin.str(2);
      r.dtype = static_cast<int>(tensor.num(1));
      ProtoFields shape = parse_proto(tensor.str(2));
      for (auto [d, dend] = shape.bytes.equal_range(2); d != dend; ++d)
        r.shape.push_back(static_cast<int64_t>(parse_proto(d->second).num(1)));
      std::string content = tensor.str(4);
      if (r.dtype == 1) {
        for (size_t k = 0; k + 4 <= content.size(); k += 4) {
          float x;
          std::memcpy(&x, content.data() + k, 4);
          r.values.push_back(x);
        }
      } else if (r.dtype == 2) {
        for (size_t k = 0; k + 8 <= content.size(); k += 8) {
          double x;
          std::memcpy(&x, content.data() + k, 8);
          r.values.push_back(x);
        }
      } else {
        r.text = tensor.str(8);
      }
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace keras::test
