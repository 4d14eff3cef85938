#pragma once
// The language models' configuration of the trainer (trainer.hpp): a small transformer (model.hpp, the
// post-LN configuration of parameters.hpp) trained on English text (corpus.hpp): frozen GloVe input vectors +
// sinusoidal P, n_layers blocks, logits over the output vocabulary. Two objectives:
//   causal  next word (a decoder, GPT-style: Radford et al. 2018): causal mask; target[t] = word t + 1.
//   masked  fill in the blank (an encoder, BERT-style: Devlin et al. 2019, §3.1): no mask; mask_rate of the
//           positions are chosen (BERT's 15 %, or more: Wettig et al. 2023 found 40 % better for small
//           budgets), of which 80 % become [MASK], 10 % a random output word and 10 % stay; the chosen
//           positions are scored against their original word.
// A batch is B windows of T tokens, each starting at the first token of a line of the training text drawn
// at random (so position 0 is a line's first word, as in a learner's sentence) and running on across the
// lines after it. A repeat_share of the windows (a curriculum, 0 by default) hold a span of their own text
// twice: a span of r tokens (kShortestRepeat … ⌊T / 2⌋) starting at a, copied again at a later position q, all
// three drawn, so that copying from context pays within the window, at every distance (the repeated sequences on
// which Olsson et al. 2022, §2, detect induction heads, made of real text instead of random tokens). A fixed
// distance would not do: at a copy always T / 2 back, heads learn to look T / 2 back by position alone. The share
// may change once, after repeat_steps steps (a schedule: many repeats while an induction head forms, fewer after).
//
// X is not scaled by √d_model (Vaswani et al. 2017, §3.4): the GloVe rows already have norms (≈ 4–7)
// comparable to the sinusoidal P's √(d/2) ≈ 7.1, and they are frozen, so the scaling that lifts small
// learned embeddings above P is not needed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/core/names.hpp"
#include "attn/text/embeddings.hpp"
#include "attn/train/batch_source.hpp"
#include "attn/train/corpus.hpp"
#include "attn/train/trainer.hpp"

namespace attn::train {

// The objectives above; their JS names (core.createLanguageTrainer's `objective`) go through names.hpp.
enum class Objective { causal, masked };
inline constexpr NamedValue<Objective> kObjectiveNames[] = {{"causal", Objective::causal},
                                                            {"masked", Objective::masked}};

// How an untied output matrix U (d, V + 1) starts: drawn at random as every matrix (parameters.hpp), or with each
// word's column set to its frozen GloVe row (the tied output's U; <unk>'s column still drawn), so that the model
// can turn a copied word vector into that word's logit from the first step, for every word, and then learn from there.
enum class OutputInit { random, glove };
inline constexpr NamedValue<OutputInit> kOutputInitNames[] = {{"random", OutputInit::random},
                                                              {"glove", OutputInit::glove}};

inline constexpr std::size_t kShortestRepeat = 4;  // the curriculum's shortest repeated span (fewer if T < 8)

inline constexpr double kMaskRate = 0.15;  // Devlin et al. 2019, §3.1: the default training rate
// The held-out blanks are always 15 % of the positions, whatever the training rate, so that recipes are
// compared on the same blanks.
inline constexpr double kHeldOutMaskRate = 0.15;

// The recipe of a language model (recorded in its file: language_model_file.hpp).
struct LanguageTrainerOptions {
  Objective objective = Objective::causal;
  std::size_t n_layers = 2;
  std::size_t n_heads = 4;
  std::size_t d_ff = 400;
  std::size_t seq_len = 32;
  std::size_t batch_size = 32;
  std::size_t shards = 2;           // slices of a batch (fixed by the recipe, not by the thread count)
  std::size_t output_words = 8191;  // V: the output layer has V + 1 logits (<unk>)
  OutputVocabularySource output_vocabulary = OutputVocabularySource::text;  // corpus.hpp
  bool tied_output = true;
  OutputInit output_init = OutputInit::random;  // untied only
  bool output_head = false;       // BERT's dense + GELU + LayerNorm before the output layer (parameters.hpp)
  bool layer_norm = true;         // false, with d_ff = 0: the attention-only ablation
  double mask_rate = kMaskRate;   // masked: the fraction of positions chosen, in (0, 1]
  double repeat_share = 0;        // the fraction of training windows that repeat a span, in [0, 1] …
  std::size_t repeat_steps = 0;   // … for the first repeat_steps steps (0: throughout), then
  double repeat_share_after = 0;  // this fraction, in [0, 1]
  AdamWOptions optimizer{3e-3f, 0.9f, 0.98f, 1e-8f, 0.1f, 1.0f};
  LearningRateSchedule schedule{200, 0, 0.1f};
  std::uint64_t seed = 0;
};

// The model configuration the options give with the word vectors of `table` (input ids: corpus.hpp).
// Throws as language_trainer() for options out of range.
ModelConfig language_model_config(const LanguageTrainerOptions& options, const EmbeddingTable& table);

// The trainer's options for a recipe (the model of language_model_config, and the optimizer, schedule,
// batch, shards and seed of the recipe). Throws as language_model_config.
TrainerOptions language_trainer_options(const LanguageTrainerOptions& options, const EmbeddingTable& table);

// The windows of a tokenized training text and a held-out text (batch_source.hpp).
class CorpusSource : public BatchSource {
 public:
  // The texts are tokenized here; the output vocabulary is train_text's most frequent words, then (source glove)
  // the table's other words (corpus.hpp). Throws std::invalid_argument if either text has no more than seq_len
  // tokens, or (source text) the training text has fewer distinct words (with word vectors) than output_words.
  CorpusSource(const LanguageTrainerOptions& options, const EmbeddingTable& table, const std::string& train_text,
               const std::string& held_out_text);

  Batch draw(std::size_t batch_size, std::size_t step, SplitMix64& rng) const override;
  // Every held-out token is scored once (causal: each token after the first, with the context of its window;
  // masked: a fixed 15 % of positions, all replaced by [MASK]); the windows are grouped by length.
  std::vector<Batch> held_out(std::size_t batch_size, std::uint64_t seed, std::size_t max_tokens) const override;
  // ⌊T / 2⌋ random output words (their input rows), then the same again.
  Batch repeated_tokens(std::size_t batch_size, SplitMix64& rng) const override;
  const FrozenInputs<float>& frozen() const override { return frozen_; }
  // The training text's 5 most frequent outputs.
  const std::vector<std::int32_t>& frequent_outputs() const override { return most_frequent_; }

  Objective objective() const { return objective_; }
  const OutputVocabulary& vocabulary() const { return vocabulary_; }
  const TokenStream& train_stream() const { return train_; }
  const TokenStream& held_out_stream() const { return held_out_; }

 private:
  Objective objective_;
  std::size_t seq_len_;
  OutputVocabulary vocabulary_;
  TokenStream train_, held_out_;
  FrozenInputs<float> frozen_;
  std::vector<std::int32_t> most_frequent_;
  std::int32_t mask_id_ = 0;
  double mask_rate_ = kMaskRate;
  double repeat_share_ = 0, repeat_share_after_ = 0;
  std::size_t repeat_steps_ = 0;
};

// The trainer of a language model on these texts; parallel runs the shards of a step (trainer.hpp). Throws
// std::out_of_range naming the option outside its range (n_layers 1–4, n_heads 1–16 dividing d_model =
// table.dim(), d_ff ≤ 2048, seq_len 2–256, batch_size 1–1024, shards 1–16 and ≤ batch_size, output_words,
// the optimizer's; limits.hpp; maskRate in (0, 1], repeatShare and repeatShareAfter in [0, 1], repeatSteps ≤
// kMaxScheduleSteps), std::invalid_argument as CorpusSource and for outputInit glove with a tied output. With
// outputInit glove, U's word columns are set to their GloVe rows after the random start (the rows output_matrix,
// model.hpp, gathers for a tied output).
Trainer language_trainer(const LanguageTrainerOptions& options, const EmbeddingTable& table,
                         const std::string& train_text, const std::string& held_out_text, ParallelFor parallel = {});

// The corpus of a trainer made by language_trainer(); std::invalid_argument for a trainer of a synthetic task.
const CorpusSource& corpus_of(const Trainer& trainer);

}  // namespace attn::train
