#pragma once
// GPT-2 (Radford et al. 2019, "Language Models are Unsupervised Multitask Learners", §2.3), forward only: a checkpoint
// an author brings, in Hugging Face's `gpt2` safetensors layout, run with the core's kernels (the packed matrix
// products, the one causal softmax of attention_forward, LayerNorm) as our own models are.
//
// Letters: T = tokens (1 … min(kMaxLanguageTokens, n_positions)), d = d_model, H = n_heads, d_k = d / H,
// d_ff = the feed-forward width (4d in every GPT-2), L = n_layers, V = vocab_size (50,257 byte-level BPE tokens).
//
//   x₀ = wte[ids] + wpe[0 … T)                                (T, d)  learned position embeddings
//   per layer l < L (pre-LN: the LayerNorm before each sublayer, Radford et al. 2019 §2.3):
//     a = LN₁(x);  [Q | K | V] = a W_attn + b_attn               (T, 3d)  c_attn, a Conv1D: weight [d, 3d], x · W
//     Z = [A_1 V_1 | … | A_H V_H],  A_h = softmax(Q_h K_hᵀ / √d_k + causal mask)   (T, d), A: (H, T, T)
//     x ← x + Z W_proj + b_proj;  x ← x + GELU_tanh(LN₂(x) W_fc + b_fc) W_fc_proj + b_fc_proj
//   logits = LN_f(x_L) wteᵀ                                    (T, V)  the output tied to the token embeddings
// LayerNorm's ε is 1e-5 (kLayerNormEpsilon), GPT-2's layer_norm_epsilon.
//
// The file's tensors, named without the optional "transformer." prefix (gpt2_tensor_specs): wte.weight [V, d],
// wpe.weight [n_positions, d], h.{l}.ln_1.{weight,bias} [d], h.{l}.attn.c_attn.{weight [d, 3d], bias [3d]},
// h.{l}.attn.c_proj.{weight [d, d], bias [d]}, h.{l}.ln_2.{weight,bias} [d], h.{l}.mlp.c_fc.{weight [d, d_ff],
// bias [d_ff]}, h.{l}.mlp.c_proj.{weight [d_ff, d], bias [d]}, ln_f.{weight,bias} [d]. Files may also hold the
// causal-mask buffers h.{l}.attn.bias and h.{l}.attn.masked_bias and a copy of the tied output lm_head.weight:
// those are not read (the mask is the causal mask, the output is wte).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attn/train/input_checks.hpp"
#include "attn/train/language_model.hpp"
#include "attn/train/ops.hpp"

namespace attn::train {

// The architectures core.languageModel({ architecture }) reads besides our own models' files.
inline constexpr const char* kArchitectureNames[] = {"gpt2"};

// Every GPT-2 size has heads of d_k = 64 (small 768 / 12, medium 1024 / 16, large 1280 / 20, XL 1600 / 25): the
// number of heads a file without config.json is read with.
inline constexpr std::size_t kGpt2HeadDim = 64;

// The most parameters a GPT-2 checkpoint may have: GPT-2 medium's 355 M take 1.4 GB in float32, within a wasm memory of
// 2 GB; large's 774 M (3.1 GB) do not fit.
inline constexpr std::uint64_t kMaxGpt2Parameters = 400'000'000;

struct Gpt2Config {
  std::size_t vocab_size = 0;   // V
  std::size_t n_positions = 0;  // wpe's rows: the longest context it was trained on (1,024)
  std::size_t d_model = 0;      // d
  std::size_t n_heads = 0;      // H, divides d
  std::size_t n_layers = 0;     // L
  std::size_t d_ff = 0;         // the feed-forward width

  // The parameters of gpt2_tensor_specs (wte counted once: the output is tied to it).
  std::uint64_t parameter_count() const;
};

// Throws std::invalid_argument naming the field if a size is 0, n_heads does not divide d_model, or the parameters
// exceed kMaxGpt2Parameters.
void check_gpt2_config(const Gpt2Config& config);

// The tensors of one block (ln_1 weight and bias, c_attn weight and bias, attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj).
inline constexpr std::size_t kGpt2TensorsPerLayer = 12;

// One tensor of the layout: its name (without the prefix) and shape.
struct Gpt2TensorSpec {
  std::string name;
  std::vector<std::size_t> shape;
};

// Every tensor a GPT-2 checkpoint must hold, in this order: wte, wpe, each layer's twelve (ln_1 weight and bias, c_attn
// weight and bias, attn.c_proj weight and bias, ln_2, mlp.c_fc, mlp.c_proj), ln_f's two.
std::vector<Gpt2TensorSpec> gpt2_tensor_specs(const Gpt2Config& config);

// A file's tensors matched to the layout: the config read from their shapes (n_heads given, or d / kGpt2HeadDim when
// 0) and, for each spec of gpt2_tensor_specs(config) in order, the index in `tensors` of the file's tensor. tensors:
// (name as in the file, shape). Throws std::invalid_argument naming the problem: no wte.weight (then "not a GPT-2
// checkpoint in Hugging Face's layout", with the names it has), a tensor missing or of another shape than the config's
// (named, with both shapes), names with and without the "transformer." prefix mixed, a tensor that is not of the
// layout (named), n_heads that does not divide d, or more than kMaxGpt2Parameters.
struct Gpt2FileLayout {
  Gpt2Config config;
  std::vector<std::size_t> tensor_of_spec;
};
Gpt2FileLayout gpt2_file_layout(const std::vector<std::pair<std::string, std::vector<std::size_t>>>& tensors,
                                std::size_t n_heads = 0);

class Gpt2Model {
 public:
  // A model of this config with every parameter 0, to be filled by load(). Throws std::invalid_argument if a size is
  // 0, n_heads does not divide d_model or the parameters exceed kMaxGpt2Parameters.
  explicit Gpt2Model(const Gpt2Config& config);

  // Rows [first_row, first_row + count) of the spec `tensor` (an index of gpt2_tensor_specs), from `values` (count
  // rows of the tensor's last dimension, row-major; a 1-D tensor is one row). A file streams in a block of rows at a
  // time, so the model never holds a weight twice: the matrices go straight into the packed panels of the products
  // (kernels.hpp pack_panel_rows), wte into the output matrix wteᵀ that its rows are read back from. Throws
  // std::out_of_range for a tensor index or rows outside the tensor.
  void load(std::size_t tensor, std::size_t first_row, const float* values, std::size_t count);

  // Ends loading: throws std::invalid_argument naming the first tensor with rows never loaded, or the first tensor
  // holding a value that is not finite. run() and next_log_probs() refuse to run before it.
  void finish_loading();

  // The model on token ids (T, each in [0, V)): the input rows, every layer's attention weights and hidden states,
  // and at `positions` (each in [−T, T); empty: every position) the logits over the V tokens, their k most likely
  // (most likely first) and the final LayerNorm's rows LN_f(x_L) (output_input). run.tokens, run.inputs and run.unk
  // are left empty (the tokens are BPE pieces, made in JS; there is no <unk>). ablate: heads knocked out as
  // LanguageModel::run knocks them out (their block of Z set to 0 before W_proj; Michel et al. 2019 §3).
  // activations: that head's block step by step, from the same forward pass (block_activations.hpp's fields, in the
  // pre-LN order: input X_l; norm1 = LN₁(X_l), which Q, K, V read; scores, weights, head_output, concat;
  // attention_output = Z W_proj + b_proj; residual1 = X_l + attention_output; norm2 = LN₂(residual1); ff_hidden =
  // GELU_tanh(norm2 W_fc + b_fc); ff_output; residual2 = output = residual1 + ff_output; word_vectors = wte rows,
  // positional = wpe rows). Throws std::out_of_range for T outside [1, min(kMaxLanguageTokens, n_positions)], an id
  // outside [0, V), k outside [1, kMaxTopK], a position outside [−T, T), a head that does not exist or is listed twice.
  LanguageRun run(const std::vector<std::int32_t>& ids, std::size_t k, const std::vector<std::int64_t>& positions = {},
                  const std::vector<HeadChoice>& ablate = {}, std::optional<HeadChoice> activations = std::nullopt);

  // ln p(ids[t + 1] | ids[0 … t]) for t = 0 … T − 2 (nats), from one forward pass; with `attention`, also its
  // (L, H, T, T) weights. Throws as run(), and for T < 2.
  std::vector<double> next_log_probs(const std::vector<std::int32_t>& ids, const std::vector<HeadChoice>& ablate = {},
                                     std::vector<float>* attention = nullptr);

  // One prediction's ln p(word | ids[0 … position]) (nats; position in [−T, T), as run()'s; word in [0, V)) with the
  // heads of `ablate` knocked out, and `also_off` too, and with `occlude` (in [0, T)) that token's input row wte[id]
  // replaced by the mean of wte's rows: GPT-2 has no [MASK], and the "average token" is what our models' [MASK] input
  // is for GloVe words (language_model.hpp attribute). One forward pass and one output row: "Why this word?"
  // (web/src/core/gpt2-attribution.js) makes L·H + T of them, a pass at a time, so that a page stays responsive. The
  // residual stream of the pass with only `ablate` off (no occlusion) is kept for the last ids and `ablate` asked: a
  // pass with `also_off` at layer l starts from it at layer l (the same values, bit for bit: the layers before l
  // compute the same), so a head of layer l costs L − l blocks. Throws as run(), and std::out_of_range for a word or an
  // occluded token outside its range, or an `also_off` head that does not exist.
  double log_prob_at(const std::vector<std::int32_t>& ids, std::int64_t position, std::int32_t word,
                     const std::vector<HeadChoice>& ablate = {}, std::optional<HeadChoice> also_off = std::nullopt,
                     std::optional<std::size_t> occlude = std::nullopt);

  // The mean of wte's rows (d): the input row of an occluded token (log_prob_at).
  const std::vector<float>& mean_embedding() const { return mean_embedding_; }

  // The logit lens (nostalgebraist 2020, "interpreting GPT: the logit lens"): the residual stream after the input and
  // after each block, read through the final LayerNorm and the unembedding as if it were the last block's output:
  // rows r = 0 … L (r = 0: x₀ = wte + wpe; r = l: after block l; r = L: the model's own output), at `positions`
  // (as run()'s; empty: every token). Throws as run().
  struct LogitLens {
    std::vector<std::size_t> positions;  // (P)
    std::vector<std::int32_t> ids;       // (L + 1, P, k) the k most likely tokens of each row, most likely first
    std::vector<float> p;                // (L + 1, P, k) their probabilities under softmax(LN_f(x) wteᵀ)
    std::vector<float> next_p;           // (L + 1, P) the probability of the token that comes next; NaN at the last one
  };
  LogitLens logit_lens(const std::vector<std::int32_t>& ids, std::size_t k,
                       const std::vector<std::int64_t>& positions = {});

  // wpe (n_positions, d): the learned position embeddings, row i for position i.
  const std::vector<float>& position_embeddings() const { return wpe_; }

  const Gpt2Config& config() const { return config_; }
  // The floats the weights take in memory (packed panels padded to 8 columns).
  std::size_t stored_floats() const;

 private:
  struct Layer {
    std::vector<float> ln1_gamma, ln1_beta, ln2_gamma, ln2_beta;  // (d) each
    PackedWeights<float> w_q, w_k, w_v, w_proj;                   // (d, d) each: c_attn's three column blocks, c_proj
    std::vector<float> b_qkv, b_proj;                             // (3d), (d)
    PackedWeights<float> w_fc, w_fc_proj;                         // (d, d_ff), (d_ff, d)
    std::vector<float> b_fc, b_fc_proj;                           // (d_ff), (d)
  };
  Gpt2Config config_;
  PackedWeights<float> unembedding_;  // wteᵀ (d, V) packed; a token's input row is its column
  std::vector<float> wpe_;            // (n_positions, d)
  std::vector<Layer> layers_;
  std::vector<float> lnf_gamma_, lnf_beta_;  // (d) each
  std::vector<float> mean_embedding_;        // (d) the mean of wte's rows, set by finish_loading
  std::vector<Gpt2TensorSpec> specs_;
  std::vector<std::size_t> rows_loaded_;  // per spec
  bool loaded_ = false;
  HeadWorkspace head_;
  // log_prob_at's last pass with only `ablate` off and no occlusion: its ids, heads off (L·H flags) and the residual
  // stream entering each layer (L, T, d).
  struct StreamCache {
    std::vector<std::int32_t> ids;
    std::vector<std::uint8_t> ablated;
    std::vector<float> streams;
  } stream_cache_;

  // The blocks over ids with the heads of `ablated` off (and token `occlude`'s input row the mean embedding): fills
  // out's embeddings, input, attention and hidden (and activations for the head `follow`), and returns x_L (T, d) in x.
  // With from_layer > 0, x holds the residual stream entering that layer and only the layers from it on run (out's
  // hidden then holds those layers' states only).
  void forward(const std::vector<std::int32_t>& ids, const std::vector<std::uint8_t>& ablated, LanguageRun& out,
               std::vector<float>& x, std::optional<HeadChoice> follow = std::nullopt,
               std::optional<std::size_t> occlude = std::nullopt, std::size_t from_layer = 0);
  // logits (n, V) = LN_f(x) wteᵀ for n rows x (n, d); returns LN_f(x) (n, d).
  std::vector<float> output_layer(const float* x, std::size_t n, std::vector<float>& logits) const;
  // ln softmax(LN_f(x) wteᵀ)[word] for one row x (d).
  double log_prob_of_row(const float* x, std::int32_t word) const;
  // A ModelConfig with L and H, for the head checks of input_checks.hpp.
  ModelConfig heads() const;
};

}  // namespace attn::train
