#include <catch2/catch.hpp>

#include "attn/core/matmul.hpp"

TEST_CASE("matmul and matmul_transposed on a hand-worked case") {
  const xt::xtensor<float, 2> a = {{1, 2, 3}, {4, 5, 6}};       // [2, 3]
  const xt::xtensor<float, 2> b = {{7, 8}, {9, 10}, {11, 12}};  // [3, 2]
  const xt::xtensor<float, 2> ab = {{58, 64}, {139, 154}};
  const auto c = attn::matmul(a, b);
  CHECK(c == ab);
  const xt::xtensor<float, 2> bt = {{7, 9, 11}, {8, 10, 12}};  // bᵀ, [2, 3]
  const auto ct = attn::matmul_transposed(a, bt);
  CHECK(ct == ab);
  CHECK(attn::matmul(xt::xtensor<float, 2>(xt::zeros<float>({0, 3})), b).shape(0) == 0);
}

TEST_CASE("matmul rejects shapes that do not chain, naming both") {
  const xt::xtensor<float, 2> a = {{1, 2, 3}};
  CHECK_THROWS_WITH(attn::matmul(a, a), Catch::Contains("[1, 3]"));
  CHECK_THROWS_AS(attn::matmul_transposed(a, xt::xtensor<float, 2>({{1, 2}})), std::invalid_argument);
}
