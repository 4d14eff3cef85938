#pragma once
// How the embind glue reports C++ exceptions: as returned error objects, never thrown into JS (in
// Emscripten 3.1.6 a C++ throw that unwinds into JS leaks 32 bytes of wasm stack, measured); web/src/core/
// throws them as JS errors.
// { value } on success, { error: { name, message } } on failure, name "RangeError" for invalid
// arguments and "Error" otherwise.
#include <emscripten/val.h>

#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace bindings {

using emscripten::val;

inline val error_object(const char* name, const std::string& message) {
  val error = val::object();
  error.set("name", name);
  error.set("message", message);
  val result = val::object();
  result.set("error", error);
  return result;
}

// The JS error class and message for the exception being handled (call only inside a catch block).
inline std::pair<const char*, std::string> current_error() {
  try {
    throw;
  } catch (const std::out_of_range& e) {
    return {"RangeError", e.what()};
  } catch (const std::invalid_argument& e) {
    return {"RangeError", e.what()};
  } catch (const std::bad_alloc&) {
    return {"RangeError", "not enough memory for this request"};
  } catch (const std::exception& e) {
    return {"Error", e.what()};
  }
}

template <typename F>
val guarded(F&& body) {
  try {
    val result = val::object();
    result.set("value", body());
    return result;
  } catch (const std::exception&) {
    const auto [name, message] = current_error();
    return error_object(name, message);
  }
}

}  // namespace bindings
