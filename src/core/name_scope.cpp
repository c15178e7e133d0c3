#include "keras/core/name_scope.h"

#include <vector>

#include "keras/core/errors.h"

namespace keras {
namespace {

thread_local std::vector<std::string> tls_scopes;

}  // namespace

NameScope::NameScope(const std::string& name) {
  check<ValueError>(name.find('/') == std::string::npos, "NameScope: the name cannot contain "
                    "'/' (a scope is one path component); received name=\"", name, "\".");
  tls_scopes.push_back(name);
}

NameScope::~NameScope() { tls_scopes.pop_back(); }

std::string current_name_scope_path() {
  std::string path;
  for (const std::string& s : tls_scopes) path += (path.empty() ? "" : "/") + s;
  return path;
}

}  // namespace keras
