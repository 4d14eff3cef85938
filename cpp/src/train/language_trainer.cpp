#include "attn/train/language_trainer.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace attn::train {

namespace {

void check_range(std::size_t value, std::size_t low, std::size_t high, const char* name) {
  if (value < low || value > high) {
    throw std::out_of_range(std::string(name) + " must be an integer in [" + std::to_string(low) + ", " +
                            std::to_string(high) + "], got " + std::to_string(value));
  }
}

// One held-out window: tokens [start, start + length) as inputs; the positions from `first` on are scored.
struct Window {
  std::size_t start, length, first;
};

}  // namespace

ModelConfig language_model_config(const LanguageTrainerOptions& o, const EmbeddingTable& table) {
  // The limits every trainer shares are checked by check_trainer_options; these are the language model's own.
  check_range(o.seq_len, 2, kMaxTrainSeqLen, "seqLen");
  check_range(o.output_words, kMinOutputWords, kMaxOutputWords, "outputWords");
  if (!(o.mask_rate > 0 && o.mask_rate <= 1)) {
    throw std::out_of_range("maskRate must be in (0, 1], got " + std::to_string(o.mask_rate));
  }
  if (o.output_init == OutputInit::glove && o.tied_output) {
    throw std::invalid_argument("outputInit 'glove' starts a learned output matrix: it needs tiedOutput false");
  }
  if (!(o.repeat_share >= 0 && o.repeat_share <= 1)) {
    throw std::out_of_range("repeatShare must be in [0, 1], got " + std::to_string(o.repeat_share));
  }
  if (!(o.repeat_share_after >= 0 && o.repeat_share_after <= 1)) {
    throw std::out_of_range("repeatShareAfter must be in [0, 1], got " + std::to_string(o.repeat_share_after));
  }
  check_range(o.repeat_steps, 0, kMaxScheduleSteps, "repeatSteps");
  ModelConfig c;
  c.vocab_size = input_ids(table);
  c.frozen_rows = table.vocab_size() + 1;  // the words and [MASK]; <unk> is learned
  c.output_size = o.output_words + 1;
  c.d_model = table.dim();
  c.n_heads = o.n_heads;
  c.n_layers = o.n_layers;
  c.seq_len = o.seq_len;
  c.d_ff = o.d_ff;
  c.layer_norm = o.layer_norm;
  c.biases = true;
  c.causal = o.objective == Objective::causal;
  c.tied_output = o.tied_output;
  c.output_head = o.output_head;
  c.positional = Positional::sinusoidal;
  TrainerOptions checked;
  checked.model = c;
  checked.batch_size = o.batch_size;
  checked.shards = o.shards;
  checked.optimizer = o.optimizer;
  checked.schedule = o.schedule;
  check_trainer_options(checked);
  return c;
}

TrainerOptions language_trainer_options(const LanguageTrainerOptions& o, const EmbeddingTable& table) {
  TrainerOptions options;
  options.model = language_model_config(o, table);
  options.batch_size = o.batch_size;
  options.shards = o.shards;
  options.optimizer = o.optimizer;
  options.schedule = o.schedule;
  options.seed = o.seed;
  return options;
}

CorpusSource::CorpusSource(const LanguageTrainerOptions& o, const EmbeddingTable& table, const std::string& train_text,
                           const std::string& held_out_text)
    : objective_(o.objective),
      seq_len_(o.seq_len),
      vocabulary_(most_frequent_words(train_text, table, o.output_words, o.output_vocabulary)),
      train_(token_stream(train_text, table, vocabulary_)),
      held_out_(token_stream(held_out_text, table, vocabulary_)),
      mask_id_(mask_input(table)),
      mask_rate_(o.mask_rate),
      repeat_share_(o.repeat_share),
      repeat_share_after_(o.repeat_share_after),
      repeat_steps_(o.repeat_steps) {
  if (train_.inputs.size() <= seq_len_ || held_out_.inputs.size() <= seq_len_) {
    throw std::invalid_argument("the training text holds " + std::to_string(train_.inputs.size()) +
                                " tokens and the held-out text " + std::to_string(held_out_.inputs.size()) +
                                ": each needs more than seqLen = " + std::to_string(seq_len_) +
                                " (give more text, or a smaller seqLen)");
  }
  if (vocabulary_.size() != o.output_words + 1) {
    // The output layer has outputWords + 1 rows; a text with fewer distinct words (that have vectors) cannot fill them.
    throw std::invalid_argument("outputWords = " + std::to_string(o.output_words) +
                                ", but the training text has only " + std::to_string(vocabulary_.size() - 1) +
                                " distinct words with word vectors: give more text or a smaller outputWords");
  }
  frozen_.table = frozen_rows(table);
  if (o.tied_output) frozen_.output_rows = vocabulary_.input_rows();
  std::vector<std::size_t> counts(vocabulary_.size(), 0);
  for (const std::int32_t id : train_.outputs) ++counts[static_cast<std::size_t>(id)];
  for (std::size_t i = 0; i < 5 && i < counts.size(); ++i) {
    const auto most = std::max_element(counts.begin(), counts.end());
    most_frequent_.push_back(static_cast<std::int32_t>(most - counts.begin()));
    *most = 0;
  }
}

Batch CorpusSource::draw(std::size_t B, std::size_t step, SplitMix64& rng) const {
  const std::size_t T = seq_len_;
  const bool causal = objective_ == Objective::causal;
  // Line starts with room for a whole window (and the causal target after it)
  const std::size_t room = train_.inputs.size() - T - (causal ? 1 : 0);
  const auto eligible = static_cast<std::uint32_t>(
      std::upper_bound(train_.line_starts.begin(), train_.line_starts.end(), room) - train_.line_starts.begin());
  Batch batch;
  batch.batch_size = B;
  batch.seq_len = T;
  batch.tokens.resize(B * T);
  batch.targets.assign(B * T, -1);
  batch.scored.assign(B * T, 0);
  const auto words = static_cast<std::uint32_t>(vocabulary_.size() - 1);
  const double share = repeat_steps_ == 0 || step < repeat_steps_ ? repeat_share_ : repeat_share_after_;
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t start = train_.line_starts[uniform_below(rng, eligible)];
    // The window's tokens are the text's from `start` on: position t reads the text at start + source(t). A
    // repeating window has a copy of its own span [a, a + r) inserted at q ≥ a + r, the text going on after the
    // copy where it left off; r, a and q are drawn, so that the copy's distance varies and only matching content
    // (not a fixed offset) finds the earlier span. No draw is made without the curriculum: recipes from before it
    // give the same windows.
    std::size_t r = 0, a = 0, q = T;
    if (share > 0 && rng.uniform() < static_cast<float>(share)) {
      const std::size_t longest = T / 2, shortest = std::min<std::size_t>(kShortestRepeat, longest);
      r = shortest + uniform_below(rng, static_cast<std::uint32_t>(longest - shortest + 1));
      a = uniform_below(rng, static_cast<std::uint32_t>(T - 2 * r + 1));
      q = a + r + uniform_below(rng, static_cast<std::uint32_t>(T - r - (a + r) + 1));
    }
    const auto source = [&](std::size_t t) { return t < q ? t : t < q + r ? a + (t - q) : t - r; };
    std::int32_t* tokens = batch.tokens.data() + b * T;
    for (std::size_t t = 0; t < T; ++t) tokens[t] = train_.inputs[start + source(t)];
    if (causal) {
      for (std::size_t t = 0; t < T; ++t) {
        batch.targets[b * T + t] = train_.outputs[start + source(t + 1)];
        batch.scored[b * T + t] = 1;
      }
      continue;
    }
    // BERT's masking: choose each position with probability mask_rate (at least one), then 80 / 10 / 10
    bool any = false;
    const auto choose = [&](std::size_t t) {
      batch.targets[b * T + t] = train_.outputs[start + source(t)];
      batch.scored[b * T + t] = 1;
      const float r = rng.uniform();
      if (r < 0.8f) {
        tokens[t] = mask_id_;
      } else if (r < 0.9f) {
        tokens[t] = vocabulary_.input_rows()[uniform_below(rng, words)];
      }
      any = true;
    };
    for (std::size_t t = 0; t < T; ++t) {
      if (rng.uniform() < static_cast<float>(mask_rate_)) choose(t);
    }
    if (!any) choose(uniform_below(rng, static_cast<std::uint32_t>(T)));
  }
  return batch;
}

std::vector<Batch> CorpusSource::held_out(std::size_t batch_size, std::uint64_t seed, std::size_t max_tokens) const {
  const std::size_t T = seq_len_, size = held_out_.inputs.size();
  const bool causal = objective_ == Objective::causal;
  const auto& starts = held_out_.line_starts;
  // The windows: each starts at the last line start before the first token it scores (or, in a line
  // longer than the window allows, half a window before it), so every token is scored once.
  std::vector<Window> windows;
  std::size_t scored_total = 0;
  for (std::size_t next = causal ? 1 : 0; next < size && (!max_tokens || scored_total < max_tokens);) {
    const std::size_t anchor = causal ? next - 1 : next;
    std::size_t start = *(std::upper_bound(starts.begin(), starts.end(), anchor) - 1);
    if (anchor - start >= T / 2) start = anchor - (causal ? T / 2 : 0);
    const std::size_t length = std::min(T, size - start - (causal ? 1 : 0));
    windows.push_back({start, length, next - start - (causal ? 1 : 0)});
    scored_total += start + length + (causal ? 1 : 0) - next;
    next = start + length + (causal ? 1 : 0);
  }
  // Batches of windows of one length
  std::map<std::size_t, std::vector<Window>> by_length;
  for (const Window& w : windows) by_length[w.length].push_back(w);
  SplitMix64 masking(seed);
  std::vector<Batch> batches;
  for (const auto& [L, group] : by_length) {
    for (std::size_t from = 0; from < group.size(); from += batch_size) {
      const std::size_t count = std::min(batch_size, group.size() - from);
      Batch batch;
      batch.batch_size = count;
      batch.seq_len = L;
      for (std::size_t i = 0; i < count; ++i) {
        const Window& w = group[from + i];
        for (std::size_t t = 0; t < L; ++t) {
          std::int32_t input = held_out_.inputs[w.start + t], target = -1;
          if (causal && t >= w.first) target = held_out_.outputs[w.start + t + 1];
          if (!causal && t >= w.first && masking.uniform() < static_cast<float>(kHeldOutMaskRate)) {
            target = held_out_.outputs[w.start + t];
            input = mask_id_;
          }
          batch.tokens.push_back(input);
          batch.targets.push_back(target);
          batch.scored.push_back(target >= 0 ? 1 : 0);
        }
      }
      batches.push_back(std::move(batch));
    }
  }
  return batches;
}

Batch CorpusSource::repeated_tokens(std::size_t B, SplitMix64& rng) const {
  const std::size_t T = seq_len_, half = T / 2;
  const auto words = static_cast<std::uint32_t>(vocabulary_.size() - 1);
  Batch batch;
  batch.batch_size = B;
  batch.seq_len = T;
  batch.tokens.resize(B * T);
  batch.targets.assign(B * T, -1);
  batch.scored.assign(B * T, 0);
  for (std::size_t b = 0; b < B; ++b) {
    std::int32_t* tokens = batch.tokens.data() + b * T;
    for (std::size_t t = 0; t < T; ++t) {
      tokens[t] = t >= half && t < 2 * half ? tokens[t - half] : vocabulary_.input_rows()[uniform_below(rng, words)];
    }
  }
  return batch;
}

Trainer language_trainer(const LanguageTrainerOptions& options, const EmbeddingTable& table,
                         const std::string& train_text, const std::string& held_out_text, ParallelFor parallel) {
  TrainerOptions trainer_options = language_trainer_options(options, table);  // checked before tokenizing
  Trainer trainer(trainer_options, std::make_unique<CorpusSource>(options, table, train_text, held_out_text),
                  std::move(parallel));
  if (options.output_init == OutputInit::glove) {
    // U[j, o] = the GloVe row of output o, as output_matrix (model.hpp) gathers a tied output; <unk> keeps its draw
    const ModelConfig& c = trainer.config();
    const std::size_t d = c.d_model, V = c.outputs();
    const CorpusSource& corpus = corpus_of(trainer);
    std::vector<float> parameters = trainer.parameters();
    float* u = bind_parameters(c, parameters.data()).unembedding;
    for (std::size_t o = 0; o + 1 < V; ++o) {
      const float* row =
          corpus.frozen().table.data() + static_cast<std::size_t>(corpus.vocabulary().input_rows()[o]) * d;
      for (std::size_t j = 0; j < d; ++j) u[j * V + o] = row[j];
    }
    trainer.set_parameters(parameters);
  }
  return trainer;
}

const CorpusSource& corpus_of(const Trainer& trainer) {
  const auto* corpus = dynamic_cast<const CorpusSource*>(&trainer.source());
  if (!corpus) throw std::invalid_argument("this trainer trains on a synthetic task, not on a corpus");
  return *corpus;
}

}  // namespace attn::train
