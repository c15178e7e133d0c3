// parse_json: nlohmann's parser with a depth limit enforced from its parser callback (called
// as each array or object starts, before anything deeper is read) and a size limit checked
// before parsing.

#include "keras/saving/safe_json.h"

#include "keras/core/errors.h"

namespace keras::saving {
namespace {

// Thrown from the parser callback; carries nothing, the caller knows the limit.
struct TooDeep {};

}  // namespace

Config parse_json(std::string_view text, const std::string& source,
                          const JsonLimits& limits) {
  check(text.size() <= limits.max_bytes, "Refusing ", source, ": its JSON is ", text.size(),
        " bytes, more than the limit of ", limits.max_bytes, ".");
  // The parser reports an opening bracket at depth d (0 for the top level) with a start
  // event; counting bytes ourselves gives the offset of the bracket that went too deep.
  const int max_depth = limits.max_depth;
  auto callback = [max_depth](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if ((event == nlohmann::json::parse_event_t::object_start ||
         event == nlohmann::json::parse_event_t::array_start) &&
        depth >= max_depth)
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), callback, /*allow_exceptions=*/true);
  } catch (const TooDeep&) {
    // Find where: the first bracket that opens level max_depth + 1, outside strings.
    int depth = 0;
    bool in_string = false, escaped = false;
    size_t offset = 0;
    for (; offset < text.size(); ++offset) {
      char c = text[offset];
      if (in_string) {
        if (escaped) escaped = false;
        else if (c == '\\') escaped = true;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        if (++depth > max_depth) break;
      } else if (c == ']' || c == '}') {
        --depth;
      }
    }
    throw ValueError(detail::cat("Refusing ", source, ": its JSON nests arrays and objects more than ",
                                 max_depth, " levels deep (at byte ", offset, ")."));
  } catch (const nlohmann::json::parse_error& e) {
    throw ValueError(detail::cat("Invalid JSON in ", source, " at byte ", e.byte, ": ", e.what()));
  } catch (const nlohmann::json::exception& e) {
    throw ValueError(detail::cat("Invalid JSON in ", source, ": ", e.what()));
  }
}

void check_count(const std::string& what, size_t count, size_t limit, const std::string& source) {
  check(count <= limit, "Refusing ", source, ": it declares ", count, " ", what,
        ", more than the limit of ", limit, ".");
}

}  // namespace keras::saving
