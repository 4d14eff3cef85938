#include "attn/text/tokenizer.hpp"

#include <cstdint>
#include <utility>

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
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
    min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
    min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
    min = 0x10000;
  } else return {kReplacement, 1};
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
  const bool latin1_symbol = in(c, 0xA1, 0xBF) && c != 0xAA && c != 0xB2 && c != 0xB3 && c != 0xB5 && c != 0xB9 &&
                             c != 0xBA;  // ª ² ³ µ ¹ º are letters or digits
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
  if (c == 0x2010 || c == 0x2011) return '-';
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

namespace {

// One decoded code point of the text, with where it came from.
struct Unit {
  char32_t value;
  CharClass cls;
  std::size_t start;  // UTF-16 offset
};

std::vector<Unit> decode_all(const std::string& text) {
  std::vector<Unit> units;
  std::size_t offset = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode(text, pos);
    units.push_back({cp.value, classify(cp.value), offset});
    offset += utf16_units(cp.value);
    pos += cp.bytes;
  }
  return units;
}

bool is_hyphen(char32_t c) { return c == '-' || c == 0x2010 || c == 0x2011; }
bool is_apostrophe(char32_t c) { return c == '\'' || c == 0x2019; }
bool is_digit(char32_t c) { return in(c, '0', '9'); }
char32_t ascii_lower(char32_t c) { return in(c, 'A', 'Z') ? c + 0x20 : c; }

class Splitter {
 public:
  Splitter(std::vector<Unit> units, const std::function<bool(const std::string&)>* known)
      : u_(std::move(units)), known_(known) {}

  std::vector<Token> run() {
    for (std::size_t i = 0; i < u_.size();) {
      if (u_[i].cls == CharClass::space) {
        ++i;
      } else if (u_[i].cls == CharClass::punct) {
        emit(i, i + 1);
        ++i;
      } else {
        i = word(i);
      }
    }
    return std::move(tokens_);
  }

 private:
  bool word_at(std::size_t i) const { return i < u_.size() && u_[i].cls == CharClass::word; }

  // The length of the clitic ("'s", "'re", "'ve", "'ll", "'d", "'m") starting at the apostrophe at i,
  // or 0: it must end the word.
  std::size_t clitic_at(std::size_t i) const {
    if (i >= u_.size() || !is_apostrophe(u_[i].value)) return 0;
    static const char* const kClitics[] = {"s", "re", "ve", "ll", "d", "m"};
    for (const char* clitic : kClitics) {
      std::size_t k = 0;
      while (clitic[k] != '\0' && i + 1 + k < u_.size() && ascii_lower(u_[i + 1 + k].value) == char32_t(clitic[k])) ++k;
      if (clitic[k] == '\0' && !word_at(i + 1 + k)) return 1 + k;
    }
    return 0;
  }

  // Reads the word starting at `begin`; returns the index after it (and its clitic).
  std::size_t word(std::size_t begin) {
    std::size_t end = begin;  // one past the word, joiners included
    bool hyphenated = false;
    while (word_at(end)) {
      ++end;
      if (end + 1 < u_.size() && word_at(end + 1)) {
        const char32_t joiner = u_[end].value;
        const bool number_joiner =
            (joiner == ',' || joiner == '.') && is_digit(u_[end - 1].value) && is_digit(u_[end + 1].value);
        if (is_hyphen(joiner) || number_joiner) {
          hyphenated = hyphenated || is_hyphen(joiner);
          ++end;
        }
      }
    }
    // "n't": the word ends in n, then an apostrophe, then t, and nothing of the word after it.
    std::size_t clitic_begin = end, clitic_end = end;
    if (end - begin >= 2 && ascii_lower(u_[end - 1].value) == 'n' && end + 1 < u_.size() &&
        is_apostrophe(u_[end].value) && ascii_lower(u_[end + 1].value) == 't' && !word_at(end + 2) &&
        !is_hyphen(u_[end - 2].value)) {
      clitic_begin = end - 1;
      clitic_end = end + 2;
    }
    stem(begin, clitic_begin, hyphenated);
    if (clitic_end > clitic_begin) emit(clitic_begin, clitic_end);
    while (const std::size_t length = clitic_at(clitic_end)) {  // "it's"; chains: "I'd've" → "I" "'d" "'ve"
      emit(clitic_end, clitic_end + length);
      clitic_end += length;
    }
    return clitic_end;
  }

  // Emits a (possibly hyphenated) word: whole, or, when the vocabulary lacks the compound, in parts.
  void stem(std::size_t begin, std::size_t end, bool hyphenated) {
    emit(begin, end);
    if (!hyphenated || known_ == nullptr || (*known_)(tokens_.back().key)) return;
    tokens_.pop_back();
    std::size_t part = begin;
    for (std::size_t i = begin; i < end; ++i) {
      if (!is_hyphen(u_[i].value)) continue;
      emit(part, i);
      emit(i, i + 1);
      part = i + 1;
    }
    emit(part, end);
  }

  void emit(std::size_t begin, std::size_t end) {
    Token token{"", "", u_[begin].start, u_[end - 1].start + utf16_units(u_[end - 1].value)};
    for (std::size_t i = begin; i < end; ++i) {
      encode(u_[i].value, token.text);  // re-encoding turns invalid bytes into U+FFFD, as JS shows them
      encode(lookup_form(u_[i].value), token.key);
    }
    tokens_.push_back(std::move(token));
  }

  const std::vector<Unit> u_;
  const std::function<bool(const std::string&)>* known_;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(const std::string& text) { return Splitter(decode_all(text), nullptr).run(); }

std::vector<Token> tokenize(const std::string& text, const std::function<bool(const std::string& key)>& known) {
  return Splitter(decode_all(text), &known).run();
}

}  // namespace attn
