#include "models/summary_table.h"

#include <cmath>

#include "keras/core/errors.h"

namespace keras::detail {
namespace {

// Display width of UTF-8 text: one column per code point (the summary only uses narrow
// characters: ASCII, box drawing, the ellipsis).
size_t width_of(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// The first `columns` code points of s.
std::string prefix(const std::string& s, size_t columns) {
  size_t n = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == columns) break;
      ++n;
    }
  }
  return s.substr(0, i);
}

std::string repeat(const std::string& piece, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += piece;
  return out;
}

// rich's word wrap with overflow="ellipsis": greedy words per line; a word longer than the
// line is cut to width - 1 columns and an ellipsis.
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> words, lines;
  std::string word;
  for (char c : text) {
    if (c == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty()) words.push_back(word);
  // rich keeps a cell's leading spaces with its first word (the indentation of nested rows).
  size_t indent = text.find_first_not_of(' ');
  if (!words.empty() && indent != std::string::npos && indent > 0)
    words[0] = std::string(indent, ' ') + words[0];
  std::string line;
  for (std::string w : words) {
    if (width_of(w) > width) w = prefix(w, width - 1) + "\u2026";
    if (line.empty()) {
      line = w;
    } else if (width_of(line) + 1 + width_of(w) <= width) {
      line += " " + w;
    } else {
      lines.push_back(line);
      line = w;
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string justify(const std::string& text, size_t width, Justify how) {
  size_t w = width_of(text), pad = width > w ? width - w : 0;
  switch (how) {
    case Justify::Right: return std::string(pad, ' ') + text;
    case Justify::Center: return std::string(pad / 2, ' ') + text + std::string(pad - pad / 2, ' ');
    case Justify::Left: break;
  }
  return text + std::string(pad, ' ');
}

// rich.console.ratio_reduce: take `total` columns away, evenly, in order.
std::vector<long> ratio_reduce(long total, std::vector<long> values) {
  long total_ratio = static_cast<long>(values.size()), remaining = total;
  for (long& v : values) {
    long distributed = std::min(v, round_half_even(static_cast<double>(remaining) / total_ratio));
    v -= distributed;
    remaining -= distributed;
    --total_ratio;
  }
  return values;
}

}  // namespace

long round_half_even(double x) { return static_cast<long>(std::nearbyint(x)); }

std::string render_table(const SummaryTable& table, int line_length) {
  const size_t n = table.header.size();
  // Fixed column widths from the positions, plus one column of padding on each side...
  std::vector<long> widths;
  long current = 0;
  for (double pos : table.positions) {
    long w = static_cast<long>(pos * line_length) - current;
    check(w >= 4, "summary: line_length ", line_length, " is too narrow for the table.");
    widths.push_back(w + 2);
    current += w;
  }
  // ...then shrunk evenly to fit inside the borders.
  long borders = static_cast<long>(n) + 1, total = 0;
  for (long w : widths) total += w;
  if (total > line_length - borders) widths = ratio_reduce(total - (line_length - borders), widths);

  auto rule = [&](const char* left, const char* fill, const char* mid, const char* right) {
    std::string line = left;
    for (size_t i = 0; i < n; ++i) {
      line += repeat(fill, static_cast<size_t>(widths[i]));
      line += i + 1 < n ? mid : right;
    }
    return line + "\n";
  };
  auto row = [&](const std::vector<std::string>& cells, const char* bar) {
    std::vector<std::vector<std::string>> wrapped;
    size_t height = 1;
    for (size_t i = 0; i < n; ++i) {
      wrapped.push_back(wrap(i < cells.size() ? cells[i] : "", static_cast<size_t>(widths[i] - 2)));
      height = std::max(height, wrapped.back().size());
    }
    std::string out;
    for (size_t line = 0; line < height; ++line) {
      out += bar;
      for (size_t i = 0; i < n; ++i) {
        const std::string& text = line < wrapped[i].size() ? wrapped[i][line] : std::string();
        out += " " + justify(text, static_cast<size_t>(widths[i] - 2), table.justify[i]) + " ";
        out += bar;
      }
      out += "\n";
    }
    return out;
  };

  std::string out = rule("\u250f", "\u2501", "\u2533", "\u2513");
  out += row(table.header, "\u2503");
  out += rule("\u2521", "\u2501", "\u2547", "\u2529");
  for (size_t r = 0; r < table.rows.size(); ++r) {
    if (r) out += rule("\u251c", "\u2500", "\u253c", "\u2524");
    out += row(table.rows[r], "\u2502");
  }
  out += rule("\u2514", "\u2500", "\u2534", "\u2518");
  return out;
}

}  // namespace keras::detail
