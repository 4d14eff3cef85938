#pragma once
// Conversions between JS values and the core's types, for the embind glue (bindings.cpp). Tensors
// cross as { data: Float32Array, shape }; outputs are copies, never views into wasm memory (a view
// is invalidated when memory grows). Arguments were type-checked by web/src/core/ already.
#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/attention.hpp"
#include "attn/designed_heads.hpp"
#include "attn/explain.hpp"
#include "attn/multi_head.hpp"
#include "attn/normalizers.hpp"
#include "attn/positional_lab.hpp"
#include "attn/positional_variants.hpp"
#include "attn/tokenizer.hpp"

namespace bindings {

using emscripten::val;

// A copy (never a view into wasm memory, which is invalidated when memory grows).
template <std::size_t N>
val tensor_to_js(const xt::xtensor<float, N>& t) {
  val shape = val::array();
  for (std::size_t d = 0; d < N; ++d) shape.call<void>("push", t.shape(d));
  val result = val::object();
  result.set("data", val::global("Float32Array").new_(emscripten::typed_memory_view(t.size(), t.data())));
  result.set("shape", shape);
  return result;
}

template <typename T>
std::vector<T> vector_from_js(const val& array) {
  std::vector<T> out;
  const std::size_t length = array["length"].as<std::size_t>();
  for (std::size_t i = 0; i < length; ++i) out.push_back(array[i].as<T>());
  return out;
}

template <typename T>
val array_to_js(const std::vector<T>& items) {
  val out = val::array();
  for (const T& item : items) out.call<void>("push", item);
  return out;
}

// Copies a JS { data: Float32Array, shape: [rows, cols] } into xtensor; std::invalid_argument if the
// data length does not match the shape.
xt::xtensor<float, 2> matrix_from_js(const val& tensor, const std::string& name);
attn::AttentionOptions attention_options(const val& options);
attn::PositionalKind positional_kind_from_js(const std::string& name);
// 'softmax', 'sparsemax', 'entmax15', 'hardmax' (checked in JS); std::invalid_argument otherwise.
attn::Normalizer normalizer_from_js(const std::string& name);
// The rule named `name` (kAlibiSlopesNames); throws std::out_of_range naming the allowed values otherwise.
attn::AlibiSlopes alibi_slopes_from_js(const std::string& name);
attn::ExplainOptions explain_options(const val& options);

val token_to_js(const attn::Token& token);
val attention_to_js(const attn::AttentionResult& r);
// Sets heads, scores, weights, concat and output of a multi-head result on `out`.
void set_attention_steps(val& out, const attn::MultiHeadResult& r);
// The whole trace as core.explain() returns it; positionChecks only when they were asked for.
val trace_to_js(const attn::Trace& trace, bool with_checks);
// An additive scorer as { wQ [d_q, hidden], wK [d_k, hidden], v [hidden] }.
val scorer_to_js(const attn::AdditiveScorer& s);
val rotation_to_js(const attn::RotationCheck& r);
// { mean, components, variance, coordinates }, or null for an empty PCA.
val pca_to_js(const attn::Pca& p);

}  // namespace bindings
