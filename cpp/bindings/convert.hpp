#pragma once
// Conversions between JS values and the core's types, for the embind glue (bindings.cpp). Tensors
// cross as { data: Float32Array, shape }; outputs are copies, never views into wasm memory (a view
// is invalidated when memory grows). Arguments were type-checked by web/src/core/ already.
#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "attn/core/attention.hpp"
#include "attn/core/multi_head.hpp"
#include "attn/core/names.hpp"
#include "attn/core/normalizers.hpp"
#include "attn/core/positional_variants.hpp"
#include "attn/core/score_functions.hpp"
#include "attn/lessons/designed_heads.hpp"
#include "attn/lessons/explain.hpp"
#include "attn/lessons/positional_lab.hpp"
#include "attn/text/embeddings.hpp"
#include "attn/text/tokenizer.hpp"

namespace bindings {

using emscripten::val;

// The word vectors loadEmbeddings loaded (bindings.cpp); std::logic_error before it was called.
const attn::EmbeddingTable& loaded_table();

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
// A JS string; std::invalid_argument naming `argument` for any other type.
std::string name_from_js(const val& name, const std::string& argument);

// The enumerator a JS string names in `table` (the enum's one name table, next to the enum in the
// core); an unknown name throws std::out_of_range naming `argument` and the allowed names, which
// reaches JS as a RangeError.
template <typename E, std::size_t N>
E enum_from_js(const attn::NamedValue<E> (&table)[N], const val& name, const std::string& argument) {
  return attn::value_of(table, name_from_js(name, argument), argument);
}

// A table's names as a JS array of strings, in table order (for core.limits).
template <typename E, std::size_t N>
val names_to_js(const attn::NamedValue<E> (&table)[N]) {
  val out = val::array();
  for (const auto& entry : table) out.call<void>("push", std::string(entry.name));
  return out;
}

inline attn::Normalizer normalizer_from_js(const val& name, const std::string& argument) {
  return enum_from_js(attn::kNormalizerNames, name, argument);
}
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
