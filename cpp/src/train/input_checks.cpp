#include "attn/train/input_checks.hpp"

#include <stdexcept>
#include <string>

namespace attn::train {

void check_head_choice(const ModelConfig& c, HeadChoice choice, const char* where) {
  if (choice.layer >= c.n_layers) {
    throw std::out_of_range(std::string(where) + ": layer must be in [0, " + std::to_string(c.n_layers) + "), got " +
                            std::to_string(choice.layer));
  }
  if (choice.head >= c.n_heads) {
    throw std::out_of_range(std::string(where) + ": head must be in [0, " + std::to_string(c.n_heads) + "), got " +
                            std::to_string(choice.head));
  }
}

std::vector<std::uint8_t> ablation_flags(const ModelConfig& c, const std::vector<HeadChoice>& heads,
                                         const char* where) {
  std::vector<std::uint8_t> flags;
  if (heads.empty()) return flags;  // model.hpp forward: empty = every head on
  flags.assign(c.n_layers * c.n_heads, 0);
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const std::string at = std::string(where) + "[" + std::to_string(i) + "]";
    check_head_choice(c, heads[i], at.c_str());
    std::uint8_t& flag = flags[heads[i].layer * c.n_heads + heads[i].head];
    if (flag) {
      throw std::out_of_range(at + ": layer " + std::to_string(heads[i].layer) + ", head " +
                              std::to_string(heads[i].head) + " is listed twice");
    }
    flag = 1;
  }
  return flags;
}

void check_token_count(std::size_t count, std::size_t min, std::size_t max, const std::string& what,
                       const char* limit_name) {
  if (count >= min && count <= max) return;
  const std::string most = (limit_name ? std::string(limit_name) + " = " : std::string()) + std::to_string(max);
  throw std::out_of_range(what + " must hold " + std::to_string(min) + " to " + most + " tokens, got " +
                          std::to_string(count));
}

std::size_t position_index(std::int64_t position, std::size_t T, const char* where) {
  const auto signed_t = static_cast<std::int64_t>(T);
  if (position < -signed_t || position >= signed_t) {
    throw std::out_of_range(std::string(where) + ": position must be in [" + std::to_string(-signed_t) + ", " +
                            std::to_string(T) + ") for " + std::to_string(T) + " tokens, got " +
                            std::to_string(position));
  }
  return static_cast<std::size_t>(position < 0 ? position + signed_t : position);
}

void check_output_id(std::int32_t id, const ModelConfig& c, const std::string& what) {
  if (id < 0 || static_cast<std::size_t>(id) >= c.outputs()) {
    throw std::out_of_range(what + " must be an output id in [0, " + std::to_string(c.outputs()) + "), got " +
                            std::to_string(id));
  }
}

}  // namespace attn::train
