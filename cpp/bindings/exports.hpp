#pragma once
// How each binding file exports its functions to JS: one bind_functions call over the file's
// (JS name, C++ function) pairs, inside its EMSCRIPTEN_BINDINGS block.
#include <emscripten/bind.h>

namespace bindings {

inline void bind_functions() {}

// Binds function under `name` on the module (emscripten::function), then the remaining pairs, in order.
// Every bound function returns plain numbers or a { value } / { error } object (guarded.hpp): none throws.
template <typename F, typename... Rest>
void bind_functions(const char* name, F* function, Rest... rest) {
  emscripten::function(name, function);
  bind_functions(rest...);
}

}  // namespace bindings
