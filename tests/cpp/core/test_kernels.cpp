#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attn/core/attention.hpp"
#include "attn/core/kernels.hpp"
#include "attn/core/random.hpp"

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
  // n covers every split into row tiles, of 4 rows (SIMD128) and of 6 (elsewhere): 5–8 rows are split
  // into two tiles of 2–4 rows, 9 and 17 end in such a pair
  for (std::size_t n : {1, 3, 4, 5, 6, 7, 8, 9, 17}) {
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

TEST_CASE("softmax_prefix is masked_softmax for a prefix mask (the fast paths' form of the one softmax)") {
  double max_err = 0.0;
  for (std::size_t length : {1, 5, 8, 17}) {
    for (std::size_t limit = 0; limit <= length; ++limit) {
      auto row = random_vector(length, 7000 + length * 10 + limit);
      xt::xtensor<float, 2> scores = xt::empty<float>({std::size_t{1}, length});
      for (std::size_t j = 0; j < length; ++j) {
        row[j] *= 20.0f;
        scores(0, j) = j < limit ? row[j] : -std::numeric_limits<float>::infinity();
      }
      const auto reference = attn::masked_softmax(scores);
      REQUIRE(attn::softmax_prefix(row.data(), limit, length));
      for (std::size_t j = 0; j < length; ++j) max_err = std::max(max_err, std::abs(double(row[j]) - reference(0, j)));
    }
  }
  INFO("max |softmax_prefix − masked_softmax| = " << max_err);
  CHECK(max_err < 1e-6);
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
  // n = 100 and k = 600 cross gemm_packed's cache blocks (96 rows, 512 of k)
  for (std::size_t n : {1, 5, 6, 7, 8, 13, 100}) {
    for (std::size_t k : {1, 9, 300, 600}) {
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

TEST_CASE("gemm_packed uses the first k rows of longer panels, and panels pack from Bᵀ alike") {
  for (std::size_t n : {1, 7}) {
    for (std::size_t panel_k : {5, 40}) {
      for (std::size_t m : {3, 8, 19}) {
        const std::size_t ldb = m + 2, ldbt = panel_k + 3;  // strided sources
        const auto a = random_vector(n * panel_k, n + m), b = random_vector(panel_k * ldb, panel_k + m);
        std::vector<float> bt(m * ldbt);
        for (std::size_t p = 0; p < panel_k; ++p)
          for (std::size_t j = 0; j < m; ++j) bt[j * ldbt + p] = b[p * ldb + j];
        std::vector<float> packed(attn::packed_size(panel_k, m), 7.0f), packed_t(packed.size(), 7.0f);
        attn::pack_panels_into(b.data(), ldb, panel_k, m, packed.data());
        attn::pack_panels_into(bt.data(), ldbt, panel_k, m, packed_t.data(), true);
        REQUIRE(packed == packed_t);
        REQUIRE(packed == attn::pack_panels(b.data(), ldb, panel_k, m));
        for (std::size_t k = 0; k <= panel_k; k += std::max<std::size_t>(1, panel_k / 3)) {
          std::vector<float> got(n * m, 123.0f);
          attn::gemm_packed(a.data(), panel_k, packed.data(), got.data(), m, n, k, m, panel_k);
          for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < m; ++j) {
              double ref = 0.0;
              for (std::size_t p = 0; p < k; ++p) ref += double(a[i * panel_k + p]) * b[p * ldb + j];
              REQUIRE(got[i * m + j] == Approx(ref).margin(1e-5));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("pack_panel_rows packs a matrix a block of rows at a time as pack_panels packs it whole") {
  for (std::size_t k : {1, 5, 16}) {
    for (std::size_t m : {1, 8, 19}) {
      const std::size_t ld = m + 3;  // strided rows
      const auto b = random_vector(k * ld, k + m);
      const auto expected = attn::pack_panels(b.data(), ld, k, m);
      std::vector<float> by_rows(expected.size(), 0.0f), by_columns(expected.size(), 0.0f);
      for (std::size_t first = 0; first < k; first += 3)  // blocks of 3 rows, the last shorter
        attn::pack_panel_rows(b.data() + first * ld, ld, first, std::min<std::size_t>(3, k - first), k, m,
                              by_rows.data());
      REQUIRE(by_rows == expected);
      std::vector<float> bt(m * k);  // Bᵀ's rows are B's columns, written 2 at a time
      for (std::size_t p = 0; p < k; ++p)
        for (std::size_t j = 0; j < m; ++j) bt[j * k + p] = b[p * ld + j];
      for (std::size_t first = 0; first < m; first += 2)
        attn::pack_panel_rows(bt.data() + first * k, k, first, std::min<std::size_t>(2, m - first), k, m,
                              by_columns.data(), true);
      REQUIRE(by_columns == expected);
      std::vector<float> column(k);
      for (std::size_t j = 0; j < m; ++j) {
        attn::unpack_panel_column(expected.data(), k, j, column.data());
        REQUIRE(std::vector<float>(bt.begin() + j * k, bt.begin() + (j + 1) * k) == column);
      }
    }
  }
}

TEST_CASE("softmax_prefix with a scale is the softmax of the scaled row, without overflow") {
  for (float scale : {0.125f, 1.0f, 3.0f}) {
    for (std::size_t limit : {1, 2, 3, 5, 8, 13}) {
      auto row = random_vector(limit + 2, limit * 7 + 1);
      for (auto& x : row) x *= 20.0f;
      const auto original = row;
      REQUIRE(attn::softmax_prefix(row.data(), limit, row.size(), scale));
      double max = -1e300, sum = 0.0;
      for (std::size_t j = 0; j < limit; ++j) max = std::max(max, double(scale) * original[j]);
      for (std::size_t j = 0; j < limit; ++j) sum += std::exp(double(scale) * original[j] - max);
      for (std::size_t j = 0; j < row.size(); ++j) {
        const double ref = j < limit ? std::exp(double(scale) * original[j] - max) / sum : 0.0;
        REQUIRE(row[j] == Approx(ref).margin(1e-6));
      }
    }
  }
  // scale · x overflows float32 here (1e30 · 1e10), the shifted form does not: the larger score wins
  std::vector<float> big = {1e10f, 2e10f, -1e10f};
  REQUIRE(attn::softmax_prefix(big.data(), 3, 3, 1e30f));
  CHECK(big == std::vector<float>{0.0f, 1.0f, 0.0f});
}
