#pragma once
// AdamW (Loshchilov & Hutter 2019, "Decoupled Weight Decay Regularization", Algorithm 2) with gradient
// clipping by global norm (Pascanu et al. 2013, §3.2), over one flat parameter array.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attn::train {

struct AdamWOptions {
  float learning_rate = 1e-3f;  // α
  float beta1 = 0.9f;           // β₁: decay of the first-moment average
  float beta2 = 0.99f;          // β₂: decay of the second-moment average
  float epsilon = 1e-8f;        // ε, added to √v̂
  float weight_decay = 0.0f;    // λ, decoupled: θ ← θ − α λ θ, not part of the gradient
  float max_grad_norm = 1.0f;   // gradients are scaled down to this global L2 norm (0: no clipping)
};

// A learning-rate schedule (nanoGPT's train.py): linear warm-up from α/warmup to α over the first
// warmup_steps steps, then cosine decay to min_ratio·α at total_steps, and min_ratio·α after it.
// total_steps = 0: no schedule (α throughout).
struct LearningRateSchedule {
  std::size_t warmup_steps = 0;
  std::size_t total_steps = 0;
  float min_ratio = 0.1f;
};

// The learning rate of step t (1-based) under `schedule` for the base rate α. Throws std::out_of_range
// if warmup_steps > total_steps > 0 or min_ratio is outside [0, 1].
float scheduled_learning_rate(float alpha, const LearningRateSchedule& schedule, std::size_t t);

class AdamW {
 public:
  // Throws std::out_of_range naming the option if it is outside its range (α > 0, 0 ≤ β < 1, ε > 0,
  // λ ≥ 0, max_grad_norm ≥ 0). decay (size flags, or empty: all): the parameters λ applies to (nanoGPT
  // and Loshchilov & Hutter decay the matrices, not biases and norms: parameters.hpp decay_mask()).
  AdamW(std::size_t size, const AdamWOptions& options, std::vector<std::uint8_t> decay = {});

  // One update of params (size) with grads (size; clipped in place): t ← t + 1,
  //   g ← g · min(1, max_grad_norm / ‖g‖),  m ← β₁ m + (1 − β₁) g,  v ← β₂ v + (1 − β₂) g²,
  //   θ ← θ − α (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε) − α λ θ  (the last term where decay is set),
  // with α = learning_rate (or the options' α when learning_rate ≤ 0). Returns ‖g‖ before clipping.
  double step(float* params, float* grads, float learning_rate = 0);

  const AdamWOptions& options() const { return options_; }
  std::size_t steps() const { return t_; }
  void reset();

 private:
  AdamWOptions options_;
  std::vector<std::uint8_t> decay_;
  std::vector<float> m_, v_;
  std::size_t t_ = 0;
};

}  // namespace attn::train
