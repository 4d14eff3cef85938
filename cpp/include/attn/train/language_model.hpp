#pragma once
// A trained language model (language_trainer.hpp) run on any text: the explorer's tokens of the text,
// every layer's attention weights and hidden states, and the distribution over the output vocabulary at
// each position (causal: the next word after the position; masked: the word at the position).
//
// Letters: T = the text's tokens (1 … kMaxLanguageTokens), L = n_layers, H = n_heads, d = d_model,
// V_out = the output vocabulary with <unk> (corpus.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/text/embeddings.hpp"
#include "attn/train/corpus.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/model.hpp"

namespace attn::train {

// The longest text a trained model runs on. The models train on windows of seq_len = 32 tokens; the
// sinusoidal P is defined at every position, but beyond 32 the model meets positions it never saw.
inline constexpr std::size_t kMaxLanguageTokens = 256;
inline constexpr std::size_t kMaxTopK = 100;

struct WordProbability {
  std::int32_t id;  // output id
  float p;          // probability
};

struct LanguageRun {
  std::vector<Token> tokens;                        // (T) as tokenized, "[MASK]" merged
  std::vector<std::int32_t> inputs;                 // (T) input ids (corpus.hpp)
  std::vector<float> attention;                     // (L, H, T, T) weights; row i is query i
  std::vector<float> hidden;                        // (L, T, d) each block's output x_{l+1}
  std::vector<std::vector<WordProbability>> top;    // (T) the k most likely outputs, most likely first
  std::vector<float> logits;                        // (T, V_out)
};

class LanguageModel {
 public:
  // config: the trained model's configuration (parameters.hpp; vocab_size = input_ids(table), frozen_rows =
  // W + 1, output_size = words + 1); parameters in parameter_specs(config) order; words: the output
  // vocabulary (by frequency, without <unk>). Throws std::invalid_argument naming what does not fit
  // (a parameter count, a vocabulary size, a word the table lacks, a value that is not finite).
  LanguageModel(ModelConfig config, Objective objective, std::vector<std::string> words, std::vector<float> parameters,
                const EmbeddingTable& table);

  // Runs the model on text. Throws std::out_of_range if the text has no token or more than
  // kMaxLanguageTokens, or k is outside [1, kMaxTopK]; std::invalid_argument if the causal model is given
  // "[MASK]" (it was never trained on it).
  LanguageRun run(const std::string& text, std::size_t k = 10);

  // Causal models: ln p(token i | tokens before it) for i = 1 … T − 1, and the perplexity exp(−mean).
  // Throws as run(), and std::invalid_argument for a masked model or a text of one token.
  struct Score {
    std::vector<Token> tokens;
    std::vector<float> log_prob;  // (T − 1) natural log; a word outside the output vocabulary is scored as <unk>
    double perplexity = 0;
  };
  Score score(const std::string& text);

  // The attention weights (L, H, T, T) for input ids (corpus.hpp) of 1 … kMaxLanguageTokens tokens.
  std::vector<float> attention(const std::vector<std::int32_t>& inputs);

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
};

}  // namespace attn::train
