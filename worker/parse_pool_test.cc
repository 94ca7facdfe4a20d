#include "worker/parse_pool.h"

#include <string>

#include "gtest/gtest.h"
#include "proto/crawl_config.pb.h"

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

}  // namespace
}  // namespace fcrawl::worker
