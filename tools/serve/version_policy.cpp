#include "serve/version_policy.h"

#include "keras/core/errors.h"

namespace keras::serving {

VersionPolicy VersionPolicy::from_json(const nlohmann::json& value, const std::string& where) {
  const std::string form =
      "; expected {\"latest\": {\"num_versions\": N}}, {\"all\": {}} or "
      "{\"specific\": {\"versions\": [1, 2]}}";
  if (!value.is_object() || value.size() != 1 || !value.begin()->is_object())
    throw ValueError(where + "\"model_version_policy\" must hold one policy" + form);
  VersionPolicy p;
  p.kind = value.begin().key();
  const nlohmann::json& args = *value.begin();
  auto only = [&](const char* key) {
    for (const auto& [k, v] : args.items())
      if (k != key)
        throw ValueError(where + "unknown key \"" + k + "\" in the \"" + p.kind + "\" policy" +
                         form);
  };
  if (p.kind == "latest") {
    only("num_versions");
    if (args.contains("num_versions")) {
      if (!args["num_versions"].is_number_integer() || args["num_versions"].get<int64_t>() < 1)
        throw ValueError(where + "\"num_versions\" must be an integer >= 1");
      p.num_versions = args["num_versions"].get<int64_t>();
    }
  } else if (p.kind == "all") {
    only("");
  } else if (p.kind == "specific") {
    only("versions");
    if (!args.contains("versions") || !args["versions"].is_array() || args["versions"].empty())
      throw ValueError(where + "the \"specific\" policy needs a non-empty \"versions\" list");
    for (const nlohmann::json& v : args["versions"]) {
      if (!v.is_number_integer() || v.get<int64_t>() < 0)
        throw ValueError(where + "\"versions\" must hold version numbers (integers >= 0)");
      p.versions.push_back(v.get<int64_t>());
    }
  } else {
    throw ValueError(where + "unknown version policy \"" + p.kind + "\"" + form);
  }
  return p;
}

std::set<int64_t> VersionPolicy::select(const std::map<int64_t, std::string>& available) const {
  std::set<int64_t> out;
  if (kind == "all") {
    for (const auto& [v, folder] : available) out.insert(v);
  } else if (kind == "specific") {
    for (int64_t v : versions)
      if (available.count(v)) out.insert(v);
  } else {
    for (auto it = available.rbegin();
         it != available.rend() && static_cast<int64_t>(out.size()) < num_versions; ++it)
      out.insert(it->first);
  }
  return out;
}

}  // namespace keras::serving
