#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "attn/kernels.hpp"
#include "attn/random.hpp"

namespace {
std::vector<float> random_vector(std::size_t size, std::uint64_t seed) {
  attn::SplitMix64 rng(seed);
  std::vector<float> v(size);
  for (auto& x : v) x = 2.0f * rng.uniform() - 1.0f;
  return v;
}
}  // namespace

TEST_CASE("gemm equals a float64 reference for every edge shape, with strides and accumulation") {
  double max_err = 0.0;
  for (std::size_t n : {1, 3, 4, 5, 9, 17}) {
    for (std::size_t k : {1, 2, 7, 16, 33}) {
      for (std::size_t m : {1, 7, 8, 9, 24, 31}) {
        const std::size_t lda = k + 2, ldb = m + 3, ldc = m + 1;  // row strides wider than the rows
        const auto a = random_vector(n * lda, n * 100 + k), b = random_vector(k * ldb, k * 100 + m);
        for (bool accumulate : {false, true}) {
          std::vector<float> c = random_vector(n * ldc, 7);
          const std::vector<float> before = c;
          attn::gemm(a.data(), lda, b.data(), ldb, c.data(), ldc, n, k, m, accumulate);
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < m; ++j) {
              double ref = accumulate ? before[i * ldc + j] : 0.0;
              for (std::size_t p = 0; p < k; ++p) ref += double(a[i * lda + p]) * b[p * ldb + j];
              max_err = std::max(max_err, std::abs(c[i * ldc + j] - ref));
            }
            for (std::size_t j = m; j < ldc; ++j) REQUIRE(c[i * ldc + j] == before[i * ldc + j]);  // padding untouched
          }
        }
      }
    }
  }
  INFO("max abs error " << max_err);
  CHECK(max_err < 1e-5);
}

TEST_CASE("softmax_prefix equals the float64 softmax on the prefix and zeroes the rest") {
  for (std::size_t length : {1, 3, 4, 7, 16, 33}) {
    for (std::size_t limit = 0; limit <= length; ++limit) {
      auto row = random_vector(length, length * 10 + limit);
      for (auto& x : row) x *= 30.0f;
      const auto original = row;
      REQUIRE(attn::softmax_prefix(row.data(), limit, length));
      double max = -1e300, sum = 0.0;
      for (std::size_t j = 0; j < limit; ++j) max = std::max(max, double(original[j]));
      for (std::size_t j = 0; j < limit; ++j) sum += std::exp(original[j] - max);
      for (std::size_t j = 0; j < length; ++j) {
        const double ref = j < limit ? std::exp(original[j] - max) / sum : 0.0;
        REQUIRE(row[j] == Approx(ref).margin(1e-6));
      }
    }
  }
}

TEST_CASE("softmax_prefix: +inf shares the weight, all −inf gives zeros, NaN is reported") {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> a = {inf, 1.0f, inf, 0.0f};
  REQUIRE(attn::softmax_prefix(a.data(), 4, 4));
  CHECK(a == std::vector<float>{0.5f, 0.0f, 0.5f, 0.0f});
  std::vector<float> b = {-inf, -inf};
  REQUIRE(attn::softmax_prefix(b.data(), 2, 2));
  CHECK(b == std::vector<float>{0.0f, 0.0f});
  std::vector<float> c = {1.0f, NAN};
  CHECK_FALSE(attn::softmax_prefix(c.data(), 2, 2));
}

TEST_CASE("gemm_packed equals gemm for every edge shape") {
  for (std::size_t n : {1, 5, 6, 13}) {
    for (std::size_t k : {1, 9, 300}) {
      for (std::size_t m : {1, 8, 12, 20}) {
        const auto a = random_vector(n * k, n + k), b = random_vector(k * m, k + m);
        std::vector<float> expected(n * m), got(n * m, 123.0f);
        attn::gemm(a.data(), k, b.data(), m, expected.data(), m, n, k, m);
        const auto packed = attn::pack_panels(b.data(), m, k, m);
        attn::gemm_packed(a.data(), k, packed.data(), got.data(), m, n, k, m);
        for (std::size_t i = 0; i < n * m; ++i) REQUIRE(got[i] == Approx(expected[i]).margin(1e-5));
      }
    }
  }
}
