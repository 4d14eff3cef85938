#include "attn/lessons/soft_lookup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <tuple>

#include "attn/text/tokenizer.hpp"

namespace attn {

namespace {

// The tokenizer's white space (tokenizer.hpp): trimmed from both ends of every string.
bool is_space(char32_t c) {
  return c <= 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

std::u32string trimmed(std::u32string s) {
  std::size_t begin = 0, end = s.size();
  while (begin < end && is_space(s[begin])) ++begin;
  while (end > begin && is_space(s[end - 1])) --end;
  return s.substr(begin, end - begin);
}

// A key, value or query read: its code points trimmed (`shown`, case kept) and their lookup form
// (`form`, lower-cased), after checking the length of the text as given.
struct Text {
  std::u32string shown, form;
};

Text read_text(const std::string& text, const std::string& name) {
  const std::u32string points = utf8_code_points(text);
  if (points.size() > kMaxLookupText) {
    throw std::out_of_range("soft_lookup: " + name + " has " + std::to_string(points.size()) + " characters; at most " +
                            std::to_string(kMaxLookupText) + " are allowed");
  }
  Text t{trimmed(points), {}};
  for (const char32_t c : t.shown) t.form += lookup_form(c);
  return t;
}

// How a bigram is shown: ^ and $ for the boundary marks, ␣ for a space.
std::string bigram_text(char32_t first, char32_t second) {
  const auto shown = [](char32_t c) -> std::string {
    if (c == kBigramStart) return "^";
    if (c == kBigramEnd) return "$";
    if (c == U' ') return "\u2423";
    return to_utf8(std::u32string(1, c));
  };
  return shown(first) + shown(second);
}

std::vector<BigramCount> bigrams_of(const std::u32string& form) {
  std::u32string padded;
  padded += kBigramStart;
  padded += form;
  padded += kBigramEnd;
  std::vector<BigramCount> pairs;
  for (std::size_t i = 0; i + 1 < padded.size(); ++i) pairs.push_back({padded[i], padded[i + 1], 1});
  std::sort(pairs.begin(), pairs.end(), [](const BigramCount& a, const BigramCount& b) {
    return std::tie(a.first, a.second) < std::tie(b.first, b.second);
  });
  std::vector<BigramCount> counts;
  for (const auto& p : pairs) {
    if (!counts.empty() && counts.back().first == p.first && counts.back().second == p.second) ++counts.back().count;
    else counts.push_back(p);
  }
  return counts;
}

double cosine(const std::vector<double>& a, const std::vector<double>& b) {
  double dot = 0.0, aa = 0.0, bb = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    dot += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa > 0.0 && bb > 0.0 ? dot / std::sqrt(aa * bb) : 0.0;
}

// Mean word vector of the tokens of `text` (zeros when it has none), and whether any token is OOV.
// The vectors are the all-but-the-top ones (embeddings.hpp), whose cosines follow meaning rather
// than frequency.
std::vector<double> mean_vector(const std::string& text, const EmbeddingTable& table, bool& oov) {
  const auto tokens = tokenize(text, table);
  std::vector<std::int64_t> ids;
  const auto x = table.post_processed(table.embed(tokens, ids));
  std::vector<double> mean(table.dim(), 0.0);
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    for (std::size_t c = 0; c < table.dim(); ++c) mean[c] += x(t, c) / static_cast<double>(tokens.size());
  }
  oov = std::any_of(ids.begin(), ids.end(), [](std::int64_t id) { return id < 0; });
  return mean;
}

}  // namespace

std::vector<BigramCount> char_bigrams(const std::string& text) { return bigrams_of(read_text(text, "text").form); }

double bigram_cosine(const std::vector<BigramCount>& a, const std::vector<BigramCount>& b) {
  const auto before = [](const BigramCount& x, const BigramCount& y) {
    return std::tie(x.first, x.second) < std::tie(y.first, y.second);
  };
  double dot = 0.0, aa = 0.0, bb = 0.0;
  for (const auto& x : a) aa += double(x.count) * x.count;
  for (const auto& y : b) bb += double(y.count) * y.count;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {  // merge of two sorted lists
    if (before(a[i], b[j])) ++i;
    else if (before(b[j], a[i])) ++j;
    else dot += double(a[i++].count) * b[j++].count;
  }
  return aa > 0.0 && bb > 0.0 ? dot / std::sqrt(aa * bb) : 0.0;
}

SoftLookupResult soft_lookup(const std::string& query, const std::vector<std::string>& keys,
                             const std::vector<std::string>& values, const SoftLookupOptions& options,
                             const EmbeddingTable* table) {
  // 1. Arguments.
  if (keys.size() != values.size()) {
    throw std::invalid_argument("soft_lookup: keys and values must have the same length, got " +
                                std::to_string(keys.size()) + " keys and " + std::to_string(values.size()) + " values");
  }
  const std::size_t m = keys.size();
  if (m == 0) throw std::invalid_argument("soft_lookup: the table is empty; give at least 1 key and its value");
  if (m > kMaxLookupRows) {
    throw std::out_of_range("soft_lookup: the table has " + std::to_string(m) + " rows; at most " +
                            std::to_string(kMaxLookupRows) + " are allowed");
  }
  const double tau = options.temperature;
  if (!std::isfinite(tau) || tau < kMinLookupTemperature || tau > kMaxLookupTemperature) {
    throw std::out_of_range("soft_lookup: temperature must be a finite number from 0.0001 to 10000, got " +
                            std::to_string(tau));
  }
  if (options.similarity == LookupSimilarity::word_vectors && table == nullptr) {
    throw std::invalid_argument("soft_lookup: word-vector similarity needs the embedding table");
  }
  const std::u32string q = read_text(query, "query").form;
  std::vector<std::u32string> k(m);
  std::vector<std::string> shown_values(m);
  for (std::size_t j = 0; j < m; ++j) {
    const std::string row = "[" + std::to_string(j) + "]";
    k[j] = read_text(keys[j], "keys" + row).form;
    if (k[j].empty()) throw std::invalid_argument("soft_lookup: keys" + row + " is empty; every row needs a key");
    const Text value = read_text(values[j], "values" + row);
    if (value.shown.empty())
      throw std::invalid_argument("soft_lookup: values" + row + " is empty; every key needs a value");
    shown_values[j] = to_utf8(value.shown);
  }

  // 2. Similarities, exact matches.
  SoftLookupResult r;
  r.similarities = xt::zeros<float>({m});
  r.exact = xt::zeros<float>({m});
  r.shared_bigrams.resize(m);
  r.key_oov.assign(m, false);
  std::vector<double> sim(m);
  if (options.similarity == LookupSimilarity::letters) {
    const auto qb = bigrams_of(q);
    for (std::size_t j = 0; j < m; ++j) {
      const auto kb = bigrams_of(k[j]);
      sim[j] = bigram_cosine(qb, kb);
      // Shared bigrams in the key's reading order (each once).
      std::u32string padded = std::u32string(1, kBigramStart) + k[j] + kBigramEnd;
      for (std::size_t i = 0; i + 1 < padded.size(); ++i) {
        const bool in_query = std::any_of(qb.begin(), qb.end(), [&](const BigramCount& b) {
          return b.first == padded[i] && b.second == padded[i + 1];
        });
        const std::string text = bigram_text(padded[i], padded[i + 1]);
        auto& shared = r.shared_bigrams[j];
        if (in_query && std::find(shared.begin(), shared.end(), text) == shared.end()) shared.push_back(text);
      }
    }
  } else {
    bool oov = false;
    const auto qv = mean_vector(query, *table, oov);
    r.query_oov = oov;
    for (std::size_t j = 0; j < m; ++j) {
      sim[j] = cosine(qv, mean_vector(keys[j], *table, oov));
      r.key_oov[j] = oov;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    r.similarities(j) = static_cast<float>(sim[j]);
    r.exact(j) = k[j] == q ? 1.0f : 0.0f;
  }

  // 3. Scores and weights: normalize divides by τ in double itself; the scores are reported alongside.
  r.scores = xt::zeros<float>({m});
  for (std::size_t j = 0; j < m; ++j) r.scores(j) = static_cast<float>(sim[j] / tau);
  xt::xtensor<float, 2> row = xt::zeros<float>({std::size_t{1}, m});
  for (std::size_t j = 0; j < m; ++j) row(0, j) = r.similarities(j);
  const auto weights = normalize(row, options.normalizer, static_cast<float>(tau));
  r.weights = xt::zeros<float>({m});
  for (std::size_t j = 0; j < m; ++j) r.weights(j) = weights(0, j);

  // 4. Distinct values and the two mixtures over them.
  r.value_index.resize(m);
  for (std::size_t j = 0; j < m; ++j) {
    const auto found = std::find(r.values.begin(), r.values.end(), shown_values[j]);
    r.value_index[j] = static_cast<std::size_t>(found - r.values.begin());
    if (found == r.values.end()) r.values.push_back(shown_values[j]);
  }
  std::vector<double> mix(r.values.size(), 0.0), exact_mix(r.values.size(), 0.0);
  double matches = 0.0;
  for (std::size_t j = 0; j < m; ++j) {
    mix[r.value_index[j]] += r.weights(j);
    exact_mix[r.value_index[j]] += r.exact(j);
    matches += r.exact(j);
  }
  r.mixture = xt::zeros<float>({r.values.size()});
  r.exact_mixture = xt::zeros<float>({r.values.size()});
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    r.mixture(i) = static_cast<float>(mix[i]);
    r.exact_mixture(i) = matches > 0.0 ? static_cast<float>(exact_mix[i] / matches) : 0.0f;
  }
  return r;
}

}  // namespace attn
