#pragma once
// JSON from files written by strangers (config.json, metadata.json, a legacy .h5's
// model_config): parsed with limits on size and nesting depth, so a hostile file gets a
// ValueError naming the file and the byte offset instead of a stack overflow or an
// allocation the file cannot justify.
//
//   keras::Config config = keras::saving::parse_json(text, "m.keras:config.json");
//   keras::saving::check_count("layers", config["config"]["layers"].size(),
//                              keras::saving::kMaxLayers, "m.keras:config.json");

#include <cstddef>
#include <string>
#include <string_view>

#include "keras/core/json.h"

#pragma GCC visibility push(default)
namespace keras::saving {

/// Limits on one JSON document.
struct JsonLimits {
  /// Documents longer than this many bytes are refused.
  size_t max_bytes = size_t{64} << 20;
  /// Arrays and objects nested deeper than this are refused (the top level is depth 1).
  int max_depth = 256;
};

/// The most layers (or nodes, or inbound nodes of one layer) a model config may declare.
inline constexpr size_t kMaxLayers = 100000;

/// `text` parsed as JSON; `source` names it in errors. ValueError naming `source` and the byte
/// offset for malformed JSON, too deep nesting or a document over the size limit.
Config parse_json(std::string_view text, const std::string& source,
                          const JsonLimits& limits = {});

/// ValueError naming `what` and `source` when `count` exceeds `limit` (a config declaring an
/// absurd number of layers or nodes).
void check_count(const std::string& what, size_t count, size_t limit, const std::string& source);

}  // namespace keras::saving

#pragma GCC visibility pop
