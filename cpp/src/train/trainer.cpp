#include "attn/train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/limits.hpp"

namespace attn::train {

namespace {

void check_size(std::size_t value, std::size_t max, const char* name) {
  if (value < 1 || value > max) {
    throw std::out_of_range(std::string(name) + " must be an integer in [1, " + std::to_string(max) + "], got " +
                            std::to_string(value));
  }
}

const TrainerOptions& validated(const TrainerOptions& o) {
  const ModelConfig& m = o.model;
  check_size(m.n_layers, kMaxLayers, "numLayers");
  check_size(m.n_heads, kMaxHeads, "numHeads");
  check_size(m.d_model, kMaxTrainDModel, "dModel");
  check_size(m.seq_len, kMaxTrainSeqLen, "seqLen");
  check_size(m.vocab_size, kMaxTrainVocab, "vocabSize");
  check_size(o.batch_size, kMaxBatchSize, "batchSize");
  check_config(m);
  check_task_sizes(o.task, m.seq_len, m.vocab_size);
  // The largest forward pass this trainer runs (a training batch, or the probe of evaluate()) must fit
  // the memory limit: refuse now rather than at the first step.
  const std::uint64_t rows = std::uint64_t{std::max(o.batch_size, kProbeSequences)} * m.seq_len;
  check_cells(rows * m.d_model * (4 * std::uint64_t{m.n_layers} + 1), "the activations of a batch (batchSize × seqLen × dModel × (4·numLayers + 1))");
  check_cells(rows * m.seq_len * m.n_heads * m.n_layers, "the attention weights of a batch (batchSize × numLayers × numHeads × seqLen²)");
  check_cells(rows * m.vocab_size, "the logits of a batch (batchSize × seqLen × vocabSize)");
  return o;
}

// Independent streams for initialization, training batches, sample(), the held-out set and the probe.
struct Seeds {
  std::uint64_t init, train, sample, held_out, probe;
  explicit Seeds(std::uint64_t seed) {
    SplitMix64 master(seed);
    init = master.next();
    train = master.next();
    sample = master.next();
    held_out = master.next();
    probe = master.next();
  }
};

}  // namespace

TrainerOptions default_trainer_options(Task task) {
  TrainerOptions o;
  o.task = task;
  o.model.positional = Positional::sinusoidal;
  o.batch_size = 16;
  o.optimizer.learning_rate = 1e-2f;
  o.optimizer.weight_decay = 0.01f;
  switch (task) {
    case Task::previous_token:
      o.model.n_layers = 1, o.model.n_heads = 1, o.model.d_model = 32, o.model.seq_len = 16, o.model.vocab_size = 16;
      break;
    case Task::reverse:
    case Task::sort:
      o.model.n_layers = 2, o.model.n_heads = 2, o.model.d_model = 32, o.model.seq_len = 16, o.model.vocab_size = 17;
      break;
    case Task::induction:
      o.model.n_layers = 2, o.model.n_heads = 2, o.model.d_model = 32, o.model.seq_len = 16, o.model.vocab_size = 16;
      break;
  }
  return o;
}

Trainer::Trainer(const TrainerOptions& options)
    : options_(validated(options)),
      parameters_(init_parameters(options.model, Seeds(options.seed).init)),
      gradients_(parameters_.size()),
      optimizer_(parameters_.size(), options.optimizer),
      train_rng_(Seeds(options.seed).train),
      sample_rng_(Seeds(options.seed).sample),
      held_out_seed_(Seeds(options.seed).held_out),
      probe_seed_(Seeds(options.seed).probe),
      ablated_(options.model.n_layers * options.model.n_heads, 0) {}

double Trainer::step(std::size_t n) {
  check_size(n, kMaxStepsPerCall, "steps");
  const ModelConfig& c = options_.model;
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Batch batch = sample_batch(options_.task, options_.batch_size, c.seq_len, c.vocab_size, train_rng_);
    forward(c, parameters_.data(), batch.tokens.data(), batch.batch_size, batch.seq_len, ablated_, ws_);
    const double value = loss(c, ws_, batch);
    backward(c, parameters_.data(), batch, ablated_, ws_, gradients_.data());
    double squares = 0;
    for (const float g : gradients_) squares += static_cast<double>(g) * g;
    if (!std::isfinite(value) || !std::isfinite(squares)) {
      throw std::domain_error("training diverged at step " + std::to_string(steps() + 1) +
                              ": the loss or its gradient is not finite (lower learningRate)");
    }
    optimizer_.step(parameters_.data(), gradients_.data());
    total += value;
  }
  return total / static_cast<double>(n);
}

Evaluation Trainer::evaluate() {
  const ModelConfig& c = options_.model;
  const std::size_t V = c.vocab_size, T = c.seq_len, H = c.n_heads, L = c.n_layers;
  Evaluation result;
  // Held-out loss and accuracy, in batches of batch_size
  SplitMix64 held_out(held_out_seed_);
  double loss_sum = 0;
  std::size_t scored = 0, correct = 0;
  for (std::size_t done = 0; done < kEvalSequences;) {
    const std::size_t count = std::min(options_.batch_size, kEvalSequences - done);
    const Batch batch = sample_batch(options_.task, count, T, V, held_out);
    forward(c, parameters_.data(), batch.tokens.data(), count, T, ablated_, ws_);
    const std::size_t n = batch.scored_count();
    loss_sum += loss(c, ws_, batch) * static_cast<double>(n);
    for (std::size_t r = 0; r < batch.tokens.size(); ++r) {
      if (!batch.scored[r]) continue;
      const float* row = ws_.logits + r * V;
      correct += static_cast<std::size_t>(std::max_element(row, row + V) - row) == static_cast<std::size_t>(batch.targets[r]);
    }
    scored += n;
    done += count;
  }
  result.loss = scored ? loss_sum / static_cast<double>(scored) : 0.0;
  result.accuracy = scored ? static_cast<double>(correct) / static_cast<double>(scored) : 0.0;

  // Head scores on repeated random tokens: the first half again as the second (Olsson et al. 2022)
  SplitMix64 probe_rng(probe_seed_);
  const Batch probe = repeated_tokens_batch(options_.task, kProbeSequences, T, V, probe_rng);
  forward(c, parameters_.data(), probe.tokens.data(), kProbeSequences, T, ablated_, ws_);
  const std::size_t half = T / 2;
  result.heads.previous_token.assign(L * H, 0.0);
  result.heads.prefix_matching.assign(L * H, 0.0);
  for (std::size_t l = 0; l < L; ++l) {
    for (std::size_t h = 0; h < H; ++h) {
      double previous = 0, prefix = 0;
      for (std::size_t b = 0; b < kProbeSequences; ++b) {
        const float* w = ws_.layers[l].weights + (b * H + h) * T * T;
        for (std::size_t i = 1; i < T; ++i) previous += w[i * T + i - 1];
        // the token at i ≥ half first occurred at i − half; the one after that occurrence is at i − half + 1
        for (std::size_t i = half; i < 2 * half; ++i) prefix += w[i * T + i - half + 1];
      }
      result.heads.previous_token[l * H + h] = previous / static_cast<double>(kProbeSequences * (T - 1));
      result.heads.prefix_matching[l * H + h] = half ? prefix / static_cast<double>(kProbeSequences * half) : 0.0;
    }
  }
  return result;
}

Batch Trainer::sample(std::size_t batch_size) {
  check_size(batch_size, kMaxBatchSize, "batchSize");
  return sample_batch(options_.task, batch_size, options_.model.seq_len, options_.model.vocab_size, sample_rng_);
}

void Trainer::check_sequence(const std::vector<std::int32_t>& tokens, const char* where) const {
  if (tokens.empty() || tokens.size() > options_.model.seq_len) {
    throw std::out_of_range(std::string(where) + ": tokens must hold 1 to seqLen = " + std::to_string(options_.model.seq_len) +
                            " tokens, got " + std::to_string(tokens.size()));
  }
}

std::vector<float> Trainer::attention(const std::vector<std::int32_t>& tokens) {
  check_sequence(tokens, "attention");
  forward(options_.model, parameters_.data(), tokens.data(), 1, tokens.size(), ablated_, ws_);
  const std::size_t cells = options_.model.n_heads * tokens.size() * tokens.size();
  std::vector<float> weights;
  weights.reserve(options_.model.n_layers * cells);
  for (const LayerActivations<float>& layer : ws_.layers) weights.insert(weights.end(), layer.weights, layer.weights + cells);
  return weights;
}

std::vector<float> Trainer::predict(const std::vector<std::int32_t>& tokens) {
  check_sequence(tokens, "predict");
  forward(options_.model, parameters_.data(), tokens.data(), 1, tokens.size(), ablated_, ws_);
  return {ws_.logits, ws_.logits + tokens.size() * options_.model.outputs()};
}

void Trainer::set_parameters(const std::vector<float>& parameters) {
  if (parameters.size() != parameters_.size()) {
    throw std::invalid_argument("setParameters: expected " + std::to_string(parameters_.size()) + " numbers, got " +
                                std::to_string(parameters.size()));
  }
  const auto bad = std::find_if(parameters.begin(), parameters.end(), [](float x) { return !std::isfinite(x); });
  if (bad != parameters.end()) {
    throw std::invalid_argument("setParameters: parameter " + std::to_string(bad - parameters.begin()) + " is not finite");
  }
  parameters_ = parameters;
}

std::pair<double, std::vector<float>> Trainer::loss_and_gradients(const Batch& batch) {
  const ModelConfig& c = options_.model;
  const std::size_t cells = batch.batch_size * batch.seq_len;
  if (batch.batch_size == 0 || batch.seq_len == 0 || batch.seq_len > c.seq_len || batch.tokens.size() != cells ||
      batch.targets.size() != cells || batch.scored.size() != cells) {
    throw std::out_of_range("lossAndGradients: the batch must be [batchSize, T] with 1 ≤ T ≤ seqLen = " +
                            std::to_string(c.seq_len) + " for tokens, targets and scored alike");
  }
  for (std::size_t r = 0; r < cells; ++r) {
    if (batch.scored[r] && (batch.targets[r] < 0 || static_cast<std::size_t>(batch.targets[r]) >= c.vocab_size)) {
      throw std::out_of_range("lossAndGradients: targets[" + std::to_string(r) + "] = " + std::to_string(batch.targets[r]) +
                              " is scored but outside [0, vocabSize = " + std::to_string(c.vocab_size) + ")");
    }
  }
  forward(c, parameters_.data(), batch.tokens.data(), batch.batch_size, batch.seq_len, ablated_, ws_);
  const double value = loss(c, ws_, batch);
  std::vector<float> grads(parameters_.size());
  backward(c, parameters_.data(), batch, ablated_, ws_, grads.data());
  return {value, std::move(grads)};
}

void Trainer::ablate(std::size_t layer, std::size_t head, bool on) {
  const ModelConfig& c = options_.model;
  if (layer >= c.n_layers) throw std::out_of_range("ablate: layer must be in [0, " + std::to_string(c.n_layers - 1) + "], got " + std::to_string(layer));
  if (head >= c.n_heads) throw std::out_of_range("ablate: head must be in [0, " + std::to_string(c.n_heads - 1) + "], got " + std::to_string(head));
  ablated_[layer * c.n_heads + head] = on ? 1 : 0;
}

bool Trainer::ablated(std::size_t layer, std::size_t head) const { return ablated_.at(layer * options_.model.n_heads + head) != 0; }

}  // namespace attn::train
