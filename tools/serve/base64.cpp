#include "serve/base64.h"

#include <cstdint>

namespace keras::serving {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int v[4];
    int padding = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = text[i + static_cast<size_t>(k)];
      // '=' only at the end of the last group, at most two of them.
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        v[k] = 0;
        ++padding;
        continue;
      }
      if (padding || (v[k] = value_of(c)) < 0) return std::nullopt;
    }
    const uint32_t bits = (static_cast<uint32_t>(v[0]) << 18) |
                          (static_cast<uint32_t>(v[1]) << 12) | (static_cast<uint32_t>(v[2]) << 6) |
                          static_cast<uint32_t>(v[3]);
    // Canonical: the bits under the padding are zero.
    if ((padding == 1 && (bits & 0xFF)) || (padding == 2 && (bits & 0xFFFF))) return std::nullopt;
    out += static_cast<char>(bits >> 16);
    if (padding < 2) out += static_cast<char>((bits >> 8) & 0xFF);
    if (padding < 1) out += static_cast<char>(bits & 0xFF);
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const size_t n = bytes.size() - i < 3 ? bytes.size() - i : 3;
    uint32_t bits = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (n > 1) bits |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (n > 2) bits |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 2]));
    out += kAlphabet[(bits >> 18) & 63];
    out += kAlphabet[(bits >> 12) & 63];
    out += n > 1 ? kAlphabet[(bits >> 6) & 63] : '=';
    out += n > 2 ? kAlphabet[bits & 63] : '=';
  }
  return out;
}

}  // namespace keras::serving
