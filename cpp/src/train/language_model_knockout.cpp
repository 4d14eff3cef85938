// "Why this word?" measurements of a trained language model (language_model.hpp): attribute(), heads knocked
// out and tokens occluded one at a time.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/kernels.hpp"
#include "attn/train/input_checks.hpp"
#include "attn/train/language_model.hpp"
#include "attn/train/ops.hpp"

namespace attn::train {

double LanguageModel::log_prob_of(const std::vector<std::int32_t>& inputs, std::size_t position, std::int32_t word,
                                  const std::vector<std::uint8_t>& ablated) {
  const std::size_t d = config_.d_model, V = config_.outputs();
  const float* x = forward_blocks(config_, parameters_.data(), inputs.data(), 1, inputs.size(), ablated, ws_, frozen_);
  logits_.resize(V);
  output_layer(x + position * d, 1, logits_.data());
  return log_softmax_at(logits_.data(), V, word);
}

LanguageModel::Attribution LanguageModel::attribute(const std::string& text, std::int64_t position, std::int32_t word,
                                                    const std::vector<HeadChoice>& ablate) {
  const char* where = "languageModel.attribute";
  std::vector<std::uint8_t> ablated = ablation_flags(config_, ablate, "languageModel.attribute: ablate");
  LanguageRun r;
  run_blocks(text, r, ablated);  // checks the text (length, [MASK] for the causal model)
  const std::size_t T = r.tokens.size(), L = config_.n_layers, H = config_.n_heads;
  Attribution out;
  out.position = position_index(position, T, where);
  check_output_id(word, config_, std::string(where) + ": word");
  out.word = word;
  out.log_prob = log_prob_of(r.inputs, out.position, word, ablated);
  // Each head knocked out on top of `ablate` (Michel et al. 2019 §3: one head masked at a time).
  if (ablated.empty()) ablated.assign(L * H, 0);
  out.heads.assign(L * H, 0.0);
  for (std::size_t i = 0; i < L * H; ++i) {
    if (ablated[i]) continue;  // already off: knocking it out again changes nothing
    ablated[i] = 1;
    out.heads[i] = log_prob_of(r.inputs, out.position, word, ablated) - out.log_prob;
    ablated[i] = 0;
  }
  // Each token replaced by the [MASK] input (Zeiler & Fergus 2014 §4.2: occlude one part, watch the output).
  const std::int32_t mask = mask_input(*table_);
  const bool causal = objective_ == Objective::causal;
  out.occlusion.assign(T, 0.0);
  std::vector<std::int32_t> occluded = r.inputs;
  for (std::size_t t = 0; t < T; ++t) {
    if (r.inputs[t] == mask || (causal && t > out.position)) continue;  // no change, or unseen behind the causal mask
    occluded[t] = mask;
    out.occlusion[t] = log_prob_of(occluded, out.position, word, ablated) - out.log_prob;
    occluded[t] = r.inputs[t];
  }
  out.tokens = std::move(r.tokens);
  return out;
}

}  // namespace attn::train
