#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "../asset.hpp"
#include "attn/text/all_but_the_top.hpp"

namespace {

double cosine(const xt::xtensor<float, 2>& x, std::size_t i, std::size_t j) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t c = 0; c < x.shape(1); ++c) {
    ab += double(x(i, c)) * x(j, c);
    aa += double(x(i, c)) * x(i, c);
    bb += double(x(j, c)) * x(j, c);
  }
  return ab / std::sqrt(aa * bb);
}

// Rows [words.size(), dim] of the shipped table.
xt::xtensor<float, 2> rows_of(const std::vector<std::string>& words) {
  const auto& t = shipped_table();
  xt::xtensor<float, 2> x = xt::empty<float>({words.size(), t.dim()});
  for (std::size_t i = 0; i < words.size(); ++i) {
    const auto id = t.id_of(words[i]);
    REQUIRE(id >= 0);
    const auto v = t.vector(static_cast<std::size_t>(id));
    std::copy(v.begin(), v.end(), &x(i, 0));
  }
  return x;
}

}  // namespace

TEST_CASE("all-but-the-top removes the weighted mean and the dominant direction") {
  // Rows spread mostly along e_0 (±3), a little along e_1 (±1), around the mean (5, 0, 1).
  const xt::xtensor<float, 2> rows = {{8, 1, 1}, {2, -1, 1}, {8, -1, 1}, {2, 1, 1}};
  const std::vector<double> weights = {1, 1, 1, 1};
  const auto fit = attn::fit_all_but_the_top(rows, weights, 1);
  CHECK(fit.mean(0) == Approx(5.0f));
  CHECK(fit.mean(1) == Approx(0.0f).margin(1e-6));
  CHECK(fit.mean(2) == Approx(1.0f));
  CHECK(std::abs(fit.directions(0, 0)) == Approx(1.0f));
  REQUIRE(fit.spectrum.size() == 3);       // min(d, max(D, 8))
  CHECK(fit.spectrum(0) == Approx(0.9f));  // variances 9 and 1 of 10
  CHECK(fit.spectrum(1) == Approx(0.1f));
  const auto out = attn::all_but_the_top(fit, rows);
  for (std::size_t r = 0; r < 4; ++r) {
    CHECK(out(r, 0) == Approx(0.0f).margin(1e-5));        // the top direction is gone
    CHECK(out(r, 1) == Approx(rows(r, 1)).margin(1e-5));  // the rest stays, centred
    CHECK(out(r, 2) == Approx(0.0f).margin(1e-5));
  }
}

TEST_CASE("all-but-the-top weights the mean and covariance") {
  const xt::xtensor<float, 2> rows = {{1, 0}, {3, 0}};
  const auto fit = attn::fit_all_but_the_top(rows, {3.0, 1.0}, 0);
  CHECK(fit.mean(0) == Approx(1.5f));  // (3·1 + 1·3) / 4
  CHECK(fit.directions.shape(0) == 0);
  const auto out = attn::all_but_the_top(fit, rows);
  CHECK(out(0, 0) == Approx(-0.5f));
  CHECK(out(1, 0) == Approx(1.5f));
}

TEST_CASE("all-but-the-top rejects bad weights, widths and D") {
  const xt::xtensor<float, 2> rows = {{1, 0}, {3, 0}};
  CHECK_THROWS_AS(attn::fit_all_but_the_top(rows, {1.0}, 1), std::invalid_argument);
  CHECK_THROWS_AS(attn::fit_all_but_the_top(rows, {1.0, -1.0}, 1), std::invalid_argument);
  CHECK_THROWS_AS(attn::fit_all_but_the_top(rows, {0.0, 0.0}, 1), std::invalid_argument);
  CHECK_THROWS_AS(attn::fit_all_but_the_top(rows, {1.0, NAN}, 1), std::invalid_argument);
  CHECK_THROWS_AS(attn::fit_all_but_the_top(rows, {1.0, 1.0}, 3), std::out_of_range);
  const xt::xtensor<float, 2> infinite = {{1, INFINITY}, {3, 0}};
  CHECK_THROWS_AS(attn::fit_all_but_the_top(infinite, {1.0, 1.0}, 1), std::invalid_argument);
  const auto fit = attn::fit_all_but_the_top(rows, {1.0, 1.0}, 1);
  CHECK_THROWS_AS(attn::all_but_the_top(fit, xt::xtensor<float, 2>::from_shape({2, 3})), std::invalid_argument);
}

TEST_CASE("the shipped vocabulary: three directions stand above the flat rest of the spectrum") {
  const auto& fit = shipped_table().post_processing();
  REQUIRE(fit.directions.shape(0) == attn::kAllButTheTopDirections);
  REQUIRE(fit.spectrum.size() == 8);
  INFO("variance shares " << fit.spectrum(0) << " " << fit.spectrum(1) << " " << fit.spectrum(2) << " | "
                          << fit.spectrum(3) << " " << fit.spectrum(4) << " " << fit.spectrum(5));
  // The removed directions each hold clearly more than the next; the rest fall off slowly.
  CHECK(fit.spectrum(2) > 1.15f * fit.spectrum(3));
  CHECK(fit.spectrum(3) < 1.15f * fit.spectrum(4));
  CHECK(fit.spectrum(4) < 1.15f * fit.spectrum(5));
}

TEST_CASE("the river bank was muddy: raw cosines favour the and was, all-but-the-top river and muddy") {
  const std::vector<std::string> words = {"bank", "the", "river", "was", "muddy"};
  const auto raw = rows_of(words);
  const auto post = shipped_table().post_processed(raw);
  std::vector<double> before, after;
  for (std::size_t j = 1; j < words.size(); ++j) {
    before.push_back(cosine(raw, 0, j));
    after.push_back(cosine(post, 0, j));
  }
  INFO("cos(bank, ·) before: the " << before[0] << ", river " << before[1] << ", was " << before[2] << ", muddy "
                                   << before[3]);
  INFO("cos(bank, ·) after:  the " << after[0] << ", river " << after[1] << ", was " << after[2] << ", muddy "
                                   << after[3]);
  // Before: both function words beat both content words.
  CHECK(std::min(before[0], before[2]) > std::max(before[1], before[3]));
  // After: both content words beat both function words.
  CHECK(std::min(after[1], after[3]) > std::max(after[0], after[2]));
  // Meaning survives: neighbours stay neighbours.
  const auto pets = shipped_table().post_processed(rows_of({"cat", "dog", "king", "queen"}));
  CHECK(cosine(pets, 0, 1) > 0.8);
  CHECK(cosine(pets, 2, 3) > 0.6);
}
