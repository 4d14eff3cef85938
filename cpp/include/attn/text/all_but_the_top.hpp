#pragma once
// "All-but-the-top" post-processing of word vectors (Mu & Viswanath 2018, "All-but-the-Top: Simple
// and Effective Postprocessing for Word Representations", ICLR, Algorithm 1): subtract the common
// mean vector, then remove the components along the top D principal directions.
//
// Why: pretrained vectors share a large common direction and a few dominant directions that encode
// word frequency rather than meaning, so by raw cosine a frequent word ("the", "was") is similar to
// almost everything. Without those directions, cosines follow meaning: for "bank" in "the river bank
// was muddy", "river" and "muddy" rank above "the" and "was" (tests/cpp/text/test_all_but_the_top.cpp).
//
// Dimensions: n vocabulary rows; d the vector width (d_model); D the directions removed.
#include <cstddef>
#include <functional>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace attn {

// Directions removed from the shipped 100-d GloVe vectors. Mu & Viswanath suggest D ≈ d/100 and
// read D off the spectrum: the directions whose variance stands above the flat bulk. With the
// frequency weights the embedding table uses, three directions stand out of the shipped
// vocabulary's covariance spectrum (the shares are in test_all_but_the_top.cpp, which checks the gap).
constexpr std::size_t kAllButTheTopDirections = 3;

struct AllButTheTop {
  xt::xtensor<float, 1> mean;        // μ [d]: the weighted mean of the vocabulary
  xt::xtensor<float, 2> directions;  // u_1 … u_D [D, d]: unit, orthogonal, largest variance first
  xt::xtensor<float, 1> spectrum;    // share of the total variance along each of the top min(d, max(D, 8)) directions
};

// Fits μ and the directions to n vocabulary rows of width d. row(r, out) writes row r to out [d];
// weight(r) ≥ 0 is its weight (for example its frequency: the mean and covariance then describe
// running text rather than the word list). μ = Σ w_r x_r / Σ w_r; the directions are the top
// eigenvectors of the covariance Σ w_r (x_r − μ)(x_r − μ)ᵀ / Σ w_r (double precision; pca.hpp's
// top_eigenpairs). Throws std::invalid_argument for a negative or non-finite weight, all weights 0
// or a non-finite component; std::out_of_range unless 1 ≤ d ≤ 1024 and D ≤ d.
AllButTheTop fit_all_but_the_top(std::size_t n, std::size_t d, const std::function<void(std::size_t, float*)>& row,
                                 const std::function<double(std::size_t)>& weight, std::size_t n_directions);

// The same for rows [n, d] held in memory and weights [n]; std::invalid_argument if the counts differ.
AllButTheTop fit_all_but_the_top(const xt::xtensor<float, 2>& rows, const std::vector<double>& weights,
                                 std::size_t n_directions);

// Post-processed rows [n, d]: x̃ = (x − μ) − Σ_k (u_kᵀ (x − μ)) u_k (Algorithm 1, steps 3–4), in double
// per row. Throws std::invalid_argument unless rows are [n, d] with the fit's d.
xt::xtensor<float, 2> all_but_the_top(const AllButTheTop& fit, const xt::xtensor<float, 2>& rows);

}  // namespace attn
