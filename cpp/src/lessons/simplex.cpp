#include "attn/lessons/simplex.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn {

double regularizer(const xt::xtensor<double, 1>& p, Normalizer method) {
  double sum = 0.0;
  switch (method) {
    case Normalizer::softmax:
      for (double x : p) sum += x > 0.0 ? x * std::log(x) : 0.0;
      return sum;
    case Normalizer::sparsemax:
      for (double x : p) sum += x * x;
      return 0.5 * (sum - 1.0);
    case Normalizer::entmax15:
      for (double x : p) sum += x > 0.0 ? x * std::sqrt(x) : 0.0;
      return (sum - 1.0) / 0.75;
    case Normalizer::hardmax:
      return 0.0;
  }
  throw std::invalid_argument("regularizer: unknown normalizer");
}

xt::xtensor<float, 1> simplex_objective(const xt::xtensor<float, 2>& points, const xt::xtensor<float, 1>& scores,
                                        Normalizer method, float temperature) {
  const std::size_t count = points.shape(0), m = points.shape(1);
  if (scores.size() != m) {
    throw std::invalid_argument("simplex_objective: points have " + std::to_string(m) + " coordinates but there are " +
                                std::to_string(scores.size()) + " scores");
  }
  if (!std::isfinite(temperature) || temperature <= 0.0f) {
    throw std::out_of_range("simplex_objective: temperature must be a finite number > 0");
  }
  if (std::uint64_t{count} * m > kMaxSimplexCoordinates) {
    throw std::out_of_range("simplex_objective: at most " + std::to_string(kMaxSimplexCoordinates) +
                            " point coordinates, got " + std::to_string(std::uint64_t{count} * m));
  }
  for (float s : scores) {
    if (!std::isfinite(s)) throw std::invalid_argument("simplex_objective: scores must be finite");
  }
  xt::xtensor<float, 1> values = xt::empty<float>({count});
  xt::xtensor<double, 1> p = xt::empty<double>({m});
  for (std::size_t i = 0; i < count; ++i) {
    double sum = 0.0, dot = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      const float x = points(i, j);
      if (!(x >= -1e-6f) || !std::isfinite(x)) {
        throw std::invalid_argument("simplex_objective: point " + std::to_string(i) +
                                    " is not on the simplex (coordinate " + std::to_string(j) +
                                    " is negative or not finite)");
      }
      p(j) = x > 0.0f ? x : 0.0;
      sum += p(j);
      dot += p(j) * scores(j);
    }
    if (std::abs(sum - 1.0) > 1e-4) {
      throw std::invalid_argument("simplex_objective: point " + std::to_string(i) + " sums to " + std::to_string(sum) +
                                  ", not 1");
    }
    values(i) = static_cast<float>(dot / temperature - regularizer(p, method));
  }
  return values;
}

}  // namespace attn
