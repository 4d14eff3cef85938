#include "attn/train/language_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "attn/core/kernels.hpp"
#include "attn/train/input_checks.hpp"
#include "attn/train/ops.hpp"

namespace attn::train {

LanguageModel::LanguageModel(ModelConfig config, Objective objective, std::vector<std::string> words,
                             std::vector<float> parameters, const EmbeddingTable& table)
    : config_(std::move(config)),
      objective_(objective),
      vocabulary_(std::move(words), table),
      parameters_(std::move(parameters)),
      table_(&table) {
  if (config_.vocab_size != input_ids(table) || config_.frozen_rows != table.vocab_size() + 1 ||
      config_.d_model != table.dim()) {
    throw std::invalid_argument("languageModel: the model was trained on other word vectors (" +
                                std::to_string(config_.vocab_size) + " input ids of " +
                                std::to_string(config_.d_model) + " dimensions; these have " +
                                std::to_string(input_ids(table)) + " of " + std::to_string(table.dim()) + ")");
  }
  if (config_.outputs() != vocabulary_.size()) {
    throw std::invalid_argument("languageModel: the output layer has " + std::to_string(config_.outputs()) +
                                " outputs but the vocabulary " + std::to_string(vocabulary_.size()) + " (with <unk>)");
  }
  config_.seq_len = kMaxLanguageTokens;  // sinusoidal P: any length up to the limit
  check_config(config_);
  if (parameters_.size() != parameter_count(config_)) {
    throw std::invalid_argument("languageModel: expected " + std::to_string(parameter_count(config_)) +
                                " parameters, got " + std::to_string(parameters_.size()));
  }
  const auto bad = std::find_if(parameters_.begin(), parameters_.end(), [](float x) { return !std::isfinite(x); });
  if (bad != parameters_.end()) {
    throw std::invalid_argument("languageModel: parameter " + std::to_string(bad - parameters_.begin()) +
                                " is not finite");
  }
  frozen_.table = frozen_rows(table);
  if (config_.tied_output) frozen_.output_rows = vocabulary_.input_rows();
  std::vector<float> gathered;
  pack_weights(packed_unembedding_, output_matrix(config_, parameters_.data(), frozen_, gathered), config_.d_model,
               config_.outputs());
}

const float* LanguageModel::run_blocks(const std::string& text, LanguageRun& out,
                                       const std::vector<std::uint8_t>& ablated) {
  out.tokens = language_tokens(text, *table_);
  const std::size_t T = out.tokens.size(), d = config_.d_model;
  check_token_count(T, 1, kMaxLanguageTokens, "languageModel: the text");
  out.inputs = input_ids_of(out.tokens, *table_);
  if (objective_ == Objective::causal && std::count(out.inputs.begin(), out.inputs.end(), mask_input(*table_))) {
    throw std::invalid_argument(
        "languageModel: the causal model was not trained with [MASK]; use the masked model to fill in blanks");
  }
  const float* x = forward_blocks(config_, parameters_.data(), out.inputs.data(), 1, T, ablated, ws_, frozen_);
  out.embeddings = gather_input_rows(config_, parameters_.data(), frozen_, out.inputs.data(), T);
  out.input.assign(ws_.x0, ws_.x0 + T * d);
  out.attention = attention_weights(config_, ws_);
  for (const LayerActivations<float>& layer : ws_.layers)
    out.hidden.insert(out.hidden.end(), layer.out, layer.out + T * d);
  return x;
}

const float* LanguageModel::output_layer(const float* x, std::size_t n, float* logits) {
  OutputHeadRows<float> head;
  if (config_.output_head) {  // n may exceed ws_'s rows (positions listed twice), so the head has rows of its own
    const std::size_t d = config_.d_model;
    head_rows_.resize(3 * n * d + 2 * n);
    float* at = head_rows_.data();
    head = {at, at + n * d, at + 2 * n * d, at + 3 * n * d, at + 3 * n * d + n};
  }
  return output_layer_forward(config_, parameters_.data(), x, n, packed_unembedding_, logits, head);
}

LanguageRun LanguageModel::run(const std::string& text, std::size_t k, const Positions& positions,
                               std::optional<HeadChoice> activations, const std::vector<HeadChoice>& ablate) {
  if (k < 1 || k > kMaxTopK)
    throw std::out_of_range("languageModel.run: k must be in [1, " + std::to_string(kMaxTopK) + "], got " +
                            std::to_string(k));
  if (activations) check_head_choice(config_, *activations, "languageModel.run: activations");
  const std::vector<std::uint8_t> ablated = ablation_flags(config_, ablate, "languageModel.run: ablate");
  LanguageRun out;
  const float* x = run_blocks(text, out, ablated);
  if (activations)
    out.activations = block_activations(config_, parameters_.data(), frozen_, out.inputs.data(), ws_, *activations);
  const std::size_t T = out.tokens.size(), d = config_.d_model, V = config_.outputs();
  if (const auto* listed = std::get_if<std::vector<std::int64_t>>(&positions)) {
    if (listed->size() > kMaxLanguageTokens) {
      throw std::out_of_range("languageModel.run: at most " + std::to_string(kMaxLanguageTokens) + " positions, got " +
                              std::to_string(listed->size()));
    }
    for (const std::int64_t at : *listed) out.positions.push_back(position_index(at, T, "languageModel.run"));
  } else {
    const bool masks = std::get<OutputPositions>(positions) == OutputPositions::masks;
    for (std::size_t t = 0; t < T; ++t) {
      if (!masks || out.inputs[t] == mask_input(*table_)) out.positions.push_back(t);
    }
  }
  const std::size_t P = out.positions.size();
  std::vector<float> rows(P * d);  // x_L at the positions, so that one product serves them all
  for (std::size_t i = 0; i < P; ++i)
    std::copy(x + out.positions[i] * d, x + (out.positions[i] + 1) * d, rows.data() + i * d);
  out.logits.resize(P * V);
  const float* t = output_layer(rows.data(), P, out.logits.data());
  out.output_input.assign(t, t + P * d);
  std::vector<float> p(V);
  for (std::size_t i = 0; i < P; ++i) {
    const float* row = out.logits.data() + i * V;
    std::copy(row, row + V, p.data());
    softmax_prefix(p.data(), V, V);  // the core's vectorized softmax (kernels.hpp; max subtracted first)
    std::vector<WordProbability> top;
    const std::int32_t unk = vocabulary_.unk();
    for (const std::int32_t id : top_ids(row, V, k, unk)) top.push_back({id, p[static_cast<std::size_t>(id)]});
    out.top.push_back(std::move(top));
    out.unk.push_back(p[static_cast<std::size_t>(unk)]);
  }
  return out;
}

LanguageModel::Sample LanguageModel::sample(const std::string& text, const SamplingOptions& options,
                                            const std::vector<HeadChoice>& ablate) {
  const std::vector<std::uint8_t> ablated = ablation_flags(config_, ablate, "languageModel.sample: ablate");
  LanguageRun r;
  const float* x = run_blocks(text, r, ablated);
  std::size_t at = r.tokens.size() - 1;
  if (objective_ == Objective::masked) {
    const auto mask = std::find(r.inputs.begin(), r.inputs.end(), mask_input(*table_));
    if (mask == r.inputs.end())
      throw std::invalid_argument("languageModel.sample: the masked model samples at a [MASK]; the text has none");
    at = static_cast<std::size_t>(mask - r.inputs.begin());
  }
  std::vector<float> logits(config_.outputs());
  output_layer(x + at * config_.d_model, 1, logits.data());
  const SampledWord w =
      draw(sampling_distribution(logits.data(), logits.size(), vocabulary_.unk(), options.temperature, options.top_k),
           options.seed);
  return {at, w.id, vocabulary_.word(static_cast<std::size_t>(w.id)), w.q};
}

std::vector<float> LanguageModel::attention(const std::vector<std::int32_t>& inputs) {
  const std::size_t T = inputs.size();
  check_token_count(T, 1, kMaxLanguageTokens, "languageModel.attention: inputs");
  forward_blocks(config_, parameters_.data(), inputs.data(), 1, T, {}, ws_,
                 frozen_);  // the weights need no output layer
  return attention_weights(config_, ws_);
}

std::vector<double> LanguageModel::next_log_probs(const std::vector<std::int32_t>& inputs,
                                                  const std::vector<std::int32_t>& outputs,
                                                  std::vector<float>* attention) {
  const char* where = "languageModel.nextLogProbs";
  if (objective_ != Objective::causal)
    throw std::invalid_argument(std::string(where) + ": only the causal model predicts the next word");
  const std::size_t T = inputs.size();
  if (outputs.size() != T)
    throw std::invalid_argument(std::string(where) + ": the inputs and outputs differ in length");
  check_token_count(T, 2, kMaxLanguageTokens, std::string(where) + ": inputs");
  for (std::size_t t = 0; t < T; ++t)
    check_output_id(outputs[t], config_, std::string(where) + ": outputs[" + std::to_string(t) + "]");
  const float* x = forward_blocks(config_, parameters_.data(), inputs.data(), 1, T, {}, ws_, frozen_);
  if (attention) *attention = attention_weights(config_, ws_);
  return next_word_log_probs(x, T, outputs.data());
}

std::vector<double> LanguageModel::next_word_log_probs(const float* x, std::size_t T, const std::int32_t* outputs) {
  const std::size_t V = config_.outputs();
  logits_.resize((T - 1) * V);
  output_layer(x, T - 1, logits_.data());  // position t predicts token t + 1; the last predicts nothing here
  std::vector<double> log_prob;
  for (std::size_t t = 0; t + 1 < T; ++t) log_prob.push_back(log_softmax_at(logits_.data() + t * V, V, outputs[t + 1]));
  return log_prob;
}

LanguageModel::Score LanguageModel::score(const std::string& text) {
  if (objective_ != Objective::causal)
    throw std::invalid_argument("languageModel.score: only the causal model scores text");
  LanguageRun r;
  const float* x = run_blocks(text, r);
  const std::size_t T = r.tokens.size();
  if (T < 2)
    throw std::invalid_argument("languageModel.score: the text must hold at least 2 tokens, got " + std::to_string(T));
  std::vector<std::int32_t> outputs;  // a word outside the output vocabulary is scored as <unk>
  for (const Token& token : r.tokens) outputs.push_back(vocabulary_.id_of(token.key));
  Score s;
  double sum = 0;
  for (const double lp : next_word_log_probs(x, T, outputs.data())) {
    s.log_prob.push_back(static_cast<float>(lp));
    sum += lp;
  }
  s.perplexity = std::exp(-sum / static_cast<double>(T - 1));
  s.tokens = std::move(r.tokens);
  return s;
}

}  // namespace attn::train
