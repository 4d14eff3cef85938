// embind glue for the trained language models (cpp/include/attn/train/language_model.hpp):
// core.languageModel() in web/src/core/language-model.js, which reads the safetensors file (JSON.parse)
// and hands over the recipe's sizes, the vocabulary and every tensor by name.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "attn/train/language_model.hpp"
#include "convert.hpp"
#include "guarded.hpp"

using emscripten::val;
using namespace bindings;
namespace train = attn::train;

namespace {

std::unordered_map<int, std::unique_ptr<train::LanguageModel>> g_models;
int g_next_model = 1;

train::LanguageModel& model_by_id(int id) {
  const auto found = g_models.find(id);
  if (found == g_models.end()) throw std::invalid_argument("languageModel: this model was released");
  return *found->second;
}

val floats(const float* data, std::size_t size) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(size, data));
}

// { objective, numLayers, numHeads, dFF, seqLen, outputWords, tiedOutput, layerNorm } (the recipe's sizes)
train::LanguageTrainerOptions options_from_js(const val& r) {
  train::LanguageTrainerOptions o;
  o.objective = enum_from_js(train::kObjectiveNames, r["objective"], "recipe.objective");
  o.n_layers = r["numLayers"].as<std::size_t>();
  o.n_heads = r["numHeads"].as<std::size_t>();
  o.d_ff = r["dFF"].as<std::size_t>();
  o.seq_len = r["seqLen"].as<std::size_t>();
  o.output_words = r["outputWords"].as<std::size_t>();
  o.tied_output = r["tiedOutput"].as<bool>();
  o.layer_norm = r["layerNorm"].as<bool>();
  return o;
}

// spec: { recipe, words: string[], tensors: { [name]: Float32Array } }; every tensor of the recipe's model
// must be there with its size (std::invalid_argument naming the first that is not).
val language_model_create(val spec) {
  return guarded([&] {
    const attn::EmbeddingTable& table = loaded_table();
    const train::LanguageTrainerOptions options = options_from_js(spec["recipe"]);
    const train::ModelConfig config = train::language_model_config(options, table);
    std::vector<float> parameters(train::parameter_count(config));
    for (const train::ParameterSpec& s : train::parameter_specs(config)) {
      const val data = spec["tensors"][s.name];
      if (data.isUndefined() || data["length"].as<std::size_t>() != s.size) {
        throw std::invalid_argument("tensor '" + s.name + "' is missing or has another size than the recipe's model");
      }
      val(emscripten::typed_memory_view(s.size, parameters.data() + s.offset)).call<void>("set", data);
    }
    const int id = g_next_model++;
    g_models[id] = std::make_unique<train::LanguageModel>(config, options.objective, vector_from_js<std::string>(spec["words"]),
                                                          std::move(parameters), table);
    return val(id);
  });
}

val language_model_release(int id) {
  g_models.erase(id);
  return val::undefined();
}

val tokens_to_js(const std::vector<attn::Token>& tokens, const std::vector<std::int32_t>& inputs) {
  const auto unk = train::unk_input(loaded_table());
  val out = val::array();
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    val token = token_to_js(tokens[t]);
    token.set("oov", inputs[t] == unk);
    token.set("mask", tokens[t].key == "[MASK]");
    out.call<void>("push", token);
  }
  return out;
}

// { tokens, attention (L·H·T·T), hidden (L·T·d), topIds / topP (T·k) } as flat typed arrays; the JS side shapes them.
val language_model_run(int id, const std::string& text, int k) {
  return guarded([&] {
    train::LanguageModel& m = model_by_id(id);
    const train::LanguageRun r = m.run(text, static_cast<std::size_t>(k));
    std::vector<std::int32_t> ids;
    std::vector<float> p;
    for (const auto& top : r.top) {
      for (const train::WordProbability& w : top) ids.push_back(w.id), p.push_back(w.p);
    }
    val out = val::object();
    out.set("tokens", tokens_to_js(r.tokens, r.inputs));
    out.set("attention", floats(r.attention.data(), r.attention.size()));
    out.set("hidden", floats(r.hidden.data(), r.hidden.size()));
    out.set("topIds", val::global("Int32Array").new_(emscripten::typed_memory_view(ids.size(), ids.data())));
    out.set("topP", floats(p.data(), p.size()));
    return out;
  });
}

val language_model_score(int id, const std::string& text) {
  return guarded([&] {
    const train::LanguageModel::Score s = model_by_id(id).score(text);
    val out = val::object();
    std::vector<std::int32_t> inputs = train::input_ids_of(s.tokens, loaded_table());
    out.set("tokens", tokens_to_js(s.tokens, inputs));
    out.set("logProb", floats(s.log_prob.data(), s.log_prob.size()));
    out.set("perplexity", s.perplexity);
    return out;
  });
}

// Every parameter as { name: { data, shape } }, in parameter_specs order.
val language_model_parameters(int id) {
  return guarded([&] {
    const train::LanguageModel& m = model_by_id(id);
    val out = val::object();
    for (const train::ParameterSpec& s : train::parameter_specs(m.config())) {
      val tensor = val::object();
      tensor.set("data", floats(m.parameters().data() + s.offset, s.size));
      tensor.set("shape", array_to_js(s.shape));
      out.set(s.name, tensor);
    }
    return out;
  });
}

val language_model_limits() {
  val out = val::object();
  out.set("objectives", names_to_js(train::kObjectiveNames));
  out.set("maxTokens", train::kMaxLanguageTokens);
  out.set("maxTopK", train::kMaxTopK);
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_language_model) {
  emscripten::function("languageModelCreate", &language_model_create);
  emscripten::function("languageModelRelease", &language_model_release);
  emscripten::function("languageModelRun", &language_model_run);
  emscripten::function("languageModelScore", &language_model_score);
  emscripten::function("languageModelParameters", &language_model_parameters);
  emscripten::function("languageModelLimits", &language_model_limits);
}
