#include "attn/train/block_activations.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {

// Columns [first, first + width) of a (rows, stride) row-major buffer.
std::vector<float> columns(const float* x, std::size_t rows, std::size_t stride, std::size_t first, std::size_t width) {
  std::vector<float> out(rows * width);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < width; ++c) out[r * width + c] = x[r * stride + first + c];
  }
  return out;
}

std::vector<float> copy(const float* x, std::size_t n) {
  return x ? std::vector<float>(x, x + n) : std::vector<float>{};
}

// a − b, element by element (n each): what a residual connection added.
std::vector<float> difference(const float* a, const float* b, std::size_t n) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i] - b[i];
  return out;
}

}  // namespace

BlockActivations block_activations(const ModelConfig& c, const float* parameters, const FrozenInputs<float>& frozen,
                                   const std::int32_t* tokens, const Workspace<float>& ws, HeadChoice choice) {
  check_head_choice(c, choice, "block activations");
  if (ws.batch_size != 1 || ws.layers.size() != c.n_layers) {
    throw std::invalid_argument("block activations: the workspace does not hold a forward pass over one sequence");
  }
  const std::size_t T = ws.seq_len, d = c.d_model, H = c.n_heads, dk = d / H, ff = c.d_ff, first = choice.head * dk;
  const LayerActivations<float>& a = ws.layers[choice.layer];
  const float* x = choice.layer ? ws.layers[choice.layer - 1].out : ws.x0;

  BlockActivations out;
  out.layer = choice.layer, out.head = choice.head;
  // x₀ = row(token) + P (ops.cpp embedding_forward): the two terms, gathered again from where it read them
  out.word_vectors = gather_input_rows(c, parameters, frozen, tokens, T);
  const float* positional = positional_rows(c, parameters, ws);
  out.positional = positional ? copy(positional, T * d) : std::vector<float>(T * d, 0.0f);
  out.input = copy(x, T * d);
  out.queries = columns(a.q, T, d, first, dk);
  out.keys = columns(a.k, T, d, first, dk);
  out.values = columns(a.v, T, d, first, dk);
  // The core's attention kernel folds the scores into the softmax and keeps only the weights: the scores are
  // the one step formed here again, from the kept queries and keys (model.hpp: A_h = softmax(Q_h K_hᵀ/√d_k + mask)).
  out.scores.resize(T * T);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
  for (std::size_t i = 0; i < T; ++i) {
    for (std::size_t j = 0; j < T; ++j) {
      float dot = 0;
      for (std::size_t e = 0; e < dk; ++e) dot += out.queries[i * dk + e] * out.keys[j * dk + e];
      out.scores[i * T + j] = c.causal && j > i ? -std::numeric_limits<float>::infinity() : dot * scale;
    }
  }
  out.weights = copy(a.weights + choice.head * T * T, T * T);
  out.head_output = columns(a.z, T, d, first, dk);
  out.concat = copy(a.z, T * d);
  out.residual1 = copy(a.h1, T * d);
  out.attention_output = difference(a.h1, x, T * d);  // h₁ was formed as x + (Z W_O + b_O) (model.cpp)
  out.norm1 = copy(a.norm1, T * d);
  if (ff) {
    out.ff_hidden = copy(a.relu, T * ff);
    out.residual2 = copy(a.h2, T * d);
    out.ff_output = difference(a.h2, a.a, T * d);  // h₂ was formed as a + (ReLU(…) W_2 + b_2)
  }
  out.output = copy(a.out, T * d);
  return out;
}

}  // namespace attn::train
