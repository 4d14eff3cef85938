// libFuzzer harness: arbitrary bytes as an embedding asset. Bad files must be refused with
// std::invalid_argument, never crash. When the first byte is odd the harness repairs the checksum
// first, so mutations reach the parser behind it (sizes, word list, lookups).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "attn/text/embeddings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::vector<std::uint8_t> bytes(data + 1, data + size);
  constexpr std::size_t kHeader = 24;
  if ((data[0] & 1) && bytes.size() >= kHeader) {
    const std::uint32_t sum = attn::fnv1a32(bytes.data() + kHeader, bytes.size() - kHeader);
    for (int b = 0; b < 4; ++b) bytes[20 + b] = static_cast<std::uint8_t>(sum >> (8 * b));
  }
  try {
    const auto table = attn::EmbeddingTable::from_bytes(bytes.data(), bytes.size());
    for (std::size_t id = 0; id < table.vocab_size(); ++id) {
      if (table.id_of(table.word(id)) < 0) __builtin_trap();  // every stored word can be looked up
      (void)table.vector(id);
    }
    (void)table.oov_vector("fuzz");
    (void)table.mask_vector();
  } catch (const std::invalid_argument&) {
    // refused with a message: the expected outcome for damaged files
  }
  return 0;
}
