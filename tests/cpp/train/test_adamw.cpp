#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "attn/train/adamw.hpp"

using namespace attn::train;

// Two steps worked by hand from AdamW's update (Loshchilov & Hutter 2019, Algorithm 2).
TEST_CASE("adamw: two steps equal the hand-worked update", "[train]") {
  AdamWOptions o;
  o.learning_rate = 0.1f, o.beta1 = 0.5f, o.beta2 = 0.75f, o.epsilon = 0.0f + 1e-12f, o.weight_decay = 0.2f,
  o.max_grad_norm = 0;
  AdamW opt(1, o);
  std::vector<float> p = {1.0f}, g = {2.0f};
  opt.step(p.data(), g.data());
  // m = 1, v = 1; m̂ = 1/(1 − 0.5) = 2, v̂ = 1/(1 − 0.75) = 4; update = 2/2 = 1
  // θ = 1 − 0.1·1 − 0.1·0.2·1 = 0.88
  CHECK(p[0] == Approx(0.88).epsilon(1e-6));
  g = {-1.0f};
  opt.step(p.data(), g.data());
  // m = 0.5·1 − 0.5 = 0; so the update is 0, and the decay alone: θ = 0.88 − 0.1·0.2·0.88 = 0.8624
  CHECK(p[0] == Approx(0.8624).epsilon(1e-6));
  CHECK(opt.steps() == 2);
}

TEST_CASE("adamw: clipping scales the gradient to the global norm", "[train]") {
  AdamWOptions o;
  o.max_grad_norm = 1.0f;
  AdamW opt(2, o);
  std::vector<float> p = {0, 0}, g = {3, 4};
  CHECK(opt.step(p.data(), g.data()) == Approx(5.0));
  CHECK(g[0] == Approx(0.6f));
  CHECK(g[1] == Approx(0.8f));
  // The first step moves each parameter by α·sign(g) whatever the scale (m̂/√v̂ = g/|g|)
  CHECK(p[0] == Approx(-o.learning_rate).epsilon(1e-4));
  CHECK(p[1] == Approx(-o.learning_rate).epsilon(1e-4));
}

TEST_CASE("adamw: options out of range are refused by name", "[train]") {
  AdamWOptions o;
  o.learning_rate = 0;
  CHECK_THROWS_WITH(AdamW(1, o), Catch::Contains("learningRate"));
  o = {};
  o.beta2 = 1;
  CHECK_THROWS_WITH(AdamW(1, o), Catch::Contains("beta2"));
  o = {};
  o.weight_decay = -1;
  CHECK_THROWS_WITH(AdamW(1, o), Catch::Contains("weightDecay"));
  o = {};
  o.weight_decay = NAN;
  CHECK_THROWS_AS(AdamW(1, o), std::out_of_range);
}
