#include "worker/graph_export.h"

#include <stdlib.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/test_temp_dir.h"
#include "focus/url_rule.h"
#include "gmock/gmock.h"
#include "graphio/shard.h"
#include "gtest/gtest.h"
#include "proto/graph.pb.h"
#include "proto/link_state.pb.h"
#include "proto/url_rules.pb.h"
#include "storage/link_db.h"

namespace fcrawl::worker {

using ::fcrawl::focus::DecomposeUrl;
using ::fcrawl::focus::ExtractPattern;
using ::fcrawl::focus::SitePhase;
using ::fcrawl::focus::SiteRules;
using ::fcrawl::focus::SiteRulesToProto;
using ::fcrawl::focus::UrlParts;
using ::fcrawl::focus::UrlPattern;
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

proto::LinkRecord Done(const std::string& url) {
  proto::LinkRecord r;
  r.set_url(url);
  r.set_status(proto::LinkRecord::DONE);
  return r;
}

// A page with a content block linking to `content_link`, a noise block
// linking to `noise_link`, and an image (not a page link).
proto::StoredPage Page(const std::string& content_link,
                       const std::string& noise_link, double relevance) {
  proto::StoredPage s;
  s.set_relevance(relevance);
  proto::Page* p = s.mutable_page();
  p->set_text_length(300);
  proto::Block* b0 = p->add_blocks();
  b0->set_index(0);
  b0->set_type(proto::CONTENT);
  b0->set_text_length(250);
  b0->set_start(0);
  proto::Block* b1 = p->add_blocks();
  b1->set_index(1);
  b1->set_type(proto::NOISE);
  b1->set_text_length(50);
  b1->set_start(250);
  b1->set_anchor_text_length(40);
  proto::Link* l0 = p->add_links();
  l0->set_url(content_link);
  l0->set_kind(proto::ANCHOR);
  l0->set_block(0);
  proto::Link* l1 = p->add_links();
  l1->set_url(noise_link);
  l1->set_kind(proto::ANCHOR);
  l1->set_block(1);
  proto::Link* img = p->add_links();
  img->set_url("http://a.test/logo.png");
  img->set_kind(proto::IMAGE);
  img->set_block(1);
  proto::Link* bad = p->add_links();
  bad->set_url("http://a.test/x.html");
  bad->set_kind(proto::AREA);
  bad->set_block(7);  // out of range: exported as -1
  return s;
}

std::vector<proto::GraphPage> ReadAll(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<proto::GraphPage> out;
  for (const std::string& f : files) {
    graphio::ShardReader r;
    EXPECT_TRUE(r.Open(f).ok()) << f;
    proto::GraphPage g;
    while (true) {
      absl::StatusOr<bool> more = r.Next(&g);
      EXPECT_TRUE(more.ok()) << more.status();
      if (!more.ok() || !*more) break;
      out.push_back(g);
    }
  }
  return out;
}

TEST(GraphExportTest, PagesBlocksLinksAndShards) {
  file::TestTempDir tmp_dir;
  const std::string tmp = tmp_dir.path();
  const std::string db_dir = tmp + "/db";
  {
    absl::StatusOr<std::unique_ptr<storage::LinkDb>> db =
        storage::LinkDb::Open(db_dir);
    ASSERT_TRUE(db.ok()) << db.status();
    storage::LinkBatch batch;
    for (const char* u : {"http://a.test/1.html", "http://a.test/2.html",
                          "http://b.test/3.html"}) {
      batch.Put(Done(u), nullptr);
    }
    batch.Put(Done("http://b.test/missing.html"), nullptr);  // no page
    proto::LinkRecord queued;
    queued.set_url("http://b.test/queued.html");
    queued.set_status(proto::LinkRecord::QUEUED);
    batch.Put(queued, nullptr);
    batch.PutPage("http://a.test/1.html",
                  Page("http://a.test/2.html", "http://ads.test/", 0.5));
    batch.PutPage("http://a.test/2.html",
                  Page("http://b.test/3.html", "http://a.test/1.html", 0.25));
    batch.PutPage("http://b.test/3.html",
                  Page("http://a.test/1.html", "http://ads.test/", 0));
    ASSERT_TRUE((*db)->Commit(std::move(batch)).ok());
    // a.test learned /*.html... only 1.html-like names: a pattern that
    // matches 1.html and 2.html.
    SiteRules rules;
    rules.host = "a.test";
    rules.phase = SitePhase::kGuided;
    std::vector<UrlParts> urls;
    for (const char* u : {"http://a.test/1.html", "http://a.test/2.html"}) {
      urls.push_back(*DecomposeUrl(u));
    }
    std::optional<UrlPattern> pattern = ExtractPattern(urls);
    ASSERT_TRUE(pattern.has_value());
    rules.patterns.push_back(*pattern);
    ASSERT_TRUE((*db)
                    ->PutSiteState("a.test",
                                   SiteRulesToProto(rules).SerializeAsString())
                    .ok());
  }
  GraphExportOptions o;
  o.worker = "w7";
  o.pages_per_shard = 2;
  absl::StatusOr<GraphExportSummary> s = ExportGraph(db_dir, tmp + "/graph", o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->pages, 3);
  EXPECT_EQ(s->links, 9);  // 3 page links each; the image is left out
  EXPECT_EQ(s->shards, 2);
  EXPECT_EQ(s->pages_without_record, 1);
  EXPECT_TRUE(std::filesystem::exists(tmp + "/graph/graph-w7-0.fcg"));
  EXPECT_TRUE(std::filesystem::exists(tmp + "/graph/graph-w7-1.fcg"));

  std::vector<proto::GraphPage> pages = ReadAll(tmp + "/graph");
  ASSERT_EQ(pages.size(), 3u);
  std::map<std::string, proto::GraphPage> by_url;
  for (const auto& g : pages) by_url[g.url()] = g;
  const proto::GraphPage& one = by_url["http://a.test/1.html"];
  EXPECT_EQ(one.relevance(), 0.5);
  EXPECT_EQ(one.text_length(), 300);
  ASSERT_EQ(one.blocks_size(), 2);
  EXPECT_EQ(one.blocks(0).type(), proto::CONTENT);
  EXPECT_EQ(one.blocks(1).type(), proto::NOISE);
  EXPECT_EQ(one.blocks(1).position(), 1);
  EXPECT_EQ(one.blocks(1).start(), 250);
  EXPECT_EQ(one.blocks(1).anchor_text_length(), 40);
  ASSERT_EQ(one.links_size(), 3);
  EXPECT_EQ(one.links(0).target_url(), "http://a.test/2.html");
  EXPECT_EQ(one.links(0).block(), 0);
  EXPECT_EQ(one.links(1).block(), 1);
  EXPECT_EQ(one.links(2).block(), -1);
  EXPECT_EQ(one.url_rule_distance(), 0);  // the pattern matches
  EXPECT_EQ(by_url["http://b.test/3.html"].url_rule_distance(), 0);  // none

  // Exporting again replaces this worker's shards.
  o.pages_per_shard = 100;
  s = ExportGraph(db_dir, tmp + "/graph", o);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->shards, 1);
  EXPECT_FALSE(std::filesystem::exists(tmp + "/graph/graph-w7-1.fcg"));
  EXPECT_EQ(ReadAll(tmp + "/graph").size(), 3u);
}

TEST(GraphExportTest, Errors) {
  file::TestTempDir tmp_dir;
  const std::string tmp = tmp_dir.path();
  EXPECT_THAT(
      std::string(ExportGraph(tmp + "/no-db", tmp + "/g").status().message()),
      HasSubstr("no-db"));
  GraphExportOptions bad;
  bad.worker = "../x";
  EXPECT_EQ(ExportGraph(tmp + "/no-db", tmp + "/g", bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  bad.worker = "w";
  bad.pages_per_shard = 0;
  EXPECT_EQ(ExportGraph(tmp + "/no-db", tmp + "/g", bad).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fcrawl::worker
