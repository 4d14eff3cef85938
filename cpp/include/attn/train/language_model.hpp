#pragma once
// A trained language model (language_trainer.hpp) run on any text: the explorer's tokens of the text,
// every layer's attention weights and hidden states, and the distribution over the output vocabulary at
// each position (causal: the next word after the position; masked: the word at the position).
//
// Letters: T = the text's tokens (1 … kMaxLanguageTokens), L = n_layers, H = n_heads, d = d_model,
// V_out = the output vocabulary with <unk> (corpus.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "attn/text/embeddings.hpp"
#include "attn/train/block_activations.hpp"
#include "attn/train/corpus.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/model.hpp"
#include "attn/train/sampling.hpp"

namespace attn::train {

// The longest text a trained model runs on. The models train on windows of seq_len = 32 tokens; the
// sinusoidal P is defined at every position, but beyond 32 the model meets positions it never saw.
inline constexpr std::size_t kMaxLanguageTokens = 256;
inline constexpr std::size_t kMaxTopK = 100;

// Where run() applies the output layer when no positions are listed: at every token, or at each "[MASK]".
// Their JS names (languageModel's `positions`) go through names.hpp.
enum class OutputPositions { all, masks };
inline constexpr NamedValue<OutputPositions> kOutputPositionNames[] = {{"all", OutputPositions::all},
                                                                       {"masks", OutputPositions::masks}};

struct WordProbability {
  std::int32_t id;  // output id
  float p;          // probability
};

struct LanguageRun {
  std::vector<Token> tokens;                      // (T) as tokenized, "[MASK]" merged
  std::vector<std::int32_t> inputs;               // (T) input ids (corpus.hpp)
  std::vector<float> embeddings;                  // (T, d) each token's input row: its frozen word vector (GloVe),
                                                  //   the [MASK] vector, or the learned <unk> row
  std::vector<float> input;                       // (T, d) x₀ = embeddings + P (sinusoidal), the first block's input
  std::vector<float> attention;                   // (L, H, T, T) weights; row i is query i
  std::vector<float> hidden;                      // (L, T, d) each block's output x_{l+1}
  std::vector<std::size_t> positions;             // (P) the positions whose outputs were computed
  std::vector<std::vector<WordProbability>> top;  // (P) at positions[i]: the k most likely words, most likely first;
                                                  //   never <unk> (its probability is unk[i])
  std::vector<float> unk;                         // (P) at positions[i]: p(<unk>), the mass of every word outside the
                                                  //   output vocabulary (one definition: run() and sample() alike)
  std::vector<float> output_input;                // (P, d) the output layer's input at positions[i]: x_L, or with
                                                  //   BERT's output head t = LayerNorm(GELU(x_L W_T + b_T))
  std::vector<float> logits;                      // (P, V_out) at positions[i]: output_input U + b
  std::optional<BlockActivations> activations;    // one head's block step by step, when run() was asked for it
};

class LanguageModel {
 public:
  // config: the trained model's configuration (parameters.hpp; vocab_size = input_ids(table), frozen_rows =
  // W + 1, output_size = words + 1); parameters in parameter_specs(config) order; words: the output
  // vocabulary (by frequency, without <unk>). Throws std::invalid_argument naming what does not fit
  // (a parameter count, a vocabulary size, a word the table lacks, a value that is not finite).
  LanguageModel(ModelConfig config, Objective objective, std::vector<std::string> words, std::vector<float> parameters,
                const EmbeddingTable& table);

  // Runs the model on text, and its output layer at `positions`: listed (each in [−T, T); a negative one
  // counts from the end, −1 = the last token, as Array.prototype.at), at every token, or at each "[MASK]".
  // The output layer (d × V_out multiply-adds a position) costs far more than the blocks at V_out = 8192,
  // so a caller that shows one prediction asks for one position. Throws std::out_of_range if the text has
  // no token or more than kMaxLanguageTokens, k is outside [1, kMaxTopK], a position outside [−T, T) or more
  // than kMaxLanguageTokens positions are listed;
  // std::invalid_argument if the causal model is given "[MASK]" (it was never trained on it).
  // activations: also every step of that head's block (block_activations.hpp), from the same forward pass;
  // std::out_of_range if its layer or head does not exist.
  // ablate: heads knocked out (input_checks.hpp ablation_flags): each listed head's block of the concatenated
  // head outputs Z is set to 0 before W_O, as the Learn tasks ablate (model.hpp forward; Michel et al. 2019 §3), so
  // the attention of later layers, the hidden states and the outputs are the model's without them. Throws
  // std::out_of_range naming a head that does not exist or is listed twice.
  using Positions = std::variant<OutputPositions, std::vector<std::int64_t>>;
  LanguageRun run(const std::string& text, std::size_t k = 10, const Positions& positions = OutputPositions::all,
                  std::optional<HeadChoice> activations = std::nullopt, const std::vector<HeadChoice>& ablate = {});

  // "Why this word?" (language_model_knockout.cpp): how ln p(word) at `position` (in [−T, T), as run()'s; causal:
  // the word after it, masked: the word at it) changes when one more head is knocked out (L·H forward passes,
  // Michel et al. 2019), and when one token is replaced by the [MASK] input (T forward passes; occlusion, Zeiler &
  // Fergus 2014 §4.2). The [MASK] input row is the frozen mean word vector (corpus.hpp mask_input) for both models;
  // the causal model never saw it in training, so for it the replacement is a neutral "average word", not a blank.
  // All with the heads of `ablate` knocked out as well. A measurement on this text, not an explanation.
  struct Attribution {
    std::vector<Token> tokens;  // (T)
    std::size_t position = 0;   // the position, counted from 0
    std::int32_t word = 0;      // output id (vocabulary())
    double log_prob = 0;        // ln p(word) at position, nats
    std::vector<double> heads;  // (L·H) layer-major: ln p with that head also off − log_prob; 0 for a head already off
    std::vector<double> occlusion;  // (T) ln p with token t replaced by [MASK] − log_prob; 0 for a [MASK] token, and
                                    //   (causal) for tokens after the position, which it cannot see
  };
  // Throws as run(); std::out_of_range for a word outside [0, V_out).
  Attribution attribute(const std::string& text, std::int64_t position, std::int32_t word,
                        const std::vector<HeadChoice>& ablate = {});

  // Causal models: ln p(token i | tokens before it) for i = 1 … T − 1, and the perplexity exp(−mean).
  // Throws as run(), and std::invalid_argument for a masked model or a text of one token.
  struct Score {
    std::vector<Token> tokens;
    std::vector<float> log_prob;  // (T − 1) natural log; a word outside the output vocabulary is scored as <unk>
    double perplexity = 0;
  };
  Score score(const std::string& text);

  // One word sampled from the output layer (sampling.hpp): after the last token (causal) or at the first "[MASK]"
  // (masked), from softmax(logits / temperature) over the words (<unk> excluded), kept to the top_k and renormalised,
  // drawn with SplitMix64(seed), with the heads in `ablate` knocked out as run() knocks them out (so a draw follows
  // the distribution the page shows with those heads off). Throws as run(), sampling_distribution() (temperature,
  // top_k), and std::invalid_argument if the masked model is given a text without "[MASK]".
  struct Sample {
    std::size_t position;  // where the output layer read x_L
    std::int32_t id;       // output id
    std::string word;
    float q;  // its probability under the sampling distribution
  };
  Sample sample(const std::string& text, const SamplingOptions& options, const std::vector<HeadChoice>& ablate = {});

  // The attention weights (L, H, T, T) for input ids (corpus.hpp) of 1 … kMaxLanguageTokens tokens.
  std::vector<float> attention(const std::vector<std::int32_t>& inputs);
  // Causal models, on input ids (T, 2 … kMaxLanguageTokens) and the tokens' output ids (T): ln p(outputs[t + 1] |
  // inputs[0 … t]) for t = 0 … T − 2 (nats), as score() gives them for text; with `attention`, also the (L, H, T, T)
  // weights of the same forward pass, as attention() gives them. Throws std::invalid_argument for a masked model or
  // sizes that differ, std::out_of_range as attention() and for an output id outside [0, V_out).
  std::vector<double> next_log_probs(const std::vector<std::int32_t>& inputs, const std::vector<std::int32_t>& outputs,
                                     std::vector<float>* attention = nullptr);

  const ModelConfig& config() const { return config_; }
  const EmbeddingTable& table() const { return *table_; }
  Objective objective() const { return objective_; }
  const OutputVocabulary& vocabulary() const { return vocabulary_; }
  const std::vector<float>& parameters() const { return parameters_; }

 private:
  ModelConfig config_;
  Objective objective_;
  OutputVocabulary vocabulary_;
  std::vector<float> parameters_;
  FrozenInputs<float> frozen_;
  const EmbeddingTable* table_;
  Workspace<float> ws_;
  PackedWeights<float> packed_unembedding_;  // U (d, V_out) packed once (ops.hpp pack_weights)
  std::vector<float> logits_;                // (T − 1, V_out) scratch of score()
  std::vector<float> head_rows_;             // the output head's activations at the rows of one output_layer() call

  // The tokens and input ids of text, checked; the blocks run over them with the heads of `ablated` off.
  // Returns x_L (T, d).
  const float* run_blocks(const std::string& text, LanguageRun& out, const std::vector<std::uint8_t>& ablated = {});
  // ln p(outputs[t + 1] | tokens 0 … t) (nats) for t = 0 … T − 2, from x_L (T, d) of the last forward pass.
  std::vector<double> next_word_log_probs(const float* x, std::size_t T, const std::int32_t* outputs);
  // ln p(word) (nats) at position after the blocks run over inputs (T) with the heads of `ablated` off.
  double log_prob_of(const std::vector<std::int32_t>& inputs, std::size_t position, std::int32_t word,
                     const std::vector<std::uint8_t>& ablated);
  // model.hpp output_layer_forward at n rows x (n, d) of x_L, with the packed U and head_rows_:
  // logits (n, V_out) = t U + b; returns t (n, d), x or the output head's.
  const float* output_layer(const float* x, std::size_t n, float* logits);
};

}  // namespace attn::train
