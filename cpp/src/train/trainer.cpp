#include "attn/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"
#include "attn/train/input_checks.hpp"
#include "attn/train/ops.hpp"

namespace attn::train {

namespace {

void check_range(std::size_t value, std::size_t low, std::size_t high, const char* name) {
  if (value < low || value > high) {
    throw std::out_of_range(std::string(name) + " must be an integer in [" + std::to_string(low) + ", " +
                            std::to_string(high) + "], got " + std::to_string(value));
  }
}

// The one seed scheme (trainer.hpp): independent streams drawn from the master seed in this order.
struct Seeds {
  std::uint64_t init, train, held_out, sample, probe;
  explicit Seeds(std::uint64_t seed) {
    SplitMix64 master(seed);
    init = master.next();
    train = master.next();
    held_out = master.next();
    sample = master.next();
    probe = master.next();
  }
};

// Rows [from, to) of a batch, as a batch of their own.
Batch rows_of(const Batch& batch, std::size_t from, std::size_t to) {
  const std::size_t T = batch.seq_len;
  const auto at = [T](std::size_t row) { return static_cast<std::ptrdiff_t>(row * T); };
  Batch out;
  out.batch_size = to - from;
  out.seq_len = T;
  out.tokens.assign(batch.tokens.begin() + at(from), batch.tokens.begin() + at(to));
  out.targets.assign(batch.targets.begin() + at(from), batch.targets.begin() + at(to));
  out.scored.assign(batch.scored.begin() + at(from), batch.scored.begin() + at(to));
  return out;
}

const TrainerOptions& validated(const TrainerOptions& o) {
  check_trainer_options(o);
  return o;
}

}  // namespace

void check_trainer_options(const TrainerOptions& o) {
  const ModelConfig& m = o.model;
  check_range(m.n_layers, 1, kMaxLayers, "numLayers");
  check_range(m.n_heads, 1, kMaxHeads, "numHeads");
  check_range(m.seq_len, 1, kMaxTrainSeqLen, "seqLen");
  check_range(m.d_ff, 0, kMaxFeedForward, "dFF");
  check_range(o.batch_size, 1, kMaxBatchSize, "batchSize");
  check_range(o.shards, 1, std::min(kMaxShards, o.batch_size), "shards");
  check_range(o.schedule.warmup_steps, 0, kMaxScheduleSteps, "warmupSteps");
  check_range(o.schedule.total_steps, 0, kMaxScheduleSteps, "totalSteps");
  check_config(m);
  scheduled_learning_rate(o.optimizer.learning_rate, o.schedule, 1);  // validates the schedule
  // The largest forward pass a trainer runs (a step's shard, and a held-out batch of as many sequences; the
  // probe's slices are no larger) must fit the memory limit: refuse now rather than at the first step.
  check_cells(activation_count(m, (o.batch_size + o.shards - 1) / o.shards, m.seq_len),
              "the activations of a batch (batchSize sequences of seqLen tokens, activations.hpp)");
}

Trainer::Trainer(const TrainerOptions& options, std::unique_ptr<BatchSource> source, ParallelFor parallel)
    : options_(validated(options)),
      source_(std::move(source)),
      parameters_(init_parameters(options.model, Seeds(options.seed).init)),
      gradients_(options.shards, std::vector<float>(parameters_.size())),
      workspaces_(options.shards),
      optimizer_(parameters_.size(), options.optimizer, decay_mask(options.model)),
      train_rng_(Seeds(options.seed).train),
      sample_rng_(Seeds(options.seed).sample),
      held_out_seed_(Seeds(options.seed).held_out),
      probe_seed_(Seeds(options.seed).probe),
      ablated_(options.model.n_layers * options.model.n_heads, 0),
      parallel_(std::move(parallel)) {
  if (!source_) throw std::invalid_argument("Trainer: a batch source is required");
  if (!parallel_) {
    parallel_ = [](std::size_t n, const std::function<void(std::size_t)>& body) {
      for (std::size_t i = 0; i < n; ++i) body(i);
    };
  }
}

float Trainer::learning_rate() const {
  return scheduled_learning_rate(options_.optimizer.learning_rate, options_.schedule, steps() + 1);
}

double Trainer::gradients(const Batch& batch) {
  const std::size_t S = options_.shards, B = batch.batch_size;
  const std::size_t scored = batch.scored_count();
  std::vector<double> sums(S, 0.0);
  parallel_(S, [&](std::size_t s) {
    const Batch shard = S == 1 ? Batch{} : rows_of(batch, s * B / S, (s + 1) * B / S);
    const Batch& rows = S == 1 ? batch : shard;
    Workspace<float>& ws = workspaces_[s];
    forward_scored(config(), parameters_.data(), rows, ablated_, ws, frozen());
    sums[s] = backward(config(), parameters_.data(), rows, ablated_, ws, gradients_[s].data(), frozen(), scored);
  });
  // Sum the shards in order (the same bits whatever thread ran which shard)
  std::vector<float>& grads = gradients_[0];
  double sum = sums[0];
  for (std::size_t s = 1; s < S; ++s) {
    for (std::size_t j = 0; j < grads.size(); ++j) grads[j] += gradients_[s][j];
    sum += sums[s];
  }
  return sum;
}

double Trainer::step(std::size_t n) {
  check_range(n, 1, kMaxStepsPerCall, "steps");
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Batch batch = source_->draw(options_.batch_size, optimizer_.steps(), train_rng_);
    const std::size_t scored = batch.scored_count();
    const double value = scored ? gradients(batch) / static_cast<double>(scored) : 0.0;
    const std::vector<float>& grads = gradients_[0];
    double squares = 0;
    for (const float g : grads) squares += static_cast<double>(g) * g;
    if (!std::isfinite(value) || !std::isfinite(squares)) {
      throw std::domain_error("training diverged at step " + std::to_string(steps() + 1) +
                              ": the loss or its gradient is not finite (lower learningRate)");
    }
    optimizer_.step(parameters_.data(), gradients_[0].data(), learning_rate());
    total += value;
  }
  return total / static_cast<double>(n);
}

Evaluation Trainer::evaluate(std::size_t max_tokens) {
  check_range(max_tokens, 0, kMaxEvalTokens, "maxTokens");
  const std::size_t V = config().outputs();
  const std::vector<std::int32_t>& frequent = source_->frequent_outputs();
  Workspace<float>& ws = workspaces_[0];
  double loss_sum = 0;
  std::size_t tokens = 0, top1 = 0, top5 = 0, frequent1 = 0, frequent5 = 0;
  const std::size_t shard = (options_.batch_size + options_.shards - 1) / options_.shards;
  for (const Batch& batch : source_->held_out(shard, held_out_seed_, max_tokens)) {
    // The output layer at the scored rows only (a masked model's held-out blanks are 15 % of the tokens)
    forward_scored(config(), parameters_.data(), batch, ablated_, ws, frozen());
    loss_sum += loss(config(), ws, batch) * static_cast<double>(batch.scored_count());
    std::size_t logits_row = 0;
    for (std::size_t r = 0; r < batch.tokens.size(); ++r) {
      if (!batch.scored[r]) continue;
      const float* row = ws.logits + (ws.compact ? logits_row++ : r) * V;
      const float target = row[batch.targets[r]];
      const auto above = static_cast<std::size_t>(std::count_if(row, row + V, [&](float x) { return x > target; }));
      top1 += above == 0;
      top5 += above < 5;
      const auto found = std::find(frequent.begin(), frequent.end(), batch.targets[r]);
      frequent1 += found == frequent.begin() && found != frequent.end();
      frequent5 += found != frequent.end();
      ++tokens;
    }
  }
  const auto fraction = [tokens](std::size_t count) {
    return tokens ? static_cast<double>(count) / static_cast<double>(tokens) : 0.0;
  };
  Evaluation e;
  e.tokens = tokens;
  e.loss = tokens ? loss_sum / static_cast<double>(tokens) : 0.0;
  e.perplexity = std::exp(e.loss);
  e.top1 = fraction(top1), e.top5 = fraction(top5);
  e.frequent_top1 = fraction(frequent1), e.frequent_top5 = fraction(frequent5);
  return e;
}

HeadScores Trainer::head_scores() {
  const ModelConfig& c = config();
  const std::size_t T = c.seq_len, H = c.n_heads, L = c.n_layers, half = T / 2;
  SplitMix64 probe_rng(probe_seed_);
  const Batch probe = source_->repeated_tokens(kProbeSequences, probe_rng);
  std::vector<double> previous(L * H, 0.0), prefix(L * H, 0.0);
  // In slices of at most a shard's sequences: the memory the constructor checked
  const std::size_t slice = (options_.batch_size + options_.shards - 1) / options_.shards;
  Workspace<float>& ws = workspaces_[0];
  for (std::size_t from = 0; from < kProbeSequences; from += slice) {
    const std::size_t to = std::min(kProbeSequences, from + slice);
    const Batch rows = rows_of(probe, from, to);
    forward_blocks(c, parameters_.data(), rows.tokens.data(), rows.batch_size, T, ablated_, ws, frozen());
    for (std::size_t l = 0; l < L; ++l) {
      for (std::size_t h = 0; h < H; ++h) {
        for (std::size_t b = 0; b < rows.batch_size; ++b) {
          const float* w = ws.layers[l].weights + (b * H + h) * T * T;
          for (std::size_t i = 1; i < T; ++i) previous[l * H + h] += w[i * T + i - 1];
          // the token at i ≥ half first occurred at i − half; the one after that occurrence is at i − half + 1
          for (std::size_t i = half; i < 2 * half; ++i) prefix[l * H + h] += w[i * T + i - half + 1];
        }
      }
    }
  }
  HeadScores scores;
  for (std::size_t lh = 0; lh < L * H; ++lh) {
    scores.previous_token.push_back(T > 1 ? previous[lh] / static_cast<double>(kProbeSequences * (T - 1)) : 0.0);
    scores.prefix_matching.push_back(half ? prefix[lh] / static_cast<double>(kProbeSequences * half) : 0.0);
  }
  return scores;
}

Batch Trainer::sample(std::size_t batch_size) {
  check_range(batch_size, 1, kMaxBatchSize, "batchSize");
  return source_->draw(batch_size, optimizer_.steps(), sample_rng_);
}

Batch Trainer::peek_batch() const {
  SplitMix64 copy = train_rng_;
  return source_->draw(options_.batch_size, optimizer_.steps(), copy);
}

void Trainer::check_sequence(const std::vector<std::int32_t>& tokens, const char* where) const {
  check_token_count(tokens.size(), 1, config().seq_len, std::string(where) + ": tokens", "seqLen");
}

std::vector<float> Trainer::attention(const std::vector<std::int32_t>& tokens) {
  check_sequence(tokens, "attention");
  Workspace<float>& ws = workspaces_[0];
  forward_blocks(config(), parameters_.data(), tokens.data(), 1, tokens.size(), ablated_, ws, frozen());
  return attention_weights(config(), ws);
}

std::vector<float> Trainer::predict(const std::vector<std::int32_t>& tokens) {
  check_sequence(tokens, "predict");
  Workspace<float>& ws = workspaces_[0];
  forward(config(), parameters_.data(), tokens.data(), 1, tokens.size(), ablated_, ws, frozen());
  return {ws.logits, ws.logits + tokens.size() * config().outputs()};
}

void Trainer::set_parameters(const std::vector<float>& parameters) {
  if (parameters.size() != parameters_.size()) {
    throw std::invalid_argument("setParameters: expected " + std::to_string(parameters_.size()) + " numbers, got " +
                                std::to_string(parameters.size()));
  }
  const auto bad = std::find_if(parameters.begin(), parameters.end(), [](float x) { return !std::isfinite(x); });
  if (bad != parameters.end()) {
    throw std::invalid_argument("setParameters: parameter " + std::to_string(bad - parameters.begin()) +
                                " is not finite");
  }
  parameters_ = parameters;
}

std::pair<double, std::vector<float>> Trainer::loss_and_gradients(const Batch& batch) {
  const ModelConfig& c = config();
  const std::size_t cells = batch.batch_size * batch.seq_len;
  if (batch.batch_size == 0 || batch.batch_size > kMaxBatchSize || batch.seq_len == 0 || batch.seq_len > c.seq_len ||
      batch.tokens.size() != cells || batch.targets.size() != cells || batch.scored.size() != cells) {
    throw std::out_of_range("lossAndGradients: the batch must be [batchSize ≤ " + std::to_string(kMaxBatchSize) +
                            ", T] with 1 ≤ T ≤ seqLen = " + std::to_string(c.seq_len) +
                            " for tokens, targets and scored alike");
  }
  for (std::size_t r = 0; r < cells; ++r) {
    if (batch.scored[r]) check_output_id(batch.targets[r], c, "lossAndGradients: targets[" + std::to_string(r) + "]");
  }
  Workspace<float> ws;  // a batch of any size up to the limits, apart from the step's workspaces
  forward(c, parameters_.data(), batch.tokens.data(), batch.batch_size, batch.seq_len, ablated_, ws, frozen());
  std::vector<float> grads(parameters_.size());
  const double sum = backward(c, parameters_.data(), batch, ablated_, ws, grads.data(), frozen());
  const std::size_t scored = batch.scored_count();
  return {scored ? sum / static_cast<double>(scored) : 0.0, std::move(grads)};
}

void Trainer::ablate(std::size_t layer, std::size_t head, bool on) {
  check_head_choice(config(), {layer, head}, "ablate");
  ablated_[layer * config().n_heads + head] = on ? 1 : 0;
}

bool Trainer::ablated(std::size_t layer, std::size_t head) const {
  return ablated_.at(layer * config().n_heads + head) != 0;
}

}  // namespace attn::train
