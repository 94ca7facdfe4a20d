#include "formats/corpus.h"

#include <limits>
#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace fcrawl::formats {
namespace {

using ::testing::HasSubstr;

proto::CorpusRecord FullRecord() {
  proto::CorpusRecord r;
  r.set_url("http://a.test/x.html");
  r.set_fetched_url("http://a.test/x.html?s=1");
  r.set_canonical_url("http://a.test/x.html");
  r.set_fetched_at("2026-11-27T08:00:00.123Z");
  r.set_language("zh-cn");
  r.set_title("标题 \"quoted\"");
  r.set_byline("By A. Writer");
  r.set_date("2026-11-01");
  r.set_main_text("line one\nline two\t\\ 中文");
  r.set_main_markdown("# line one\n\n- line two\t\\ 中文");
  r.set_relevance(0.125);
  r.set_topic_score(0.75);
  r.set_on_topic(true);
  r.set_topic_model("keywords+feedback");
  r.set_duplicate_of("http://b.test/y.html");
  proto::CorpusBlock* b = r.add_blocks();
  b->set_type(proto::CONTENT);
  b->set_text_length(300);
  b->set_share(0.75);
  b = r.add_blocks();
  b->set_type(proto::NAVIGATION);
  b->set_text_length(100);
  b->set_share(0.25);
  b->set_site_template(true);
  proto::MediaResource* m = r.add_media();
  m->set_url("http://a.test/media/x.mp4");
  m->set_kind(proto::VIDEO);
  m->set_tag(proto::MEDIA);
  m->set_title("A film");
  m->set_caption("The caption");
  m->set_anchor("");
  m->set_block(0);
  m->set_block_type(proto::CONTENT);
  m->set_block_text("Around the video");
  r.set_anchor("an anchor");
  r.set_rank(3);
  r.set_rank_score(12.5);
  return r;
}

TEST(CorpusTest, RecordRoundTrips) {
  const proto::CorpusRecord r = FullRecord();
  const std::string line = CorpusJson(r);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  absl::StatusOr<proto::CorpusRecord> back = ParseCorpusJson(line);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << line;
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(r, *back))
      << back->DebugString();
}

TEST(CorpusTest, UnsetOptionalsAreNullAndReadBackUnset) {
  proto::CorpusRecord r;
  r.set_url("http://a.test/");
  const std::string line = CorpusJson(r);
  EXPECT_THAT(line, HasSubstr("\"relevance\":null"));
  EXPECT_THAT(line, HasSubstr("\"on_topic\":null"));
  EXPECT_THAT(line, HasSubstr("\"rank\":null"));
  EXPECT_THAT(line, HasSubstr("\"main_markdown\":null"));
  absl::StatusOr<proto::CorpusRecord> back = ParseCorpusJson(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->has_main_markdown());
  EXPECT_FALSE(back->has_relevance());
  EXPECT_FALSE(back->has_on_topic());
  EXPECT_FALSE(back->has_rank());
  // The value false is not "unset".
  r.set_on_topic(false);
  back = ParseCorpusJson(CorpusJson(r));
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back->has_on_topic());
}

TEST(CorpusTest, AnyBytesGiveValidJson) {
  proto::CorpusRecord r;
  r.set_url("http://a.test/");
  r.set_title(std::string("bad \xFF\xFE utf8 \x01 ctl\0z", 19));  // a NUL too
  r.set_relevance(std::numeric_limits<double>::quiet_NaN());
  const std::string line = CorpusJson(r);
  EXPECT_THAT(line, HasSubstr("\"relevance\":null"));
  absl::StatusOr<proto::CorpusRecord> back = ParseCorpusJson(line);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << line;
  EXPECT_THAT(back->title(), HasSubstr("\xEF\xBF\xBD"));
}

TEST(CorpusTest, OlderAndNewerLinesAreRead) {
  // A line of an earlier version (fewer keys, null topic_model) and one with
  // a key this version does not know.
  absl::StatusOr<proto::CorpusRecord> old = ParseCorpusJson(
      R"({"url":"http://a/","title":"t","main_text":"m","relevance":null,)"
      R"("topic_score":null,"on_topic":null,"topic_model":null,)"
      R"("fetched_at":"2024-05-01T12:34:56.001Z"})");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->main_text(), "m");
  EXPECT_FALSE(old->has_main_markdown());  // written before it existed
  absl::StatusOr<proto::CorpusRecord> newer =
      ParseCorpusJson(R"({"url":"http://a/","future":{"x":[1,2]}})");
  ASSERT_TRUE(newer.ok()) << newer.status();
  EXPECT_EQ(newer->url(), "http://a/");
}

TEST(CorpusTest, BadLinesAreRefusedWithTheReason) {
  for (const char* bad : {"", "{", "[1]", "{\"url\":5}", "{\"rank\":\"x\"}"}) {
    absl::StatusOr<proto::CorpusRecord> r = ParseCorpusJson(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_THAT(std::string(r.status().message()),
                  HasSubstr("not a corpus record"));
    }
  }
  absl::StatusOr<proto::CorpusRecord> big =
      ParseCorpusJson(std::string(100, ' '), 10);
  ASSERT_FALSE(big.ok());
  EXPECT_THAT(std::string(big.status().message()), HasSubstr("over 10"));
}

}  // namespace
}  // namespace fcrawl::formats
