// The conformance table and summary (Markdown, so docs/backends.md can show them as printed).

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "keras/testing/conformance.h"

namespace keras::testing {
namespace {

std::string cell(const ConformanceResult& r) {
  switch (r.status) {
    case ConformanceStatus::NotImplemented: return "not implemented";
    case ConformanceStatus::Error: return "ERROR";
    default: break;
  }
  char text[48];
  if (r.difference == 0)
    std::snprintf(text, sizeof text, "0");
  else
    std::snprintf(text, sizeof text, "%.1e", r.difference);
  std::string s = text;
  return r.status == ConformanceStatus::Fail ? "FAIL " + s : s;
}

std::vector<std::string> backends_of(const std::vector<ConformanceResult>& results) {
  std::vector<std::string> names;
  for (const auto& r : results)
    if (std::find(names.begin(), names.end(), r.backend) == names.end()) names.push_back(r.backend);
  return names;
}

}  // namespace

std::string conformance_table(const std::vector<ConformanceResult>& results) {
  const std::vector<std::string> backends = backends_of(results);
  // Rows in first-seen order, keyed by family and name.
  std::vector<std::pair<std::string, std::string>> rows;
  std::map<std::pair<std::string, std::string>, std::map<std::string, const ConformanceResult*>> cells;
  for (const auto& r : results) {
    auto key = std::make_pair(r.family, r.name);
    if (!cells.count(key)) rows.push_back(key);
    cells[key][r.backend] = &r;
  }
  std::ostringstream out;
  out << "| family | case | bound |";
  for (const auto& b : backends) out << ' ' << b << " |";
  out << "\n|---|---|---|";
  for (size_t i = 0; i < backends.size(); ++i) out << "---|";
  out << '\n';
  for (const auto& key : rows) {
    const auto& by_backend = cells[key];
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.0e", by_backend.begin()->second->bound);
    out << "| " << key.first << " | " << key.second << " | " << bound << " |";
    for (const auto& b : backends) {
      auto it = by_backend.find(b);
      out << ' ' << (it == by_backend.end() ? "" : cell(*it->second)) << " |";
    }
    out << '\n';
  }
  return out.str();
}

std::string conformance_summary(const std::vector<ConformanceResult>& results) {
  struct Tally {
    int cases = 0, passed = 0, not_implemented = 0;
    double worst = 0;
  };
  std::map<std::pair<std::string, std::string>, Tally> tallies;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto& r : results) {
    auto key = std::make_pair(r.backend, r.family);
    if (!tallies.count(key)) order.push_back(key);
    Tally& t = tallies[key];
    ++t.cases;
    if (r.status == ConformanceStatus::Pass) ++t.passed;
    if (r.status == ConformanceStatus::NotImplemented) ++t.not_implemented;
    if (r.status == ConformanceStatus::Pass || r.status == ConformanceStatus::Fail)
      t.worst = std::max(t.worst, r.difference);
  }
  std::ostringstream out;
  out << "| backend | family | cases | passed | not implemented | largest difference |\n"
         "|---|---|---|---|---|---|\n";
  for (const auto& key : order) {
    const Tally& t = tallies[key];
    char worst[32];
    std::snprintf(worst, sizeof worst, "%.1e", t.worst);
    out << "| " << key.first << " | " << key.second << " | " << t.cases << " | " << t.passed
        << " | " << t.not_implemented << " | " << (t.worst == 0 ? "0" : worst) << " |\n";
  }
  return out.str();
}

}  // namespace keras::testing
