#include <catch2/catch.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "attn/core/names.hpp"
#include "attn/core/normalizers.hpp"
#include "attn/core/positional_variants.hpp"
#include "attn/core/score_functions.hpp"
#include "attn/lessons/designed_heads.hpp"
#include "attn/lessons/explain.hpp"
#include "attn/lessons/soft_lookup.hpp"
#include "attn/train/language_model.hpp"
#include "attn/train/language_trainer.hpp"
#include "attn/train/parameters.hpp"
#include "attn/train/tasks.hpp"

namespace {

// Every enumerator 0 … count − 1 has exactly one name, and the table reads back what it writes.
template <typename E, std::size_t N>
void check_table(const attn::NamedValue<E> (&table)[N], std::size_t enumerators) {
  REQUIRE(N == enumerators);
  for (std::size_t i = 0; i < enumerators; ++i) {
    const E value = static_cast<E>(i);
    const char* name = attn::name_of(table, value);
    INFO("enumerator " << i << " named '" << name << "'");
    CHECK(attn::value_of(table, name, "x") == value);
  }
}

// An unknown name throws std::out_of_range naming the argument, every allowed name and the name given.
template <typename E, std::size_t N>
void check_unknown(const attn::NamedValue<E> (&table)[N], const std::string& argument) {
  try {
    attn::value_of(table, "bogus", argument);
    FAIL("no exception for 'bogus'");
  } catch (const std::out_of_range& e) {
    const std::string message = e.what();
    INFO(message);
    CHECK(message.rfind(argument + " must be one of ", 0) == 0);
    for (const auto& entry : table) CHECK(message.find("'" + std::string(entry.name) + "'") != std::string::npos);
    CHECK(message.find("got 'bogus'") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("names: every enum's table covers it and reads back") {
  check_table(attn::kNormalizerNames, 4);
  check_table(attn::kScoreFunctionNames, 3);
  check_table(attn::kPositionalKindNames, 6);
  check_table(attn::kAlibiSlopesNames, 2);
  check_table(attn::kHeadKindNames, 5);
  check_table(attn::kProjectionNames, 2);
  check_table(attn::kLookupSimilarityNames, 2);
  check_table(attn::train::kTaskNames, 4);
  check_table(attn::train::kPositionalNames, 3);
  check_table(attn::train::kObjectiveNames, 2);
  check_table(attn::train::kOutputPositionNames, 2);
}

TEST_CASE("names: the JS spellings, in the order the API documents (defaults first where there is one)") {
  CHECK(attn::name_list(attn::kNormalizerNames) == "'softmax', 'sparsemax', 'entmax15', 'hardmax'");
  CHECK(attn::name_list(attn::kScoreFunctionNames) == "'scaledDot', 'dot', 'additive'");
  CHECK(attn::name_list(attn::kPositionalKindNames) == "'none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5'");
  CHECK(attn::name_list(attn::kAlibiSlopesNames) == "'paper', 'reference'");
  CHECK(attn::name_list(attn::kHeadKindNames) == "'projected', 'semantic', 'offset', 'first', 'uniform'");
  CHECK(attn::name_list(attn::kProjectionNames) == "'identity', 'random'");
  CHECK(attn::name_list(attn::kLookupSimilarityNames) == "'letters', 'wordVectors'");
  CHECK(attn::name_list(attn::train::kTaskNames) == "'previous-token', 'reverse', 'sort', 'induction'");
  CHECK(attn::name_list(attn::train::kPositionalNames) == "'sinusoidal', 'learned', 'none'");
  CHECK(attn::name_list(attn::train::kObjectiveNames) == "'causal', 'masked'");
  CHECK(attn::name_list(attn::train::kOutputPositionNames) == "'all', 'masks'");
  CHECK(attn::value_of(attn::kScoreFunctionNames, "scaledDot", "x") == attn::ScoreFunction::scaled_dot);
  CHECK(attn::value_of(attn::kHeadKindNames, "first", "x") == attn::HeadKind::first_token);
  CHECK(std::string(attn::name_of(attn::kLookupSimilarityNames, attn::LookupSimilarity::word_vectors)) ==
        "wordVectors");
}

TEST_CASE("names: an unknown name throws, naming the argument and the allowed names (never a default)") {
  check_unknown(attn::kNormalizerNames, "normalizer");
  check_unknown(attn::kScoreFunctionNames, "scoreFunction");
  check_unknown(attn::kPositionalKindNames, "positionalEncoding");
  check_unknown(attn::kAlibiSlopesNames, "alibiSlopes");
  check_unknown(attn::kHeadKindNames, "heads[0].kind");
  check_unknown(attn::kProjectionNames, "projection");
  check_unknown(attn::kLookupSimilarityNames, "similarity");
  check_unknown(attn::train::kTaskNames, "task");
  check_unknown(attn::train::kPositionalNames, "positionalEncoding");
  check_unknown(attn::train::kObjectiveNames, "objective");
  check_unknown(attn::train::kOutputPositionNames, "positions");
  // Names are exact: no case folding, no trimming, no prefix match.
  CHECK_THROWS_AS(attn::value_of(attn::kNormalizerNames, "Softmax", "method"), std::out_of_range);
  CHECK_THROWS_AS(attn::value_of(attn::kNormalizerNames, "softmax ", "method"), std::out_of_range);
  CHECK_THROWS_AS(attn::value_of(attn::kNormalizerNames, "", "method"), std::out_of_range);
}
