#include "backend/builtin_backends.h"

namespace keras::backend::detail {

std::vector<std::pair<std::string, BackendFactory>> builtin_backends() {
  return {{"cpu", make_cpu_backend},
          {"stub", make_stub_backend},
          {"symbolic", make_symbolic_backend}};
}

}  // namespace keras::backend::detail
