#pragma once
// The native language-model tools' command line and file reading (train_lm.cpp, cloze.cpp): `--key value`
// pairs, a `--key` followed by another `--key` (or nothing) being a flag with the value "1".
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <set>
#include <string>

namespace attn::tools {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Throws std::invalid_argument naming an argument that does not start with "--" or is not one of `known`.
inline std::map<std::string, std::string> parse_args(int argc, char** argv, const std::set<std::string>& known) {
  std::map<std::string, std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string key = argv[i];
    if (key.rfind("--", 0) != 0) throw std::invalid_argument("unexpected argument '" + key + "'");
    if (!known.count(key.substr(2))) throw std::invalid_argument("unknown option '" + key + "'");
    const bool flag = i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0;
    args[key.substr(2)] = flag ? "1" : argv[++i];
  }
  return args;
}

inline std::string arg(const std::map<std::string, std::string>& args, const std::string& key,
                       const std::string& fallback) {
  const auto found = args.find(key);
  return found == args.end() ? fallback : found->second;
}

}  // namespace attn::tools
