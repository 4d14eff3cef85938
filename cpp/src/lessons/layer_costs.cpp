#include "attn/lessons/layer_costs.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace attn {

namespace {

std::string number(double x) {
  // Whole numbers without a fractional part; others as the shortest faithful text.
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, std::floor(x) == x && std::abs(x) < 1e15 ? "%.0f" : "%.6g", x);
  return buffer;
}

void check_whole(double value, const char* name, double min, double max) {
  if (!std::isfinite(value) || std::floor(value) != value || value < min || value > max) {
    throw std::out_of_range(std::string("layer_costs: ") + name + " must be a whole number from " + number(min) +
                            " to " + number(max) + ", got " + number(value));
  }
}

void check(double n, double d, double k) {
  check_whole(n, "n (tokens)", 1, kMaxCostTokens);
  check_whole(d, "d (width)", 1, kMaxCostWidth);
  check_whole(k, "k (kernel size)", 2, kMaxCostKernel);
}

}  // namespace

LayerCost layer_cost(LayerKind kind, double n, double d, double k) {
  check(n, d, k);
  const double pairs = n > 1 ? 1 : 0;  // a single token has no pair of positions: path length 0
  switch (kind) {
    case LayerKind::convolution:
      return {k * n * d * d, 1, std::ceil((n - 1) / (k - 1))};
    case LayerKind::recurrent:
      return {n * d * d, n, n - 1};
    case LayerKind::self_attention:
      return {n * n * d, 1, pairs};
  }
  throw std::invalid_argument("layer_costs: unknown layer kind");
}

LayerCosts layer_costs(double n, double d, double k) {
  return {layer_cost(LayerKind::convolution, n, d, k), layer_cost(LayerKind::recurrent, n, d, k),
          layer_cost(LayerKind::self_attention, n, d, k)};
}

CostCrossings cost_crossings(double d, double k) {
  check(1, d, k);
  return {d, k * d};
}

xt::xtensor<double, 2> layer_cost_curves(const std::vector<double>& ns, double d, double k) {
  if (ns.size() > kMaxCostPoints) {
    throw std::out_of_range("layer_costs: at most " + std::to_string(kMaxCostPoints) + " values of n per curve, got " +
                            std::to_string(ns.size()));
  }
  xt::xtensor<double, 2> curves = xt::zeros<double>({std::size_t{3}, ns.size()});
  for (std::size_t i = 0; i < ns.size(); ++i) {
    const LayerCosts c = layer_costs(ns[i], d, k);
    curves(0, i) = c.convolution.operations;
    curves(1, i) = c.recurrent.operations;
    curves(2, i) = c.self_attention.operations;
  }
  return curves;
}

LayerCostsLesson layer_costs_lesson(double n, double d, double k, const std::vector<double>& curve_n) {
  return {layer_costs(n, d, k), cost_crossings(d, k), curve_n, layer_cost_curves(curve_n, d, k)};
}

}  // namespace attn
