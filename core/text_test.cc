#include "core/text.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::text {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

constexpr double kEps = 1e-12;

TokenizerOptions RawOptions() {
  TokenizerOptions o;
  o.lowercase = false;
  o.remove_stop_words = false;
  return o;
}

TokenizerOptions IcuOnly(TokenizerOptions o) {
  o.ascii_fast_path = false;
  return o;
}

// True if every byte sequence in `s` is well-formed UTF-8 (per ICU).
bool IsValidUtf8(const std::string& s) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(s);
  std::string back;
  u.toUTF8String(back);
  return U_SUCCESS(status) && back == s;
}

// ---------------------------------------------------------------------------
// Tokenizer: English
// ---------------------------------------------------------------------------

TEST(TokenizerTest, EnglishLowercasesAndDropsStopWordsAndPunctuation) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize("The Quick, Brown FOX -- jumps over the "
                                 "lazy dog!!! (Again?)"),
              ElementsAre("quick", "brown", "fox", "jumps", "lazy", "dog"));
}

TEST(TokenizerTest, KeepsInnerApostrophesLikeIcu) {
  Tokenizer tokenizer;
  // "don't" and "isn't" are stop words; "john's" is not. Leading and
  // trailing quotes are not part of a word.
  EXPECT_THAT(tokenizer.Tokenize("'John's' book don't isn't rock'n'roll"),
              ElementsAre("john's", "book", "rock'n'roll"));
  // A curly apostrophe is kept by ICU and normalized to ASCII.
  EXPECT_THAT(tokenizer.Tokenize("Einstein’s theory, don’t"),
              ElementsAre("einstein's", "theory"));
}

TEST(TokenizerTest, Numbers) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize("In 2024, pi = 3.14 and 1,000 mp3 files."),
              ElementsAre("2024", "pi", "3.14", "1,000", "mp3", "files"));
  TokenizerOptions o;
  o.keep_numbers = false;
  EXPECT_THAT(Tokenizer(o).Tokenize("In 2024, pi = 3.14 and 1,000 mp3 files."),
              ElementsAre("pi", "mp3", "files"));
  // Fullwidth digits are numbers too (through ICU).
  EXPECT_THAT(Tokenizer(o).Tokenize("价格１２３元"), Not(Contains("123")));
}

TEST(TokenizerTest, InnerPeriodsAndUnderscoresStayAsInIcu) {
  Tokenizer tokenizer(RawOptions());
  EXPECT_THAT(
      tokenizer.Tokenize("e.g. U.S.A. __init__ foo_bar a.1 x:y"),
      ElementsAre("e.g", "U.S.A", "__init__", "foo_bar", "a", "1", "x", "y"));
}

TEST(TokenizerTest, OptionsLowercaseAndStopWords) {
  TokenizerOptions keep_case;
  keep_case.lowercase = false;
  // Stop words match case-insensitively even when case is kept.
  EXPECT_THAT(Tokenizer(keep_case).Tokenize("The Physics OF Stars"),
              ElementsAre("Physics", "Stars"));
  TokenizerOptions keep_stop;
  keep_stop.remove_stop_words = false;
  EXPECT_THAT(Tokenizer(keep_stop).Tokenize("The Physics OF Stars"),
              ElementsAre("the", "physics", "of", "stars"));
}

TEST(TokenizerTest, MaxTokens) {
  TokenizerOptions o;
  o.max_tokens = 3;
  Tokenizer tokenizer(o);
  EXPECT_THAT(tokenizer.Tokenize("one two three four five"),
              ElementsAre("one", "two", "three"));
  EXPECT_THAT(tokenizer.Tokenize("物理 化学 生物 天文 地理"),
              testing::SizeIs(3));
  // TokenizeInto appends and counts only what it adds.
  std::vector<std::string> out = {"existing"};
  tokenizer.TokenizeInto("alpha beta gamma delta", &out);
  EXPECT_THAT(out, ElementsAre("existing", "alpha", "beta", "gamma"));
  o.max_tokens = 0;
  EXPECT_THAT(Tokenizer(o).Tokenize("alpha"), IsEmpty());
}

TEST(TokenizerTest, EmptyAndBlankInput) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize(""), IsEmpty());
  EXPECT_THAT(tokenizer.Tokenize(" \t\r\n  "), IsEmpty());
  EXPECT_THAT(tokenizer.Tokenize("... --- !!! ，。"), IsEmpty());
  EXPECT_THAT(tokenizer.Tokenize("the of and 的 了"), IsEmpty());
}

TEST(TokenizerTest, NormalizesWithNfkcCasefold) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize("Straße ＰＨＰ ﬁsh CAFÉ"),
              ElementsAre("strasse", "php", "fish", "café"));
  TokenizerOptions o;
  o.lowercase = false;
  EXPECT_THAT(Tokenizer(o).Tokenize("Straße ＰＨＰ"),
              ElementsAre("Straße", "ＰＨＰ"));
}

// ---------------------------------------------------------------------------
// Tokenizer: Chinese and mixed text
// ---------------------------------------------------------------------------

TEST(TokenizerTest, ChineseSegmentation) {
  Tokenizer tokenizer;
  std::vector<std::string> tokens =
      tokenizer.Tokenize("我们在北京大学学习物理");
  EXPECT_THAT(tokens, Contains(AnyOf("北京", "北京大学")));
  EXPECT_THAT(tokens, Contains("物理"));
  // Stop words are gone, and segmentation made words, not single characters
  // only.
  EXPECT_THAT(tokens, AllOf(Not(Contains("在")), Not(Contains("我们")),
                            Not(Contains("我")), Not(Contains("的"))));
  for (const std::string& t : tokens) EXPECT_GE(CountCodePoints(t), 2u) << t;

  tokens = tokenizer.Tokenize(
      "这是一个关于量子力学的网页，我们的目标是研究物理学。");
  EXPECT_THAT(tokens, Contains(AnyOf("量子力学", "量子")));
  EXPECT_THAT(tokens, Contains(AnyOf("物理", "物理学")));
  EXPECT_THAT(tokens, AllOf(Not(Contains("的")), Not(Contains("是")),
                            Not(Contains("一个")), Not(Contains("，"))));
}

TEST(TokenizerTest, MixedChineseAndEnglish) {
  Tokenizer tokenizer;
  std::vector<std::string> tokens = tokenizer.Tokenize(
      "Google的中文搜索引擎和iPhone手机, the Quantum物理 lab 2024年");
  EXPECT_THAT(tokens, Contains("google"));
  EXPECT_THAT(tokens, Contains("iphone"));
  EXPECT_THAT(tokens, Contains("quantum"));
  EXPECT_THAT(tokens, Contains("lab"));
  EXPECT_THAT(tokens, Contains("物理"));
  EXPECT_THAT(tokens, Contains(AnyOf("搜索", "搜索引擎")));
  EXPECT_THAT(tokens, AllOf(Not(Contains("的")), Not(Contains("和")),
                            Not(Contains("the"))));
}

TEST(TokenizerTest, JapaneseAndAccentedLatin) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize("東京大学で物理を勉強する"),
              AllOf(Contains("物理"), Contains(AnyOf("東京", "東京大学"))));
  EXPECT_THAT(tokenizer.Tokenize("naïve café résumé"),
              ElementsAre("naïve", "café", "résumé"));
}

// ---------------------------------------------------------------------------
// Tokenizer: robustness
// ---------------------------------------------------------------------------

TEST(TokenizerTest, InvalidUtf8IsASeparator) {
  Tokenizer tokenizer;
  EXPECT_THAT(tokenizer.Tokenize("ab\xff"
                                 "cd \xe4\xb8 xy\xc3"),
              ElementsAre("ab", "cd", "xy"));
  EXPECT_THAT(tokenizer.Tokenize("\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"),
              IsEmpty());  // overlong, surrogate, beyond U+10FFFF
  EXPECT_THAT(tokenizer.Tokenize("物理\xff"
                                 "化学"),
              ElementsAre("物理", "化学"));
}

TEST(TokenizerTest, RandomBytesDoNotCrashAndGiveValidUtf8) {
  std::mt19937 rng(42);
  Tokenizer tokenizer;
  Tokenizer raw(RawOptions());
  for (int iteration = 0; iteration < 2000; ++iteration) {
    std::string input(rng() % 64, '\0');
    for (char& c : input) c = static_cast<char>(rng());
    for (const std::string& t : tokenizer.Tokenize(input)) {
      EXPECT_FALSE(t.empty());
      EXPECT_TRUE(IsValidUtf8(t));
    }
    for (const std::string& t : raw.Tokenize(input)) {
      EXPECT_TRUE(IsValidUtf8(t));
    }
  }
}

// The fast path must give exactly what ICU gives.
TEST(TokenizerTest, AsciiFastPathEqualsIcu) {
  ASSERT_TRUE(internal::AsciiFastPathVerified());
  const std::vector<std::string> paragraphs = {
      "Focused crawlers download only pages relevant to a topic. Don't "
      "they? The crawler's frontier holds 1,000,000 URLs; e.g. "
      "http://example.com/a_b/c.html?x=1&y=2 (see RFC-3986). It's 3.14 "
      "or 2.71828 -- whatever: pick one!",
      "Mr. O'Neil paid $5.00 on 12/25/2023 at 10:30pm; user@example.com "
      "wrote \"hello, world\" in C++ and __init__.py [sic] {x|y} ~tilde "
      "^caret `tick` a.b.c 1.2.3 a..b 1,,2 'quoted' rock'n'roll x_1 _y",
      "Line one\r\nLine two\tTabbed\fform\vvertical 100% #hash *star* "
      "<tag attr='v'> a=b+c-d/e\\f CamelCase HTMLPage mp3Player v1.0-rc2",
  };
  const Tokenizer fast_raw(RawOptions());
  const Tokenizer icu_raw(IcuOnly(RawOptions()));
  const Tokenizer fast;
  const Tokenizer icu(IcuOnly({}));
  for (const std::string& p : paragraphs) {
    EXPECT_EQ(fast_raw.Tokenize(p), icu_raw.Tokenize(p)) << p;
    EXPECT_EQ(fast.Tokenize(p), icu.Tokenize(p)) << p;
    EXPECT_THAT(fast_raw.Tokenize(p), Not(IsEmpty()));
  }
  // Random strings over the characters the fast path treats specially.
  std::mt19937 rng(7);
  const std::string alphabet = "aB7.',;_@:- \t\n#$";
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string s(1 + rng() % 24, ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    ASSERT_EQ(fast_raw.Tokenize(s), icu_raw.Tokenize(s)) << "[" << s << "]";
  }
}

// Mixed text takes the fast path for ASCII chunks and ICU for the rest; the
// seams between them must not change the result either.
TEST(TokenizerTest, MixedTextFastPathEqualsIcu) {
  const Tokenizer fast(RawOptions());
  const Tokenizer icu(IcuOnly(RawOptions()));
  const std::vector<std::string> pieces = {
      "a",        "Z",        "7",
      ".",        "'",        ",",
      "_",        "@",        " ",
      "-",        "é",        "\xcc\x81",  // U+0301
      "中",       "文",       "’",
      "\xc2\xa0", "。",       "，",
      "\xff",     "\xe4\xb8", "\xe2\x80\x8d",  // ZWJ
      "😀",        "ｱ",        "ﾞ",
      "ก",        "า"};
  std::mt19937 rng(11);
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string s;
    const int n = 1 + rng() % 16;
    for (int i = 0; i < n; ++i) s += pieces[rng() % pieces.size()];
    ASSERT_EQ(fast.Tokenize(s), icu.Tokenize(s)) << "[" << s << "]";
  }
}

TEST(TokenizerTest, LargeChineseInputIsCutSafely) {
  // More than one ICU region (1 MiB) of Chinese without ASCII separators.
  std::string text;
  while (text.size() < (3u << 20)) text += "我们在北京大学学习物理。";
  TokenizerOptions o;
  o.max_tokens = std::numeric_limits<size_t>::max();
  const std::vector<std::string> tokens = Tokenizer(o).Tokenize(text);
  const size_t sentences =
      text.size() / std::string("我们在北京大学学习物理。").size();
  // Every sentence yields the same tokens, so cuts happened at sentence ends.
  const std::vector<std::string> one =
      Tokenizer().Tokenize("我们在北京大学学习物理。");
  ASSERT_EQ(tokens.size(), sentences * one.size());
  EXPECT_EQ(std::vector<std::string>(tokens.end() - one.size(), tokens.end()),
            one);
}

TEST(TokenizerTest, ThreadSafe) {
  const Tokenizer tokenizer;
  const std::string text =
      "Quantum mechanics 量子力学 is a fundamental theory in physics; "
      "我们在北京大学学习物理 and don't forget 3.14.";
  const std::vector<std::string> expected = tokenizer.Tokenize(text);
  ASSERT_FALSE(expected.empty());
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        if (tokenizer.Tokenize(text) != expected) ++mismatches[t];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_THAT(mismatches, ElementsAre(0, 0, 0, 0));
}

// ---------------------------------------------------------------------------
// Stop words
// ---------------------------------------------------------------------------

TEST(StopWordsTest, ShippedLists) {
  for (const char* w : {"the", "a", "of", "and", "don't", "you're", "would",
                        "的", "了", "和", "是", "在", "我们", "一个", "因为"}) {
    EXPECT_TRUE(IsStopWord(w)) << w;
  }
  for (const char* w : {"physics", "crawler", "The", "", "物理", "北京",
                        "# English stop words"}) {
    EXPECT_FALSE(IsStopWord(w)) << w;
  }
}

// ---------------------------------------------------------------------------
// Unicode helpers
// ---------------------------------------------------------------------------

TEST(UnicodeHelpersTest, CountCodePoints) {
  EXPECT_EQ(CountCodePoints(""), 0u);
  EXPECT_EQ(CountCodePoints("hello"), 5u);
  EXPECT_EQ(CountCodePoints("a fairly long ASCII string of 39 chars."), 39u);
  EXPECT_EQ(CountCodePoints("物理学"), 3u);
  EXPECT_EQ(CountCodePoints("café 😀 ok"), 9u);
  EXPECT_EQ(CountCodePoints("0123456789abcdef物"), 17u);
  // Each ill-formed sequence counts once: \xff, truncated \xe4\xb8, \xc3.
  EXPECT_EQ(CountCodePoints("a\xff"
                            "b\xe4\xb8"
                            "c\xc3"),
            6u);
}

TEST(UnicodeHelpersTest, ScriptOfWordIsItsFirstLettersScript) {
  EXPECT_EQ(ScriptOfWord("xul"), LatinScript());
  EXPECT_EQ(ScriptOfWord("2024xul"), LatinScript());  // digits are Common
  EXPECT_EQ(ScriptOfWord("café"), LatinScript());
  EXPECT_EQ(ScriptOfWord("元素"), HanScript());
  // Hiragana and Katakana count as Han: Japanese mixes the three.
  EXPECT_EQ(ScriptOfWord("ひらがな"), HanScript());
  EXPECT_EQ(ScriptOfWord("カタカナ"), HanScript());
  EXPECT_NE(ScriptOfWord("москва"), LatinScript());
  EXPECT_NE(ScriptOfWord("москва"), kNoScript);
  EXPECT_EQ(ScriptOfWord("москва"), ScriptOfWord("кремль"));
  EXPECT_EQ(ScriptOfWord("2024"), kNoScript);
  EXPECT_EQ(ScriptOfWord("—"), kNoScript);
  EXPECT_EQ(ScriptOfWord(""), kNoScript);
  EXPECT_EQ(ScriptOfWord("\xff\xfe"), kNoScript);  // ill-formed: no letter
}

TEST(UnicodeHelpersTest, CountPunctuationAscii) {
  EXPECT_EQ(CountPunctuation(""), 0u);
  EXPECT_EQ(CountPunctuation("Hello, world! (Yes) - it's \"ok\"; a: b?"), 11u);
  // Symbols are not punctuation.
  EXPECT_EQ(CountPunctuation("$+<=>^`|~ 123 abc"), 0u);
  EXPECT_EQ(CountPunctuation(".,;:!?'\"()-"), 11u);
}

TEST(UnicodeHelpersTest, CountPunctuationCjk) {
  EXPECT_EQ(CountPunctuation("你好，世界！"), 2u);
  EXPECT_EQ(CountPunctuation("，。！？、；：“”（）《》"), 13u);
  EXPECT_EQ(CountPunctuation("物理学"), 0u);
  EXPECT_EQ(CountPunctuation("\xff\xfe"), 0u);
}

TEST(UnicodeHelpersTest, CollapseWhitespace) {
  EXPECT_EQ(CollapseWhitespace(""), "");
  EXPECT_EQ(CollapseWhitespace(" \t\r\n "), "");
  EXPECT_EQ(CollapseWhitespace("a"), "a");
  EXPECT_EQ(CollapseWhitespace("  hello \t\n  world  "), "hello world");
  // NBSP, ideographic space, en space, line separator.
  EXPECT_EQ(CollapseWhitespace("\xc2\xa0"
                               "a\xc2\xa0\xc2\xa0"
                               "b\xe3\x80\x80"
                               "物理\xe2\x80\x82 \xe2\x80\xa8"
                               "c\xc2\xa0"),
            "a b 物理 c");
  // Not whitespace: zero-width space stays.
  EXPECT_EQ(CollapseWhitespace("a\xe2\x80\x8b"
                               "b"),
            "a\xe2\x80\x8b"
            "b");
  // Ill-formed sequences become U+FFFD.
  EXPECT_EQ(CollapseWhitespace("a \xff b\xe4\xb8"),
            "a \xef\xbf\xbd b\xef\xbf\xbd");
}

// ---------------------------------------------------------------------------
// Term weights ([MMTOPIC] formula 3.13)
// ---------------------------------------------------------------------------

TEST(TermWeightsTest, CountTerms) {
  EXPECT_THAT(CountTerms({"a", "b", "a", "a"}),
              UnorderedElementsAre(Pair("a", 3.0), Pair("b", 1.0)));
  EXPECT_THAT(CountTerms({}), IsEmpty());
}

TEST(TermWeightsTest, SeedAndAddDocumentCountDistinctTerms) {
  DocumentFrequencies df;
  EXPECT_EQ(df.documents(), 0);
  df.Seed({"a", "a", "b"}, 3);
  EXPECT_EQ(df.documents(), 3);
  EXPECT_EQ(df.frequency("a"), 3);
  df.AddDocument({"a", "c", "c"});
  EXPECT_EQ(df.documents(), 4);
  EXPECT_EQ(df.frequency("a"), 4);
  EXPECT_EQ(df.frequency("b"), 3);
  EXPECT_EQ(df.frequency("c"), 1);
  EXPECT_EQ(df.frequency("missing"), 0);
  df.Seed({"z"}, 0);
  df.Seed({"z"}, -5);
  EXPECT_EQ(df.documents(), 4);
  EXPECT_EQ(df.frequency("z"), 0);
  df.AddDocument({});
  EXPECT_EQ(df.documents(), 5);
  // From counts: each term once, whatever its count; an empty one counts.
  df.AddCountedDocument(CountTerms({"a", "d", "d", "d"}));
  EXPECT_EQ(df.documents(), 6);
  EXPECT_EQ(df.frequency("a"), 5);
  EXPECT_EQ(df.frequency("d"), 1);
  df.AddCountedDocument(TermCounts{});
  EXPECT_EQ(df.documents(), 7);
}

// N = 10, n_a = 1, n_b = 5, tf_a = 2, tf_b = 1:
//   raw_a = 2·lg(10/1 + 0.01) = 2·lg(10.01) = 2.000868154958637
//   raw_b = 1·lg(10/5 + 0.01) = lg(2.01)    = 0.303196057420489
//   norm  = sqrt(raw_a² + raw_b²)          = 2.023709767422915
//   w_a = 0.988712999842183, w_b = 0.149821907420347
TEST(TermWeightsTest, HandComputedExample) {
  DocumentFrequencies df;
  df.Seed({"b"}, 4);       // N = 4, n_b = 4
  df.Seed({"a", "b"}, 1);  // N = 5, n_a = 1, n_b = 5
  for (int i = 0; i < 5; ++i) df.AddDocument({"c"});
  ASSERT_EQ(df.documents(), 10);
  ASSERT_EQ(df.frequency("a"), 1);
  ASSERT_EQ(df.frequency("b"), 5);
  const TermVector w = df.Weights({{"a", 2}, {"b", 1}});
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w.at("a"), 0.9887129998421831, kEps);
  EXPECT_NEAR(w.at("b"), 0.14982190742034743, kEps);
  EXPECT_NEAR(w.at("a") * w.at("a") + w.at("b") * w.at("b"), 1.0, kEps);
}

// The same statistics (n_c = 5). Against the query {b}: its vector is b
// alone, so cos = w_b = 0.149821907420347. Against {a, c}:
//   q_a = lg(10.01) = 1.000434077479319, q_c = lg(2.01) = 0.303196057420489
//   cos = raw_a·q_a / (norm · sqrt(q_a² + q_c²)) = 0.946213487657310
TEST(TermWeightsTest, CosineOfCountsHandComputed) {
  DocumentFrequencies df;
  df.Seed({"b"}, 4);
  df.Seed({"a", "b"}, 1);
  for (int i = 0; i < 5; ++i) df.AddDocument({"c"});
  const TermCounts page = {{"a", 2}, {"b", 1}};
  EXPECT_NEAR(df.CosineOfCounts(page, {{"b", 1}}), 0.14982190742034743, kEps);
  EXPECT_NEAR(df.CosineOfCounts(page, {{"a", 1}, {"c", 1}}), 0.9462134876573104,
              kEps);
  EXPECT_NEAR(df.CosineOfCounts({{"a", 1}, {"c", 1}}, page), 0.9462134876573104,
              kEps);                                  // symmetric
  EXPECT_EQ(df.CosineOfCounts(page, {{"z", 1}}), 0);  // nothing shared
  EXPECT_EQ(df.CosineOfCounts(page, {}), 0);
  EXPECT_EQ(df.CosineOfCounts({}, page), 0);
  EXPECT_EQ(df.CosineOfCounts(page, {{"a", 0}}), 0);  // no positive weight
}

// Both forms against the vector form, on documents of many terms.
TEST(TermWeightsTest, CountedCosineIsTheCosineOfTheWeights) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> word(0, 300), len(1, 200);
  DocumentFrequencies df, twin;
  auto document = [&] {
    std::vector<std::string> d;
    for (int n = len(rng), i = 0; i < n; ++i) {
      d.push_back(absl::StrCat("w", word(rng)));
    }
    return d;
  };
  const TermCounts query = CountTerms({"w1", "w2", "w2", "w50", "absent"});
  for (int i = 0; i < 200; ++i) {
    const TermCounts counts = CountTerms(document());
    twin.AddCountedDocument(counts);
    const double expected = Cosine(twin.Weights(counts), twin.Weights(query));
    EXPECT_NEAR(df.AddCountedDocumentAndCosine(counts, query), expected, 1e-12);
    EXPECT_NEAR(df.CosineOfCounts(counts, query), expected, 1e-12);
    ASSERT_EQ(df.documents(), twin.documents());
  }
  for (int w = 0; w <= 300; ++w) {
    const std::string term = absl::StrCat("w", w);
    ASSERT_EQ(df.frequency(term), twin.frequency(term)) << term;
  }
  // An empty query still counts the document.
  EXPECT_EQ(df.AddCountedDocumentAndCosine(CountTerms({"w1"}), {}), 0);
  EXPECT_EQ(df.documents(), twin.documents() + 1);
  EXPECT_EQ(df.frequency("w1"), twin.frequency("w1") + 1);
}

// N = 4; s is in all 4 documents, u was never seen (read as n_u = 1):
//   raw_s = 3·lg(4/4 + 0.01) = 3·lg(1.01) = 0.012964121347928
//   raw_u = 1·lg(4/1 + 0.01) = lg(4.01)   = 0.603144372620182
//   w_s = 0.021489262356149, w_u = 0.999769079139472
TEST(TermWeightsTest, UnseenTermCountsAsSeenOnce) {
  DocumentFrequencies df;
  df.Seed({"s"}, 4);
  const TermVector w = df.Weights({{"s", 3}, {"u", 1}});
  EXPECT_NEAR(w.at("s"), 0.02148926235614916, kEps);
  EXPECT_NEAR(w.at("u"), 0.9997690791394723, kEps);
}

// With no statistics, N = max(0, 1) = 1 and every n_i = 1, so each raw
// weight is tf·lg(1.01) and the weights are tf / |tf|: x = 1/√10, y = 3/√10.
TEST(TermWeightsTest, EmptyStatisticsStayFinite) {
  DocumentFrequencies df;
  const TermVector w = df.Weights({{"x", 1}, {"y", 3}});
  EXPECT_NEAR(w.at("x"), 1 / std::sqrt(10.0), kEps);
  EXPECT_NEAR(w.at("y"), 3 / std::sqrt(10.0), kEps);
}

TEST(TermWeightsTest, NonPositiveCountsAreLeftOut) {
  DocumentFrequencies df;
  df.AddDocument({"a"});
  df.AddDocument({"b"});
  EXPECT_THAT(df.Weights({}), IsEmpty());
  EXPECT_THAT(df.Weights({{"a", 0}, {"b", -1}}), IsEmpty());
  const TermVector w = df.Weights({{"a", 0}, {"b", 2}, {"nan", std::nan("")}});
  EXPECT_THAT(w, UnorderedElementsAre(Pair("b", testing::DoubleNear(1, kEps))));
}

TEST(TermWeightsTest, ConcurrentUpdatesAndReads) {
  DocumentFrequencies df;
  df.Seed({"topic"}, 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&df, t] {
      for (int i = 0; i < 1000; ++i) {
        df.AddDocument({"common", "t" + std::to_string(t), "common"});
        TermVector w = df.Weights({{"common", 1}, {"topic", 1}});
        ASSERT_EQ(w.size(), 2u);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(df.documents(), 4001);
  EXPECT_EQ(df.frequency("common"), 4000);
  EXPECT_EQ(df.frequency("t3"), 1000);
}

// ---------------------------------------------------------------------------
// Cosine and Boolean model
// ---------------------------------------------------------------------------

// a = (x:1, y:2), b = (y:3, z:4): a·b = 6, |a| = √5, |b| = 5,
// cos = 6 / (5√5) = 0.536656314599949.
TEST(SimilarityTest, Cosine) {
  const TermVector a = {{"x", 1}, {"y", 2}};
  const TermVector b = {{"y", 3}, {"z", 4}};
  EXPECT_NEAR(Cosine(a, b), 0.5366563145999494, kEps);
  EXPECT_NEAR(Cosine(b, a), 0.5366563145999494, kEps);
  EXPECT_NEAR(Cosine(a, a), 1.0, kEps);
  EXPECT_EQ(Cosine(a, {{"q", 1}}), 0.0);
  EXPECT_EQ(Cosine(a, {}), 0.0);
  EXPECT_EQ(Cosine({}, {}), 0.0);
  EXPECT_EQ(Cosine({{"x", 0}}, {{"x", 0}}), 0.0);
}

TEST(SimilarityTest, CosineOfWeights) {
  // Weights are unit vectors, so the cosine is their dot product.
  DocumentFrequencies df;
  for (int i = 0; i < 9; ++i) df.AddDocument({"common"});
  df.AddDocument({"rare", "common"});
  const TermVector d = df.Weights({{"rare", 1}, {"common", 1}});
  const TermVector q = df.Weights({{"rare", 1}});
  // raw rare = lg(10.01) = 1.000434077479319, raw common = lg(1.01)
  // = 0.004321373782643; cos = 1.000434 / sqrt(1.000434² + 0.004321²).
  EXPECT_NEAR(Cosine(d, q), 0.9999906710956653, kEps);
}

// D = {physics, quantum, news}, T = {physics, quantum, energy}:
// |D ∩ T| / |T| = 2 / 3.
TEST(SimilarityTest, BooleanModel) {
  EXPECT_NEAR(BooleanSimilarity({"physics", "quantum", "physics", "news"},
                                {"physics", "quantum", "energy", "physics"}),
              2.0 / 3.0, kEps);
  EXPECT_EQ(BooleanSimilarity({"a"}, {}), 0.0);
  EXPECT_EQ(BooleanSimilarity({}, {"a"}), 0.0);
  EXPECT_EQ(BooleanSimilarity({"a", "b"}, {"a", "b"}), 1.0);
  EXPECT_EQ(BooleanSimilarity({"b", "a", "c"}, {"a"}), 1.0);
}

// ---------------------------------------------------------------------------
// URL words
// ---------------------------------------------------------------------------

TEST(UrlWordsTest, SplitsOnDelimitersAndCaseChanges) {
  EXPECT_THAT(UrlWords("http://www.example.com/physics/QuantumMechanics/"
                       "intro_page.html?id=3"),
              ElementsAre("example", "com", "physics", "quantum", "mechanics",
                          "intro", "page", "id", "3"));
  EXPECT_THAT(UrlWords("https://x.org/XMLParser/MP3Player/camelCase-v2"),
              ElementsAre("x", "org", "xml", "parser", "mp3", "player", "camel",
                          "case", "v2"));
  // "HTMLPage" splits into "html" (boilerplate, dropped) and "page".
  EXPECT_THAT(UrlWords("http://x.org/HTMLPage"),
              ElementsAre("x", "org", "page"));
  EXPECT_THAT(UrlWords("HTTPS://WWW.Example.COM/Index.PHP"),
              ElementsAre("example", "com"));
}

TEST(UrlWordsTest, DropsBoilerplateAndStopWordsKeepsNumbers) {
  EXPECT_THAT(UrlWords("http://news.example.com/2008/history-of-the-world/"
                       "default.aspx+jsp&htm%20asp"),
              ElementsAre("news", "example", "com", "2008", "history", "world",
                          "default"));
  EXPECT_THAT(UrlWords(""), IsEmpty());
  EXPECT_THAT(UrlWords("http://"), IsEmpty());
}

TEST(UrlWordsTest, SchemeAndPort) {
  // "host:8080" is not a scheme.
  EXPECT_THAT(UrlWords("localhost:8080/physics"),
              ElementsAre("localhost", "8080", "physics"));
  EXPECT_THAT(UrlWords("mailto:physics@example.com"),
              ElementsAre("physics", "example", "com"));
}

TEST(UrlWordsTest, DecodesPercentEscapesAndTokenizesNonAscii) {
  // /wiki/物理学 percent-encoded.
  EXPECT_THAT(
      UrlWords("https://zh.wikipedia.org/wiki/%E7%89%A9%E7%90%86%E5%AD%A6"),
      Contains(AnyOf("物理", "物理学")));
  EXPECT_THAT(UrlWords("http://example.cn/新闻/物理"),
              AllOf(Contains("新闻"), Contains("物理")));
  // Bad escapes and invalid bytes do not crash.
  EXPECT_THAT(UrlWords("http://q.b/%zz%e7%89/%"), ElementsAre("q", "b", "zz"));
}

TEST(UrlWordsTest, Dictionary) {
  absl::StatusOr<UrlDictionary> dict = UrlDictionary::Parse(
      "wuli 物理\nliangzi\t量子\njisuanjikexue 计算机科学\ncs computer "
      "science\nindex 目录\n");
  ASSERT_TRUE(dict.ok()) << dict.status();
  EXPECT_THAT(UrlWords("http://www.pku.edu.cn/wuli/liangzi_lixue.html", &*dict),
              ElementsAre("pku", "edu", "cn", "物理", "量子", "lixue"));
  // Case-insensitive, whole run first ("WuLi"), then case parts.
  EXPECT_THAT(UrlWords("http://site.cn/WuLi/LiangziWuli", &*dict),
              ElementsAre("site", "cn", "物理", "量子", "物理"));
  // Mapped words are tokenized: several tokens, stop words removed.
  std::vector<std::string> words =
      UrlWords("http://site.cn/CS/jisuanjikexue/index.html", &*dict);
  EXPECT_THAT(words, AllOf(Contains("computer"), Contains("science"),
                           Contains("科学"), Contains("目录")));
  // With no dictionary the tokens stay as they are.
  EXPECT_THAT(UrlWords("http://site.cn/wuli", nullptr),
              ElementsAre("site", "cn", "wuli"));
}

// ---------------------------------------------------------------------------
// UrlDictionary
// ---------------------------------------------------------------------------

TEST(UrlDictionaryTest, ParseFormat) {
  absl::StatusOr<UrlDictionary> dict = UrlDictionary::Parse(
      "\xEF\xBB\xBF# comment\r\n\r\n  WuLi \t 物理 \r\n   # indented comment\n"
      "shuxue\t数学\nwuli 物理学\nlast word with spaces");
  ASSERT_TRUE(dict.ok()) << dict.status();
  EXPECT_EQ(dict->size(), 3u);
  EXPECT_EQ(dict->Lookup("wuli"), "物理学");  // the last entry wins
  EXPECT_EQ(dict->Lookup("WULI"), "物理学");
  EXPECT_EQ(dict->Lookup("shuxue"), "数学");
  EXPECT_EQ(dict->Lookup("last"), "word with spaces");
  EXPECT_EQ(dict->Lookup("missing"), "");
  EXPECT_EQ(UrlDictionary().Lookup("wuli"), "");
  ASSERT_TRUE(UrlDictionary::Parse("").ok());
}

TEST(UrlDictionaryTest, ParseErrorsNameTheLine) {
  absl::StatusOr<UrlDictionary> dict =
      UrlDictionary::Parse("# header\nwuli 物理\nlonely\n");
  ASSERT_FALSE(dict.ok());
  EXPECT_EQ(dict.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(dict.status().message(), HasSubstr("line 3"));

  dict = UrlDictionary::Parse("wu-li 物理\n");
  ASSERT_FALSE(dict.ok());
  EXPECT_THAT(dict.status().message(), HasSubstr("line 1"));

  dict = UrlDictionary::Parse("a b\nwuli \xff\xfe\n");
  ASSERT_FALSE(dict.ok());
  EXPECT_THAT(dict.status().message(),
              AllOf(HasSubstr("line 2"), HasSubstr("UTF-8")));
}

TEST(UrlDictionaryTest, Limits) {
  std::string big(UrlDictionary::kMaxBytes + 1, '#');
  absl::StatusOr<UrlDictionary> dict = UrlDictionary::Parse(big);
  ASSERT_FALSE(dict.ok());
  EXPECT_EQ(dict.status().code(), absl::StatusCode::kInvalidArgument);

  std::string many;
  for (size_t i = 0; i <= UrlDictionary::kMaxEntries; ++i) {
    absl::StrAppend(&many, "k", i, " v\n");
  }
  ASSERT_LE(many.size(), UrlDictionary::kMaxBytes);
  dict = UrlDictionary::Parse(many);
  ASSERT_FALSE(dict.ok());
  EXPECT_THAT(dict.status().message(), HasSubstr("line 1000001"));
}

TEST(UrlDictionaryTest, Load) {
  file::TestTempDir tmp_dir;
  const std::string path = tmp_dir.File("url_dictionary_test.txt");
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("wuli 物理\n", f);
  std::fclose(f);
  absl::StatusOr<UrlDictionary> dict = UrlDictionary::Load(path);
  ASSERT_TRUE(dict.ok()) << dict.status();
  EXPECT_EQ(dict->Lookup("wuli"), "物理");

  f = std::fopen(path.c_str(), "wb");
  std::fputs("ok 好\nbroken\n", f);
  std::fclose(f);
  dict = UrlDictionary::Load(path);
  ASSERT_FALSE(dict.ok());
  EXPECT_THAT(dict.status().message(),
              AllOf(HasSubstr(path), HasSubstr("line 2")));

  dict = UrlDictionary::Load(path + ".missing");
  EXPECT_EQ(dict.status().code(), absl::StatusCode::kNotFound);
}

TEST(UrlDictionaryTest, ShippedExampleLoads) {
  absl::StatusOr<UrlDictionary> dict = UrlDictionary::Load(
      std::string(FCRAWL_SOURCE_DIR) + "/core/data/url_dictionary_example.txt");
  ASSERT_TRUE(dict.ok()) << dict.status();
  EXPECT_EQ(dict->Lookup("wuli"), "物理");
}

// ---------------------------------------------------------------------------
// HTML field weights ([INTEREST] §3.2)
// ---------------------------------------------------------------------------

TEST(FieldWeightsTest, Validate) {
  EXPECT_TRUE(FieldWeights().Validate().ok());
  EXPECT_TRUE((FieldWeights{2, 10, 5.5}).Validate().ok());

  absl::Status s = FieldWeights{1, 3, 3}.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("title"));
  s = FieldWeights{3, 3, 10.5}.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("link_text"));
  s = FieldWeights{3, std::nan(""), 3}.Validate();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("meta"));
}

// body {a, b, a}, title {a}, meta {c}, anchor {a, d} with title 3, meta 2,
// link_text 10: a = 1 + 1 + 3 + 10 = 15, b = 1, c = 2, d = 10.
TEST(FieldWeightsTest, WeightedTermCounts) {
  const TermCounts counts = WeightedTermCounts(
      {"a", "b", "a"}, {"a"}, {"c"}, {"a", "d"}, FieldWeights{3, 2, 10});
  EXPECT_THAT(counts, UnorderedElementsAre(Pair("a", 15.0), Pair("b", 1.0),
                                           Pair("c", 2.0), Pair("d", 10.0)));
  // Defaults are 3 each.
  EXPECT_THAT(WeightedTermCounts({}, {"t"}, {"t"}, {"t"}, FieldWeights()),
              UnorderedElementsAre(Pair("t", 9.0)));
}

}  // namespace
}  // namespace fcrawl::text

namespace fcrawl::text {
namespace {

TEST(StemEnglishTest, SnowballStems) {
  EXPECT_EQ(StemEnglish("courses"), "cours");
  EXPECT_EQ(StemEnglish("course"), "cours");
  EXPECT_EQ(StemEnglish("lectures"), "lectur");
  EXPECT_EQ(StemEnglish("running"), "run");
  EXPECT_EQ(StemEnglish("syllabi"), "syllabi");
}

// Stems are kept per thread in two generations; the answers are the same
// from the cache, after a word moved from the older generation to the newer
// and after words were dropped with a generation.
TEST(StemEnglishTest, RepeatedWordsAndAFullCacheGiveTheSameStems) {
  EXPECT_EQ(StemEnglish("lectures"), "lectur");
  EXPECT_EQ(StemEnglish("lectures"), "lectur");
  auto nth_word = [](int i) {
    std::string word = "aaaaa";
    for (size_t k = 0; k < word.size(); ++k) {
      word[k] = static_cast<char>('a' + (i >> (4 * k)) % 16);
    }
    return word + (i % 2 == 0 ? "ing" : "ations");
  };
  std::vector<std::string> first, first_stems;
  for (int i = 0; i < 2000; ++i) {
    first.push_back(nth_word(i));
    first_stems.push_back(StemEnglish(first.back()));
    EXPECT_LT(first_stems.back().size(), first.back().size()) << first.back();
  }
  // Five times what a generation holds; "lectures" now and then, so it
  // moves between the generations instead of being dropped.
  for (int i = 2000; i < 170000; ++i) {
    StemEnglish(nth_word(i));
    if (i % 5000 == 0) {
      EXPECT_EQ(StemEnglish("lectures"), "lectur");
    }
  }
  EXPECT_EQ(StemEnglish("lectures"), "lectur");
  EXPECT_EQ(StemEnglish("running"), "run");
  for (size_t i = 0; i < first.size(); ++i) {
    ASSERT_EQ(StemEnglish(first[i]), first_stems[i]) << first[i];
  }
  std::vector<std::string> tokens = first;
  StemTokens(&tokens);
  EXPECT_EQ(tokens, first_stems);
}

TEST(StemEnglishTest, OnlyAsciiWordsAreStemmed) {
  EXPECT_EQ(StemEnglish("mp3s"), "mp3s");
  EXPECT_EQ(StemEnglish("物理学"), "物理学");
  EXPECT_EQ(StemEnglish("is"), "is");  // too short
  EXPECT_EQ(StemEnglish(std::string(100, 'a')), std::string(100, 'a'));
  std::vector<std::string> tokens = {"galaxies", "2024", "stars"};
  StemTokens(&tokens);
  EXPECT_EQ(tokens, (std::vector<std::string>{"galaxi", "2024", "star"}));
}

}  // namespace
}  // namespace fcrawl::text

namespace fcrawl::text {
namespace {

TEST(PrefixTest, CodePointsAndBytesNeverCutASequence) {
  const std::string s =
      "a\xC3\xA9\xE4\xB8\xAD"
      "b";  // a é 中 b
  EXPECT_EQ(PrefixCodePoints(s, 0), "");
  EXPECT_EQ(PrefixCodePoints(s, 2), "a\xC3\xA9");
  EXPECT_EQ(PrefixCodePoints(s, 3), "a\xC3\xA9\xE4\xB8\xAD");
  EXPECT_EQ(PrefixCodePoints(s, 10), s);
  EXPECT_EQ(PrefixBytes(s, 2), "a");  // inside é
  EXPECT_EQ(PrefixBytes(s, 3), "a\xC3\xA9");
  EXPECT_EQ(PrefixBytes(s, 5), "a\xC3\xA9");  // inside 中
  EXPECT_EQ(PrefixBytes(s, 6), "a\xC3\xA9\xE4\xB8\xAD");
  EXPECT_EQ(PrefixBytes(s, 100), s);
}

}  // namespace
}  // namespace fcrawl::text
