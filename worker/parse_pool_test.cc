#include "worker/parse_pool.h"

#include <string>

#include "core/text.h"
#include "gtest/gtest.h"
#include "proto/crawl_config.pb.h"
#include "quark/quark.h"
#include "quark/test_util.h"

namespace fcrawl::worker {
namespace {

google::protobuf::RepeatedPtrField<std::string> Types(
    std::initializer_list<const char*> types) {
  google::protobuf::RepeatedPtrField<std::string> out;
  for (const char* t : types) out.Add(t);
  return out;
}

TEST(ContentTypeAcceptedTest, ListedTypesWildcardsAndNoType) {
  const auto html = Types({"text/html", "application/xhtml+xml"});
  EXPECT_TRUE(ContentTypeAccepted(html, "text/html; charset=utf-8", "x"));
  EXPECT_TRUE(ContentTypeAccepted(html, "TEXT/HTML", "x"));
  EXPECT_TRUE(ContentTypeAccepted(html, "", "anything"));
  EXPECT_FALSE(ContentTypeAccepted(html, "image/gif", "<html>"));
  EXPECT_TRUE(ContentTypeAccepted(Types({"text/*"}), "text/csv", "a,b"));
}

// Old sites' files without an extension reach the crawler as text/plain
// (Apache's DefaultType) or application/octet-stream (nginx's): parsed when
// their bytes start like HTML, and only then.
TEST(ContentTypeAcceptedTest, UnnamedTypesParsedWhenTheBytesAreHtml) {
  const auto html = Types({"text/html", "application/xhtml+xml"});
  const std::string page = "\n<HTML><HEAD><TITLE>CS 302</TITLE>";
  for (const char* type : {"text/plain", "text/plain; charset=iso-8859-1",
                           "application/octet-stream", "application/unknown",
                           "unknown/unknown", "binary/octet-stream"}) {
    EXPECT_TRUE(ContentTypeAccepted(html, type, page)) << type;
    EXPECT_FALSE(ContentTypeAccepted(html, type, "%!PS-Adobe-2.0\n")) << type;
    EXPECT_FALSE(ContentTypeAccepted(html, type, "Lecture notes, week 1"))
        << type;
  }
  // Named types are what they say.
  EXPECT_FALSE(ContentTypeAccepted(html, "application/pdf", page));
  EXPECT_FALSE(ContentTypeAccepted(html, "text/css", page));
  // A crawl that does not parse HTML does not sniff for it.
  EXPECT_FALSE(ContentTypeAccepted(Types({"application/xhtml+xml"}),
                                   "text/plain", page));
}

// The page's terms from quark's split blocks are what splitting every
// block's text again gives, with any cap on the tokens, and with a
// tokenizer that splits otherwise (which cannot take quark's).
TEST(TakeBlockTokensTest, QuarksTokensAreWhatSplittingTheBlocksGives) {
  for (const char* fixture : {"article.html", "zh_sina.html"}) {
    for (size_t max_tokens :
         {size_t{1} << 20, size_t{60}, size_t{7}, size_t{0}}) {
      for (bool remove_stop_words : {true, false}) {
        SCOPED_TRACE(::testing::Message()
                     << fixture << ", max_tokens " << max_tokens
                     << ", remove_stop_words " << remove_stop_words);
        absl::StatusOr<quark::AnalyzedPage> page = quark::AnalyzePage(
            quark::testing::ReadFixture(fixture), "http://news.example/a",
            "text/html", "", quark::PageOptions());
        ASSERT_TRUE(page.ok()) << page.status();
        std::vector<quark::Block>& blocks = page->segmentation.blocks;
        size_t split_by_quark = 0;
        for (const quark::Block& b : blocks) split_by_quark += b.tokenized;
        ASSERT_GT(split_by_quark, 0u);
        text::TokenizerOptions options;
        options.max_tokens = max_tokens;
        options.remove_stop_words = remove_stop_words;
        const text::Tokenizer tokenizer(options);
        std::vector<std::string> want;
        std::vector<size_t> want_ends;
        for (const quark::Block& b : blocks) {
          if (want.size() < max_tokens) {
            tokenizer.TokenizeInto(b.text, &want);
            if (want.size() > max_tokens) want.resize(max_tokens);
          }
          want_ends.push_back(want.size());
        }
        std::vector<size_t> ends = {99};  // replaced
        EXPECT_EQ(TakeBlockTokens(tokenizer, &blocks, &ends), want);
        EXPECT_EQ(ends, want_ends);
        for (const quark::Block& b : blocks) {
          EXPECT_TRUE(b.tokens.empty());
          EXPECT_FALSE(b.tokenized);
        }
      }
    }
  }
}

}  // namespace
}  // namespace fcrawl::worker
