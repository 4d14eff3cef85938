#pragma once
// The checks of what a forward pass of the trainable transformer (model.hpp) is asked about: how many tokens,
// which position, which head, which output id. Written once here, so that the trainer, a LanguageModel and
// its analyses refuse the same things with the same words.
//
// Letters: T = a sequence's tokens, L = n_layers, H = n_heads, V_out = the output size.
// Every message starts with `where` (the JS name of the function or argument, e.g. "languageModel.run").
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "attn/train/parameters.hpp"

namespace attn::train {

// One head: layer in [0, L), head in [0, H).
struct HeadChoice {
  std::size_t layer = 0;
  std::size_t head = 0;
};

// Throws std::out_of_range "<where>: layer must be in [0, L), got …" (or head, [0, H)) unless the choice exists.
void check_head_choice(const ModelConfig& config, HeadChoice choice, const char* where);

// The (L·H) knockout flags of model.hpp forward (1 = that head's output replaced by 0) for these heads; empty
// when none is listed (forward: every head on). Throws std::out_of_range "<where>[i]: …" naming a head that
// does not exist (check_head_choice) or one listed twice.
std::vector<std::uint8_t> ablation_flags(const ModelConfig& config, const std::vector<HeadChoice>& heads,
                                         const char* where);

// Throws std::out_of_range "<what> must hold <min> to <most> tokens, got <count>" unless min ≤ count ≤ max;
// `most` is max itself, or "<limit_name> = max" when the limit has a name the caller knows ("seqLen").
void check_token_count(std::size_t count, std::size_t min, std::size_t max, const std::string& what,
                       const char* limit_name = nullptr);

// A position given in [−T, T) (a negative one counts from the end, −1 = the last token, as Array.prototype.at)
// as the index in [0, T) it names. Throws std::out_of_range "<where>: position must be in [−T, T) for T tokens,
// got …" otherwise.
std::size_t position_index(std::int64_t position, std::size_t T, const char* where);

// Throws std::out_of_range "<what> must be an output id in [0, V_out), got …" unless id is one.
void check_output_id(std::int32_t id, const ModelConfig& config, const std::string& what);

}  // namespace attn::train
