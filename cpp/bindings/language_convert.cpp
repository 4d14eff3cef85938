// The language models' runs as JS objects (convert.hpp): knocked-out heads in, a run (ours or a GPT-2's), a head's
// block step by step and the repeated-words probe out.
#include "convert.hpp"

namespace bindings {

std::vector<attn::train::HeadChoice> heads_from_js(const val& heads) {
  std::vector<attn::train::HeadChoice> out;
  if (heads.isUndefined() || heads.isNull()) return out;
  const auto n = heads["length"].as<std::size_t>();
  for (std::size_t i = 0; i < n; ++i)
    out.push_back({heads[i]["layer"].as<std::size_t>(), heads[i]["head"].as<std::size_t>()});
  return out;
}

val language_run_to_js(const attn::train::LanguageRun& r, std::size_t T, std::size_t V, std::int32_t unk,
                       const val& sampling, std::size_t k, std::size_t d_k, std::size_t d_ff) {
  const std::vector<std::int32_t> computed(r.positions.begin(), r.positions.end());
  std::vector<std::int32_t> ids;
  std::vector<float> p;
  for (const auto& top : r.top)
    for (const attn::train::WordProbability& w : top) ids.push_back(w.id), p.push_back(w.p);
  val distributions = val::null();
  if (!sampling.isUndefined() && !sampling.isNull()) {
    distributions = val::array();
    const double temperature = sampling["temperature"].as<double>();
    const auto top_k = static_cast<std::size_t>(sampling["topK"].as<double>());
    for (std::size_t n = 0; n < r.positions.size(); ++n) {
      const attn::train::SamplingDistribution q =
          attn::train::sampling_distribution(r.logits.data() + n * V, V, unk, temperature, top_k, k);
      distributions.call<void>("push",
                               object_to_js({{"ids", typed_array_to_js(q.ids)}, {"q", typed_array_to_js(q.q)}}));
    }
  }
  return object_to_js(
      {{"embeddings", typed_array_to_js(r.embeddings)},
       {"input", typed_array_to_js(r.input)},
       {"attention", typed_array_to_js(r.attention)},
       {"hidden", typed_array_to_js(r.hidden)},
       {"positions", typed_array_to_js(computed)},
       {"topIds", typed_array_to_js(ids)},
       {"topP", typed_array_to_js(p)},
       {"logits", typed_array_to_js(r.logits)},
       {"outputInput", typed_array_to_js(r.output_input)},
       {"sampling", distributions},
       {"activations", r.activations ? block_activations_to_js(*r.activations, d_k, d_ff, T) : val::null()}});
}

val repeated_words_to_js(const attn::train::RepeatedWordsScores& r, std::size_t H, bool causal, const val& example) {
  val heads = val::array();
  for (std::size_t lh = 0; lh < r.induction.size(); ++lh) {
    heads.call<void>("push", object_to_js({{"layer", val(lh / H)},
                                           {"head", val(lh % H)},
                                           {"previous", val(r.previous[lh])},
                                           {"duplicate", val(r.duplicate[lh])},
                                           {"induction", val(r.induction[lh])}}));
  }
  return object_to_js({{"repeat", val(r.repeat)},
                       {"sequences", val(r.sequences)},
                       {"heads", heads},
                       {"example", example},
                       {"firstHalfLoss", causal ? val(r.first_half_loss) : val::null()},
                       {"secondHalfLoss", causal ? val(r.second_half_loss) : val::null()}});
}

// One head's block, step by step (block_activations.hpp), as tensors { data, shape } under their JS names; a step the
// model does not have (norm2 of a post-LN block) is null. T tokens, head width d_k, feed-forward width d_ff.
val block_activations_to_js(const attn::train::BlockActivations& a, std::size_t d_k, std::size_t d_ff, std::size_t T) {
  const std::size_t d = a.input.size() / T;
  const auto tensor = [&](const std::vector<float>& data, std::size_t cols) {
    return data.empty() ? val::null() : tensor_to_js(data.data(), {T, cols});
  };
  return object_to_js({{"layer", val(a.layer)},
                       {"head", val(a.head)},
                       {"wordVectors", tensor(a.word_vectors, d)},
                       {"positional", tensor(a.positional, d)},
                       {"input", tensor(a.input, d)},
                       {"queries", tensor(a.queries, d_k)},
                       {"keys", tensor(a.keys, d_k)},
                       {"values", tensor(a.values, d_k)},
                       {"scores", tensor(a.scores, T)},
                       {"weights", tensor(a.weights, T)},
                       {"headOutput", tensor(a.head_output, d_k)},
                       {"concat", tensor(a.concat, d)},
                       {"attentionOutput", tensor(a.attention_output, d)},
                       {"residual1", tensor(a.residual1, d)},
                       {"norm1", tensor(a.norm1, d)},
                       {"norm2", tensor(a.norm2, d)},
                       {"ffHidden", tensor(a.ff_hidden, d_ff)},
                       {"ffOutput", tensor(a.ff_output, d)},
                       {"residual2", tensor(a.residual2, d)},
                       {"output", tensor(a.output, d)}});
}

}  // namespace bindings
