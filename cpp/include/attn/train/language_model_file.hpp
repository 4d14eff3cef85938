#pragma once
// The shipped language models' file: safetensors (safetensors.hpp) holding every parameter tensor of
// parameter_specs() under its name (float16 storage), and in __metadata__ (strings, JSON where noted):
//   format          "attention-explorer-language-model"
//   format_version  "1"
//   vocabulary      JSON array of the output words, most frequent first (<unk> is not listed: it is last)
//   recipe          JSON object: every LanguageTrainerOptions field (camelCase, as recipe_json), the
//                   corpus hash, the embeddings' hash, the commit and the kernels it was trained with
//   measured        JSON object: held-out loss, perplexity, top-1/top-5, the baselines, tokens/s
//   first_losses    JSON array: the training loss of each of the first 50 steps (%.17g: exact doubles)
//   checksum        "fnv1a64:<16 hex digits>" over every tensor's stored values, widened to float32
//                   little-endian, in file order
// Native only (nlohmann-json); the browser reads the same file with web/src/core/language-model.js (the
// container with web/src/core/safetensors.js).
#include <string>
#include <vector>

#include "attn/text/embeddings.hpp"
#include "attn/train/language_model.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/safetensors.hpp"

namespace attn::train {

inline constexpr const char* kLanguageModelFormat = "attention-explorer-language-model";
inline constexpr const char* kLanguageModelFormatVersion = "1";

// The recipe of options (JSON text) and its inverse; options_from_recipe throws std::invalid_argument
// naming a missing or mistyped field (maskRate and outputHead may be missing: files written before them trained at
// 15 % without the head).
std::string recipe_json(const LanguageTrainerOptions& options);
LanguageTrainerOptions options_from_recipe(const std::string& recipe);

// The file for the current parameters of a trainer made by language_trainer(). recipe: recipe_json() plus any fields to
// record (JSON object text); measured: JSON object text; first_losses: up to 50 losses. half: float16 storage.
SafeTensors language_model_file(const Trainer& trainer, const std::string& recipe, const std::string& measured,
                                const std::vector<double>& first_losses, bool half);

// The checksum of the tensors as stored ("fnv1a64:…"), as the metadata records it.
std::string tensors_checksum(const SafeTensors& file);

// The model a file holds, run with the word vectors of table. Throws std::invalid_argument whose message
// starts with file_name and says what is wrong: another format or version, metadata missing or not JSON,
// a checksum mismatch (corrupted), a tensor missing or of another shape, words the table lacks.
LanguageModel read_language_model(const SafeTensors& file, const std::string& file_name, const EmbeddingTable& table);

}  // namespace attn::train
