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
#include <unordered_map>
#include <vector>

#include "attn/train/trainer.hpp"
#include "convert.hpp"
#include "guarded.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

std::unordered_map<int, std::unique_ptr<train::Trainer>> g_trainers;
int g_next_trainer = 1;

train::Trainer& trainer_by_id(int id) {
  const auto found = g_trainers.find(id);
  if (found == g_trainers.end()) throw std::invalid_argument("trainer: this trainer was released");
  return *found->second;
}

template <typename T>
val typed_array(const char* type, const T* data, std::size_t size) {
  return val::global(type).new_(emscripten::typed_memory_view(size, data));
}

val tensor(const float* data, std::initializer_list<std::size_t> shape) {
  std::size_t size = 1;
  val dims = val::array();
  for (const std::size_t d : shape) {
    size *= d;
    dims.call<void>("push", d);
  }
  val out = val::object();
  out.set("data", typed_array("Float32Array", data, size));
  out.set("shape", dims);
  return out;
}

template <typename T>
std::vector<T> vector_from(const val& array) {
  std::vector<T> out(array["length"].as<std::size_t>());
  val(emscripten::typed_memory_view(out.size(), out.data())).call<void>("set", array);
  return out;
}

val options_to_js(const train::TrainerOptions& o) {
  val out = val::object();
  out.set("task", std::string(attn::name_of(train::kTaskNames, o.task)));
  out.set("numLayers", o.model.n_layers);
  out.set("numHeads", o.model.n_heads);
  out.set("dModel", o.model.d_model);
  out.set("seqLen", o.model.seq_len);
  out.set("vocabSize", o.model.vocab_size);
  out.set("batchSize", o.batch_size);
  out.set("learningRate", o.optimizer.learning_rate);
  out.set("weightDecay", o.optimizer.weight_decay);
  out.set("positionalEncoding", std::string(attn::name_of(train::kPositionalNames, o.model.positional)));
  out.set("seed", static_cast<double>(o.seed));
  return out;
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
  out.set("embedding", tensor(p.embedding, {c.vocab_size, d}));
  if (c.positional == train::Positional::learned) out.set("positional", tensor(p.positional, {c.seq_len, d}));
  val layers = val::array();
  for (const auto& w : p.layers) {
    val layer = val::object();
    layer.set("wQ", tensor(w.w_q, {d, d}));
    layer.set("wK", tensor(w.w_k, {d, d}));
    layer.set("wV", tensor(w.w_v, {d, d}));
    layer.set("wO", tensor(w.w_o, {d, d}));
    layers.call<void>("push", layer);
  }
  out.set("layers", layers);
  out.set("unembedding", tensor(p.unembedding, {d, c.vocab_size}));
  return out;
}

// The inverse of parameters_to_js; std::invalid_argument naming the first field of the wrong shape.
std::vector<float> parameters_from_js(const train::ModelConfig& c, const val& js) {
  const std::size_t d = c.d_model;
  std::vector<float> flat(train::parameter_count(c));
  const train::Parameters<float> p = train::bind_parameters(c, flat.data());
  const auto copy = [&](const val& t, const std::string& name, std::size_t rows, std::size_t cols, float* to) {
    if (t.isUndefined() || t.isNull()) throw std::invalid_argument("setParameters: " + name + " is missing");
    const val shape = t["shape"];
    if (shape["length"].as<std::size_t>() != 2 || shape[0].as<std::size_t>() != rows || shape[1].as<std::size_t>() != cols ||
        t["data"]["length"].as<std::size_t>() != rows * cols) {
      throw std::invalid_argument("setParameters: " + name + " must be [" + std::to_string(rows) + ", " + std::to_string(cols) +
                                  "] with " + std::to_string(rows * cols) + " numbers");
    }
    val(emscripten::typed_memory_view(rows * cols, to)).call<void>("set", t["data"]);
  };
  copy(js["embedding"], "embedding", c.vocab_size, d, p.embedding);
  if (c.positional == train::Positional::learned) copy(js["positional"], "positional", c.seq_len, d, p.positional);
  const val layers = js["layers"];
  if (layers.isUndefined() || layers["length"].as<std::size_t>() != c.n_layers) {
    throw std::invalid_argument("setParameters: layers must be an array of numLayers = " + std::to_string(c.n_layers) + " layers");
  }
  for (std::size_t l = 0; l < c.n_layers; ++l) {
    const std::string at = "layers[" + std::to_string(l) + "].";
    copy(layers[l]["wQ"], at + "wQ", d, d, p.layers[l].w_q);
    copy(layers[l]["wK"], at + "wK", d, d, p.layers[l].w_k);
    copy(layers[l]["wV"], at + "wV", d, d, p.layers[l].w_v);
    copy(layers[l]["wO"], at + "wO", d, d, p.layers[l].w_o);
  }
  copy(js["unembedding"], "unembedding", d, c.vocab_size, p.unembedding);
  return flat;
}

val batch_to_js(const train::Batch& b) {
  val out = val::object();
  val shape = val::array();
  shape.call<void>("push", b.batch_size);
  shape.call<void>("push", b.seq_len);
  out.set("tokens", typed_array("Int32Array", b.tokens.data(), b.tokens.size()));
  out.set("targets", typed_array("Int32Array", b.targets.data(), b.targets.size()));
  out.set("scored", typed_array("Uint8Array", b.scored.data(), b.scored.size()));
  out.set("shape", shape);
  return out;
}

// ---- the exported functions ----

val trainer_limits() {
  val out = val::object();
  out.set("tasks", names_to_js(train::kTaskNames));
  out.set("positionalEncodings", names_to_js(train::kPositionalNames));
  out.set("maxLayers", train::kMaxLayers);
  out.set("maxHeads", train::kMaxHeads);
  out.set("maxDModel", train::kMaxTrainDModel);
  out.set("maxSeqLen", train::kMaxTrainSeqLen);
  out.set("maxVocabSize", train::kMaxTrainVocab);
  out.set("maxBatchSize", train::kMaxBatchSize);
  out.set("maxStepsPerCall", train::kMaxStepsPerCall);
  out.set("evalSequences", train::kEvalSequences);
  out.set("probeSequences", train::kProbeSequences);
  return out;
}

val trainer_defaults(std::string task) {
  return guarded([&] { return options_to_js(train::default_trainer_options(attn::value_of(train::kTaskNames, task, "task"))); });
}

val create_trainer(val options) {
  return guarded([&] {
    auto trainer = std::make_unique<train::Trainer>(options_from_js(options));
    const int id = g_next_trainer++;
    g_trainers.emplace(id, std::move(trainer));
    return val(id);
  });
}

void release_trainer(int id) { g_trainers.erase(id); }

val trainer_step(int id, double n) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    const double loss = t.step(static_cast<std::size_t>(n));
    val out = val::object();
    out.set("step", t.steps());
    out.set("loss", loss);
    return out;
  });
}

val trainer_evaluate(int id) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    const train::Evaluation e = t.evaluate();
    const std::size_t L = t.config().n_layers, H = t.config().n_heads;
    const std::vector<float> previous(e.heads.previous_token.begin(), e.heads.previous_token.end());
    const std::vector<float> prefix(e.heads.prefix_matching.begin(), e.heads.prefix_matching.end());
    val heads = val::object();
    heads.set("previousToken", tensor(previous.data(), {L, H}));
    heads.set("prefixMatching", tensor(prefix.data(), {L, H}));
    val out = val::object();
    out.set("step", t.steps());
    out.set("loss", e.loss);
    out.set("accuracy", e.accuracy);
    out.set("headScores", heads);
    return out;
  });
}

val trainer_sample(int id, double batch_size) {
  return guarded([&] { return batch_to_js(trainer_by_id(id).sample(static_cast<std::size_t>(batch_size))); });
}

val trainer_attention(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    const auto ids = vector_from<std::int32_t>(tokens);
    const auto weights = t.attention(ids);
    const std::size_t T = ids.size();
    return tensor(weights.data(), {t.config().n_layers, t.config().n_heads, T, T});
  });
}

val trainer_predict(int id, val tokens) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    const auto ids = vector_from<std::int32_t>(tokens);
    const auto logits = t.predict(ids);
    const std::size_t T = ids.size(), V = t.config().vocab_size;
    std::vector<std::int32_t> predictions(T);
    for (std::size_t i = 0; i < T; ++i) {
      const float* row = logits.data() + i * V;
      predictions[i] = static_cast<std::int32_t>(std::max_element(row, row + V) - row);
    }
    val out = val::object();
    out.set("logits", tensor(logits.data(), {T, V}));
    out.set("predictions", typed_array("Int32Array", predictions.data(), T));
    return out;
  });
}

val trainer_parameters(int id) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    return parameters_to_js(t.config(), t.parameters().data());
  });
}

val trainer_set_parameters(int id, val parameters) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    t.set_parameters(parameters_from_js(t.config(), parameters));
    return val::undefined();
  });
}

val trainer_loss_and_gradients(int id, val batch) {
  return guarded([&] {
    train::Trainer& t = trainer_by_id(id);
    train::Batch b;
    b.batch_size = batch["shape"][0].as<std::size_t>();
    b.seq_len = batch["shape"][1].as<std::size_t>();
    b.tokens = vector_from<std::int32_t>(batch["tokens"]);
    b.targets = vector_from<std::int32_t>(batch["targets"]);
    b.scored = vector_from<std::uint8_t>(batch["scored"]);
    const auto [loss, grads] = t.loss_and_gradients(b);
    val out = val::object();
    out.set("loss", loss);
    out.set("gradients", parameters_to_js(t.config(), grads.data()));
    return out;
  });
}

val trainer_ablate(int id, double layer, double head, bool on) {
  return guarded([&] {
    trainer_by_id(id).ablate(static_cast<std::size_t>(layer), static_cast<std::size_t>(head), on);
    return val::undefined();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
  emscripten::function("trainerLimits", &trainer_limits);
  emscripten::function("trainerDefaults", &trainer_defaults);
  emscripten::function("createTrainer", &create_trainer);
  emscripten::function("releaseTrainer", &release_trainer);
  emscripten::function("trainerStep", &trainer_step);
  emscripten::function("trainerEvaluate", &trainer_evaluate);
  emscripten::function("trainerSample", &trainer_sample);
  emscripten::function("trainerAttention", &trainer_attention);
  emscripten::function("trainerPredict", &trainer_predict);
  emscripten::function("trainerParameters", &trainer_parameters);
  emscripten::function("trainerSetParameters", &trainer_set_parameters);
  emscripten::function("trainerLossAndGradients", &trainer_loss_and_gradients);
  emscripten::function("trainerAblate", &trainer_ablate);
}
