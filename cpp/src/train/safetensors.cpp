#include "attn/train/safetensors.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace attn::train {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kLengthBytes = 8;  // the header length field
constexpr float kHalfMax = 65504.0f;     // largest finite binary16 value, (2 − 2⁻¹⁰) · 2¹⁵

std::size_t element_bytes(StorageType storage) { return storage == StorageType::F32 ? 4 : 2; }
const char* dtype_name(StorageType storage) {
  return storage == StorageType::F16 ? "F16" : storage == StorageType::BF16 ? "BF16" : "F32";
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// d₀ · … · d_{r−1} · factor, or false if that overflows size_t.
bool checked_product(const std::vector<std::size_t>& shape, std::size_t factor, std::size_t& out) {
  std::size_t n = factor;
  for (std::size_t d : shape) {
    if (d != 0 && n > std::numeric_limits<std::size_t>::max() / d) return false;
    n *= d;
  }
  out = n;
  return true;
}

// s as a JSON string literal; throws std::invalid_argument naming `what` if s is not valid UTF-8.
std::string json_string(const std::string& s, const std::string& what) {
  try {
    return Json(s).dump();  // strict: invalid UTF-8 throws type_error 316
  } catch (const Json::exception&) {
    throw std::invalid_argument("write_safetensors: " + what + " is not valid UTF-8");
  }
}

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}

std::uint64_t get_u64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | p[b];
  return v;
}

std::uint32_t float_bits(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

float bits_float(std::uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Throws std::invalid_argument "<file>: <problem>".
struct Fail {
  const std::string& file;
  [[noreturn]] void operator()(const std::string& problem) const { throw std::invalid_argument(file + ": " + problem); }
};

// A tensor entry's place in the data section, before its bytes are decoded.
struct Entry {
  std::string name;
  StorageType storage;
  std::vector<std::size_t> shape;
  std::size_t begin, end;
};

// Checks one header entry ("name": {...}) and returns it.
Entry parse_entry(const std::string& name, const Json& value, std::size_t data_size, const Fail& fail) {
  const std::string where = "tensor '" + name + "': ";
  if (!value.is_object())
    fail(where + "entry must be an object {dtype, shape, data_offsets}, got " + value.type_name());
  for (const char* key : {"dtype", "shape", "data_offsets"}) {
    if (!value.contains(key)) fail(where + "missing \"" + key + "\"");
  }
  Entry entry;
  entry.name = name;
  const Json& dtype = value["dtype"];
  if (!dtype.is_string()) fail(where + "dtype must be a string, got " + dtype.type_name());
  const std::string& dtype_text = dtype.get_ref<const std::string&>();
  if (dtype_text == "F32") {
    entry.storage = StorageType::F32;
  } else if (dtype_text == "F16") {
    entry.storage = StorageType::F16;
  } else if (dtype_text == "BF16") {
    entry.storage = StorageType::BF16;
  } else {
    fail(where + "unsupported dtype '" + dtype_text + "' (only F32, F16 and BF16 are read)");
  }
  const Json& shape = value["shape"];
  if (!shape.is_array()) fail(where + "shape must be an array of unsigned integers, got " + shape.type_name());
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const Json& d = shape[i];
    if (!d.is_number_unsigned()) {
      fail(where + "shape[" + std::to_string(i) + "] must be an unsigned integer, got " +
           (d.is_number() ? d.dump() : d.type_name()));
    }
    const auto v = d.get<std::uint64_t>();
    if (v > std::numeric_limits<std::size_t>::max()) fail(where + "shape[" + std::to_string(i) + "] is too large");
    entry.shape.push_back(static_cast<std::size_t>(v));
  }
  const Json& offsets = value["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
      !offsets[1].is_number_unsigned()) {
    fail(where + "data_offsets must be an array of two unsigned integers [begin, end]");
  }
  const auto begin = offsets[0].get<std::uint64_t>(), end = offsets[1].get<std::uint64_t>();
  const std::string range = "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
  if (begin > end) fail(where + "data_offsets " + range + " are reversed (begin after end)");
  if (end > data_size) {
    fail(where + "data_offsets " + range + " are out of range: the data section has " + std::to_string(data_size) +
         " bytes");
  }
  entry.begin = static_cast<std::size_t>(begin);
  entry.end = static_cast<std::size_t>(end);
  std::size_t bytes = 0;
  if (!checked_product(entry.shape, element_bytes(entry.storage), bytes)) {
    fail(where + "shape " + shape_text(entry.shape) + " overflows: too many elements");
  }
  if (bytes != entry.end - entry.begin) {
    fail(where + "shape " + shape_text(entry.shape) + " of " + dtype_name(entry.storage) + " needs " +
         std::to_string(bytes) + " bytes, data_offsets " + range + " hold " + std::to_string(entry.end - entry.begin));
  }
  return entry;
}

}  // namespace

std::uint16_t float_to_half(float x) {
  const std::uint32_t f = float_bits(x);
  const auto sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
  const std::uint32_t a = f & 0x7FFFFFFFu;  // |x|
  if (a >= 0x7F800000u) {                   // Inf, or NaN: keep the fraction's top bits, forced quiet
    return static_cast<std::uint16_t>(sign | 0x7C00u | (a > 0x7F800000u ? 0x0200u | ((a >> 13) & 0x03FFu) : 0u));
  }
  if (a >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // ≥ 65520 = 65504 + half a step: Inf
  if (a >= 0x38800000u) {  // ≥ 2⁻¹⁴: normal. Rebias the exponent (127 → 15), keep 10 of 23 fraction bits.
    std::uint32_t h = (a >> 13) - (112u << 10);
    const std::uint32_t rest = a & 0x1FFFu;                    // the 13 dropped bits; 0x1000 is exactly half a step
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is correct
    return static_cast<std::uint16_t>(sign | h);
  }
  // Subnormal: |x| / 2⁻²⁴ rounded. |x| = m · 2^(e − 150) with m the 24-bit significand, so the count of
  // 2⁻²⁴ steps is m · 2^(e − 126) = m >> s for s = 126 − e (≥ 14 here).
  const std::uint32_t e = a >> 23;
  if (e < 102) return sign;  // |x| < 2⁻²⁵: rounds to 0 (e = 102 holds 2⁻²⁵ itself, a tie, handled below)
  const std::uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
  const std::uint32_t s = 126 - e;
  std::uint32_t h = m >> s;
  const std::uint32_t rest = m & ((1u << s) - 1u), halfway = 1u << (s - 1);
  if (rest > halfway || (rest == halfway && (h & 1u))) ++h;  // may reach 0x0400, the smallest normal
  return static_cast<std::uint16_t>(sign | h);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1Fu, fraction = h & 0x03FFu;
  if (exponent == 0x1F) return bits_float(sign | 0x7F800000u | (fraction << 13));  // Inf, NaN
  if (exponent != 0) return bits_float(sign | ((exponent + 112u) << 23) | (fraction << 13));
  const float magnitude = std::ldexp(static_cast<float>(fraction), -24);  // subnormal or 0: fraction · 2⁻²⁴
  return sign ? -magnitude : magnitude;
}

std::uint16_t float_to_bfloat16(float x) {
  const std::uint32_t bits = float_bits(x);
  if (std::isnan(x)) return static_cast<std::uint16_t>((bits >> 16) | 0x0040);    // quiet, same sign
  return static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);  // to nearest, ties to even
}

std::vector<std::uint8_t> write_safetensors(const SafeTensors& file) {
  // Check everything first, and lay the tensors out one after another.
  std::set<std::string> names;
  std::vector<std::size_t> offsets = {0};
  for (const NamedTensor& t : file.tensors) {
    const std::string where = "write_safetensors: tensor '" + t.name + "': ";
    if (t.name == "__metadata__") throw std::invalid_argument(where + "the name is reserved for the metadata");
    if (!names.insert(t.name).second) throw std::invalid_argument(where + "the name repeats");
    std::size_t count = 0, bytes = 0;
    if (!checked_product(t.shape, 1, count) || !checked_product(t.shape, element_bytes(t.storage), bytes)) {
      throw std::invalid_argument(where + "shape " + shape_text(t.shape) + " overflows: too many elements");
    }
    if (count != t.data.size()) {
      throw std::invalid_argument(where + "shape " + shape_text(t.shape) + " needs " + std::to_string(count) +
                                  " values, data has " + std::to_string(t.data.size()));
    }
    if (t.storage == StorageType::F16) {
      for (std::size_t i = 0; i < t.data.size(); ++i) {
        const float x = t.data[i];
        if (!std::isfinite(x)) {
          throw std::invalid_argument(where + "data[" + std::to_string(i) + "] is " + number(x) +
                                      ": F16 stores finite values only (use F32)");
        }
        if (std::fabs(x) > kHalfMax) {
          throw std::invalid_argument(where + "data[" + std::to_string(i) + "] = " + number(x) +
                                      " overflows F16 (largest 65504; use F32)");
        }
      }
    }
    if (offsets.back() > std::numeric_limits<std::size_t>::max() - bytes)
      throw std::invalid_argument(where + "the file would be too large");
    offsets.push_back(offsets.back() + bytes);
  }

  // The header: metadata first, then the tensors in order; padded with spaces to a multiple of 8.
  std::string header = "{";
  if (!file.metadata.empty()) {
    header += "\"__metadata__\":{";
    bool first = true;
    for (const auto& [key, value] : file.metadata) {
      if (!first) header += ",";
      first = false;
      header +=
          json_string(key, "metadata key '" + key + "'") + ":" + json_string(value, "metadata value of '" + key + "'");
    }
    header += "}";
  }
  for (std::size_t i = 0; i < file.tensors.size(); ++i) {
    const NamedTensor& t = file.tensors[i];
    if (header.size() > 1) header += ",";
    header += json_string(t.name, "tensor name '" + t.name + "'") + ":{\"dtype\":\"" + dtype_name(t.storage) +
              "\",\"shape\":[";
    for (std::size_t d = 0; d < t.shape.size(); ++d) header += (d ? "," : "") + std::to_string(t.shape[d]);
    header += "],\"data_offsets\":[" + std::to_string(offsets[i]) + "," + std::to_string(offsets[i + 1]) + "]}";
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');

  std::vector<std::uint8_t> out;
  out.reserve(kLengthBytes + header.size() + offsets.back());
  put_u64(out, header.size());
  out.insert(out.end(), header.begin(), header.end());
  for (const NamedTensor& t : file.tensors) {
    for (float x : t.data) {
      if (t.storage != StorageType::F32) {
        const std::uint16_t h = t.storage == StorageType::F16 ? float_to_half(x) : float_to_bfloat16(x);
        out.push_back(static_cast<std::uint8_t>(h));
        out.push_back(static_cast<std::uint8_t>(h >> 8));
      } else {
        const std::uint32_t bits = float_bits(x);
        for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
      }
    }
  }
  return out;
}

SafeTensors read_safetensors(const std::uint8_t* bytes, std::size_t size, const std::string& file_name) {
  const Fail fail{file_name};
  if (bytes == nullptr && size != 0) fail("no bytes (null pointer)");
  if (size < kLengthBytes) {
    fail("shorter than 8 bytes (" + std::to_string(size) +
         "): not a safetensors file, which starts with an 8-byte header length");
  }
  const std::uint64_t header_size = get_u64(bytes);
  const std::uint64_t after_length = size - kLengthBytes;
  if (header_size > after_length) {
    fail("truncated: header says " + std::to_string(header_size) + " bytes, file has " + std::to_string(after_length) +
         " after the 8-byte length");
  }
  if (header_size > kMaxSafetensorsHeader) {
    fail("header of " + std::to_string(header_size) + " bytes is above the limit of " +
         std::to_string(kMaxSafetensorsHeader));
  }
  const std::uint8_t* header_begin = bytes + kLengthBytes;
  const std::uint8_t* data = header_begin + header_size;
  const std::size_t data_size = static_cast<std::size_t>(after_length - header_size);

  // nlohmann-json stops at a NUL byte as at the end of input; JSON has none (JSON.parse refuses them).
  if (const void* nul = std::memchr(header_begin, 0, static_cast<std::size_t>(header_size))) {
    fail("header is not valid JSON: a NUL byte at header offset " +
         std::to_string(static_cast<const std::uint8_t*>(nul) - header_begin));
  }
  Json header;
  try {
    header = Json::parse(header_begin, data);
  } catch (const Json::exception& e) {
    // e.what() is "[json.exception.parse_error.101] parse error at line 1, column 2: …": keep what follows the tag.
    const std::string what = e.what();
    const auto tag_end = what.find("] ");
    fail("header is not valid JSON: " + (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
  }
  if (!header.is_object()) fail(std::string("header must be a JSON object, got ") + header.type_name());

  SafeTensors file;
  std::vector<Entry> entries;
  for (const auto& [name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) fail(std::string("__metadata__ must be an object of strings, got ") + value.type_name());
      for (const auto& [key, text] : value.items()) {
        if (!text.is_string()) fail("__metadata__ value of '" + key + "' must be a string, got " + text.type_name());
        file.metadata[key] = text.get<std::string>();
      }
    } else {
      entries.push_back(parse_entry(name, value, data_size, fail));
    }
  }

  // The ranges must tile [0, data_size): in order of begin, each starts where the previous ended.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end != b.end ? a.end < b.end : a.name < b.name;
  });
  std::size_t covered = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    const std::string range = "[" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
    if (e.begin < covered) {
      fail("tensor '" + e.name + "': data_offsets " + range + " overlap tensor '" + entries[i - 1].name +
           "' (which ends at " + std::to_string(covered) + ")");
    }
    if (e.begin > covered) {
      fail("gap in the data section: bytes [" + std::to_string(covered) + ", " + std::to_string(e.begin) +
           ") belong to no tensor (before tensor '" + e.name + "')");
    }
    covered = e.end;
  }
  if (covered != data_size) {
    fail("the tensors do not cover the data section: they end at byte " + std::to_string(covered) + " of " +
         std::to_string(data_size) + " (trailing bytes)");
  }

  file.tensors.reserve(entries.size());
  for (Entry& e : entries) {
    NamedTensor t;
    t.name = std::move(e.name);
    t.shape = std::move(e.shape);
    t.storage = e.storage;
    const std::uint8_t* p = data + e.begin;
    const std::size_t count = (e.end - e.begin) / element_bytes(e.storage);
    t.data.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      if (e.storage == StorageType::F16) {
        t.data[i] = half_to_float(static_cast<std::uint16_t>(p[2 * i] | (p[2 * i + 1] << 8)));
      } else if (e.storage == StorageType::BF16) {
        t.data[i] = bits_float(static_cast<std::uint32_t>(p[2 * i] | (p[2 * i + 1] << 8)) << 16);
      } else {
        const std::uint8_t* q = p + 4 * i;
        t.data[i] = bits_float(static_cast<std::uint32_t>(q[0]) | static_cast<std::uint32_t>(q[1]) << 8 |
                               static_cast<std::uint32_t>(q[2]) << 16 | static_cast<std::uint32_t>(q[3]) << 24);
      }
    }
    file.tensors.push_back(std::move(t));
  }
  return file;
}

SafeTensors read_safetensors_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw std::invalid_argument(path + ": cannot be read: " + std::strerror(errno));
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
  const bool failed = std::ferror(f) != 0;
  const int error = errno;
  std::fclose(f);
  if (failed) throw std::invalid_argument(path + ": cannot be read: " + std::strerror(error));
  return read_safetensors(bytes.data(), bytes.size(), path);
}

}  // namespace attn::train
