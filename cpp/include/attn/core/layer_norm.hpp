#pragma once
// Layer normalization (Ba, Kiros & Hinton 2016), as used after each residual connection of the
// Transformer encoder block (Vaswani et al. 2017 §3.1; d2l.ai §11.7 "Add & Norm").
#include <xtensor/xtensor.hpp>

namespace attn {

// y[i, :] = γ ⊙ (x[i, :] − μ_i) / √(σ_i² + ε) + β, with μ_i and σ_i² the mean and (biased, ÷ d)
// variance of row i. x [rows, d]; gamma, beta [d] (empty: γ = 1, β = 0, the untrained defaults).
// Throws std::out_of_range unless ε is finite and > 0; std::invalid_argument if γ or β is not
// empty and not of length d, or x holds NaN/∞.
xt::xtensor<float, 2> layer_norm(const xt::xtensor<float, 2>& x, float epsilon = 1e-5f,
                                 const xt::xtensor<float, 1>& gamma = {}, const xt::xtensor<float, 1>& beta = {});

}  // namespace attn
