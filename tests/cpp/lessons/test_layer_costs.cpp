#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "attn/lessons/layer_costs.hpp"

// Every test name starts with "layer_costs:" so that `ctest -R layer_costs` selects them all.

TEST_CASE("layer_costs: worked numbers for an 8-token sentence, d = 100, k = 3") {
  const auto c = attn::layer_costs(8, 100, 3);
  CHECK(c.convolution.operations == 240000.0);   // 3 · 8 · 100²
  CHECK(c.recurrent.operations == 80000.0);      // 8 · 100²
  CHECK(c.self_attention.operations == 6400.0);  // 8² · 100
  CHECK(c.convolution.sequential == 1.0);
  CHECK(c.recurrent.sequential == 8.0);
  CHECK(c.self_attention.sequential == 1.0);
  CHECK(c.convolution.max_path_length == 4.0);  // ⌈7 / 2⌉
  CHECK(c.recurrent.max_path_length == 7.0);
  CHECK(c.self_attention.max_path_length == 1.0);
}

TEST_CASE("layer_costs: d2l Fig. 11.6.1 — x1 and x5 meet in a two-layer CNN with k = 3") {
  CHECK(attn::layer_cost(attn::LayerKind::convolution, 5, 1, 3).max_path_length == 2.0);
  CHECK(attn::layer_cost(attn::LayerKind::convolution, 6, 1, 3).max_path_length == 3.0);  // 1 + 2·2 = 5 < 6
  CHECK(attn::layer_cost(attn::LayerKind::convolution, 6, 1, 6).max_path_length == 1.0);  // the kernel spans all
  CHECK(attn::layer_cost(attn::LayerKind::convolution, 4, 1, 100).max_path_length == 1.0);
  CHECK(attn::layer_cost(attn::LayerKind::convolution, 100, 1, 2).max_path_length == 99.0);  // k = 2: as a recurrence
  // One token: no pair, no path.
  const auto one = attn::layer_costs(1, 100, 3);
  CHECK(one.convolution.max_path_length == 0.0);
  CHECK(one.recurrent.max_path_length == 0.0);
  CHECK(one.self_attention.max_path_length == 0.0);
}

TEST_CASE("layer_costs: the curves cross at n = d (recurrence) and n = k·d (convolution)") {
  const double d = 100, k = 3;
  const auto x = attn::cost_crossings(d, k);
  CHECK(x.self_attention_recurrent == 100.0);
  CHECK(x.self_attention_convolution == 300.0);
  const auto at = [&](double n) { return attn::layer_costs(n, d, k); };
  CHECK(at(99).self_attention.operations < at(99).recurrent.operations);
  CHECK(at(100).self_attention.operations == at(100).recurrent.operations);  // d³ = 10⁶
  CHECK(at(101).self_attention.operations > at(101).recurrent.operations);
  CHECK(at(299).self_attention.operations < at(299).convolution.operations);
  CHECK(at(300).self_attention.operations == at(300).convolution.operations);  // k² d³ = 9·10⁶
  CHECK(at(301).self_attention.operations > at(301).convolution.operations);
  const std::vector<double> ns = {1, 10, 100, 1000, 10000};
  const auto curves = attn::layer_cost_curves(ns, d, k);
  REQUIRE(curves.shape(0) == 3);
  REQUIRE(curves.shape(1) == 5);
  for (std::size_t i = 0; i < ns.size(); ++i) {
    CHECK(curves(0, i) == k * ns[i] * d * d);
    CHECK(curves(1, i) == ns[i] * d * d);
    CHECK(curves(2, i) == ns[i] * ns[i] * d);
    CHECK(curves(0, i) == 3 * curves(1, i));  // convolution and recurrence never cross
  }
  CHECK(curves(2, 4) == 1e10);
}

TEST_CASE("layer_costs: values outside the ranges are refused with the argument named") {
  CHECK_THROWS_AS(attn::layer_costs(0, 100, 3), std::out_of_range);
  CHECK_THROWS_WITH(attn::layer_costs(0, 100, 3),
                    Catch::Contains("n (tokens) must be a whole number from 1 to 100000000, got 0"));
  CHECK_THROWS_WITH(attn::layer_costs(2.5, 100, 3), Catch::Contains("n (tokens)"));
  CHECK_THROWS_WITH(attn::layer_costs(8, 0, 3), Catch::Contains("d (width) must be a whole number from 1 to 100000"));
  CHECK_THROWS_WITH(attn::layer_costs(8, 100, 1),
                    Catch::Contains("k (kernel size) must be a whole number from 2 to 10000, got 1"));
  CHECK_THROWS_WITH(attn::cost_crossings(100, 1e9), Catch::Contains("k (kernel size)"));
  CHECK_THROWS_WITH(attn::layer_costs(8, INFINITY, 3), Catch::Contains("got inf"));
  CHECK_THROWS_WITH(attn::layer_cost_curves(std::vector<double>(4097, 1.0), 100, 3), Catch::Contains("at most 4096"));
  CHECK_THROWS_WITH(attn::layer_cost_curves({1, 2, -3}, 100, 3), Catch::Contains("got -3"));
}

TEST_CASE("layer_costs_lesson is the table, the crossings and the curves of the separate calls") {
  const std::vector<double> ns = {1, 10, 100, 1000};
  const auto lesson = attn::layer_costs_lesson(50, 64, 3, ns);
  const auto table = attn::layer_costs(50, 64, 3);
  CHECK(lesson.table.self_attention.operations == table.self_attention.operations);
  CHECK(lesson.table.recurrent.operations == table.recurrent.operations);
  CHECK(lesson.table.convolution.max_path_length == table.convolution.max_path_length);
  CHECK(lesson.crossings.self_attention_recurrent == 64);     // n = d
  CHECK(lesson.crossings.self_attention_convolution == 192);  // n = k·d
  CHECK(lesson.curve_n == ns);
  REQUIRE(lesson.curves.shape(0) == 3);
  REQUIRE(lesson.curves.shape(1) == ns.size());
  for (std::size_t i = 0; i < ns.size(); ++i)
    CHECK(lesson.curves(2, i) == attn::layer_costs(ns[i], 64, 3).self_attention.operations);
  CHECK_THROWS_AS(attn::layer_costs_lesson(attn::kMaxCostTokens + 1, 64, 3, {}), std::out_of_range);
  CHECK_THROWS_AS(attn::layer_costs_lesson(50, 64, 3, std::vector<double>(attn::kMaxCostPoints + 1, 1.0)),
                  std::out_of_range);
  CHECK_NOTHROW(attn::layer_costs_lesson(50, 64, 3, std::vector<double>(attn::kMaxCostPoints, 1.0)));
}
