#pragma once
// TF Serving's model_version_policy: which versions of a model's version folders to serve at
// once. "latest" (the default, num_versions 1) serves the highest ones, "all" every one,
// "specific" the listed ones. Written in a --model-config entry as TF Serving's config writes
// it, in JSON:
//   "model_version_policy": {"latest": {"num_versions": 2}} | {"all": {}} |
//                           {"specific": {"versions": [1, 3]}}

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace keras::serving {

/// Which version folders a model serves.
struct VersionPolicy {
  /// "latest", "all" or "specific".
  std::string kind = "latest";
  /// For "latest": how many of the highest versions.
  int64_t num_versions = 1;
  /// For "specific": the versions.
  std::vector<int64_t> versions;

  /// From a config's "model_version_policy" value; ValueError starting with `where` that says
  /// what is wrong.
  static VersionPolicy from_json(const nlohmann::json& value, const std::string& where);
  /// The versions to serve among the `available` folders.
  std::set<int64_t> select(const std::map<int64_t, std::string>& available) const;
};

}  // namespace keras::serving
