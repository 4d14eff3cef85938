#include "attn/text/embeddings.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "attn/core/limits.hpp"
#include "attn/core/random.hpp"

namespace attn {

namespace {

constexpr char kMagic[4] = {'A', 'E', 'M', 'B'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 24;

std::uint32_t read_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

float read_f32(const std::uint8_t* p) {
  const std::uint32_t bits = read_u32(p);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

[[noreturn]] void reject(const std::string& why) { throw std::invalid_argument("embeddings asset: " + why); }

}  // namespace

std::uint32_t fnv1a32(const std::uint8_t* data, std::size_t size) {
  std::uint32_t h = 0x811C9DC5u;
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x01000193u;
  return h;
}

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

EmbeddingTable EmbeddingTable::from_bytes(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr || size < kHeaderBytes) {
    reject("file is " + std::to_string(size) + " bytes, shorter than its " + std::to_string(kHeaderBytes) +
           "-byte header (missing or truncated)");
  }
  if (std::memcmp(data, kMagic, sizeof kMagic) != 0) reject("wrong magic (expected \"AEMB\"): not an embedding file");
  const std::uint32_t version = read_u32(data + 4);
  if (version != kVersion) {
    reject("version " + std::to_string(version) + " is not supported (expected " + std::to_string(kVersion) + ")");
  }
  const std::size_t vocab = read_u32(data + 8), dim = read_u32(data + 12), word_bytes = read_u32(data + 16);
  if (vocab == 0 || dim == 0 || dim > kMaxDModel)
    reject("vocabulary size and dimension must be positive (dim ≤ " + std::to_string(kMaxDModel) + ")");
  const std::size_t padded = (word_bytes + 3) / 4 * 4;
  // Sizes are checked in 64 bits so a corrupt header cannot overflow a 32-bit size_t in wasm.
  const std::uint64_t expected =
      kHeaderBytes + static_cast<std::uint64_t>(padded) + 4ULL * vocab + static_cast<std::uint64_t>(vocab) * dim;
  if (expected != size) {
    reject("size " + std::to_string(size) + " bytes does not match its header (" + std::to_string(expected) +
           " expected): truncated or corrupted");
  }
  if (fnv1a32(data + kHeaderBytes, size - kHeaderBytes) != read_u32(data + 20)) reject("checksum mismatch: corrupted");

  EmbeddingTable table;
  table.dim_ = dim;
  table.words_.reserve(vocab);
  const char* words = reinterpret_cast<const char*>(data + kHeaderBytes);
  std::size_t begin = 0;
  for (std::size_t i = 0; i < word_bytes; ++i) {
    if (words[i] != '\n') continue;
    table.index_.emplace(std::string(words + begin, i - begin), static_cast<std::int64_t>(table.words_.size()));
    table.words_.emplace_back(words + begin, i - begin);
    begin = i + 1;
  }
  if (table.words_.size() != vocab)
    reject("word list holds " + std::to_string(table.words_.size()) + " words, header says " + std::to_string(vocab));
  const std::uint8_t* scales = data + kHeaderBytes + padded;
  table.scales_.resize(vocab);
  for (std::size_t r = 0; r < vocab; ++r) table.scales_[r] = read_f32(scales + 4 * r);
  const std::uint8_t* rows = scales + 4 * vocab;
  table.vectors_.assign(reinterpret_cast<const std::int8_t*>(rows),
                        reinterpret_cast<const std::int8_t*>(rows) + vocab * dim);

  double norm_sum = 0.0;
  std::vector<double> sum(dim, 0.0);
  for (std::size_t r = 0; r < vocab; ++r) {
    double sq = 0.0;
    for (std::size_t c = 0; c < dim; ++c) {
      const double x = table.scales_[r] * table.vectors_[r * dim + c];
      sq += x * x;
      sum[c] += x;
    }
    norm_sum += std::sqrt(sq);
  }
  table.mean_norm_ = static_cast<float>(norm_sum / static_cast<double>(vocab));
  table.mask_vector_ = xt::empty<float>({dim});
  for (std::size_t c = 0; c < dim; ++c) table.mask_vector_(c) = static_cast<float>(sum[c] / static_cast<double>(vocab));
  table.post_processing_ = fit_all_but_the_top(
      vocab, dim,
      [&table, dim](std::size_t r, float* out) {
        for (std::size_t c = 0; c < dim; ++c)
          out[c] = table.scales_[r] * static_cast<float>(table.vectors_[r * dim + c]);
      },
      [](std::size_t r) { return 1.0 / static_cast<double>(r + 1); },
      std::min<std::size_t>(kAllButTheTopDirections, dim));
  return table;
}

std::int64_t EmbeddingTable::id_of(const std::string& key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? -1 : it->second;
}

xt::xtensor<float, 1> EmbeddingTable::vector(std::size_t id) const {
  if (id >= words_.size()) {
    throw std::out_of_range("EmbeddingTable::vector: id must be below " + std::to_string(words_.size()));
  }
  xt::xtensor<float, 1> v = xt::empty<float>({dim_});
  for (std::size_t c = 0; c < dim_; ++c) v(c) = scales_[id] * static_cast<float>(vectors_[id * dim_ + c]);
  return v;
}

xt::xtensor<float, 1> EmbeddingTable::oov_vector(const std::string& key) const {
  SplitMix64 rng(fnv1a64(key));
  xt::xtensor<float, 1> v = xt::empty<float>({dim_});
  double sq = 0.0;
  for (auto& x : v) {
    x = 2.0f * rng.uniform() - 1.0f;
    sq += static_cast<double>(x) * x;
  }
  const float rescale = sq > 0.0 ? static_cast<float>(mean_norm_ / std::sqrt(sq)) : 0.0f;
  return v * rescale;
}

xt::xtensor<float, 2> EmbeddingTable::embed(const std::vector<Token>& tokens, std::vector<std::int64_t>& ids) const {
  xt::xtensor<float, 2> x = xt::empty<float>({tokens.size(), dim_});
  ids.assign(tokens.size(), -1);
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    ids[t] = id_of(tokens[t].key);
    const xt::xtensor<float, 1> row =
        ids[t] >= 0 ? vector(static_cast<std::size_t>(ids[t])) : oov_vector(tokens[t].key);
    std::copy(row.begin(), row.end(), x.begin() + static_cast<std::ptrdiff_t>(t * dim_));
  }
  return x;
}

std::vector<Token> tokenize(const std::string& text, const EmbeddingTable& table) {
  return tokenize(text, [&table](const std::string& key) { return table.contains(key); });
}

}  // namespace attn
