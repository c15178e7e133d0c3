#pragma once
// keras::utils::Progbar: Keras 3's progress bar, character for character (a port of
// keras/src/utils/progbar.py): "469/469 ━━━━━━━━━━━━━━━━━━━━ 3s 6ms/step - loss: 0.5312".
//
// On a terminal it redraws one line with Keras's ANSI colours. When the output is not a
// terminal (a log file, CI) it writes plain text instead: no escape codes and no redraws, only
// the finished line of each bar.

#include <chrono>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#pragma GCC visibility push(default)
namespace keras::utils {

/// Progbar's keyword arguments (keras.utils.Progbar).
struct ProgbarOptions {
  /// Width of the bar in characters.
  int width = 20;
  /// 0 silent, 1 the redrawn bar, 2 one line when finished.
  int verbose = 1;
  /// Minimum seconds between redraws.
  double interval = 0.05;
  /// Values shown as given rather than averaged over the steps (the others are averaged).
  std::set<std::string> stateful_metrics;
  /// When set, the reverse rule: only these are averaged (ProgbarLogger passes an empty set,
  /// since fit's logs are already running means). Do not set both.
  std::optional<std::set<std::string>> stateless_metrics;
  /// The unit shown in the per-unit time ("3s 6ms/step").
  std::string unit_name = "step";
  /// Where to write (default std::cout).
  std::ostream* out = nullptr;
  /// Redraw in place with colours; default: whether `out` is std::cout on a terminal.
  std::optional<bool> dynamic_display;
  /// Seconds since some origin; default a steady clock (tests pass a fake one).
  std::function<double()> clock;
};

/// Keras's progress bar (keras.utils.Progbar): fit's and evaluate's per-epoch bar, usable on its
/// own.
class Progbar {
 public:
  /// `target`: the total number of steps, or nullopt when unknown.
  explicit Progbar(std::optional<int64_t> target, ProgbarOptions options = {});

  /// Moves the bar to `current` with these (name, value) pairs. `finalize` defaults to
  /// current >= target.
  void update(int64_t current, const std::vector<std::pair<std::string, double>>& values = {},
              std::optional<bool> finalize = std::nullopt);
  /// update(seen + n, values).
  void add(int64_t n, const std::vector<std::pair<std::string, double>>& values = {});

 private:
  std::string format_time(double time_per_unit) const;
  double estimate_step_duration(int64_t current, double now);
  std::string values_text(bool keras_verbose2) const;

  std::optional<int64_t> target_;
  ProgbarOptions options_;
  std::ostream* out_;
  bool dynamic_;
  int64_t seen_so_far_ = 0;
  std::map<std::string, std::pair<double, double>> values_;  // sum, count
  std::vector<std::string> values_order_;
  double start_ = 0, last_update_ = 0;
  std::optional<double> time_after_first_step_;
  size_t prev_total_width_ = 0;
};

}  // namespace keras::utils

#pragma GCC visibility pop
