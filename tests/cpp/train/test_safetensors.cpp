#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/train/safetensors.hpp"

using namespace attn::train;

namespace {

using Bytes = std::vector<std::uint8_t>;

// A file by hand: the 8-byte little-endian length of `header`, `header`, then `data`.
Bytes file_of(const std::string& header, const Bytes& data = {}) {
  Bytes out;
  for (int b = 0; b < 8; ++b)
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(header.size()) >> (8 * b)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// A file whose length field says `length` whatever follows.
Bytes with_length(std::uint64_t length, std::size_t rest) {
  Bytes out(8 + rest, ' ');
  for (int b = 0; b < 8; ++b) out[b] = static_cast<std::uint8_t>(length >> (8 * b));
  return out;
}

SafeTensors read(const Bytes& bytes) { return read_safetensors(bytes.data(), bytes.size(), "bad.safetensors"); }

// One tensor entry of a header: "name":{"dtype":…,"shape":…,"data_offsets":…}.
std::string entry(const std::string& name, const std::string& dtype, const std::string& shape,
                  const std::string& offsets) {
  return "\"" + name + "\":{\"dtype\":" + dtype + ",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}";
}

std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace

// Every refusal is a std::invalid_argument whose message starts with the file name and names the problem.
#define CHECK_READ_FAILS(bytes, problem)                                                                \
  do {                                                                                                  \
    CHECK_THROWS_AS(read(bytes), std::invalid_argument);                                                \
    CHECK_THROWS_WITH(read(bytes), Catch::StartsWith("bad.safetensors: ") && Catch::Contains(problem)); \
  } while (false)

TEST_CASE("safetensors: float_to_half of hand-worked values", "[train][safetensors]") {
  CHECK(float_to_half(1.0f) == 0x3C00);      // 0 01111 0000000000: 2^(15 − 15)
  CHECK(float_to_half(-2.0f) == 0xC000);     // 1 10000 0000000000
  CHECK(float_to_half(0.5f) == 0x3800);      // 0 01110 0000000000
  CHECK(float_to_half(65504.0f) == 0x7BFF);  // 0 11110 1111111111: (2 − 2⁻¹⁰) · 2¹⁵, the largest finite
  // 0.1 = 1.6 · 2⁻⁴: exponent 11 (0b01011), fraction 0.6 · 1024 = 614.4 → 614 = 0x266
  CHECK(float_to_half(0.1f) == 0x2E66);
  CHECK(float_to_half(std::ldexp(1.0f, -14)) == 0x0400);     // the smallest normal
  CHECK(float_to_half(std::ldexp(1.0f, -24)) == 0x0001);     // the smallest subnormal
  CHECK(float_to_half(std::ldexp(1023.0f, -24)) == 0x03FF);  // the largest subnormal
  CHECK(float_to_half(0.0f) == 0x0000);
  CHECK(float_to_half(-0.0f) == 0x8000);
  CHECK(float_to_half(std::numeric_limits<float>::infinity()) == 0x7C00);
  CHECK(float_to_half(-std::numeric_limits<float>::infinity()) == 0xFC00);
  const std::uint16_t nan = float_to_half(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan & 0x7C00) == 0x7C00);
  CHECK((nan & 0x03FF) != 0);
}

TEST_CASE("safetensors: float_to_half rounds to nearest, ties to even", "[train][safetensors]") {
  // Steps near 1 are 2⁻¹⁰. 1 + 2⁻¹¹ is halfway between 0x3C00 (even) and 0x3C01: down to 0x3C00;
  // 1 + 3 · 2⁻¹¹ is halfway between 0x3C01 and 0x3C02 (even): up to 0x3C02.
  CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);
  CHECK(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);
  CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3C01);  // just above the tie
  // Subnormal ties: 2⁻²⁵ (half a step) → 0; 3 · 2⁻²⁵ → 2 steps (even); a little above 2⁻²⁵ → 1 step.
  CHECK(float_to_half(std::ldexp(1.0f, -25)) == 0x0000);
  CHECK(float_to_half(std::ldexp(3.0f, -25)) == 0x0002);
  CHECK(float_to_half(std::ldexp(1.0f, -25) * 1.0001f) == 0x0001);
  CHECK(float_to_half(std::ldexp(1.0f, -26)) == 0x0000);
  // The carry into the exponent: just below 2 rounds to 2; just below 2⁻¹⁴ rounds to the smallest normal.
  CHECK(float_to_half(std::nextafter(2.0f, 0.0f)) == 0x4000);
  CHECK(float_to_half(std::nextafter(std::ldexp(1.0f, -14), 0.0f)) == 0x0400);
  // Overflow: 65519 rounds to 65504; 65520 (half a step above) is a tie that rounds to even, ±Inf.
  CHECK(float_to_half(65519.0f) == 0x7BFF);
  CHECK(float_to_half(65520.0f) == 0x7C00);
  CHECK(float_to_half(-1e6f) == 0xFC00);
}

TEST_CASE("safetensors: every half value survives half_to_float then float_to_half, and midpoints go to the even one",
          "[train][safetensors]") {
  CHECK(half_to_float(0x3C00) == 1.0f);
  CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(half_to_float(0x7BFF) == 65504.0f);
  CHECK(half_to_float(0xFC00) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(half_to_float(0x7E00)));
  CHECK(bits_of(half_to_float(0x8000)) == 0x80000000u);  // −0
  std::size_t mismatches = 0;
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float x = half_to_float(static_cast<std::uint16_t>(h));
    if ((h & 0x7C00) == 0x7C00 && (h & 0x03FF)) {
      mismatches += !std::isnan(x);
      continue;
    }
    mismatches += float_to_half(x) != h;
  }
  CHECK(mismatches == 0);
  // Between consecutive positive finite halves h and h + 1 the midpoint (exact in float) goes to the
  // even one, and a float either side of it to the nearer one.
  std::size_t wrong = 0;
  for (std::uint16_t h = 0; h < 0x7BFF; ++h) {
    const float low = half_to_float(h), high = half_to_float(static_cast<std::uint16_t>(h + 1));
    const float mid = low + (high - low) / 2;
    const std::uint16_t even = (h & 1) ? static_cast<std::uint16_t>(h + 1) : h;
    wrong += float_to_half(mid) != even;
    wrong += float_to_half(std::nextafter(mid, 0.0f)) != h;
    wrong += float_to_half(std::nextafter(mid, 1e9f)) != h + 1;
    wrong += float_to_half(-mid) != (even | 0x8000);
  }
  CHECK(wrong == 0);
}

TEST_CASE("safetensors: the byte layout of a tiny file, by hand", "[train][safetensors]") {
  SafeTensors file;
  file.metadata["k"] = "v";
  file.tensors.push_back({"w", {2}, {1.0f, -2.0f}, StorageType::F32});
  const Bytes bytes = write_safetensors(file);
  // The JSON is 79 bytes, padded with one space to 80 (a multiple of 8).
  const std::string json = R"({"__metadata__":{"k":"v"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  REQUIRE(json.size() == 79);
  REQUIRE(bytes.size() == 8 + 80 + 8);
  CHECK(Bytes(bytes.begin(), bytes.begin() + 8) == Bytes{80, 0, 0, 0, 0, 0, 0, 0});
  CHECK(std::string(bytes.begin() + 8, bytes.begin() + 88) == json + " ");
  // 1.0f = 0x3F800000 and −2.0f = 0xC0000000, little-endian
  CHECK(Bytes(bytes.begin() + 88, bytes.end()) == Bytes{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0});

  SafeTensors half;
  half.tensors.push_back({"h", {}, {1.0f}, StorageType::F16});  // a scalar
  const Bytes h = write_safetensors(half);
  // {"h":{"dtype":"F16","shape":[],"data_offsets":[0,2]}} is 53 bytes, padded to 56; 1.0 = 0x3C00.
  REQUIRE(h.size() == 8 + 56 + 2);
  CHECK(h[0] == 56);
  CHECK(std::string(h.begin() + 8, h.begin() + 64) ==
        std::string(R"({"h":{"dtype":"F16","shape":[],"data_offsets":[0,2]}})") + "   ");
  CHECK(h[64] == 0x00);
  CHECK(h[65] == 0x3C);
}

TEST_CASE("safetensors: F32 round trip is exact, in order, with metadata", "[train][safetensors]") {
  const float inf = std::numeric_limits<float>::infinity();
  SafeTensors file;
  file.metadata = {{"recipe", R"({"lr": 0.01})"}, {"task", "induction"}, {"ünïcode", "ταυ \"quoted\"\n"}};
  file.tensors.push_back({"z.weight", {2, 3}, {0.1f, -0.0f, 1e-40f, 3.4e38f, inf, std::nanf("")}, StorageType::F32});
  file.tensors.push_back({"a.bias", {3}, {1, 2, 3}, StorageType::F32});
  file.tensors.push_back({"empty", {0, 4}, {}, StorageType::F32});
  file.tensors.push_back({"scalar", {}, {42.5f}, StorageType::F32});
  file.tensors.push_back({"m", {1, 1, 2}, {-7, 7}, StorageType::F32});
  const SafeTensors back = read(write_safetensors(file));
  CHECK(back.metadata == file.metadata);
  REQUIRE(back.tensors.size() == file.tensors.size());
  for (std::size_t i = 0; i < file.tensors.size(); ++i) {
    const NamedTensor &a = file.tensors[i], &b = back.tensors[i];
    CHECK(b.name == a.name);
    CHECK(b.shape == a.shape);
    CHECK(b.storage == StorageType::F32);
    REQUIRE(b.data.size() == a.data.size());
    for (std::size_t j = 0; j < a.data.size(); ++j)
      CHECK(bits_of(b.data[j]) == bits_of(a.data[j]));  // NaN, −0 included
  }
}

TEST_CASE("safetensors: F16 round trip within half precision, exact for representable values", "[train][safetensors]") {
  SafeTensors file;
  const std::vector<float> exact = {
      0.0f, -0.0f, 1.0f, -2.0f, 0.5f, 65504.0f, -65504.0f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -14), 1.0009765625f};
  file.tensors.push_back({"exact", {exact.size()}, exact, StorageType::F16});
  std::vector<float> values;
  for (int i = -500; i <= 500; ++i)
    values.push_back(static_cast<float>(i) * 0.0137f + std::sin(static_cast<float>(i)) * 1e-3f);
  values.push_back(3e-6f);  // subnormal in half precision
  file.tensors.push_back({"rounded", {values.size()}, values, StorageType::F16});
  const Bytes bytes = write_safetensors(file);
  const SafeTensors back = read(bytes);
  REQUIRE(back.tensors.size() == 2);
  CHECK(back.tensors[0].storage == StorageType::F16);
  for (std::size_t j = 0; j < exact.size(); ++j) CHECK(bits_of(back.tensors[0].data[j]) == bits_of(exact[j]));
  double max_error = 0;
  for (std::size_t j = 0; j < values.size(); ++j) {
    const float x = values[j], y = back.tensors[1].data[j];
    // Half a step: 2⁻¹¹ relative for normals (≥ 2⁻¹⁴), 2⁻²⁵ absolute for subnormals.
    const double bound = std::max(std::ldexp(std::fabs(static_cast<double>(x)), -11), std::ldexp(1.0, -25));
    max_error = std::max(max_error, std::fabs(static_cast<double>(x) - y) / bound);
    CHECK(y == half_to_float(float_to_half(x)));
  }
  CHECK(max_error <= 1.0);
  // Writing what was read gives the same bytes.
  CHECK(write_safetensors(back) == bytes);
}

TEST_CASE("safetensors: hand-written files are read (F16 bytes, padding, extra keys, no tensors)",
          "[train][safetensors]") {
  // 0x3C00 = 1, 0x0001 = 2⁻²⁴, 0x7BFF = 65504, 0xFC00 = −Inf; data stored in reverse offset order in the header.
  const std::string header = "{" + entry("b", "\"F16\"", "[2]", "[4,8]") + "," + entry("a", "\"F16\"", "[2]", "[0,4]") +
                             ",\"__metadata__\":{\"format\":\"pt\"}}      \n ";
  const SafeTensors file = read(file_of(header, {0x00, 0x3C, 0x01, 0x00, 0xFF, 0x7B, 0x00, 0xFC}));
  REQUIRE(file.tensors.size() == 2);
  CHECK(file.tensors[0].name == "a");  // in the order of the data
  CHECK(file.tensors[0].data == std::vector<float>{1.0f, std::ldexp(1.0f, -24)});
  CHECK(file.tensors[1].data == std::vector<float>{65504.0f, -std::numeric_limits<float>::infinity()});
  CHECK(file.metadata.at("format") == "pt");

  const SafeTensors extra =
      read(file_of(R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"note":[1,2]}})", {0, 0, 0x80, 0x3F}));
  CHECK(extra.tensors.at(0).data == std::vector<float>{1.0f});

  const SafeTensors none = read(file_of("{}"));
  CHECK(none.tensors.empty());
  CHECK(none.metadata.empty());
  CHECK(write_safetensors({}) == file_of("{}      "));
}

TEST_CASE("safetensors: read_safetensors_file reads a written file and names an unreadable path",
          "[train][safetensors]") {
  SafeTensors file;
  file.tensors.push_back({"w", {2, 2}, {1, 2, 3, 4}, StorageType::F32});
  const Bytes bytes = write_safetensors(file);
  const auto path =
      (std::filesystem::temp_directory_path() / ("attn-test-" + std::to_string(std::rand()) + ".safetensors")).string();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  std::fclose(f);
  const SafeTensors back = read_safetensors_file(path);
  std::remove(path.c_str());
  CHECK(back.tensors.at(0).data == file.tensors[0].data);

  const std::string missing = "/nonexistent-dir/weights.safetensors";
  CHECK_THROWS_AS(read_safetensors_file(missing), std::invalid_argument);
  CHECK_THROWS_WITH(read_safetensors_file(missing), Catch::StartsWith(missing + ": cannot be read"));
  CHECK_THROWS_WITH(read_safetensors_file("."), Catch::StartsWith(".: cannot be read"));  // a directory
}

TEST_CASE("safetensors: damaged files are refused, naming the file and the problem", "[train][safetensors]") {
  const Bytes four = {0, 0, 0x80, 0x3F};
  const Bytes eight = {0, 0, 0x80, 0x3F, 0, 0, 0x80, 0x3F};
  const Bytes twelve = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const auto one = [](const std::string& e) { return "{" + e + "}"; };

  SECTION("too short or truncated") {
    CHECK_READ_FAILS(Bytes{}, "shorter than 8 bytes");
    CHECK_READ_FAILS(Bytes(7, 0), "shorter than 8 bytes");
    CHECK_READ_FAILS(with_length(100, 10), "truncated: header says 100 bytes, file has 10");
    CHECK_READ_FAILS(with_length(std::numeric_limits<std::uint64_t>::max(), 10),
                     "truncated: header says 18446744073709551615 bytes");
    CHECK_READ_FAILS(with_length(1ull << 63, 0), "truncated: header says 9223372036854775808 bytes, file has 0");
    const Bytes whole = write_safetensors({{{"w", {2}, {1, 2}, StorageType::F32}}, {}});
    CHECK_READ_FAILS(Bytes(whole.begin(), whole.end() - 1),
                     "data_offsets [0, 8] are out of range: the data section has 7 bytes");
    CHECK_READ_FAILS(Bytes(whole.begin(), whole.begin() + 20), "truncated: header says");
  }
  SECTION("a header above the 100 MB limit") {
    CHECK_READ_FAILS(with_length(kMaxSafetensorsHeader + 1, kMaxSafetensorsHeader + 1),
                     "header of 100000001 bytes is above the limit");
  }
  SECTION("not JSON, or not an object") {
    CHECK_READ_FAILS(file_of(""), "header is not valid JSON");
    CHECK_READ_FAILS(file_of("{\"w\":"), "header is not valid JSON");
    CHECK_READ_FAILS(file_of("{\"w\":1e999}"), "header is not valid JSON");
    CHECK_READ_FAILS(file_of("{\"w\xff\":{}}"), "header is not valid JSON");  // not UTF-8
    CHECK_READ_FAILS(file_of(std::string("{}\0\0", 4), eight),
                     "header is not valid JSON: a NUL byte at header offset 2");
    CHECK_READ_FAILS(file_of("[1,2]"), "header must be a JSON object, got array");
    CHECK_READ_FAILS(file_of("\"F32\""), "header must be a JSON object, got string");
  }
  SECTION("tensor entries of the wrong shape or type") {
    CHECK_READ_FAILS(file_of(R"({"w":3})"), "tensor 'w': entry must be an object");
    CHECK_READ_FAILS(file_of(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", four), "tensor 'w': missing \"dtype\"");
    CHECK_READ_FAILS(file_of(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", four), "tensor 'w': missing \"shape\"");
    CHECK_READ_FAILS(file_of(R"({"w":{"dtype":"F32","shape":[1]}})", four), "tensor 'w': missing \"data_offsets\"");
    CHECK_READ_FAILS(file_of(one(entry("w", "32", "[1]", "[0,4]")), four),
                     "tensor 'w': dtype must be a string, got number");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "{}", "[0,4]")), four), "tensor 'w': shape must be an array");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[-1]", "[0,4]")), four),
                     "tensor 'w': shape[0] must be an unsigned integer, got -1");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1.0]", "[0,4]")), four),
                     "shape[0] must be an unsigned integer, got 1.0");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1,\"2\"]", "[0,4]")), four),
                     "shape[1] must be an unsigned integer, got string");
    for (const char* offsets : {"[0]", "[0,4,8]", "[0,-4]", "[0,4.5]", "\"0,4\"", "{\"begin\":0}", "[0,1e1]"}) {
      CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1]", offsets)), four),
                       "tensor 'w': data_offsets must be an array of two unsigned integers");
    }
  }
  SECTION("unsupported dtypes") {
    CHECK_READ_FAILS(file_of(one(entry("w", "\"I16\"", "[2]", "[0,4]")), four),
                     "tensor 'w': unsupported dtype 'I16' (only F32, F16 and BF16 are read)");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F64\"", "[1]", "[0,8]")), eight), "unsupported dtype 'F64'");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"f32\"", "[1]", "[0,4]")), four), "unsupported dtype 'f32'");
  }
  SECTION("shapes that overflow or do not match the byte count") {
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[4294967296,4294967296]", "[0,4]")), four),
                     "tensor 'w': shape [4294967296, 4294967296] overflows");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[18446744073709551615]", "[0,4]")), four), "overflows");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F16\"", "[9223372036854775808]", "[0,4]")), four), "overflows");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[3]", "[0,8]")), eight),
                     "tensor 'w': shape [3] of F32 needs 12 bytes, data_offsets [0, 8] hold 8");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F16\"", "[2]", "[0,8]")), eight), "shape [2] of F16 needs 4 bytes");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[]", "[0,8]")), eight), "shape [] of F32 needs 4 bytes");
  }
  SECTION("offsets out of range, overlapping, with gaps, or not covering the data") {
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1]", "[8,4]")), eight),
                     "tensor 'w': data_offsets [8, 4] are reversed");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[2]", "[4,12]")), eight),
                     "tensor 'w': data_offsets [4, 12] are out of range: the data section has 8 bytes");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1]", "[18446744073709551612,18446744073709551615]")), eight),
                     "out of range");
    CHECK_READ_FAILS(
        file_of("{" + entry("a", "\"F32\"", "[2]", "[0,8]") + "," + entry("b", "\"F32\"", "[2]", "[4,12]") + "}",
                twelve),
        "tensor 'b': data_offsets [4, 12] overlap tensor 'a'");
    CHECK_READ_FAILS(
        file_of("{" + entry("a", "\"F32\"", "[1]", "[0,4]") + "," + entry("b", "\"F32\"", "[1]", "[0,4]") + "}", four),
        "overlap");
    CHECK_READ_FAILS(
        file_of("{" + entry("a", "\"F32\"", "[1]", "[0,4]") + "," + entry("b", "\"F32\"", "[1]", "[8,12]") + "}",
                twelve),
        "gap in the data section: bytes [4, 8) belong to no tensor (before tensor 'b')");
    CHECK_READ_FAILS(file_of(one(entry("b", "\"F32\"", "[1]", "[4,8]")), eight),
                     "gap in the data section: bytes [0, 4)");
    CHECK_READ_FAILS(file_of(one(entry("w", "\"F32\"", "[1]", "[0,4]")), eight),
                     "the tensors do not cover the data section: they end at byte 4 of 8");
    CHECK_READ_FAILS(file_of("{}", four), "do not cover the data section");
    // A repeated name: the last entry counts, so the first one's bytes are uncovered.
    CHECK_READ_FAILS(
        file_of("{" + entry("w", "\"F32\"", "[1]", "[0,4]") + "," + entry("w", "\"F32\"", "[1]", "[4,8]") + "}", eight),
        "gap");
  }
  SECTION("metadata that is not an object of strings") {
    CHECK_READ_FAILS(file_of(R"({"__metadata__":["a"]})"), "__metadata__ must be an object of strings, got array");
    CHECK_READ_FAILS(file_of(R"({"__metadata__":{"a":"b","steps":1000}})"),
                     "__metadata__ value of 'steps' must be a string, got number");
    CHECK_READ_FAILS(file_of(R"({"__metadata__":{"a":null}})"), "__metadata__ value of 'a' must be a string, got null");
  }
}

TEST_CASE("safetensors: the writer refuses what it cannot store, naming the tensor", "[train][safetensors]") {
  const auto write_error = [](const NamedTensor& t) -> std::string {
    try {
      write_safetensors({{t}, {}});
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(no error)";
  };
  CHECK_THAT(write_error({"w", {2, 3}, {1, 2, 3}, StorageType::F32}),
             Catch::Contains("tensor 'w': shape [2, 3] needs 6 values, data has 3"));
  CHECK_THAT(write_error({"w", {std::size_t{1} << 62, 8}, {}, StorageType::F32}),
             Catch::Contains("tensor 'w': shape [4611686018427387904, 8] overflows"));
  CHECK_THAT(write_error({"w", {std::size_t{1} << 62}, {}, StorageType::F32}),
             Catch::Contains("overflows"));  // in bytes
  CHECK_THAT(write_error({"__metadata__", {1}, {1}, StorageType::F32}),
             Catch::Contains("tensor '__metadata__': the name is reserved"));
  CHECK_THAT(write_error({"h", {3}, {1, 65505, 2}, StorageType::F16}),
             Catch::Contains("tensor 'h': data[1] = 65505 overflows F16 (largest 65504"));
  CHECK_THAT(write_error({"h", {1}, {-1e5f}, StorageType::F16}), Catch::Contains("data[0] = -100000 overflows F16"));
  CHECK_THAT(write_error({"h", {2}, {0, std::nanf("")}, StorageType::F16}),
             Catch::Contains("tensor 'h': data[1] is nan: F16 stores finite values only"));
  CHECK_THAT(write_error({"h", {1}, {-std::numeric_limits<float>::infinity()}, StorageType::F16}),
             Catch::Contains("data[0] is -inf"));
  CHECK_THAT(write_error({"bad\xff", {1}, {1}, StorageType::F32}),
             Catch::Contains("tensor name 'bad\xff' is not valid UTF-8"));
  CHECK(write_error({"h", {1}, {65504}, StorageType::F16}) == "(no error)");

  SafeTensors twice;
  twice.tensors = {
      {"w", {1}, {1}, StorageType::F32}, {"v", {1}, {1}, StorageType::F32}, {"w", {1}, {2}, StorageType::F32}};
  CHECK_THROWS_AS(write_safetensors(twice), std::invalid_argument);
  CHECK_THROWS_WITH(write_safetensors(twice), Catch::Contains("tensor 'w': the name repeats"));
  SafeTensors bad_metadata;
  bad_metadata.metadata["k"] = "\xc3";
  CHECK_THROWS_WITH(write_safetensors(bad_metadata), Catch::Contains("metadata value of 'k' is not valid UTF-8"));
}
