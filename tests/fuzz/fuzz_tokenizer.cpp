// libFuzzer harness: any bytes through the tokenizer, with and without a vocabulary (one that knows
// the keys of even length, so compounds are both kept and split). Invariants: spans are non-empty,
// in order, within the text's UTF-16 length, and every token has a lookup key.
#include <cstddef>
#include <cstdint>
#include <string>

#include "attn/text/tokenizer.hpp"

namespace {
void check(const std::vector<attn::Token>& tokens, std::size_t size) {
  std::size_t previous_end = 0;
  for (const auto& token : tokens) {
    // Each byte is at most one UTF-16 unit after replacement; a 4-byte sequence is 2 units.
    if (token.start < previous_end || token.end <= token.start || token.end > size) __builtin_trap();
    if (token.text.empty() || token.key.empty()) __builtin_trap();
    previous_end = token.end;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check(attn::tokenize(text), size);
  check(attn::tokenize(text, [](const std::string& key) { return key.size() % 2 == 0; }), size);
  return 0;
}
