#include "attn/tokenizer.hpp"

#include <cstdint>

namespace attn {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

enum class CharClass { space, word, punct };

struct CodePoint {
  char32_t value;
  std::size_t bytes;  // UTF-8 bytes consumed
};

// Decodes one code point at text[pos]. Invalid or truncated sequences, overlongs and encoded
// surrogates consume one byte and yield U+FFFD.
CodePoint decode(const std::string& text, std::size_t pos) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t b0 = byte(pos);
  if (b0 < 0x80) return {b0, 1};
  std::size_t len = 0;
  char32_t cp = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0) { len = 2; cp = b0 & 0x1F; min = 0x80; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; cp = b0 & 0x0F; min = 0x800; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; cp = b0 & 0x07; min = 0x10000; }
  else return {kReplacement, 1};
  if (pos + len > text.size()) return {kReplacement, 1};
  for (std::size_t i = 1; i < len; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return {kReplacement, 1};
    cp = (cp << 6) | (byte(pos + i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {kReplacement, 1};
  return {cp, len};
}

void encode(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }

CharClass classify(char32_t c) {
  if (c <= 0x20 || in(c, 0x7F, 0xA0) || c == 0x1680 || in(c, 0x2000, 0x200B) || c == 0x2028 || c == 0x2029 ||
      c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF) {
    return CharClass::space;
  }
  if (c < 0x80) {
    const bool alnum = in(c, '0', '9') || in(c, 'a', 'z') || in(c, 'A', 'Z');
    return alnum ? CharClass::word : CharClass::punct;
  }
  const bool latin1_symbol = in(c, 0xA1, 0xBF) && c != 0xAA && c != 0xB2 && c != 0xB3 && c != 0xB5 &&
                             c != 0xB9 && c != 0xBA;  // ª ² ³ µ ¹ º are letters or digits
  if (latin1_symbol || c == 0xD7 || c == 0xF7 || in(c, 0x2010, 0x2027) || in(c, 0x2030, 0x205E) ||
      in(c, 0x3001, 0x303F) || in(c, 0xFF01, 0xFF0F) || in(c, 0xFF1A, 0xFF20) || in(c, 0xFF3B, 0xFF40) ||
      in(c, 0xFF5B, 0xFF65)) {
    return CharClass::punct;
  }
  return CharClass::word;
}

std::size_t utf16_units(char32_t c) { return c >= 0x10000 ? 2 : 1; }

}  // namespace

// The vocabulary is lower case and writes quotes and apostrophes in ASCII.
char32_t lookup_form(char32_t c) {
  if (in(c, 'A', 'Z') || (in(c, 0xC0, 0xDE) && c != 0xD7)) return c + 0x20;
  if (c == 0x2018 || c == 0x2019) return '\'';
  if (c == 0x201C || c == 0x201D) return '"';
  return c;
}

std::u32string utf8_code_points(const std::string& text) {
  std::u32string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode(text, pos);
    out += cp.value;
    pos += cp.bytes;
  }
  return out;
}

std::string to_utf8(const std::u32string& points) {
  std::string out;
  for (const char32_t c : points) encode(c, out);
  return out;
}

std::vector<Token> tokenize(const std::string& text) {
  std::vector<Token> tokens;
  bool in_word = false;
  std::size_t units = 0;  // UTF-16 offset of the code point being read
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode(text, pos);
    const CharClass cls = classify(cp.value);
    if (cls == CharClass::space) {
      in_word = false;
    } else {
      if (cls == CharClass::punct || !in_word) tokens.push_back({"", "", units, units});
      Token& token = tokens.back();
      encode(cp.value, token.text);  // re-encoding turns invalid bytes into U+FFFD, as JS shows them
      encode(lookup_form(cp.value), token.key);
      token.end = units + utf16_units(cp.value);
      in_word = cls == CharClass::word;
    }
    units += utf16_units(cp.value);
    pos += cp.bytes;
  }
  return tokens;
}

}  // namespace attn
