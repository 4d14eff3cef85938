#include "attn/train/adamw.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn::train {

namespace {
void check_range(bool ok, const char* name, const char* range, float value) {
  if (!ok) throw std::out_of_range(std::string(name) + " must be " + range + ", got " + std::to_string(value));
}
}  // namespace

float scheduled_learning_rate(float alpha, const LearningRateSchedule& s, std::size_t t) {
  if (s.total_steps == 0) return alpha;
  if (s.warmup_steps > s.total_steps) {
    throw std::out_of_range("warmupSteps must be at most totalSteps = " + std::to_string(s.total_steps) + ", got " +
                            std::to_string(s.warmup_steps));
  }
  check_range(s.min_ratio >= 0 && s.min_ratio <= 1, "minLearningRateRatio", "in [0, 1]", s.min_ratio);
  if (t <= s.warmup_steps) return alpha * static_cast<float>(t) / static_cast<float>(s.warmup_steps);
  if (t >= s.total_steps) return alpha * s.min_ratio;
  const double progress = static_cast<double>(t - s.warmup_steps) / static_cast<double>(s.total_steps - s.warmup_steps);
  const double cosine = 0.5 * (1.0 + std::cos(3.14159265358979323846 * progress));
  return static_cast<float>(alpha * (s.min_ratio + (1.0 - s.min_ratio) * cosine));
}

AdamW::AdamW(std::size_t size, const AdamWOptions& o, std::vector<std::uint8_t> decay)
    : options_(o), decay_(std::move(decay)), m_(size, 0.0f), v_(size, 0.0f) {
  if (!decay_.empty() && decay_.size() != size) {
    throw std::invalid_argument("AdamW: the decay mask must have one flag per parameter (" + std::to_string(size) +
                                "), got " + std::to_string(decay_.size()));
  }
  check_range(o.learning_rate > 0 && std::isfinite(o.learning_rate), "learningRate", "a finite number above 0",
              o.learning_rate);
  check_range(o.beta1 >= 0 && o.beta1 < 1, "beta1", "in [0, 1)", o.beta1);
  check_range(o.beta2 >= 0 && o.beta2 < 1, "beta2", "in [0, 1)", o.beta2);
  check_range(o.epsilon > 0 && std::isfinite(o.epsilon), "epsilon", "a finite number above 0", o.epsilon);
  check_range(o.weight_decay >= 0 && std::isfinite(o.weight_decay), "weightDecay", "a finite number ≥ 0",
              o.weight_decay);
  check_range(o.max_grad_norm >= 0 && std::isfinite(o.max_grad_norm), "maxGradNorm", "a finite number ≥ 0",
              o.max_grad_norm);
}

void AdamW::reset() {
  std::fill(m_.begin(), m_.end(), 0.0f);
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
}

double AdamW::step(float* params, float* grads, float learning_rate) {
  double squares = 0;
  for (std::size_t i = 0; i < m_.size(); ++i) squares += static_cast<double>(grads[i]) * grads[i];
  const double norm = std::sqrt(squares);
  if (options_.max_grad_norm > 0 && norm > options_.max_grad_norm) {
    const auto shrink = static_cast<float>(options_.max_grad_norm / norm);
    for (std::size_t i = 0; i < m_.size(); ++i) grads[i] *= shrink;
  }
  ++t_;
  const float b1 = options_.beta1, b2 = options_.beta2;
  const auto correction1 = static_cast<float>(1.0 - std::pow(static_cast<double>(b1), static_cast<double>(t_)));
  const auto correction2 = static_cast<float>(1.0 - std::pow(static_cast<double>(b2), static_cast<double>(t_)));
  const float lr = learning_rate > 0 ? learning_rate : options_.learning_rate, decay = lr * options_.weight_decay;
  const float eps = options_.epsilon;
  for (std::size_t i = 0; i < m_.size(); ++i) {
    const float g = grads[i];
    m_[i] = b1 * m_[i] + (1 - b1) * g;
    v_[i] = b2 * v_[i] + (1 - b2) * g * g;
    const float update = (m_[i] / correction1) / (std::sqrt(v_[i] / correction2) + eps);
    params[i] -= lr * update + (decay_.empty() || decay_[i] ? decay * params[i] : 0.0f);
  }
  return norm;
}

}  // namespace attn::train
