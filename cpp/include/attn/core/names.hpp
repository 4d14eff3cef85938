#pragma once
// Name tables: each enum the JS API accepts has one table of { name, value } pairs, declared next to the
// enum and used both ways — to read a name (value_of) and to write one (name_of) — so a name exists in
// exactly one place. The bindings export the tables' names (core.limits) and the JS wrapper checks
// against those; an unknown name is never mapped to a default.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attn {

template <typename E>
struct NamedValue {
  const char* name;  // as JS spells it (camelCase)
  E value;
};

// The table's names quoted and comma-separated, in table order: "'a', 'b', 'c'".
template <typename E, std::size_t N>
std::string name_list(const NamedValue<E> (&table)[N]) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) out += (i ? ", '" : "'") + std::string(table[i].name) + "'";
  return out;
}

// The value named `name`. Throws std::out_of_range "<argument> must be one of 'a', 'b', got 'x'"
// otherwise (the bindings turn it into a JS RangeError with that message).
template <typename E, std::size_t N>
E value_of(const NamedValue<E> (&table)[N], std::string_view name, const std::string& argument) {
  for (const auto& entry : table) {
    if (name == entry.name) return entry.value;
  }
  throw std::out_of_range(argument + " must be one of " + name_list(table) + ", got '" + std::string(name) + "'");
}

// The name of `value`. Throws std::logic_error if the table lacks it (a table missing an enumerator
// is a bug; the tests check every table covers its enum).
template <typename E, std::size_t N>
const char* name_of(const NamedValue<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return entry.name;
  }
  throw std::logic_error("name_of: a value missing from its name table");
}

}  // namespace attn
