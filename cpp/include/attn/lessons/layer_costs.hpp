#pragma once
// What a layer costs on a sequence: convolution, recurrence and self-attention compared, as in
// d2l.ai §11.6.2 "Comparing CNNs, RNNs, and Self-Attention" and Vaswani et al. 2017, Table 1 and §4.
//
// Dimensions: n tokens in the sequence, d the width of every token's representation (input and
// output d_model), k the convolution's kernel size (how many neighbouring tokens one output reads).
//
//                    operations (per layer)   sequential operations   maximum path length
//   convolution      k · n · d²               1                       ⌈(n − 1) / (k − 1)⌉
//   recurrence       n · d²                   n                       n − 1
//   self-attention   n² · d                   1                       1
//
// - operations: the leading term of the multiply–adds, without constant factors (the tables give
//   them as O(…)): a convolution applies a [d, d] matrix to each of the k neighbours of each of the n
//   positions; a recurrent layer multiplies its [d, d] hidden-state matrix once per token; self-attention
//   forms the n² dot products Q Kᵀ of d-vectors (and as many weighted sums of values). The projections
//   of self-attention (another n · d² term) are left out, as in both tables.
// - sequential operations: steps that must wait for the previous one. A recurrence needs h_{t−1} to
//   compute h_t; convolution and attention compute every position at once.
// - maximum path length: the most layers (or steps) a signal crosses between any two positions
//   (shorter paths make long-range dependencies easier to learn; Hochreiter et al. 2001).
//   Recurrence: from the first token to the last hidden state, n − 1 steps. Self-attention: every
//   position reads every other in one layer. Convolution (contiguous kernels, d2l's O(n/k)): each layer
//   widens the receptive field by k − 1 positions, so L stacked layers see 1 + L(k − 1) tokens, and the
//   first and last tokens first reach a common output after the smallest such L that covers all n:
//   ⌈(n − 1) / (k − 1)⌉ (d2l Fig. 11.6.1: x1 and x5 are within the receptive field of a two-layer CNN
//   with k = 3). Vaswani's O(log_k n) is for dilated convolutions, not computed here.
//   A single token (n = 1) has no pair of positions: its path lengths are 0.
//
// Where the operation counts cross: n² d < n d² ⇔ n < d (self-attention is cheaper than recurrence for
// sentences shorter than the representation width, the usual case: Vaswani §4), and n² d < k n d² ⇔
// n < k·d against convolution. Convolution and recurrence never cross: a convolution costs k times a
// recurrence at every n.
#include <cstddef>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace attn {

// Allowed ranges (std::out_of_range outside them). Counts are doubles: at the limits n²·d reaches
// 10²¹, past 64-bit integers; doubles hold it exactly up to 2⁵³ ≈ 9·10¹⁵ and within 2⁻⁵³ relative beyond.
constexpr double kMaxCostTokens = 1e8;        // n: 1 … 10⁸
constexpr double kMaxCostWidth = 1e5;         // d: 1 … 10⁵
constexpr double kMaxCostKernel = 1e4;        // k: 2 … 10⁴ (k = 1 never connects two positions)
constexpr std::size_t kMaxCostPoints = 4096;  // n values in one curve request

enum class LayerKind { convolution, recurrent, self_attention };

struct LayerCost {
  double operations;       // leading multiply–add count (see the table above)
  double sequential;       // sequential operations
  double max_path_length;  // layers (or steps) between the farthest two positions
};

struct LayerCosts {
  LayerCost convolution, recurrent, self_attention;
};

// The three rows of the table for n tokens of width d and kernel size k.
// Throws std::out_of_range unless n, d and k are whole numbers in the ranges above.
LayerCost layer_cost(LayerKind kind, double n, double d, double k);
LayerCosts layer_costs(double n, double d, double k);

// Where self-attention stops being cheaper: n = d against recurrence, n = k·d against convolution
// (real numbers; at that n the two counts are equal: d³ and k²·d³ operations).
struct CostCrossings {
  double self_attention_recurrent;    // n = d
  double self_attention_convolution;  // n = k · d
};
CostCrossings cost_crossings(double d, double k);

// The operations of the three layers at each n of `ns` (whole numbers 1 … kMaxCostTokens, at most
// kMaxCostPoints of them), for plotting cost against n: rows convolution, recurrent, self-attention.
// → [3, ns.size()]. Throws std::out_of_range as layer_cost, or for too many points.
xt::xtensor<double, 2> layer_cost_curves(const std::vector<double>& ns, double d, double k);

// Everything the layer-costs lesson shows, from one call.
struct LayerCostsLesson {
  LayerCosts table;               // the three rows at n
  CostCrossings crossings;        // where self-attention stops being cheaper
  std::vector<double> curve_n;    // the n values of the curves, as given
  xt::xtensor<double, 2> curves;  // [3, curve_n.size()] (layer_cost_curves)
};

// The table for n tokens of width d and kernel size k, the crossings for d and k, and the curves over
// curve_n. Throws as layer_costs and layer_cost_curves.
LayerCostsLesson layer_costs_lesson(double n, double d, double k, const std::vector<double>& curve_n);

}  // namespace attn
