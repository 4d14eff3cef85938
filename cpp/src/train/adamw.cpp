#include "attn/train/adamw.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {
void check_range(bool ok, const char* name, const char* range, float value) {
  if (!ok) throw std::out_of_range(std::string(name) + " must be " + range + ", got " + std::to_string(value));
}
}  // namespace

AdamW::AdamW(std::size_t size, const AdamWOptions& o) : options_(o), m_(size, 0.0f), v_(size, 0.0f) {
  check_range(o.learning_rate > 0 && std::isfinite(o.learning_rate), "learningRate", "a finite number above 0", o.learning_rate);
  check_range(o.beta1 >= 0 && o.beta1 < 1, "beta1", "in [0, 1)", o.beta1);
  check_range(o.beta2 >= 0 && o.beta2 < 1, "beta2", "in [0, 1)", o.beta2);
  check_range(o.epsilon > 0 && std::isfinite(o.epsilon), "epsilon", "a finite number above 0", o.epsilon);
  check_range(o.weight_decay >= 0 && std::isfinite(o.weight_decay), "weightDecay", "a finite number ≥ 0", o.weight_decay);
  check_range(o.max_grad_norm >= 0 && std::isfinite(o.max_grad_norm), "maxGradNorm", "a finite number ≥ 0", o.max_grad_norm);
}

void AdamW::reset() {
  std::fill(m_.begin(), m_.end(), 0.0f);
  std::fill(v_.begin(), v_.end(), 0.0f);
  t_ = 0;
}

double AdamW::step(float* params, float* grads) {
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
  const float lr = options_.learning_rate, decay = options_.learning_rate * options_.weight_decay, eps = options_.epsilon;
  for (std::size_t i = 0; i < m_.size(); ++i) {
    const float g = grads[i];
    m_[i] = b1 * m_[i] + (1 - b1) * g;
    v_[i] = b2 * v_[i] + (1 - b2) * g * g;
    const float update = (m_[i] / correction1) / (std::sqrt(v_[i] / correction2) + eps);
    params[i] -= lr * update + decay * params[i];
  }
  return norm;
}

}  // namespace attn::train
