#pragma once
// The table model.summary() prints: the layout Keras gets from rich.table.Table(show_lines=True)
// with fixed column widths, reproduced character for character (heavy header borders, light
// row borders, words wrapped inside cells and over-long words cut with an ellipsis).

#include <string>
#include <vector>

namespace keras::detail {

enum class Justify { Left, Right, Center };

struct SummaryTable {
  std::vector<std::string> header;
  /// Keras's relative column positions (e.g. 0.45, 0.80, 1.0).
  std::vector<double> positions;
  std::vector<Justify> justify;
  std::vector<std::vector<std::string>> rows;
};

/// The table as text, `line_length` characters wide, lines ending in '\n'.
std::string render_table(const SummaryTable& table, int line_length);

/// Python's round(): halves go to the even neighbour.
long round_half_even(double x);

}  // namespace keras::detail
