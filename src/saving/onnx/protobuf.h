#pragma once
// The protocol buffers wire format, write side only: enough to emit an ONNX ModelProto (and
// TensorBoard's Event records, src/callbacks/tensorboard) without a dependency on libprotobuf
// (the schemas are small and stable; only their field numbers are needed, onnx_proto.h). Fields are written in the order of the calls; repeated numbers are
// written one field per value (unpacked), which every proto2 and proto3 reader accepts.

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace keras::onnx {

class ProtoWriter {
 public:
  /// A varint field (int32, int64, enum, bool).
  void varint(int field, int64_t value) {
    key(field, 0);
    raw_varint(static_cast<uint64_t>(value));
  }
  /// A 32-bit float field.
  void float32(int field, float value) {
    key(field, 5);
    char b[4];
    std::memcpy(b, &value, 4);  // little-endian on every platform keras-cpp builds for
    bytes_.append(b, 4);
  }
  /// A 64-bit float field (double).
  void float64(int field, double value) {
    key(field, 1);
    char b[8];
    std::memcpy(b, &value, 8);
    bytes_.append(b, 8);
  }
  /// A length-delimited field: a string, bytes, or an embedded message's encoding.
  void bytes(int field, std::string_view value) {
    key(field, 2);
    raw_varint(value.size());
    bytes_.append(value);
  }
  /// An embedded message.
  void message(int field, const ProtoWriter& m) { bytes(field, m.bytes_); }

  const std::string& data() const { return bytes_; }

 private:
  void key(int field, int wire_type) {
    raw_varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wire_type));
  }
  void raw_varint(uint64_t v) {
    while (v >= 0x80) {
      bytes_.push_back(static_cast<char>((v & 0x7F) | 0x80));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  std::string bytes_;
};

}  // namespace keras::onnx
