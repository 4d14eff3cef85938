#pragma once
// The trainable transformer's configuration and its named parameter tensors (llm.c's ParameterTensors:
// a struct of named pointers into one flat array, filled by one function from one table of shapes).
//
// Letters: V = vocab_size (input ids), F = frozen_rows, d = d_model, H = n_heads, d_k = d / H,
// d_ff = the feed-forward width, L = n_layers, T = seq_len, V_out = output_size.
//
// One model, two configurations in this project:
//  - the Learn chapter's attention-only models (Elhage et al. 2021, §2): every input row learned (F = 0),
//    no layer norm, no feed-forward layer, no biases, an untied output matrix;
//  - the language models (Vaswani et al. 2017, §3.1, post-LN): frozen word vectors as the first F input
//    rows and learned rows after them (<unk>), LayerNorm, a ReLU feed-forward layer, biases, and the
//    output matrix either untied or tied to the input rows of the output words.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/core/names.hpp"

namespace attn::train {

enum class Positional { sinusoidal, learned, none };

// The positional options' JS names (core.createTrainer's `positionalEncoding`), both ways through
// names.hpp: value_of(kPositionalNames, name, "positionalEncoding") reads one (std::out_of_range naming
// the allowed names otherwise), name_of writes one.
inline constexpr NamedValue<Positional> kPositionalNames[] = {
    {"sinusoidal", Positional::sinusoidal}, {"learned", Positional::learned}, {"none", Positional::none}};

// LayerNorm's ε (Ba et al. 2016, eq. 4), as PyTorch's default.
inline constexpr double kLayerNormEpsilon = 1e-5;

struct ModelConfig {
  std::size_t vocab_size = 0;  // V: input ids are in [0, V)
  std::size_t frozen_rows =
      0;  // F ≤ V: ids below F read a frozen table given to forward(); ids F … V − 1 are learned rows
  std::size_t output_size = 0;  // V_out: logits per position (0: the same as V)
  std::size_t d_model = 0;      // d
  std::size_t n_heads = 0;      // H, divides d
  std::size_t n_layers = 0;     // L
  std::size_t seq_len = 0;      // T: the longest sequence (learned P has T rows)
  std::size_t d_ff = 0;         // the feed-forward layer's hidden width (0: no feed-forward layer)
  bool layer_norm = false;      // Add & Norm after each sublayer (post-LN) instead of Add
  bool biases = false;          // b_Q, b_K, b_V, b_O, the feed-forward biases and an output bias
  bool causal = true;           // causal mask (a decoder); false: every position sees every other (an encoder)
  bool tied_output = false;     // U = the input rows of the output words, transposed (no U parameter)
  bool output_head = false;     // BERT's transform before the output (Devlin et al. 2019, the masked-LM head):
                                //   logits = LayerNorm(GELU(x_L W_T + b_T)) U + b instead of x_L U + b
  Positional positional = Positional::sinusoidal;

  std::size_t outputs() const { return output_size ? output_size : vocab_size; }
  std::size_t learned_rows() const { return vocab_size - frozen_rows; }
};

// Throws std::out_of_range naming the field if a size is 0, n_heads does not divide d_model,
// frozen_rows exceeds vocab_size, or the parameters (parameter_count, counted in 64 bits) would exceed the
// core's memory limit (limits.hpp kMaxCells).
void check_config(const ModelConfig& config);

// One layer's parameters; a pointer is null where the configuration has no such tensor.
template <typename Real>
struct LayerParameters {
  Real *w_q = nullptr, *w_k = nullptr, *w_v = nullptr, *w_o = nullptr;  // (d, d) each; head h: columns h·d_k …
  Real *b_q = nullptr, *b_k = nullptr, *b_v = nullptr, *b_o = nullptr;  // (d) each, with biases
  Real *norm1_gamma = nullptr, *norm1_beta = nullptr;                   // (d) each, with layer_norm
  Real *w_1 = nullptr, *b_1 = nullptr;                                  // (d, d_ff), (d_ff), with d_ff > 0
  Real *w_2 = nullptr, *b_2 = nullptr;                                  // (d_ff, d), (d)
  Real *norm2_gamma = nullptr, *norm2_beta = nullptr;                   // (d) each, with layer_norm and d_ff > 0
};

template <typename Real>
struct Parameters {
  Real* embedding = nullptr;   // (V − F, d) the learned input rows (ids F … V − 1)
  Real* positional = nullptr;  // (T, d) learned P only
  std::vector<LayerParameters<Real>> layers;
  Real *head_w = nullptr, *head_b = nullptr;         // (d, d), (d) W_T and b_T, with output_head
  Real *head_gamma = nullptr, *head_beta = nullptr;  // (d) each, the head's LayerNorm
  Real* unembedding = nullptr;                       // (d, V_out) U, untied only
  Real* output_bias = nullptr;                       // (V_out) with biases
};

// One parameter tensor as the flat array holds it: its name (as safetensors and JS see it, e.g.
// "layers.0.attention.w_q"), shape, offset, and its initialization: uniform with standard deviation
// sigma for the matrices (the tensors AdamW decays), the constant `constant` for biases, γ and β.
struct ParameterSpec {
  std::string name;
  std::vector<std::size_t> shape;
  std::size_t offset = 0;
  std::size_t size = 0;
  float sigma = 0;     // > 0: a matrix, drawn at random and decayed
  float constant = 0;  // sigma = 0: every entry starts at this value (1 for γ, 0 otherwise)

  bool decay() const { return sigma > 0; }
};

// Every parameter tensor of `config`, in the flat array's order: embedding, positional, per layer
// w_q, b_q, w_k, b_k, w_v, b_v, w_o, b_o, norm1, w_1, b_1, w_2, b_2, norm2; the output head's dense w and b and
// norm; unembedding, output_bias.
std::vector<ParameterSpec> parameter_specs(const ModelConfig& config);
// The number of parameters, the length of the flat array: the sum of parameter_specs' sizes, added up from the
// same table (in 64 bits, which check_config reads before anything can wrap). Callers ask it, never re-derive it.
std::size_t parameter_count(const ModelConfig& config);

// The number of values of a row-major tensor of this shape: the product of its sizes (1 for shape {}).
std::size_t tensor_size(const std::vector<std::size_t>& shape);

// Named pointers into `flat` (parameter_count(config) values), in parameter_specs' order.
template <typename Real>
Parameters<Real> bind_parameters(const ModelConfig& config, Real* flat);

// 1 for each value AdamW decays (the matrices), 0 for biases and LayerNorm's γ and β: (parameter_count).
std::vector<std::uint8_t> decay_mask(const ModelConfig& config);

// Parameters drawn from `seed`: every random entry uniform in [−√3·σ, √3·σ) (standard deviation σ):
// the learned input rows and a learned P with σ = 1 (comparable to the sinusoidal P, whose rows have
// norm √(d/2)); W_Q, W_K, W_V, W_O, W_1, W_T and U with σ = 1/√(fan-in) = 1/√d, W_2 with 1/√d_ff, so that
// x W keeps the scale of x (LeCun initialization); biases and β 0, γ 1. GPT-2's σ = 0.02 is too small
// for heads to form quickly in models this small. The uniform draw avoids transcendental functions,
// so the same seed gives the same parameters on every platform.
std::vector<float> init_parameters(const ModelConfig& config, std::uint64_t seed);

}  // namespace attn::train
