#pragma once
// The public-domain English fixture (tests/fixtures/public-domain-english.txt) split for the language-model
// tests: its first 15 paragraphs to train on, the rest held out.
#include <fstream>
#include <string>
#include <utility>

inline std::pair<std::string, std::string> fixture_text() {
  std::ifstream in(ATTN_FIXTURE_DIR "/public-domain-english.txt");
  std::string line, train, held_out;
  for (int n = 0; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    (n++ < 15 ? train : held_out) += line + "\n";
  }
  return {train, held_out};
}
