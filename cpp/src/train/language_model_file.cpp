#include "attn/train/language_model_file.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace attn::train {

using json = nlohmann::json;

std::string recipe_json(const LanguageTrainerOptions& o) {
  const json recipe = {{"objective", name_of(kObjectiveNames, o.objective)},
                       {"numLayers", o.n_layers},
                       {"numHeads", o.n_heads},
                       {"dFF", o.d_ff},
                       {"seqLen", o.seq_len},
                       {"batchSize", o.batch_size},
                       {"shards", o.shards},
                       {"outputWords", o.output_words},
                       {"outputVocabulary", name_of(kOutputVocabularyNames, o.output_vocabulary)},
                       {"tiedOutput", o.tied_output},
                       {"outputInit", name_of(kOutputInitNames, o.output_init)},
                       {"outputHead", o.output_head},
                       {"layerNorm", o.layer_norm},
                       {"maskRate", o.mask_rate},
                       {"repeatShare", o.repeat_share},
                       {"repeatSteps", o.repeat_steps},
                       {"repeatShareAfter", o.repeat_share_after},
                       {"learningRate", o.optimizer.learning_rate},
                       {"beta1", o.optimizer.beta1},
                       {"beta2", o.optimizer.beta2},
                       {"epsilon", o.optimizer.epsilon},
                       {"weightDecay", o.optimizer.weight_decay},
                       {"maxGradNorm", o.optimizer.max_grad_norm},
                       {"warmupSteps", o.schedule.warmup_steps},
                       {"steps", o.schedule.total_steps},
                       {"minLearningRateRatio", o.schedule.min_ratio},
                       {"seed", o.seed}};
  return recipe.dump();
}

LanguageTrainerOptions options_from_recipe(const std::string& text) {
  try {
    const json r = json::parse(text);
    LanguageTrainerOptions o;
    o.objective = value_of(kObjectiveNames, r.at("objective").get<std::string>(), "objective");
    o.n_layers = r.at("numLayers"), o.n_heads = r.at("numHeads"), o.d_ff = r.at("dFF"), o.seq_len = r.at("seqLen");
    o.batch_size = r.at("batchSize"), o.shards = r.at("shards"), o.output_words = r.at("outputWords");
    o.tied_output = r.at("tiedOutput"), o.layer_norm = r.at("layerNorm");
    o.mask_rate = r.value("maskRate", kMaskRate);  // recipes from before the option trained at BERT's 15 %
    o.output_head = r.value("outputHead", false);  // and had no output head
    o.repeat_share = r.value("repeatShare", 0.0);  // nor repeated windows
    o.repeat_steps = r.value("repeatSteps", std::size_t{0}), o.repeat_share_after = r.value("repeatShareAfter", 0.0);
    o.output_vocabulary =
        value_of(kOutputVocabularyNames, r.value("outputVocabulary", std::string("text")), "outputVocabulary");
    o.output_init =
        value_of(kOutputInitNames, r.value("outputInit", std::string("random")), "outputInit");  // nor GloVe's U
    o.optimizer = {r.at("learningRate"), r.at("beta1"),       r.at("beta2"),
                   r.at("epsilon"),      r.at("weightDecay"), r.at("maxGradNorm")};
    o.schedule = {r.at("warmupSteps"), r.at("steps"), r.at("minLearningRateRatio")};
    o.seed = r.at("seed");
    return o;
  } catch (const json::exception& error) {
    throw std::invalid_argument(std::string("recipe: ") + error.what());
  }
}

std::string tensors_checksum(const SafeTensors& file) {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a 64
  for (const NamedTensor& tensor : file.tensors) {
    for (float x : tensor.data) {
      if (tensor.storage == StorageType::F16) x = half_to_float(float_to_half(x));
      unsigned char bytes[4];
      std::memcpy(bytes, &x, 4);  // little-endian on every platform this project builds for
      for (const unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
    }
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return std::string("fnv1a64:") + hex;
}

SafeTensors language_model_file(const Trainer& t, const std::string& recipe, const std::string& measured,
                                const std::vector<double>& first_losses, bool half) {
  SafeTensors file;
  for (const ParameterSpec& s : parameter_specs(t.config())) {
    const float* at = t.parameters().data() + s.offset;
    file.tensors.push_back(
        {s.name, s.shape, std::vector<float>(at, at + s.size), half ? StorageType::F16 : StorageType::F32});
  }
  file.metadata = {{"format", kLanguageModelFormat},
                   {"format_version", kLanguageModelFormatVersion},
                   {"vocabulary", json(corpus_of(t).vocabulary().words()).dump()},
                   {"recipe", recipe},
                   {"measured", measured},
                   {"first_losses", json(first_losses).dump()},
                   {"checksum", tensors_checksum(file)}};
  return file;
}

LanguageModel read_language_model(const SafeTensors& file, const std::string& name, const EmbeddingTable& table) {
  const auto fail = [&](const std::string& what) { return std::invalid_argument(name + ": " + what); };
  const auto meta = [&](const char* key) {
    const auto found = file.metadata.find(key);
    if (found == file.metadata.end())
      throw fail(std::string("no '") + key + "' in __metadata__: not a language model file");
    return found->second;
  };
  if (meta("format") != kLanguageModelFormat)
    throw fail("format is '" + meta("format") + "', not " + kLanguageModelFormat);
  if (meta("format_version") != kLanguageModelFormatVersion) {
    throw fail("format version " + meta("format_version") + " is not supported (this core reads version " +
               kLanguageModelFormatVersion + ")");
  }
  if (meta("checksum") != tensors_checksum(file))
    throw fail("the tensors do not match their checksum (the file is corrupted)");
  LanguageTrainerOptions options;
  std::vector<std::string> words;
  try {
    options = options_from_recipe(meta("recipe"));
    words = json::parse(meta("vocabulary")).get<std::vector<std::string>>();
  } catch (const std::exception& error) {
    throw fail(error.what());
  }
  const ModelConfig config = language_model_config(options, table);
  std::vector<float> parameters(parameter_count(config));
  const std::vector<ParameterSpec> specs = parameter_specs(config);
  if (file.tensors.size() != specs.size()) {
    throw fail("holds " + std::to_string(file.tensors.size()) + " tensors, the recipe's model has " +
               std::to_string(specs.size()));
  }
  for (const ParameterSpec& s : specs) {
    const auto tensor =
        std::find_if(file.tensors.begin(), file.tensors.end(), [&](const NamedTensor& t) { return t.name == s.name; });
    if (tensor == file.tensors.end()) throw fail("tensor '" + s.name + "' is missing");
    if (tensor->shape != s.shape) throw fail("tensor '" + s.name + "' has another shape than the recipe's model");
    std::copy(tensor->data.begin(), tensor->data.end(), parameters.begin() + static_cast<std::ptrdiff_t>(s.offset));
  }
  try {
    return LanguageModel(config, options.objective, std::move(words), std::move(parameters), table);
  } catch (const std::exception& error) {
    throw fail(error.what());
  }
}

}  // namespace attn::train
