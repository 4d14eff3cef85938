#include "attn/train/activations.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attn::train {

namespace {

struct Counts {
  std::uint64_t activations = 0, gradients = 0;
};

Counts counts(const ModelConfig& c, std::size_t B, std::size_t T) {
  Activations<float> acts;
  ActivationGradients<float> grads;
  Counts n;
  visit_activations(c, B, T, acts, grads, [&](std::uint64_t count, float** activation, float** gradient) {
    if (activation) n.activations += count;
    if (gradient) n.gradients += count;
  });
  return n;
}

}  // namespace

std::uint64_t activation_count(const ModelConfig& c, std::size_t B, std::size_t T) {
  return counts(c, B, T).activations;
}

std::uint64_t gradient_count(const ModelConfig& c, std::size_t B, std::size_t T) { return counts(c, B, T).gradients; }

namespace {

// Carves `buffer` along the table: the activation slots (gradients = false) or the gradient slots.
template <typename Real>
void carve(const ModelConfig& c, std::size_t B, std::size_t T, std::vector<Real>& buffer, bool gradients,
           Activations<Real>& acts, ActivationGradients<Real>& grads) {
  const Counts n = counts(c, B, T);
  const auto total = static_cast<std::size_t>(gradients ? n.gradients : n.activations);
  if (gradients) {
    buffer.assign(total, Real{0});
  } else {
    buffer.resize(total);
  }
  Real* next = buffer.data();
  visit_activations(c, B, T, acts, grads, [&](std::uint64_t count, Real** activation, Real** gradient) {
    Real** slot = gradients ? gradient : activation;
    if (slot) *slot = next, next += static_cast<std::size_t>(count);
  });
  if (next != buffer.data() + buffer.size()) {
    throw std::logic_error(std::string("carving the ") + (gradients ? "gradient" : "activation") +
                           " buffer did not end at its end: the activation table and its size disagree");
  }
}

}  // namespace

template <typename Real>
Activations<Real> bind_activations(const ModelConfig& c, std::size_t B, std::size_t T, std::vector<Real>& buffer) {
  Activations<Real> acts;
  ActivationGradients<Real> unused;
  carve(c, B, T, buffer, false, acts, unused);
  return acts;
}

template <typename Real>
ActivationGradients<Real> bind_gradients(const ModelConfig& c, std::size_t B, std::size_t T,
                                         std::vector<Real>& buffer) {
  Activations<Real> unused;
  ActivationGradients<Real> grads;
  carve(c, B, T, buffer, true, unused, grads);
  return grads;
}

template Activations<float> bind_activations<float>(const ModelConfig&, std::size_t, std::size_t, std::vector<float>&);
template Activations<double> bind_activations<double>(const ModelConfig&, std::size_t, std::size_t,
                                                      std::vector<double>&);
template ActivationGradients<float> bind_gradients<float>(const ModelConfig&, std::size_t, std::size_t,
                                                          std::vector<float>&);
template ActivationGradients<double> bind_gradients<double>(const ModelConfig&, std::size_t, std::size_t,
                                                            std::vector<double>&);

}  // namespace attn::train
