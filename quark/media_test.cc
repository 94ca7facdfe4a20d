#include "quark/media.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "quark/page_proto.h"
#include "quark/quark.h"

namespace fcrawl::quark {
namespace {

std::vector<proto::MediaResource> Media(const std::string& body) {
  absl::StatusOr<AnalyzedPage> page = AnalyzePage(
      "<html><head><title>T</title></head><body>" + body + "</body></html>",
      "http://example.com/dir/page.html", "", "utf-8");
  EXPECT_TRUE(page.ok());
  return page.ok() ? FindMedia(*page) : std::vector<proto::MediaResource>{};
}

TEST(MediaTest, EveryWayOfReferringToMediaWithItsContext) {
  std::vector<proto::MediaResource> m = Media(
      "<div class='article'><h1>Solar eclipse</h1>"
      "<p>The eclipse of 1999 was seen across Europe by millions of people "
      "who stood in the streets to watch the moon pass.</p>"
      "<figure><video controls title='Totality' src='film.mp4'></video>"
      "<figcaption>Totality over Cornwall</figcaption></figure>"
      "<audio controls><source src='/sound/talk?id=3' type='audio/mpeg'>"
      "</audio>"
      "<p><a href='interview.MP3'>Listen to the interview</a> and "
      "<a href='film.mp4'>download the film</a>.</p>"
      "<embed src='/anim/orbit' type='application/x-shockwave-flash'>"
      "<object data='/anim/moon'><param name='movie' value='/anim/moon'>"
      "</object>"
      "<iframe src='https://www.youtube.com/embed/abc' title='Eclipse "
      "video'></iframe>"
      "<iframe src='https://maps.example.org/x'></iframe>"
      "<img src='photo.jpg' alt='A photo'>"
      "<a href='notes.pdf'>notes</a></div>");
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].url(), "http://example.com/dir/film.mp4");
  EXPECT_EQ(m[0].kind(), proto::VIDEO);
  EXPECT_EQ(m[0].tag(), proto::MEDIA);
  EXPECT_EQ(m[0].title(), "Totality");
  EXPECT_EQ(m[0].caption(), "Totality over Cornwall");
  // The later <a> to the same film gives its anchor text.
  EXPECT_EQ(m[0].anchor(), "download the film");
  EXPECT_GE(m[0].block(), 0);
  EXPECT_THAT(m[0].block_text(), ::testing::HasSubstr("eclipse"));
  // An extensionless <source> inside <audio> is audio.
  EXPECT_EQ(m[1].url(), "http://example.com/sound/talk?id=3");
  EXPECT_EQ(m[1].kind(), proto::AUDIO);
  EXPECT_EQ(m[2].url(), "http://example.com/dir/interview.MP3");
  EXPECT_EQ(m[2].kind(), proto::AUDIO);
  EXPECT_EQ(m[2].tag(), proto::ANCHOR);
  EXPECT_EQ(m[2].anchor(), "Listen to the interview");
  EXPECT_EQ(m[3].url(), "http://example.com/anim/orbit");
  EXPECT_EQ(m[3].kind(), proto::ANIMATION);
  EXPECT_EQ(m[3].tag(), proto::EMBED);
  // An <object> of no Flash type (and no media extension) is not media;
  // the player iframe is, the map iframe, the image and the PDF are not.
  EXPECT_EQ(m[4].url(), "https://www.youtube.com/embed/abc");
  EXPECT_EQ(m[4].kind(), proto::VIDEO);
  EXPECT_EQ(m[4].tag(), proto::FRAME);
  EXPECT_EQ(m[4].title(), "Eclipse video");
}

TEST(MediaTest, FlashObjectParamAndLimit) {
  std::vector<proto::MediaResource> m = Media(
      "<object type='application/x-shockwave-flash' data='a'>"
      "<param name='movie' value='b'></object>");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].kind(), proto::ANIMATION);
  EXPECT_EQ(m[1].url(), "http://example.com/dir/b");
  EXPECT_EQ(m[1].kind(), proto::ANIMATION);
  std::string many;
  for (int i = 0; i < 50; ++i) {
    many += "<a href='s" + std::to_string(i) + ".mp3'>song</a> ";
  }
  absl::StatusOr<AnalyzedPage> page =
      AnalyzePage("<html><body>" + many + "</body></html>",
                  "http://example.com/", "", "utf-8");
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(FindMedia(*page, 10).size(), 10u);
  EXPECT_TRUE(Media("<p>No media at all.</p>").empty());
}

TEST(MediaTest, CorpusRecordHasMetadataBlocksAndMedia) {
  absl::StatusOr<AnalyzedPage> page = AnalyzePage(
      "<html lang='en'><head><title>Eclipse</title>"
      "<meta name='author' content='Ann Smith'></head><body>"
      "<ul><li><a href='/'>Home</a></li><li><a href='/news'>News</a></li>"
      "</ul><div><p>The eclipse of 1999 was seen across Europe by millions "
      "of people who stood in the streets to watch the moon pass over the "
      "sun for two minutes.</p><video src='e.webm'></video></div>"
      "</body></html>",
      "http://example.com/a", "", "utf-8");
  ASSERT_TRUE(page.ok());
  const proto::CorpusRecord r = ToCorpusRecord(*page);
  EXPECT_EQ(r.url(), "http://example.com/a");
  EXPECT_EQ(r.title(), "Eclipse");
  EXPECT_EQ(r.byline(), "Ann Smith");
  EXPECT_EQ(r.language(), "en");
  EXPECT_THAT(r.main_text(), ::testing::HasSubstr("eclipse of 1999"));
  ASSERT_GE(r.blocks_size(), 2);
  double share = 0;
  for (const proto::CorpusBlock& b : r.blocks()) share += b.share();
  EXPECT_NEAR(share, 1.0, 1e-9);
  ASSERT_EQ(r.media_size(), 1);
  EXPECT_EQ(r.media(0).kind(), proto::VIDEO);
  CorpusRecordOptions none;
  none.max_blocks = 0;
  none.max_media = 0;
  const proto::CorpusRecord small = ToCorpusRecord(*page, none);
  EXPECT_EQ(small.blocks_size(), 0);
  EXPECT_EQ(small.media_size(), 0);
}

}  // namespace
}  // namespace fcrawl::quark
