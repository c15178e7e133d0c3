// A port of keras/src/utils/progbar.py; see the header for the non-terminal fallback.

#include "keras/utils/progbar.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "keras/core/errors.h"

namespace keras::utils {
namespace {

// Python's len(): code points, so "━" (3 bytes in UTF-8) counts once.
size_t display_length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string printf_string(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

double steady_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Python's "%d" % x for a float: truncation toward zero.
long long trunc_int(double x) { return static_cast<long long>(x); }

const char* kBar = "\xe2\x94\x81";  // ━

}  // namespace

Progbar::Progbar(std::optional<int64_t> target, ProgbarOptions options)
    : target_(target), options_(std::move(options)) {
  out_ = options_.out ? options_.out : &std::cout;
  dynamic_ = options_.dynamic_display.value_or(out_ == &std::cout && isatty(STDOUT_FILENO));
  if (!options_.clock) options_.clock = steady_seconds;
  if (options_.stateless_metrics && !options_.stateful_metrics.empty())
    throw ValueError(
        "Progbar: give only one of stateful_metrics or stateless_metrics (stateful_metrics "
        "lists values not to average; stateless_metrics lists the only values to average).");
  start_ = options_.clock();
}

void Progbar::add(int64_t n, const std::vector<std::pair<std::string, double>>& values) {
  update(seen_so_far_ + n, values);
}

std::string Progbar::format_time(double t) const {
  if (t >= 1 || t == 0) return printf_string(" %.0f", t) + "s/" + options_.unit_name;
  if (t >= 1e-3) return printf_string(" %.0f", t * 1000.0) + "ms/" + options_.unit_name;
  return printf_string(" %.0f", t * 1e6) + "us/" + options_.unit_name;
}

double Progbar::estimate_step_duration(int64_t current, double now) {
  if (current == 0) return 0;
  double time_per_unit;
  if (time_after_first_step_ && current > 1)
    time_per_unit = (now - *time_after_first_step_) / static_cast<double>(current - 1);
  else
    time_per_unit = (now - start_) / static_cast<double>(current);
  if (current == 1) time_after_first_step_ = now;
  return time_per_unit;
}

std::string Progbar::values_text(bool keras_verbose2) const {
  std::string info;
  for (const std::string& k : values_order_) {
    info += " - " + k + ":";
    auto [sum, count] = values_.at(k);
    double avg = sum / std::max(1.0, count);
    // Keras tests |avg| on the bar and avg itself on the verbose=2 line.
    bool fixed = keras_verbose2 ? avg > 1e-3 : std::abs(avg) > 1e-3;
    info += fixed ? printf_string(" %.4f", avg) : printf_string(" %.4e", avg);
  }
  return info;
}

void Progbar::update(int64_t current, const std::vector<std::pair<std::string, double>>& values,
                     std::optional<bool> finalize_arg) {
  bool finalize = finalize_arg.value_or(target_ && current >= *target_);
  for (const auto& [k, v] : values) {
    if (std::find(values_order_.begin(), values_order_.end(), k) == values_order_.end())
      values_order_.push_back(k);
    bool stateless = options_.stateless_metrics ? options_.stateless_metrics->count(k) > 0
                                                : options_.stateful_metrics.count(k) == 0;
    if (stateless && !finalize) {
      // Averaged over the steps seen, each update weighted by the steps it covers.
      double base = static_cast<double>(std::max<int64_t>(current - seen_so_far_, 1));
      auto it = values_.find(k);
      if (it == values_.end())
        values_[k] = {v * base, base};
      else
        it->second = {it->second.first + v * base, it->second.second + base};
    } else {
      values_[k] = {v, 1};
    }
  }
  seen_so_far_ = current;
  double now = options_.clock();
  double time_per_unit = estimate_step_duration(current, now);
  bool has_target = target_ && *target_ > 0;

  if (options_.verbose == 1) {
    if (now - last_update_ < options_.interval && !finalize) return;
    if (!dynamic_ && !finalize) {  // plain output: only the finished line
      last_update_ = now;
      return;
    }
    const bool color = dynamic_;
    std::string message;
    if (dynamic_) message += std::string(prev_total_width_, '\b') + "\r";
    std::string bar;
    size_t special = 0;
    if (has_target) {
      int digits = static_cast<int>(std::log10(static_cast<double>(*target_))) + 1;
      char count[64];
      std::snprintf(count, sizeof count, "%*lld/%lld", digits, static_cast<long long>(current),
                    static_cast<long long>(*target_));
      bar = color ? std::string("\x1b[1m") + count + "\x1b[0m " : std::string(count) + " ";
      special += color ? 8 : 0;
      double prog = static_cast<double>(current) / static_cast<double>(*target_);
      int prog_width = static_cast<int>(options_.width * prog);
      if (prog_width > 0) {
        bar += color ? "\33[32m" + repeat(kBar, prog_width) + "\x1b[0m" : repeat(kBar, prog_width);
        special += color ? 9 : 0;
      }
      std::string rest = repeat(kBar, options_.width - prog_width);
      bar += color ? "\33[37m" + rest + "\x1b[0m" : rest;
      special += color ? 9 : 0;
    } else {
      char count[64];
      std::snprintf(count, sizeof count, "%7lld/Unknown", static_cast<long long>(current));
      bar = count;
    }
    message += bar;
    std::string info;
    std::string time_text;
    if (has_target && !finalize) {
      double eta = time_per_unit * static_cast<double>(*target_ - current);
      char buf[64];
      if (eta > 3600)
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", trunc_int(eta / 3600),
                      trunc_int(std::fmod(eta, 3600) / 60), trunc_int(std::fmod(eta, 60)));
      else if (eta > 60)
        std::snprintf(buf, sizeof buf, "%lld:%02lld", trunc_int(eta / 60),
                      trunc_int(std::fmod(eta, 60)));
      else
        std::snprintf(buf, sizeof buf, "%llds", trunc_int(eta));
      time_text = buf;
    } else {
      time_text = printf_string("%.0f", now - start_) + "s";
    }
    info = color ? " \x1b[1m" + time_text + "\x1b[0m" : " " + time_text;
    special += color ? 8 : 0;
    info += format_time(time_per_unit);
    info += values_text(false);
    message += info;
    size_t total_width = display_length(bar) + display_length(info) - special;
    if (dynamic_ && prev_total_width_ > total_width)
      message += std::string(prev_total_width_ - total_width, ' ');
    if (finalize) message += "\n";
    *out_ << message << std::flush;
    prev_total_width_ = dynamic_ ? total_width : 0;
  } else if (options_.verbose == 2) {
    if (finalize && has_target) {
      int digits = static_cast<int>(std::log10(static_cast<double>(*target_))) + 1;
      char count[64];
      std::snprintf(count, sizeof count, "%*lld/%lld", digits, static_cast<long long>(current),
                    static_cast<long long>(*target_));
      std::string info = std::string(count) + " - " + printf_string("%.0f", now - start_) + "s";
      info += " -" + format_time(time_per_unit);
      info += values_text(true);
      *out_ << info << "\n" << std::flush;
    }
  }
  last_update_ = now;
}

}  // namespace keras::utils
