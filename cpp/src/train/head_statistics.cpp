#include "attn/train/head_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "attn/core/random.hpp"

namespace attn::train {

namespace {

// One sequence of the probe: input ids (T), output ids (T); fills the (L, H, T, T) weights and returns ln p(output t +
// 1) for t = 0 … T − 2 (causal), or nothing (masked).
using ProbeRun = std::function<std::vector<double>(
    const std::vector<std::int32_t>& inputs, const std::vector<std::int32_t>& outputs, std::vector<float>& weights)>;

// The probe over any model of L layers of H heads: `words` outputs to draw from (uniform, [0, words)), `input_of` the
// input id of an output id, `run` one sequence's forward pass.
RepeatedWordsScores probe(std::size_t L, std::size_t H, bool causal, std::size_t repeat, std::size_t sequences,
                          std::uint64_t seed, std::uint32_t words,
                          const std::function<std::int32_t(std::int32_t)>& input_of, const ProbeRun& run) {
  if (repeat < kMinRepeatedWords || repeat > kMaxRepeatedWords) {
    throw std::out_of_range("repeatedWords: repeat must be an integer in [" + std::to_string(kMinRepeatedWords) + ", " +
                            std::to_string(kMaxRepeatedWords) + "], got " + std::to_string(repeat));
  }
  if (sequences < 1 || sequences > kMaxRepeatedSequences) {
    throw std::out_of_range("repeatedWords: sequences must be an integer in [1, " +
                            std::to_string(kMaxRepeatedSequences) + "], got " + std::to_string(sequences));
  }
  const std::size_t R = repeat, T = 2 * R;
  RepeatedWordsScores s;
  s.repeat = R, s.sequences = sequences;
  s.previous.assign(L * H, 0.0), s.duplicate.assign(L * H, 0.0), s.induction.assign(L * H, 0.0);
  double first = 0, second = 0;
  SplitMix64 rng(seed);
  std::vector<std::int32_t> inputs(T), outputs(T);
  for (std::size_t n = 0; n < sequences; ++n) {
    for (std::size_t t = 0; t < R; ++t) {
      outputs[t] = outputs[t + R] = static_cast<std::int32_t>(uniform_below(rng, words));
      inputs[t] = inputs[t + R] = input_of(outputs[t]);
    }
    if (n == 0) s.example = outputs;
    // One forward pass a sequence: the causal model's gives the weights and the next words' log-probabilities
    std::vector<float> weights;
    const std::vector<double> log_prob = run(inputs, outputs, weights);  // [t]: word t + 1
    if (causal) {
      for (std::size_t t = 1; t < R; ++t) first -= log_prob[t - 1];
      for (std::size_t t = R + 1; t < T; ++t) second -= log_prob[t - 1];
    }
    for (std::size_t lh = 0; lh < L * H; ++lh) {
      const float* a = weights.data() + lh * T * T;
      for (std::size_t i = 1; i < T; ++i) s.previous[lh] += a[i * T + i - 1];
      for (std::size_t i = R; i < T; ++i) s.duplicate[lh] += a[i * T + i - R], s.induction[lh] += a[i * T + i - R + 1];
    }
  }
  const auto mean = [](std::vector<double>& v, double count) {
    for (double& x : v) x /= count;
  };
  mean(s.previous, static_cast<double>(sequences * (T - 1)));
  mean(s.duplicate, static_cast<double>(sequences * R));
  mean(s.induction, static_cast<double>(sequences * R));
  const double per_half = static_cast<double>(sequences * (R - 1));
  s.first_half_loss = causal ? first / per_half : std::nan("");
  s.second_half_loss = causal ? second / per_half : std::nan("");
  return s;
}

}  // namespace

RepeatedWordsScores repeated_words_probe(LanguageModel& model, std::size_t repeat, std::size_t sequences,
                                         std::uint64_t seed) {
  const bool causal = model.objective() == Objective::causal;
  const OutputVocabulary& vocabulary = model.vocabulary();
  const auto words = static_cast<std::uint32_t>(vocabulary.size() - 1);  // <unk> is the last output
  return probe(
      model.config().n_layers, model.config().n_heads, causal, repeat, sequences, seed, words,
      [&](std::int32_t output) { return vocabulary.input_rows()[static_cast<std::size_t>(output)]; },
      [&](const std::vector<std::int32_t>& inputs, const std::vector<std::int32_t>& outputs,
          std::vector<float>& weights) {
        if (causal) return model.next_log_probs(inputs, outputs, &weights);
        weights = model.attention(inputs);
        return std::vector<double>{};
      });
}

RepeatedWordsScores repeated_words_probe(Gpt2Model& model, std::size_t repeat, std::size_t sequences,
                                         std::uint64_t seed) {
  // Random BPE tokens, <|endoftext|> (the last) never drawn, as TransformerLens draws them
  const auto words = static_cast<std::uint32_t>(model.config().vocab_size - 1);
  return probe(
      model.config().n_layers, model.config().n_heads, true, repeat, sequences, seed, words,
      [](std::int32_t output) { return output; },
      [&](const std::vector<std::int32_t>& inputs, const std::vector<std::int32_t>&, std::vector<float>& weights) {
        return model.next_log_probs(inputs, {}, &weights);
      });
}

std::vector<HeadStatistics> head_statistics(LanguageModel& model, const std::string& text, std::size_t window,
                                            std::size_t max_windows) {
  const TokenStream stream = token_stream(text, model.table(), model.vocabulary());
  const std::size_t L = model.config().n_layers, H = model.config().n_heads, size = stream.inputs.size();
  const bool causal = model.config().causal;
  std::vector<HeadStatistics> heads(L * H);
  std::vector<std::array<double, 7>> counts(L * H);  // queries each score averages over
  std::vector<double> rows(L * H, 0.0);
  std::size_t windows = 0;
  for (std::size_t at = 0, next = 0; at < stream.line_starts.size() && windows < max_windows; ++at) {
    const std::size_t start = stream.line_starts[at];
    if (start < next) continue;  // inside the previous window
    const std::size_t T = std::min(window, size - start);
    next = start + T;
    if (T < 2) continue;
    ++windows;
    const std::vector<std::int32_t> ids(stream.inputs.begin() + static_cast<std::ptrdiff_t>(start),
                                        stream.inputs.begin() + static_cast<std::ptrdiff_t>(start + T));
    const std::vector<float> weights = model.attention(ids);
    for (std::size_t lh = 0; lh < L * H; ++lh) {
      const float* a = weights.data() + lh * T * T;
      auto& score = heads[lh].scores;
      auto& count = counts[lh];
      for (std::size_t i = 0; i < T; ++i) {
        const float* row = a + i * T;
        const auto add = [&](std::size_t k, double value) { score[k] += value, count[k] += 1; };
        if (i >= 1) add(0, row[i - 1]), add(3, row[0]);
        if (i + 1 < T) add(1, row[i + 1]);
        add(2, row[i]);
        double same = 0, prefix = 0;
        bool has_same = false, has_prefix = false;
        for (std::size_t j = 0; j < (causal ? i : T); ++j) {
          if (j == i || ids[j] != ids[i]) continue;
          has_same = true, same += row[j];
          if (j + 1 < i) has_prefix = true, prefix += row[j + 1];
        }
        if (has_same) add(4, same);
        if (has_prefix) add(5, prefix);
        double entropy = 0;
        for (std::size_t j = 0; j < T; ++j)
          entropy -= row[j] > 0 ? row[j] * std::log2(static_cast<double>(row[j])) : 0.0;
        heads[lh].entropy_bits += entropy;
        rows[lh] += 1;
      }
    }
  }
  if (windows == 0) throw std::invalid_argument("head statistics: the text has no line of at least 2 tokens");
  const RepeatedWordsScores repeated = repeated_words_probe(model);
  constexpr std::size_t kInduction = 6;  // measured on repeated random words, not on the text
  for (std::size_t lh = 0; lh < L * H; ++lh) {
    HeadStatistics& h = heads[lh];
    h.layer = lh / H, h.head = lh % H;
    for (std::size_t k = 0; k < kInduction; ++k) h.scores[k] = counts[lh][k] ? h.scores[k] / counts[lh][k] : 0.0;
    h.scores[kInduction] = repeated.induction[lh];
    h.entropy_bits /= rows[lh];
    h.label = head_label(h.scores);
  }
  return heads;
}

std::string head_label(const std::array<double, 7>& scores) {
  constexpr std::size_t kInduction = 6;
  if (scores[kInduction] >= kHeadLabelThreshold) return kHeadScoreNames[kInduction];
  const auto best = std::max_element(scores.begin(), scores.end());
  return *best >= kHeadLabelThreshold ? kHeadScoreNames[static_cast<std::size_t>(best - scores.begin())] : "mixed";
}

}  // namespace attn::train
