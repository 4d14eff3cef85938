// Heads knocked out and "why this word?" measurements of a trained language model (language_model.hpp):
// run()'s `ablate`, ablation_flags() and attribute().
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "attn/core/kernels.hpp"
#include "attn/train/language_model.hpp"

namespace attn::train {

std::vector<std::uint8_t> LanguageModel::ablation_flags(const std::vector<HeadChoice>& ablate, const char* where) const {
  std::vector<std::uint8_t> flags;
  if (ablate.empty()) return flags;  // model.hpp forward: empty = every head on
  flags.assign(config_.n_layers * config_.n_heads, 0);
  for (std::size_t i = 0; i < ablate.size(); ++i) {
    const std::string at = std::string(where) + "[" + std::to_string(i) + "]";
    check_head_choice(config_, ablate[i], at.c_str());
    std::uint8_t& flag = flags[ablate[i].layer * config_.n_heads + ablate[i].head];
    if (flag) {
      throw std::out_of_range(at + ": layer " + std::to_string(ablate[i].layer) + ", head " + std::to_string(ablate[i].head) +
                              " is listed twice");
    }
    flag = 1;
  }
  return flags;
}

double LanguageModel::log_prob_of(const std::vector<std::int32_t>& inputs, std::size_t position, std::int32_t word,
                                  const std::vector<std::uint8_t>& ablated) {
  const std::size_t d = config_.d_model, V = config_.outputs();
  const float* x = forward_blocks(config_, parameters_.data(), inputs.data(), 1, inputs.size(), ablated, ws_, frozen_);
  logits_.resize(V);
  output_layer(x + position * d, 1, logits_.data());
  // log-softmax in double, the largest logit subtracted first (as score())
  const float max = *std::max_element(logits_.begin(), logits_.end());
  double total = 0;
  for (const float z : logits_) total += std::exp(static_cast<double>(z - max));
  return static_cast<double>(logits_[static_cast<std::size_t>(word)] - max) - std::log(total);
}

LanguageModel::Attribution LanguageModel::attribute(const std::string& text, std::int64_t position, std::int32_t word,
                                                    const std::vector<HeadChoice>& ablate) {
  const char* where = "languageModel.attribute";
  std::vector<std::uint8_t> ablated = ablation_flags(ablate, "languageModel.attribute: ablate");
  LanguageRun r;
  run_blocks(text, r, ablated);  // checks the text (length, [MASK] for the causal model)
  const std::size_t T = r.tokens.size(), L = config_.n_layers, H = config_.n_heads, V = config_.outputs();
  const auto signed_t = static_cast<std::int64_t>(T);
  if (position < -signed_t || position >= signed_t) {
    throw std::out_of_range(std::string(where) + ": position must be in [" + std::to_string(-signed_t) + ", " + std::to_string(T) +
                            ") for " + std::to_string(T) + " tokens, got " + std::to_string(position));
  }
  if (word < 0 || static_cast<std::size_t>(word) >= V) {
    throw std::out_of_range(std::string(where) + ": word must be an output id in [0, " + std::to_string(V) + "), got " +
                            std::to_string(word));
  }
  Attribution out;
  out.position = static_cast<std::size_t>(position < 0 ? position + signed_t : position);
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
