// bfloat16 in safetensors files (the dtype "BF16" Hugging Face checkpoints often use): rounding, and a round trip.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "attn/train/safetensors.hpp"

using namespace attn::train;

namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

SafeTensors read(const std::vector<std::uint8_t>& bytes) {
  return read_safetensors(bytes.data(), bytes.size(), "bf16.safetensors");
}

}  // namespace

TEST_CASE("safetensors: BF16 is a float32's upper half, rounded to nearest, ties to even", "[train][safetensors]") {
  CHECK(float_to_bfloat16(1.0f) == 0x3F80);
  CHECK(float_to_bfloat16(-2.0f) == 0xC000);
  CHECK(float_to_bfloat16(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);      // a tie: to the even 0x3F80
  CHECK(float_to_bfloat16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);  // a tie: to the even 0x3F82
  CHECK(float_to_bfloat16(1.0f + 3 * std::ldexp(1.0f, -9)) == 0x3F81);  // above the midpoint
  CHECK(float_to_bfloat16(std::numeric_limits<float>::infinity()) == 0x7F80);
  CHECK(float_to_bfloat16(std::numeric_limits<float>::max()) == 0x7F80);  // past bfloat16's largest
  CHECK((float_to_bfloat16(std::nanf("")) & 0x7FC0) == 0x7FC0);
  SafeTensors file;
  const std::vector<float> values = {1.0f, -2.0f, 0.1f, 3e-39f, -65536.5f};
  file.tensors.push_back({"w", {values.size()}, values, StorageType::BF16});
  const std::vector<std::uint8_t> bytes = write_safetensors(file);
  const SafeTensors back = read(bytes);
  CHECK(back.tensors.at(0).storage == StorageType::BF16);
  for (std::size_t j = 0; j < values.size(); ++j)  // the value with the low 16 bits 0, after rounding
    CHECK(bits_of(back.tensors[0].data[j]) == static_cast<std::uint32_t>(float_to_bfloat16(values[j])) << 16);
  CHECK(back.tensors[0].data[0] == 1.0f);
  CHECK(std::fabs(back.tensors[0].data[2] - 0.1f) < 0.1f * std::ldexp(1.0f, -8));
  CHECK(write_safetensors(back) == bytes);
}
