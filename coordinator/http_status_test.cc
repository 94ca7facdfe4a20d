#include "coordinator/http_status.h"

#include <limits>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace fcrawl::coordinator {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A crawl of 400 pages by two workers; every figure below is derived by
// hand from these values.
proto::StatusResponse TwoWorkers(bool labelled) {
  proto::StatusResponse s;
  s.set_crawl_id("c-1");
  s.set_state(proto::RUNNING);
  s.set_budget(1000);
  s.set_quota_granted(600);
  s.set_pages_fetched(400);
  s.set_on_topic(100);  // harvest 100/400 = 0.25
  if (labelled) {
    s.set_labelled(true);
    s.set_labelled_on_topic(80);  // 80/400 = 0.2
  }
  s.set_errors(7);  // 4 + 2 by kind, 1 without a kind
  (*s.mutable_errors_by_kind())["timeout"] = 2;
  (*s.mutable_errors_by_kind())["http_4xx"] = 4;
  (*s.mutable_skipped())["strategy"] = 30;
  (*s.mutable_skipped())["robots"] = 5;
  // The 400 pages and the 3 URLs robots.txt refused, by outcome.
  proto::FetchOutcomeCounts* o = s.mutable_fetch_outcomes();
  o->set_on_topic(100);
  o->set_off_topic(280);
  o->set_not_found(12);
  o->set_http_error(4);
  o->set_transport_error(2);
  o->set_robots(3);
  o->set_redirected(2);
  o->set_on_topic_hosts(9);
  s.set_queued(250);
  s.set_pages_per_second(12.5);
  s.set_elapsed_seconds(32);
  s.set_coordinator_cpu_seconds(0.25);
  s.set_coordinator_memory_bytes(12 << 20);
  (*s.mutable_http_statuses())["200"] = 380;
  (*s.mutable_http_statuses())["none"] = 2;
  (*s.mutable_content_types())["text/html"] = 380;
  s.set_links_routed(42);
  s.mutable_view()->set_version(3);
  for (const char* name : {"w1", "w2"}) {
    proto::Member* m = s.mutable_view()->add_members();
    m->set_name(name);
    m->set_address("127.0.0.1:7001");
  }
  proto::WorkerStatus* w1 = s.add_workers();
  w1->mutable_member()->set_name("w1");
  w1->mutable_member()->set_address("127.0.0.1:7001");
  w1->mutable_stats()->set_pages_fetched(250);
  w1->mutable_stats()->set_queued(150);
  w1->mutable_stats()->set_hosts_owned(10);
  w1->mutable_stats()->set_in_flight(3);
  w1->mutable_stats()->set_errors(5);
  w1->mutable_stats()->set_cpu_seconds(1.5);
  w1->mutable_stats()->set_bytes_fetched(123456);
  w1->mutable_stats()->set_memory_bytes(200 << 20);
  w1->mutable_stats()->set_paused(
      "disk full on /data: 3 MiB free (budget.min_free_disk_mb 256)");
  w1->set_lease_left_ms(4000);
  proto::WorkerStatus* w2 = s.add_workers();
  w2->mutable_member()->set_name("w2");
  w2->mutable_stats()->set_pages_fetched(150);
  w2->mutable_stats()->set_queued(100);
  w2->mutable_stats()->set_hosts_owned(7);
  w2->mutable_stats()->set_errors(2);
  w2->mutable_stats()->set_cpu_seconds(12345678901.0);  // exact, no exponent
  w2->set_idle(true);
  w2->set_draining(true);
  return s;
}

std::set<std::string> Lines(const std::string& text) {
  std::set<std::string> out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    out.insert(std::string(line));
  }
  return out;
}

TEST(RenderMetricsTest, HandCheckedLines) {
  const std::string text = RenderMetrics(TwoWorkers(/*labelled=*/true));
  const std::set<std::string> lines = Lines(text);
  for (const char* want : {
           "# TYPE fcrawl_pages_fetched_total counter",
           "fcrawl_pages_fetched_total 400",
           "fcrawl_on_topic_pages_total 100",
           "fcrawl_labelled_on_topic_pages_total 80",
           "# TYPE fcrawl_errors_total counter",
           "fcrawl_errors_total{kind=\"http_4xx\"} 4",
           "fcrawl_errors_total{kind=\"timeout\"} 2",
           "fcrawl_errors_total{kind=\"other\"} 1",
           "# TYPE fcrawl_skipped_urls_total counter",
           "fcrawl_skipped_urls_total{reason=\"robots\"} 5",
           "fcrawl_skipped_urls_total{reason=\"strategy\"} 30",
           "# TYPE fcrawl_fetch_outcomes_total counter",
           "fcrawl_fetch_outcomes_total{outcome=\"on_topic\"} 100",
           "fcrawl_fetch_outcomes_total{outcome=\"off_topic\"} 280",
           "fcrawl_fetch_outcomes_total{outcome=\"not_found\"} 12",
           "fcrawl_fetch_outcomes_total{outcome=\"http_error\"} 4",
           "fcrawl_fetch_outcomes_total{outcome=\"transport_error\"} 2",
           "fcrawl_fetch_outcomes_total{outcome=\"robots\"} 3",
           "fcrawl_fetch_outcomes_total{outcome=\"not_html\"} 0",
           "fcrawl_fetch_outcomes_total{outcome=\"redirected\"} 2",
           "# TYPE fcrawl_on_topic_hosts gauge",
           "fcrawl_on_topic_hosts 9",
           "# TYPE fcrawl_pages_per_second gauge",
           "fcrawl_pages_per_second 12.5",
           "fcrawl_queue_urls 250",
           "fcrawl_workers 2",
           "fcrawl_harvest_rate 0.25",
           "fcrawl_labelled_harvest_rate 0.2",
           "fcrawl_crawl_state{state=\"RUNNING\"} 1",
           "fcrawl_crawl_state{state=\"IDLE\"} 0",
           "fcrawl_crawl_state{state=\"DONE\"} 0",
           "fcrawl_quota_granted_total 600",
           "fcrawl_budget_pages 1000",
           "fcrawl_links_routed_total 42",
           "fcrawl_elapsed_seconds 32",
           "fcrawl_coordinator_cpu_seconds_total 0.25",
           "fcrawl_worker_pages_fetched_total{worker=\"w1\"} 250",
           "fcrawl_worker_pages_fetched_total{worker=\"w2\"} 150",
           "fcrawl_worker_queue_urls{worker=\"w1\"} 150",
           "fcrawl_worker_hosts{worker=\"w2\"} 7",
           "fcrawl_worker_in_flight{worker=\"w1\"} 3",
           "fcrawl_worker_errors_total{worker=\"w1\"} 5",
           "fcrawl_worker_cpu_seconds_total{worker=\"w1\"} 1.5",
           "fcrawl_worker_cpu_seconds_total{worker=\"w2\"} 12345678901",
           "fcrawl_worker_idle{worker=\"w1\"} 0",
           "fcrawl_worker_idle{worker=\"w2\"} 1",
           "fcrawl_worker_draining{worker=\"w2\"} 1",
           "fcrawl_worker_paused{worker=\"w1\"} 1",
           "fcrawl_worker_fetched_bytes_total{worker=\"w1\"} 123456",
           "fcrawl_worker_fetched_bytes_total{worker=\"w2\"} 0",
           "fcrawl_worker_memory_bytes{worker=\"w1\"} 209715200",
           "fcrawl_coordinator_memory_bytes 12582912",
           "fcrawl_crawl_info{crawl_id=\"c-1\"} 1",
           "fcrawl_http_responses_total{status=\"200\"} 380",
           "fcrawl_http_responses_total{status=\"none\"} 2",
           "fcrawl_content_types_total{type=\"text/html\"} 380",
           "fcrawl_worker_paused{worker=\"w2\"} 0",
       }) {
    EXPECT_TRUE(lines.count(want)) << "missing line: " << want << "\n" << text;
  }
  // No unspecified state series.
  EXPECT_THAT(text, Not(HasSubstr("CRAWL_STATE_UNSPECIFIED")));
  EXPECT_TRUE(absl::EndsWith(text, "\n"));
}

TEST(RenderMetricsTest, UnlabelledHasNoLabelledFamilies) {
  const std::string text = RenderMetrics(TwoWorkers(/*labelled=*/false));
  EXPECT_THAT(text, HasSubstr("\nfcrawl_harvest_rate 0.25\n"));
  EXPECT_THAT(text, Not(HasSubstr("labelled")));
}

// Structure of the exposition format: every family has one HELP then one
// TYPE line before its samples, samples belong to the family just declared,
// counters end in _total, and no family appears twice.
TEST(RenderMetricsTest, WellFormedFamilies) {
  for (bool labelled : {false, true}) {
    proto::StatusResponse s = TwoWorkers(labelled);
    const std::string text = RenderMetrics(s);
    std::set<std::string> seen;
    std::string family, pending_help;
    int samples = 0;
    for (absl::string_view line : absl::StrSplit(text, '\n')) {
      if (line.empty()) continue;
      std::vector<std::string> f = absl::StrSplit(line, ' ');
      if (absl::StartsWith(line, "# HELP ")) {
        ASSERT_GE(f.size(), 4u) << line;
        pending_help = f[2];
      } else if (absl::StartsWith(line, "# TYPE ")) {
        ASSERT_EQ(f.size(), 4u) << line;
        EXPECT_EQ(f[2], pending_help) << "TYPE without its HELP: " << line;
        family = f[2];
        EXPECT_TRUE(seen.insert(family).second) << "twice: " << family;
        EXPECT_TRUE(f[3] == "counter" || f[3] == "gauge") << line;
        EXPECT_EQ(f[3] == "counter", absl::EndsWith(family, "_total")) << line;
      } else {
        ASSERT_FALSE(family.empty()) << line;
        const std::string name(line.substr(0, line.find_first_of("{ ")));
        EXPECT_EQ(name, family) << line;
        ++samples;
      }
    }
    EXPECT_GT(samples, 30);
  }
}

TEST(RenderMetricsTest, EscapesWorkerNames) {
  proto::StatusResponse s = TwoWorkers(false);
  s.mutable_workers(0)->mutable_member()->set_name("a\"b\\c\nd");
  const std::string text = RenderMetrics(s);
  EXPECT_THAT(text, HasSubstr("fcrawl_worker_pages_fetched_total{worker="
                              "\"a\\\"b\\\\c\\nd\"} 250\n"));
  // The raw newline never reaches the output: every line is a comment or
  // starts with a metric name.
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    EXPECT_TRUE(absl::StartsWith(line, "#") ||
                absl::StartsWith(line, "fcrawl_"))
        << line;
  }
}

TEST(RenderMetricsTest, WorkerWithoutMemberUsesStatsName) {
  proto::StatusResponse s;
  s.add_workers()->mutable_stats()->set_name("fromstats");
  EXPECT_THAT(RenderMetrics(s),
              HasSubstr("fcrawl_worker_idle{worker=\"fromstats\"} 0\n"));
}

TEST(RenderMetricsTest, EmptyStatus) {
  const std::string text = RenderMetrics(proto::StatusResponse());
  EXPECT_THAT(text, HasSubstr("\nfcrawl_pages_fetched_total 0\n"));
  EXPECT_THAT(text, HasSubstr("\nfcrawl_harvest_rate 0\n"));  // not NaN
  EXPECT_THAT(text, HasSubstr("\nfcrawl_workers 0\n"));
  EXPECT_THAT(text, Not(HasSubstr("fcrawl_errors_total{")));
}

TEST(StatusHistoryTest, KeepsTheLastCapacitySamples) {
  StatusHistory h(3);
  EXPECT_TRUE(h.Snapshot().empty());
  for (int i = 0; i < 5; ++i) {
    StatusSample s;
    s.seconds = i;
    s.pages = 10 * i;
    h.Add(s);
  }
  std::vector<StatusSample> got = h.Snapshot();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].seconds, 2);
  EXPECT_EQ(got[1].seconds, 3);
  EXPECT_EQ(got[2].seconds, 4);
  EXPECT_EQ(got[2].pages, 40);
  h.Clear();
  EXPECT_TRUE(h.Snapshot().empty());

  StatusHistory none(0);
  none.Add(StatusSample());
  EXPECT_TRUE(none.Snapshot().empty());

  StatusHistory big;  // default: an hour of one sample a second
  for (int i = 0; i < 4000; ++i) big.Add(StatusSample());
  EXPECT_EQ(big.Snapshot().size(), 3600u);
}

TEST(SampleOfTest, Values) {
  StatusSample s = SampleOf(TwoWorkers(/*labelled=*/true));
  EXPECT_EQ(s.seconds, 32);
  EXPECT_EQ(s.pages, 400);
  EXPECT_EQ(s.pages_per_second, 12.5);
  EXPECT_DOUBLE_EQ(s.harvest, 0.25);
  EXPECT_DOUBLE_EQ(s.labelled_harvest, 0.2);
  EXPECT_EQ(s.workers, 2);
  EXPECT_EQ(s.queued, 250);

  EXPECT_EQ(SampleOf(TwoWorkers(false)).labelled_harvest, -1);

  proto::StatusResponse empty;
  empty.set_labelled(true);
  StatusSample e = SampleOf(empty);
  EXPECT_EQ(e.harvest, 0);  // no page: 0, not NaN
  EXPECT_EQ(e.labelled_harvest, 0);
  EXPECT_EQ(e.workers, 0);
}

TEST(RenderStatusJsonTest, StatusAndHistory) {
  StatusSample a;
  a.seconds = 1;
  a.pages = 10;
  a.pages_per_second = 2.5;
  a.harvest = 0.5;
  a.workers = 2;
  a.queued = 7;
  StatusSample b = a;
  b.seconds = 2;
  b.labelled_harvest = 0.25;
  const std::string json = RenderStatusJson(TwoWorkers(true), {a, b});

  EXPECT_THAT(json, HasSubstr("\"crawlId\":\"c-1\""));
  EXPECT_THAT(json, HasSubstr("\"state\":\"RUNNING\""));
  EXPECT_THAT(json, HasSubstr("\"pagesFetched\":\"400\""));  // int64: string
  EXPECT_THAT(json, HasSubstr("\"pagesPerSecond\":12.5"));
  EXPECT_THAT(json, HasSubstr("\"stopReason\":\"\""));  // defaults printed
  EXPECT_THAT(json, HasSubstr("\"leaseLeftMs\":\"4000\""));
  EXPECT_THAT(json, HasSubstr("\"errorsByKind\":{"));
  EXPECT_THAT(json, HasSubstr("\"fetchOutcomes\":{\"onTopic\":\"100\","));
  EXPECT_THAT(json, HasSubstr("\"notFound\":\"12\""));
  EXPECT_THAT(json, HasSubstr("\"notHtml\":\"0\""));  // zeros printed
  EXPECT_THAT(json, HasSubstr("\"onTopicHosts\":\"9\""));
  EXPECT_THAT(json,
              HasSubstr("{\"seconds\":1,\"pages\":10,\"pages_per_second\":2.5,"
                        "\"harvest\":0.5,\"labelled_harvest\":null,"
                        "\"workers\":2,\"queued\":7}"));
  EXPECT_THAT(json, HasSubstr("\"labelled_harvest\":0.25"));

  // The whole document is valid JSON with the two members.
  google::protobuf::Struct doc;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &doc).ok())
      << json;
  ASSERT_TRUE(doc.fields().count("status"));
  ASSERT_TRUE(doc.fields().count("history"));
  EXPECT_EQ(doc.fields().at("history").list_value().values_size(), 2);
  EXPECT_EQ(doc.fields()
                .at("status")
                .struct_value()
                .fields()
                .at("workers")
                .list_value()
                .values_size(),
            2);
}

TEST(RenderStatusJsonTest, NonFiniteBecomesNullAndEmptyHistory) {
  StatusSample s;
  s.pages_per_second = std::numeric_limits<double>::quiet_NaN();
  s.harvest = std::numeric_limits<double>::infinity();
  const std::string json = RenderStatusJson(proto::StatusResponse(), {s});
  EXPECT_THAT(json, HasSubstr("\"pages_per_second\":null,\"harvest\":null"));
  google::protobuf::Struct doc;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &doc).ok());

  const std::string empty = RenderStatusJson(proto::StatusResponse(), {});
  EXPECT_TRUE(absl::EndsWith(empty, ",\"history\":[]}")) << empty;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(empty, &doc).ok());
}

TEST(StatusPageHtmlTest, SelfContained) {
  const std::string& html = StatusPageHtml();
  EXPECT_TRUE(absl::StartsWith(html, "<!doctype html>"));
  // The data request: relative, the token (if any) in the Authorization
  // header, never in the URL.
  EXPECT_THAT(html, HasSubstr("var DATA_URL = \"status.json\";"));
  EXPECT_THAT(html, HasSubstr("\"Authorization\": \"Bearer \" + t"));
  // The one thing read from the URL is a search query, never the token.
  EXPECT_THAT(html,
              HasSubstr("URLSearchParams(window.location.search).get(\"q\")"));
  EXPECT_EQ(html.find("location.search"), html.rfind("location.search"));
  // The search box asks /search.json, relative, with the token's header.
  EXPECT_THAT(html, HasSubstr("<form class=\"search\" id=\"search-form\">"));
  EXPECT_THAT(
      html,
      HasSubstr("fetch(\"search.json?limit=10&q=\" + encodeURIComponent(q),"));
  // No external resources: the only URL is the SVG namespace.
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("@import")));
  // Data goes into the DOM as text only.
  EXPECT_THAT(html, Not(HasSubstr("innerHTML")));
  EXPECT_THAT(html, Not(HasSubstr("document.write")));
  EXPECT_THAT(html, HasSubstr("textContent"));
  // The fetch outcomes' card reads the status's classes, not a list of its
  // own.
  EXPECT_THAT(html, HasSubstr("id=\"outcome-shares\""));
  EXPECT_THAT(html, HasSubstr("Object.keys(fo)"));
  EXPECT_EQ(&html, &StatusPageHtml());  // built once
}

}  // namespace
}  // namespace fcrawl::coordinator
