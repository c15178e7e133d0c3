#pragma once
// Work the compiler does as the backend would: with the in-backend mark set, the work's own
// memory accesses and nested primitive calls are not the front end's (trace_hook.h).

#include <utility>

#include "keras/backend/trace_hook.h"

namespace keras::compiler::detail {

template <typename F>
void as_backend_call(F&& f) {
  struct Mark {
    bool previous = backend::detail::set_in_backend_call(true);
    ~Mark() { backend::detail::set_in_backend_call(previous); }
  } mark;
  std::forward<F>(f)();
}

}  // namespace keras::compiler::detail
