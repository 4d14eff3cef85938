#include <catch2/catch.hpp>
#include <cstdint>
#include <set>
#include <vector>

#include "attn/train/activations.hpp"

using namespace attn::train;

namespace {

ModelConfig config(bool layer_norm, std::size_t d_ff, bool output_head = false) {
  ModelConfig c;
  c.vocab_size = 11, c.output_size = 7, c.d_model = 6, c.n_heads = 2, c.n_layers = 3, c.seq_len = 5;
  c.d_ff = d_ff, c.layer_norm = layer_norm, c.biases = layer_norm, c.output_head = output_head;
  return c;
}

}  // namespace

TEST_CASE("activations: the table's sizes are the buffers' sizes, written out by hand", "[train]") {
  const std::size_t B = 3, T = 4, N = B * T, d = 6, H = 2, L = 3, V = 7;
  for (const bool layer_norm : {false, true}) {
    for (const std::size_t ff : {std::size_t{0}, std::size_t{9}}) {
      for (const bool head : {false, true}) {
        const ModelConfig c = config(layer_norm, ff, head);
        const std::size_t norm = layer_norm ? N * d + 2 * N : 0;
        // per layer: q, k, v, z, h1 (N, d) each, the weights, norm1; with a feed-forward layer hidden, relu (N, d_ff),
        // h2 and norm2; with the output head its dense, GELU and norm (N, d) each, and the norm's mean and rstd
        const std::size_t per_layer = 5 * N * d + B * H * T * T + norm + (ff ? 2 * N * ff + N * d + norm : 0);
        const std::size_t output_head = head ? 3 * N * d + 2 * N : 0;
        CHECK(activation_count(c, B, T) == N * d + L * per_layer + output_head + N * V);
        // x_in, x_out, q, k, v, z, output_x; h1 with layer norm; a, hidden, relu with d_ff; h2 with both; the head's
        // dense, GELU and norm
        const std::size_t gradients = 7 * N * d + (layer_norm ? N * d : 0) + (ff ? N * d + 2 * N * ff : 0) +
                                      (ff && layer_norm ? N * d : 0) + (head ? 3 * N * d : 0);
        CHECK(gradient_count(c, B, T) == gradients);
      }
    }
  }
}

TEST_CASE("activations: binding carves disjoint named buffers that end exactly at the buffer's end", "[train]") {
  const std::size_t B = 2, T = 5, N = B * T;
  for (const bool layer_norm : {false, true}) {
    for (const std::size_t ff : {std::size_t{0}, std::size_t{3}}) {
      const ModelConfig c = config(layer_norm, ff);
      std::vector<float> buffer, scratch(7, 1.0f);
      const Activations<float> a = bind_activations(c, B, T, buffer);
      const ActivationGradients<float> g = bind_gradients(c, B, T, scratch);
      REQUIRE(buffer.size() == activation_count(c, B, T));
      REQUIRE(scratch.size() == gradient_count(c, B, T));
      for (const float x : scratch) CHECK(x == 0.0f);  // zeroed
      // Every named buffer lies inside, and none starts twice: the table handed out each range once
      std::set<const float*> starts{a.x0, a.logits};
      CHECK(a.x0 == buffer.data());
      CHECK(a.logits + N * c.outputs() == buffer.data() + buffer.size());
      REQUIRE(a.layers.size() == c.n_layers);
      for (const LayerActivations<float>& l : a.layers) {
        for (const float* p : {l.q, l.k, l.v, l.weights, l.z, l.h1}) CHECK(starts.insert(p).second);
        CHECK((l.norm1 != nullptr) == layer_norm);
        CHECK((l.hidden != nullptr) == (ff > 0));
        CHECK((l.norm2 != nullptr) == (layer_norm && ff > 0));
        CHECK(l.a == (layer_norm ? l.norm1 : l.h1));
        CHECK(l.out == (ff ? (layer_norm ? l.norm2 : l.h2) : l.a));
      }
      CHECK(g.x_in == scratch.data());
      for (const float* p : {g.x_out, g.q, g.k, g.v, g.z, g.output_x}) CHECK(p != nullptr);
      CHECK((g.h1 != nullptr) == layer_norm);
      CHECK((g.a != nullptr) == (ff > 0));
      CHECK((g.h2 != nullptr) == (layer_norm && ff > 0));
    }
  }
}
