// libFuzzer harness: arbitrary bytes as a safetensors file. Bad files must be refused with
// std::invalid_argument, never crash or read out of bounds. When the first byte is odd the harness
// first sets the 8-byte header length to end after the last '}' and the spaces after it, so mutations
// reach the JSON checks behind it (entries, dtypes, shapes, offsets). A file that is read must hold
// shapes matching its data, and write back (unless an F16 value is NaN or ±Inf, which the writer
// refuses) to a file that reads back to the same tensors, bit for bit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "attn/train/safetensors.hpp"

namespace {

bool same(const attn::train::SafeTensors& a, const attn::train::SafeTensors& b) {
  if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size()) return false;
  for (std::size_t i = 0; i < a.tensors.size(); ++i) {
    const auto &x = a.tensors[i], &y = b.tensors[i];
    if (x.name != y.name || x.shape != y.shape || x.storage != y.storage || x.data.size() != y.data.size())
      return false;
    if (!x.data.empty() && std::memcmp(x.data.data(), y.data.data(), x.data.size() * sizeof(float)) != 0) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::vector<std::uint8_t> bytes(data + 1, data + size);
  if ((data[0] & 1) && bytes.size() >= 8) {
    std::size_t end = bytes.size();
    while (end > 8 && bytes[end - 1] != '}') --end;
    while (end > 8 && end < bytes.size() && bytes[end] == ' ') ++end;  // and the padding after it
    const std::uint64_t length = end - 8;
    for (int b = 0; b < 8; ++b) bytes[b] = static_cast<std::uint8_t>(length >> (8 * b));
  }
  attn::train::SafeTensors file;
  try {
    file = attn::train::read_safetensors(bytes.data(), bytes.size(), "fuzz.safetensors");
  } catch (const std::invalid_argument&) {
    return 0;  // refused with a message: the expected outcome for damaged files
  }
  for (const auto& t : file.tensors) {
    std::size_t count = 1;
    for (std::size_t d : t.shape) count *= d;  // cannot overflow: the reader checked the byte count
    if (count != t.data.size()) __builtin_trap();
  }
  std::vector<std::uint8_t> written;
  try {
    written = attn::train::write_safetensors(file);
  } catch (const std::invalid_argument&) {
    // The only refusal possible here: an F16 tensor holding NaN or ±Inf (decoded halves are ≤ 65504).
    for (const auto& t : file.tensors) {
      if (t.storage != attn::train::StorageType::F16) continue;
      for (float x : t.data) {
        if (!std::isfinite(x)) return 0;
      }
    }
    __builtin_trap();
  }
  if (!same(attn::train::read_safetensors(written.data(), written.size(), "rewritten"), file)) __builtin_trap();
  return 0;
}
