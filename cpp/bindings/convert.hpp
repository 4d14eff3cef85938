#pragma once
// Conversions between JS values and the core's types: the one toolkit of every embind file
// (bindings.cpp, layer_bindings.cpp, train_bindings.cpp, language_bindings.cpp). Tensors cross as
// { data: Float32Array, shape }, row-major: data[i * shape[1] + j] for a matrix. Outputs are copies, never
// views into wasm memory (a view is invalidated when memory grows, and reads freed memory once its
// vector reallocates). Arguments were type-checked by web/src/core/ already; what JS cannot check (a
// shape against the model's) is checked here and throws std::invalid_argument, a JS RangeError
// through guarded.hpp.
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
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
#include "attn/train/block_activations.hpp"
#include "attn/train/head_statistics.hpp"
#include "attn/train/language_model.hpp"
#include "attn/train/sampling.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/tasks.hpp"

namespace bindings {

using emscripten::val;

// The word vectors loadEmbeddings loaded (bindings.cpp); std::logic_error before it was called.
const attn::EmbeddingTable& loaded_table();

// ---- typed arrays, plain arrays and tensors ----

// Element types that have a JS typed array (embind's typed_memory_view picks it): float → Float32Array,
// double → Float64Array, std::int32_t → Int32Array, std::uint8_t → Uint8Array, std::size_t → Uint32Array
// (wasm32), …; not bool, not 64-bit integers.
template <typename T>
inline constexpr bool kHasTypedArray =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (std::is_floating_point_v<T> || sizeof(T) <= 4);

// A new JS typed array holding a copy of data[0 … size) (size elements; data may be null when size is 0).
template <typename T>
val typed_array_to_js(const T* data, std::size_t size) {
  static_assert(kHasTypedArray<T>, "no JS typed array for this element type");
  return val(emscripten::typed_memory_view(size, data)).call<val>("slice");
}

// The same for a contiguous container (std::vector, a 1-D xtensor): a typed array of its size() elements.
template <typename Container>
val typed_array_to_js(const Container& items) {
  return typed_array_to_js(items.data(), items.size());
}

// Copies the `size` elements of a JS typed array or array of numbers into to[0 … size). The caller has
// checked that array.length == size (each names the argument in its own message); a longer array would
// make the JS side throw through the C++ frames.
template <typename T>
void copy_from_js(const val& array, T* to, std::size_t size) {
  static_assert(kHasTypedArray<T>, "no JS typed array for this element type");
  val(emscripten::typed_memory_view(size, to)).call<void>("set", array);
}

// A JS array or typed array (length n) as a std::vector<T> (n): numbers are copied in one typed-array set,
// other types (std::string) element by element with val::as<T>.
template <typename T>
std::vector<T> vector_from_js(const val& array) {
  const std::size_t length = array["length"].as<std::size_t>();
  if constexpr (kHasTypedArray<T>) {
    std::vector<T> out(length);
    copy_from_js(array, out.data(), length);
    return out;
  } else {
    std::vector<T> out;
    out.reserve(length);
    for (std::size_t i = 0; i < length; ++i) out.push_back(array[i].as<T>());
    return out;
  }
}

// A plain JS array of the items (numbers, strings, booleans), in order.
template <typename T>
val array_to_js(const std::vector<T>& items) {
  val out = val::array();
  for (const T& item : items) out.call<void>("push", item);
  return out;
}

// A JS object with the given fields, in order: the value of each (name, value) pair under its name.
val object_to_js(std::initializer_list<std::pair<const char*, val>> fields);
// Sets each (name, number) pair on `object`, in order (sizes, limits: every C++ arithmetic value
// converts to a JS number; integers up to 2^53 exactly).
void set_numbers(val& object, std::initializer_list<std::pair<const char*, double>> fields);

// A row-major float buffer as a JS tensor { data: Float32Array (a copy of product(shape) floats), shape }.
val tensor_to_js(const float* data, const std::vector<std::size_t>& shape);

template <std::size_t N>
val tensor_to_js(const xt::xtensor<float, N>& t) {
  return tensor_to_js(t.data(), std::vector<std::size_t>(t.shape().begin(), t.shape().end()));
}

// Copies a JS { data: Float32Array, shape: [rows, cols] } into xtensor (rows, cols); std::invalid_argument
// "<name>.data has n numbers, shape needs …" if the data length does not match the shape.
xt::xtensor<float, 2> matrix_from_js(const val& tensor, const std::string& name);

// Copies a JS { data, shape } that must be exactly [rows, cols] into to[0 … rows·cols), row-major.
// std::invalid_argument "<where>: <name> is missing" for undefined or null, "<where>: <name> must be
// [rows, cols] with rows·cols numbers" for any other shape or length.
void matrix_into(const val& tensor, const std::string& where, const std::string& name, std::size_t rows,
                 std::size_t cols, float* to);
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
// explain()'s options, checked names (an unknown one throws std::out_of_range naming it); the score function
// decides the scaling and whether additiveHidden applies, here and nowhere else.
attn::ExplainOptions explain_options(const val& options);
// { scoreFunction, scale, additiveHidden } in effect for these options (what explain_options decided).
val score_options_to_js(const attn::ExplainOptions& o);
// { positions, dModel, position, errorPositions, base, delta } for attn::positional_lab.
attn::PositionalLabOptions positional_lab_options(const val& args);

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

// ---- training (attn/train) ----

// A language model's recipe { objective, numLayers, numHeads, dFF, seqLen, batchSize, outputWords, tiedOutput,
// outputHead?, layerNorm } (the sizes, as a safetensors file's recipe and createLanguageTrainer's options spell them:
// language_model_config checks that a batch of them fits in memory); the other options keep their defaults. An
// unknown objective throws as enum_from_js ("recipe.objective").
attn::train::LanguageTrainerOptions language_model_options(const val& recipe);

// Heads knocked out, [{ layer, head }, …] (undefined or null: none), as head choices; the core refuses heads that do
// not exist or repeat (input_checks.hpp ablation_flags).
std::vector<attn::train::HeadChoice> heads_from_js(const val& heads);

// A language model's run (language_model.hpp LanguageRun: ours or a GPT-2's) as { embeddings, input, attention,
// hidden, positions, topIds, topP (P·k), logits (P·V), outputInput, sampling, activations }, flat typed arrays the JS
// side shapes (layer-views.js). T tokens, V outputs (`unk`: the id the sampling distribution leaves out, −1: none);
// sampling: undefined or null, else { temperature, topK }: per position computed, { ids, q }, the first k of the
// sampling distribution of its logits (sampling.hpp); activations: the followed head's block, or null.
val language_run_to_js(const attn::train::LanguageRun& r, std::size_t T, std::size_t V, std::int32_t unk,
                       const val& sampling, std::size_t k, std::size_t d_k, std::size_t d_ff);

// repeatedWords()'s result (head_statistics.hpp RepeatedWordsScores): { repeat, sequences, heads: [{ layer, head,
// previous, duplicate, induction }], example, firstHalfLoss, secondHalfLoss } (the losses null for a masked model);
// `example` as the model names its words (H: heads a layer).
val repeated_words_to_js(const attn::train::RepeatedWordsScores& r, std::size_t H, bool causal, const val& example);

// One head's block step by step (block_activations.hpp) as { layer, head, wordVectors, …, output } of tensors.
val block_activations_to_js(const attn::train::BlockActivations& a, std::size_t d_k, std::size_t d_ff, std::size_t T);

// Every parameter of a model of configuration c (parameter_specs order, the flat array `flat`) as one JS object
// { [name]: { data: Float32Array, shape } } under the spec's names ("embedding", "layers.0.attention.w_q", …):
// the one format of every trainer and model in the bindings.
val parameters_to_js(const attn::train::ModelConfig& c, const std::vector<float>& flat);
// The inverse, from { [name]: Float32Array } (the JS wrapper has taken each tensor's data and checked its
// type): std::invalid_argument "tensor '<name>' is missing or <mismatch(spec)>" for the first tensor of the
// configuration that is absent or not of its size.
std::vector<float> parameters_from_js(const attn::train::ModelConfig& c, const val& tensors,
                                      const std::function<std::string(const attn::train::ParameterSpec&)>& mismatch);

// A batch (B sequences of T tokens) as { tokens: Int32Array (B·T), targets: Int32Array (B·T, −1 where not
// scored), scored: Uint8Array (B·T), shape: [B, T] }; index b·T + t.
val batch_to_js(const attn::train::Batch& b);
// The inverse of batch_to_js, for a batch JS has checked (each array B·T long, shape [B, T]).
attn::train::Batch batch_from_js(const val& batch);
// { step, loss }: a trainer's step count after a step() call, and the mean loss (nats) of those steps.
val step_to_js(std::size_t step, double loss);

}  // namespace bindings
