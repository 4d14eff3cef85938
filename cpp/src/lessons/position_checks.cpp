#include "attn/lessons/position_checks.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "attn/core/matmul.hpp"
#include "attn/core/random.hpp"

namespace attn {

namespace {

float max_abs_difference(const float* a, const float* b, std::size_t n) {
  float worst = 0.0f;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// max |row a − row b| of a [rows, cols] matrix.
float row_difference(const xt::xtensor<float, 2>& m, std::size_t a, std::size_t b) {
  return max_abs_difference(&m(a, 0), &m(b, 0), m.shape(1));
}

xt::xtensor<float, 2> scaled(xt::xtensor<float, 2> m, float factor) {
  m *= factor;
  return m;
}

}  // namespace

std::vector<ScoreTerms> score_terms(const xt::xtensor<float, 2>& x, const xt::xtensor<float, 2>& p,
                                    const Projections& projections, std::size_t n_heads, float score_factor) {
  if (x.shape() != p.shape()) throw std::invalid_argument("score_terms: x and p must have the same shape");
  const std::vector<HeadInputs> content = project_heads(x, n_heads, projections);
  const std::vector<HeadInputs> position = project_heads(p, n_heads, projections);
  std::vector<ScoreTerms> terms;
  for (std::size_t h = 0; h < n_heads; ++h) {
    const HeadInputs &c = content[h], &q = position[h];
    terms.push_back({scaled(matmul_transposed(c.queries, c.keys), score_factor),
                     scaled(matmul_transposed(c.queries, q.keys), score_factor),
                     scaled(matmul_transposed(q.queries, c.keys), score_factor),
                     scaled(matmul_transposed(q.queries, q.keys), score_factor)});
  }
  return terms;
}

std::vector<RepeatedWord> repeated_words(const std::vector<std::string>& keys, const MultiHeadResult& attention) {
  std::unordered_map<std::string, std::size_t> first_seen;
  std::vector<RepeatedWord> repeated;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto [found, inserted] = first_seen.emplace(keys[i], i);
    if (inserted || found->second == keys.size()) continue;
    const std::size_t first = found->second;
    found->second = keys.size();  // only the first two occurrences
    RepeatedWord word{keys[i], first, i, 0.0f, 0.0f, 0.0f, {}};
    for (const HeadResult& head : attention.heads) {
      const RowDifference d{row_difference(head.inputs.queries, first, i), row_difference(head.inputs.keys, first, i),
                            row_difference(head.inputs.values, first, i)};
      word.heads.push_back(d);
      word.queries = std::max(word.queries, d.queries);
      word.keys = std::max(word.keys, d.keys);
      word.values = std::max(word.values, d.values);
    }
    repeated.push_back(word);
  }
  return repeated;
}

std::vector<std::size_t> shuffled_order(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  SplitMix64 random(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[random.next() % i]);
  if (n >= 2 && std::is_sorted(order.begin(), order.end())) std::rotate(order.begin(), order.begin() + 1, order.end());
  return order;
}

ShuffleCheck compare_shuffled(const MultiHeadResult& original, const MultiHeadResult& shuffled,
                              std::vector<std::size_t> order) {
  const std::size_t n = order.size();
  if (original.weights.shape() != shuffled.weights.shape() || original.output.shape() != shuffled.output.shape() ||
      original.weights.shape(1) != n) {
    throw std::invalid_argument("compare_shuffled: the two attentions and the order must agree in shape");
  }
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) {
    if (sorted[i] != i) throw std::invalid_argument("compare_shuffled: order must be a permutation of 0 … seq_len − 1");
  }
  float weight_difference = 0.0f;
  std::vector<float> head_differences(original.weights.shape(0), 0.0f);
  for (std::size_t h = 0; h < original.weights.shape(0); ++h) {
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t l = 0; l < n; ++l) {
        head_differences[h] = std::max(head_differences[h],
                                       std::abs(shuffled.weights(h, k, l) - original.weights(h, order[k], order[l])));
      }
    }
    weight_difference = std::max(weight_difference, head_differences[h]);
  }
  float output_difference = 0.0f;
  const std::size_t d_model = original.output.shape(1);
  for (std::size_t k = 0; k < n; ++k) {
    output_difference =
        std::max(output_difference, max_abs_difference(&shuffled.output(k, 0), &original.output(order[k], 0), d_model));
  }
  return {std::move(order), shuffled.weights, weight_difference, std::move(head_differences), output_difference};
}

xt::xtensor<float, 1> row_norms(const xt::xtensor<float, 2>& m) {
  xt::xtensor<float, 1> norms = xt::empty<float>({m.shape(0)});
  for (std::size_t i = 0; i < m.shape(0); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < m.shape(1); ++j) sum += static_cast<double>(m(i, j)) * m(i, j);
    norms(i) = static_cast<float>(std::sqrt(sum));
  }
  return norms;
}

}  // namespace attn
