#include "attn/train/language_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "attn/train/ops.hpp"
#include "attn/train/tasks.hpp"

namespace attn::train {

namespace {

void check_range(std::size_t value, std::size_t low, std::size_t high, const char* name) {
  if (value < low || value > high) {
    throw std::out_of_range(std::string("createLanguageTrainer: ") + name + " must be an integer in [" + std::to_string(low) + ", " +
                            std::to_string(high) + "], got " + std::to_string(value));
  }
}

const LanguageTrainerOptions& validated(const LanguageTrainerOptions& o, const EmbeddingTable& table) {
  check_range(o.n_layers, 1, kMaxLanguageLayers, "numLayers");
  check_range(o.n_heads, 1, table.dim(), "numHeads");
  if (table.dim() % o.n_heads) {
    throw std::out_of_range("createLanguageTrainer: numHeads must divide dModel = " + std::to_string(table.dim()) + ", got " +
                            std::to_string(o.n_heads));
  }
  check_range(o.d_ff, 0, kMaxLanguageFeedForward, "dFF");
  check_range(o.seq_len, 2, kMaxLanguageSeqLen, "seqLen");
  check_range(o.batch_size, 1, 1024, "batchSize");
  check_range(o.shards, 1, std::min(kMaxShards, o.batch_size), "shards");
  check_range(o.output_words, kMinOutputWords, kMaxOutputWords, "outputWords");
  return o;
}

}  // namespace

ModelConfig language_model_config(const LanguageTrainerOptions& o, const EmbeddingTable& table) {
  validated(o, table);
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
  c.positional = Positional::sinusoidal;
  check_config(c);
  return c;
}

namespace {

// Independent streams for initialization, training batches and the held-out masking.
struct Seeds {
  std::uint64_t init, train, held_out;
  explicit Seeds(std::uint64_t seed) {
    SplitMix64 master(seed);
    init = master.next();
    train = master.next();
    held_out = master.next();
  }
};

// Rows [from, to) of a batch, as a batch of their own.
Batch rows_of(const Batch& batch, std::size_t from, std::size_t to) {
  const std::size_t T = batch.seq_len;
  Batch out;
  out.batch_size = to - from;
  out.seq_len = T;
  out.tokens.assign(batch.tokens.begin() + from * T, batch.tokens.begin() + to * T);
  out.targets.assign(batch.targets.begin() + from * T, batch.targets.begin() + to * T);
  out.scored.assign(batch.scored.begin() + from * T, batch.scored.begin() + to * T);
  return out;
}

// One held-out window: tokens [start, start + length) as inputs; the positions from `first` on are scored.
struct Window {
  std::size_t start, length, first;
};

}  // namespace

LanguageTrainer::LanguageTrainer(const LanguageTrainerOptions& options, const EmbeddingTable& table, const std::string& train_text,
                                 const std::string& held_out_text, ParallelFor parallel)
    : options_(validated(options, table)),
      config_(language_model_config(options, table)),
      vocabulary_(most_frequent_words(train_text, table, options.output_words)),
      train_(token_stream(train_text, table, vocabulary_)),
      held_out_(token_stream(held_out_text, table, vocabulary_)),
      parameters_(init_parameters(config_, Seeds(options.seed).init)),
      shard_gradients_(options.shards, std::vector<float>(parameters_.size())),
      shard_workspaces_(options.shards),
      optimizer_(parameters_.size(), options.optimizer, decay_mask(config_)),
      rng_(Seeds(options.seed).train),
      parallel_(std::move(parallel)),
      mask_id_(mask_input(table)) {
  if (train_.inputs.size() <= options_.seq_len || held_out_.inputs.size() <= options_.seq_len) {
    throw std::invalid_argument("createLanguageTrainer: the training and the held-out text must each hold more than seqLen = " +
                                std::to_string(options_.seq_len) + " tokens");
  }
  if (vocabulary_.size() != config_.output_size) {
    // The output layer has outputWords + 1 rows; a text with fewer distinct words (that have vectors) cannot fill them.
    throw std::invalid_argument("createLanguageTrainer: outputWords = " + std::to_string(options_.output_words) +
                                ", but the training text has only " + std::to_string(vocabulary_.size() - 1) +
                                " distinct words with word vectors: give more text or a smaller outputWords");
  }
  scheduled_learning_rate(options_.optimizer.learning_rate, options_.schedule, 1);  // validates the schedule
  frozen_.table = frozen_rows(table);
  if (config_.tied_output) frozen_.output_rows = vocabulary_.input_rows();
  std::vector<std::size_t> counts(vocabulary_.size(), 0);
  for (const std::int32_t id : train_.outputs) ++counts[static_cast<std::size_t>(id)];
  for (std::size_t i = 0; i < 5 && i < counts.size(); ++i) {
    const auto most = std::max_element(counts.begin(), counts.end());
    most_frequent_.push_back(static_cast<std::int32_t>(most - counts.begin()));
    *most = 0;
  }
  if (!parallel_) {
    parallel_ = [](std::size_t n, const std::function<void(std::size_t)>& body) {
      for (std::size_t i = 0; i < n; ++i) body(i);
    };
  }
}

Batch LanguageTrainer::draw_batch(SplitMix64& rng) const {
  const std::size_t B = options_.batch_size, T = options_.seq_len;
  const bool causal = options_.objective == Objective::causal;
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
  const std::uint32_t words = static_cast<std::uint32_t>(vocabulary_.size() - 1);
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t start = train_.line_starts[uniform_below(rng, eligible)];
    std::int32_t* tokens = batch.tokens.data() + b * T;
    std::copy(train_.inputs.begin() + start, train_.inputs.begin() + start + T, tokens);
    if (causal) {
      for (std::size_t t = 0; t < T; ++t) {
        batch.targets[b * T + t] = train_.outputs[start + t + 1];
        batch.scored[b * T + t] = 1;
      }
      continue;
    }
    // BERT's masking: choose each position with probability 0.15 (at least one), then 80 / 10 / 10
    bool any = false;
    const auto choose = [&](std::size_t t) {
      batch.targets[b * T + t] = train_.outputs[start + t];
      batch.scored[b * T + t] = 1;
      const float r = rng.uniform();
      if (r < 0.8f) tokens[t] = mask_id_;
      else if (r < 0.9f) tokens[t] = vocabulary_.input_rows()[uniform_below(rng, words)];
      any = true;
    };
    for (std::size_t t = 0; t < T; ++t) {
      if (rng.uniform() < static_cast<float>(kMaskRate)) choose(t);
    }
    if (!any) choose(uniform_below(rng, static_cast<std::uint32_t>(T)));
  }
  return batch;
}

Batch LanguageTrainer::peek_batch() const {
  SplitMix64 copy = rng_;
  return draw_batch(copy);
}

float LanguageTrainer::learning_rate() const {
  return scheduled_learning_rate(options_.optimizer.learning_rate, options_.schedule, steps() + 1);
}

double LanguageTrainer::step(std::size_t n) {
  check_range(n, 1, 100000, "steps");
  const std::size_t S = options_.shards, B = options_.batch_size;
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Batch batch = draw_batch(rng_);
    const std::size_t scored = batch.scored_count();
    std::vector<double> sums(S, 0.0);
    parallel_(S, [&](std::size_t s) {
      const Batch shard = rows_of(batch, s * B / S, (s + 1) * B / S);
      Workspace<float>& ws = shard_workspaces_[s];
      forward(config_, parameters_.data(), shard.tokens.data(), shard.batch_size, shard.seq_len, {}, ws, frozen_);
      sums[s] = backward(config_, parameters_.data(), shard, {}, ws, shard_gradients_[s].data(), frozen_, scored);
    });
    // Sum the shards in order (the same bits whatever thread ran which shard)
    std::vector<float>& grads = shard_gradients_[0];
    double sum = sums[0];
    for (std::size_t s = 1; s < S; ++s) {
      for (std::size_t j = 0; j < grads.size(); ++j) grads[j] += shard_gradients_[s][j];
      sum += sums[s];
    }
    const double value = sum / static_cast<double>(scored);
    double squares = 0;
    for (const float g : grads) squares += static_cast<double>(g) * g;
    if (!std::isfinite(value) || !std::isfinite(squares)) {
      throw std::domain_error("languageTrainer.step: training diverged at step " + std::to_string(steps() + 1) +
                              ": the loss or its gradient is not finite (lower learningRate)");
    }
    optimizer_.step(parameters_.data(), grads.data(), learning_rate());
    total += value;
  }
  return total / static_cast<double>(n);
}

LanguageEvaluation LanguageTrainer::evaluate(std::size_t max_tokens) {
  const std::size_t T = options_.seq_len, size = held_out_.inputs.size(), V = config_.outputs();
  const bool causal = options_.objective == Objective::causal;
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
  SplitMix64 masking(Seeds(options_.seed).held_out);
  double loss_sum = 0;
  std::size_t tokens = 0, top1 = 0, top5 = 0, frequent1 = 0, frequent5 = 0;
  Workspace<float> ws;
  for (const auto& [L, group] : by_length) {
    for (std::size_t from = 0; from < group.size(); from += options_.batch_size) {
      const std::size_t count = std::min(options_.batch_size, group.size() - from);
      Batch batch;
      batch.batch_size = count;
      batch.seq_len = L;
      for (std::size_t i = 0; i < count; ++i) {
        const Window& w = group[from + i];
        for (std::size_t t = 0; t < L; ++t) {
          std::int32_t input = held_out_.inputs[w.start + t], target = -1;
          if (causal && t >= w.first) target = held_out_.outputs[w.start + t + 1];
          if (!causal && t >= w.first && masking.uniform() < static_cast<float>(kMaskRate)) {
            target = held_out_.outputs[w.start + t];
            input = mask_id_;
          }
          batch.tokens.push_back(input);
          batch.targets.push_back(target);
          batch.scored.push_back(target >= 0 ? 1 : 0);
        }
      }
      forward(config_, parameters_.data(), batch.tokens.data(), count, L, {}, ws, frozen_);
      loss_sum += crossentropy_forward(ws.logits, batch.targets.data(), batch.scored.data(), batch.tokens.size(), V);
      for (std::size_t r = 0; r < batch.tokens.size(); ++r) {
        if (!batch.scored[r]) continue;
        const float* row = ws.logits + r * V;
        const float target = row[batch.targets[r]];
        const auto above = static_cast<std::size_t>(std::count_if(row, row + V, [&](float x) { return x > target; }));
        top1 += above == 0;
        top5 += above < 5;
        const auto frequent = std::find(most_frequent_.begin(), most_frequent_.end(), batch.targets[r]);
        frequent1 += frequent == most_frequent_.begin();
        frequent5 += frequent != most_frequent_.end();
        ++tokens;
      }
    }
  }
  LanguageEvaluation e;
  e.tokens = tokens;
  e.loss = tokens ? loss_sum / static_cast<double>(tokens) : 0.0;
  e.perplexity = std::exp(e.loss);
  e.top1 = tokens ? static_cast<double>(top1) / static_cast<double>(tokens) : 0.0;
  e.top5 = tokens ? static_cast<double>(top5) / static_cast<double>(tokens) : 0.0;
  e.frequent_top1 = tokens ? static_cast<double>(frequent1) / static_cast<double>(tokens) : 0.0;
  e.frequent_top5 = tokens ? static_cast<double>(frequent5) / static_cast<double>(tokens) : 0.0;
  return e;
}

std::pair<double, std::vector<float>> LanguageTrainer::loss_and_gradients(const Batch& batch) {
  const std::size_t cells = batch.batch_size * batch.seq_len;
  if (batch.batch_size == 0 || batch.batch_size > 1024 || batch.seq_len == 0 || batch.seq_len > config_.seq_len ||
      batch.tokens.size() != cells || batch.targets.size() != cells || batch.scored.size() != cells) {
    throw std::out_of_range("LanguageTrainer.lossAndGradients: the batch must be [batchSize ≤ 1024, T] with 1 ≤ T ≤ seqLen = " +
                            std::to_string(config_.seq_len) + " for tokens, targets and scored alike");
  }
  for (std::size_t r = 0; r < cells; ++r) {
    if (batch.scored[r] && (batch.targets[r] < 0 || static_cast<std::size_t>(batch.targets[r]) >= config_.outputs())) {
      throw std::out_of_range("LanguageTrainer.lossAndGradients: targets[" + std::to_string(r) + "] = " +
                              std::to_string(batch.targets[r]) + " is scored but outside [0, " + std::to_string(config_.outputs()) + ")");
    }
  }
  Workspace<float> ws;
  forward(config_, parameters_.data(), batch.tokens.data(), batch.batch_size, batch.seq_len, {}, ws, frozen_);
  std::vector<float> grads(parameters_.size());
  const double sum = backward(config_, parameters_.data(), batch, {}, ws, grads.data(), frozen_);
  const std::size_t scored = batch.scored_count();
  return {scored ? sum / static_cast<double>(scored) : 0.0, std::move(grads)};
}

void LanguageTrainer::set_parameters(const std::vector<float>& parameters) {
  if (parameters.size() != parameters_.size()) {
    throw std::invalid_argument("LanguageTrainer.setParameters: expected " + std::to_string(parameters_.size()) +
                                " numbers, got " + std::to_string(parameters.size()));
  }
  const auto bad = std::find_if(parameters.begin(), parameters.end(), [](float x) { return !std::isfinite(x); });
  if (bad != parameters.end()) {
    throw std::invalid_argument("LanguageTrainer.setParameters: parameter " + std::to_string(bad - parameters.begin()) +
                                " is not finite");
  }
  parameters_ = parameters;
}

}  // namespace attn::train
