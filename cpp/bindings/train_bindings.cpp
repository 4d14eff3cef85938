// embind glue for the trainer (cpp/include/attn/train/): core.createTrainer() in web/src/core/trainer.js.
// Trainers live here by id; the JS wrapper releases an id when its trainer object is garbage-collected.
// Every call returns { value } or { error } (guarded.hpp). The task and positional names and the limits
// are exported from the C++ tables (trainerLimits), so JS, the .d.ts and the page read them from here.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "attn/train/trainer.hpp"
#include "convert.hpp"
#include "exports.hpp"
#include "guarded.hpp"
#include "registry.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

Registry<train::Trainer> g_trainers("trainer: this trainer was released");

val options_to_js(const train::TrainerOptions& o) {
  return object_to_js({{"task", val(std::string(attn::name_of(train::kTaskNames, o.task)))},
                       {"numLayers", val(o.model.n_layers)}, {"numHeads", val(o.model.n_heads)},
                       {"dModel", val(o.model.d_model)}, {"seqLen", val(o.model.seq_len)},
                       {"vocabSize", val(o.model.vocab_size)}, {"batchSize", val(o.batch_size)},
                       {"learningRate", val(o.optimizer.learning_rate)}, {"weightDecay", val(o.optimizer.weight_decay)},
                       {"positionalEncoding", val(std::string(attn::name_of(train::kPositionalNames, o.model.positional)))},
                       {"seed", val(static_cast<double>(o.seed))}});
}

// The options JS passed (complete: web/src/core/trainer.js fills in the task's defaults and checks types).
train::TrainerOptions options_from_js(const val& js) {
  train::TrainerOptions o = train::default_trainer_options(enum_from_js(train::kTaskNames, js["task"], "task"));
  o.model.n_layers = js["numLayers"].as<std::size_t>();
  o.model.n_heads = js["numHeads"].as<std::size_t>();
  o.model.d_model = js["dModel"].as<std::size_t>();
  o.model.seq_len = js["seqLen"].as<std::size_t>();
  o.model.vocab_size = js["vocabSize"].as<std::size_t>();
  o.model.positional = enum_from_js(train::kPositionalNames, js["positionalEncoding"], "positionalEncoding");
  o.batch_size = js["batchSize"].as<std::size_t>();
  o.optimizer.learning_rate = js["learningRate"].as<float>();
  o.optimizer.weight_decay = js["weightDecay"].as<float>();
  o.seed = static_cast<std::uint64_t>(js["seed"].as<double>());
  return o;
}

// The attention-only model's parameters (parameter_specs order) as { embedding [V, d], positional? [T, d],
// unembedding [d, V], layers: [{ wQ, wK, wV, wO }] }.
val parameters_to_js(const train::ModelConfig& c, const float* flat) {
  const train::Parameters<const float> p = train::bind_parameters(c, flat);
  const std::size_t d = c.d_model;
  val out = val::object();
  out.set("embedding", tensor_to_js(p.embedding, {c.vocab_size, d}));
  if (c.positional == train::Positional::learned) out.set("positional", tensor_to_js(p.positional, {c.seq_len, d}));
  val layers = val::array();
  for (const auto& w : p.layers) {
    val layer = val::object();
    layer.set("wQ", tensor_to_js(w.w_q, {d, d}));
    layer.set("wK", tensor_to_js(w.w_k, {d, d}));
    layer.set("wV", tensor_to_js(w.w_v, {d, d}));
    layer.set("wO", tensor_to_js(w.w_o, {d, d}));
    layers.call<void>("push", layer);
  }
  out.set("layers", layers);
  out.set("unembedding", tensor_to_js(p.unembedding, {d, c.vocab_size}));
  return out;
}

// The inverse of parameters_to_js; std::invalid_argument naming the first field of the wrong shape.
std::vector<float> parameters_from_js(const train::ModelConfig& c, const val& js) {
  const std::size_t d = c.d_model;
  std::vector<float> flat(train::parameter_count(c));
  const train::Parameters<float> p = train::bind_parameters(c, flat.data());
  matrix_into(js["embedding"], "setParameters", "embedding", c.vocab_size, d, p.embedding);
  if (c.positional == train::Positional::learned) {
    matrix_into(js["positional"], "setParameters", "positional", c.seq_len, d, p.positional);
  }
  const val layers = js["layers"];
  if (layers.isUndefined() || layers["length"].as<std::size_t>() != c.n_layers) {
    throw std::invalid_argument("setParameters: layers must be an array of numLayers = " + std::to_string(c.n_layers) + " layers");
  }
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    const std::string at = "layers[" + std::to_string(l) + "].";
    matrix_into(layers[l]["wQ"], "setParameters", at + "wQ", d, d, p.layers[l].w_q);
    matrix_into(layers[l]["wK"], "setParameters", at + "wK", d, d, p.layers[l].w_k);
    matrix_into(layers[l]["wV"], "setParameters", at + "wV", d, d, p.layers[l].w_v);
    matrix_into(layers[l]["wO"], "setParameters", at + "wO", d, d, p.layers[l].w_o);
  }
  matrix_into(js["unembedding"], "setParameters", "unembedding", d, c.vocab_size, p.unembedding);
  return flat;
}

// ---- the exported functions ----

val trainer_limits() {
  val out = val::object();
  out.set("tasks", names_to_js(train::kTaskNames));
  out.set("positionalEncodings", names_to_js(train::kPositionalNames));
  set_numbers(out, {{"maxLayers", train::kMaxLayers}, {"maxHeads", train::kMaxHeads}, {"maxDModel", train::kMaxTrainDModel},
                   {"maxSeqLen", train::kMaxTrainSeqLen}, {"maxVocabSize", train::kMaxTrainVocab},
                   {"maxBatchSize", train::kMaxBatchSize}, {"maxStepsPerCall", train::kMaxStepsPerCall},
                   {"evalSequences", train::kEvalSequences}, {"probeSequences", train::kProbeSequences}});
  return out;
}

val trainer_defaults(std::string task) {
  return guarded([&] { return options_to_js(train::default_trainer_options(attn::value_of(train::kTaskNames, task, "task"))); });
}

val create_trainer(val options) {
  return guarded([&] {
    return val(g_trainers.add(std::make_unique<train::Trainer>(options_from_js(options))));
  });
}

void release_trainer(int id) { g_trainers.release(id); }

val trainer_step(int id, double n) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    const double loss = t.step(static_cast<std::size_t>(n));
    return step_to_js(t.steps(), loss);
  });
}

val trainer_evaluate(int id) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    const train::Evaluation e = t.evaluate();
    const std::size_t L = t.config().n_layers, H = t.config().n_heads;
    const std::vector<float> previous(e.heads.previous_token.begin(), e.heads.previous_token.end());
    const std::vector<float> prefix(e.heads.prefix_matching.begin(), e.heads.prefix_matching.end());
    const val heads = object_to_js(
        {{"previousToken", tensor_to_js(previous.data(), {L, H})}, {"prefixMatching", tensor_to_js(prefix.data(), {L, H})}});
    return object_to_js({{"step", val(t.steps())}, {"loss", val(e.loss)}, {"accuracy", val(e.accuracy)}, {"headScores", heads}});
  });
}

val trainer_sample(int id, double batch_size) {
  return guarded([&] { return batch_to_js(g_trainers.get(id).sample(static_cast<std::size_t>(batch_size))); });
}

val trainer_attention(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    const auto ids = vector_from_js<std::int32_t>(tokens);
    const auto weights = t.attention(ids);
    const std::size_t T = ids.size();
    return tensor_to_js(weights.data(), {t.config().n_layers, t.config().n_heads, T, T});
  });
}

val trainer_predict(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    const auto ids = vector_from_js<std::int32_t>(tokens);
    const auto logits = t.predict(ids);
    const std::size_t T = ids.size(), V = t.config().vocab_size;
    std::vector<std::int32_t> predictions(T);
    for (std::size_t i = 0; i < T; ++i) {
      const float* row = logits.data() + i * V;
      predictions[i] = static_cast<std::int32_t>(std::max_element(row, row + V) - row);
    }
    return object_to_js({{"logits", tensor_to_js(logits.data(), {T, V})}, {"predictions", typed_array_to_js(predictions)}});
  });
}

val trainer_parameters(int id) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    return parameters_to_js(t.config(), t.parameters().data());
  });
}

val trainer_set_parameters(int id, val parameters) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    t.set_parameters(parameters_from_js(t.config(), parameters));
    return val::undefined();
  });
}

val trainer_loss_and_gradients(int id, val batch) {
  return guarded([&] {
    train::Trainer& t = g_trainers.get(id);
    const auto [loss, grads] = t.loss_and_gradients(batch_from_js(batch));
    return object_to_js({{"loss", val(loss)}, {"gradients", parameters_to_js(t.config(), grads.data())}});
  });
}

val trainer_ablate(int id, double layer, double head, bool on) {
  return guarded([&] {
    g_trainers.get(id).ablate(static_cast<std::size_t>(layer), static_cast<std::size_t>(head), on);
    return val::undefined();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  bind_functions("trainerLimits", &trainer_limits, "trainerDefaults", &trainer_defaults, "createTrainer", &create_trainer,
                 "releaseTrainer", &release_trainer, "trainerStep", &trainer_step, "trainerEvaluate", &trainer_evaluate,
                 "trainerSample", &trainer_sample, "trainerAttention", &trainer_attention, "trainerPredict", &trainer_predict,
                 "trainerParameters", &trainer_parameters, "trainerSetParameters", &trainer_set_parameters,
                 "trainerLossAndGradients", &trainer_loss_and_gradients, "trainerAblate", &trainer_ablate);
}
