#include "attn/train/language_model.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace attn::train {

LanguageModel::LanguageModel(ModelConfig config, Objective objective, std::vector<std::string> words,
                             std::vector<float> parameters, const EmbeddingTable& table)
    : config_(std::move(config)), objective_(objective), vocabulary_(std::move(words), table), parameters_(std::move(parameters)),
      table_(&table) {
  if (config_.vocab_size != input_ids(table) || config_.frozen_rows != table.vocab_size() + 1 || config_.d_model != table.dim()) {
    throw std::invalid_argument("languageModel: the model was trained on other word vectors (" + std::to_string(config_.vocab_size) +
                                " input ids of " + std::to_string(config_.d_model) + " dimensions; these have " +
                                std::to_string(input_ids(table)) + " of " + std::to_string(table.dim()) + ")");
  }
  if (config_.outputs() != vocabulary_.size()) {
    throw std::invalid_argument("languageModel: the output layer has " + std::to_string(config_.outputs()) +
                                " outputs but the vocabulary " + std::to_string(vocabulary_.size()) + " (with <unk>)");
  }
  config_.seq_len = kMaxLanguageTokens;  // sinusoidal P: any length up to the limit
  check_config(config_);
  if (parameters_.size() != parameter_count(config_)) {
    throw std::invalid_argument("languageModel: expected " + std::to_string(parameter_count(config_)) + " parameters, got " +
                                std::to_string(parameters_.size()));
  }
  const auto bad = std::find_if(parameters_.begin(), parameters_.end(), [](float x) { return !std::isfinite(x); });
  if (bad != parameters_.end()) {
    throw std::invalid_argument("languageModel: parameter " + std::to_string(bad - parameters_.begin()) + " is not finite");
  }
  frozen_.table = frozen_rows(table);
  if (config_.tied_output) frozen_.output_rows = vocabulary_.input_rows();
}

LanguageRun LanguageModel::run(const std::string& text, std::size_t k) {
  if (k < 1 || k > kMaxTopK) throw std::out_of_range("languageModel.run: k must be in [1, " + std::to_string(kMaxTopK) + "], got " + std::to_string(k));
  LanguageRun out;
  out.tokens = language_tokens(text, *table_);
  const std::size_t T = out.tokens.size(), H = config_.n_heads, d = config_.d_model, V = config_.outputs();
  if (T == 0 || T > kMaxLanguageTokens) {
    throw std::out_of_range("languageModel: the text must hold 1 to " + std::to_string(kMaxLanguageTokens) + " tokens, got " +
                            std::to_string(T));
  }
  out.inputs = input_ids_of(out.tokens, *table_);
  if (objective_ == Objective::Causal && std::count(out.inputs.begin(), out.inputs.end(), mask_input(*table_))) {
    throw std::invalid_argument("languageModel: the causal model was not trained with [MASK]; use the masked model to fill in blanks");
  }
  forward(config_, parameters_.data(), out.inputs.data(), 1, T, {}, ws_, frozen_);
  for (const LayerActivations<float>& layer : ws_.layers) {
    out.attention.insert(out.attention.end(), layer.weights, layer.weights + H * T * T);
    out.hidden.insert(out.hidden.end(), layer.out, layer.out + T * d);
  }
  out.logits.assign(ws_.logits, ws_.logits + T * V);
  std::vector<std::int32_t> order(V);
  for (std::size_t t = 0; t < T; ++t) {
    const float* row = ws_.logits + t * V;
    const float max = *std::max_element(row, row + V);
    double total = 0;
    for (std::size_t j = 0; j < V; ++j) total += std::exp(static_cast<double>(row[j] - max));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::int32_t a, std::int32_t b) { return row[a] != row[b] ? row[a] > row[b] : a < b; });
    std::vector<WordProbability> top;
    for (std::size_t i = 0; i < k; ++i) {
      top.push_back({order[i], static_cast<float>(std::exp(static_cast<double>(row[order[i]] - max)) / total)});
    }
    out.top.push_back(std::move(top));
  }
  return out;
}

std::vector<float> LanguageModel::attention(const std::vector<std::int32_t>& inputs) {
  const std::size_t T = inputs.size(), cells = config_.n_heads * T * T;
  if (T == 0 || T > kMaxLanguageTokens) {
    throw std::out_of_range("languageModel.attention: 1 to " + std::to_string(kMaxLanguageTokens) + " tokens, got " + std::to_string(T));
  }
  forward(config_, parameters_.data(), inputs.data(), 1, T, {}, ws_, frozen_);
  std::vector<float> weights;
  for (const LayerActivations<float>& layer : ws_.layers) weights.insert(weights.end(), layer.weights, layer.weights + cells);
  return weights;
}

LanguageModel::Score LanguageModel::score(const std::string& text) {
  if (objective_ != Objective::Causal) throw std::invalid_argument("languageModel.score: only the causal model scores text");
  LanguageRun r = run(text, 1);
  const std::size_t T = r.tokens.size(), V = config_.outputs();
  if (T < 2) throw std::invalid_argument("languageModel.score: the text must hold at least 2 tokens, got " + std::to_string(T));
  Score s;
  double sum = 0;
  for (std::size_t t = 0; t + 1 < T; ++t) {
    const float* row = r.logits.data() + t * V;
    const float max = *std::max_element(row, row + V);
    double total = 0;
    for (std::size_t j = 0; j < V; ++j) total += std::exp(static_cast<double>(row[j] - max));
    const double lp = static_cast<double>(row[vocabulary_.id_of(r.tokens[t + 1].key)] - max) - std::log(total);
    s.log_prob.push_back(static_cast<float>(lp));
    sum += lp;
  }
  s.perplexity = std::exp(-sum / static_cast<double>(T - 1));
  s.tokens = std::move(r.tokens);
  return s;
}

}  // namespace attn::train
