#include "worker/fetch_outcomes.h"

#include <optional>

#include "gtest/gtest.h"

namespace fcrawl::worker {
namespace {

FetchFacts Answered(int status, bool parsed = false, bool on_topic = false) {
  FetchFacts f;
  f.fetched = true;
  f.http_status = status;
  f.parsed = parsed;
  f.on_topic = on_topic;
  return f;
}

TEST(ClassifyFetchTest, EachClass) {
  EXPECT_EQ(ClassifyFetch(Answered(200, true, true)), FetchOutcome::kOnTopic);
  EXPECT_EQ(ClassifyFetch(Answered(200, true, false)), FetchOutcome::kOffTopic);
  EXPECT_EQ(ClassifyFetch(Answered(404)), FetchOutcome::kNotFound);
  EXPECT_EQ(ClassifyFetch(Answered(410)), FetchOutcome::kNotFound);
  EXPECT_EQ(ClassifyFetch(Answered(403)), FetchOutcome::kHttpError);
  EXPECT_EQ(ClassifyFetch(Answered(503)), FetchOutcome::kHttpError);
  EXPECT_EQ(ClassifyFetch(Answered(199)), FetchOutcome::kHttpError);
  EXPECT_EQ(ClassifyFetch(Answered(301)), FetchOutcome::kRedirected);
  EXPECT_EQ(ClassifyFetch(Answered(308)), FetchOutcome::kRedirected);
  // A 2xx the parse pool did not get (a PDF, an empty body).
  EXPECT_EQ(ClassifyFetch(Answered(200)), FetchOutcome::kNotHtml);
  EXPECT_EQ(ClassifyFetch(Answered(204)), FetchOutcome::kNotHtml);

  FetchFacts timeout;
  timeout.fetched = true;
  timeout.transport_error = true;
  EXPECT_EQ(ClassifyFetch(timeout), FetchOutcome::kTransportError);
  // A connection reset after the status line: the answer is incomplete.
  FetchFacts reset = Answered(200);
  reset.transport_error = true;
  EXPECT_EQ(ClassifyFetch(reset), FetchOutcome::kTransportError);
}

TEST(ClassifyFetchTest, DecidedWithoutAnAnswer) {
  // robots.txt refused the URL: no request, and it counts.
  FetchFacts robots;
  robots.decided = FetchOutcome::kRobots;
  EXPECT_EQ(ClassifyFetch(robots), FetchOutcome::kRobots);
  // A redirect hop was fetched (a 301) before robots.txt refused its
  // target: the URL ends refused, not redirected.
  FetchFacts hop = Answered(301);
  hop.decided = FetchOutcome::kRobots;
  EXPECT_EQ(ClassifyFetch(hop), FetchOutcome::kRobots);
  FetchFacts unreachable;
  unreachable.decided = FetchOutcome::kTransportError;
  EXPECT_EQ(ClassifyFetch(unreachable), FetchOutcome::kTransportError);
  // The strategy refused it: never meant to be fetched, not counted.
  EXPECT_EQ(ClassifyFetch(FetchFacts{}), std::nullopt);
}

TEST(ClassifyFetchTest, OnTopicWinsOverAProblemButNeedsAParse) {
  // Parsed though truncated (an error on the record): still on topic.
  FetchFacts truncated = Answered(200, true, true);
  EXPECT_EQ(ClassifyFetch(truncated), FetchOutcome::kOnTopic);
  // on_topic without a parse cannot happen; if it did it would not count
  // as a page judged on topic.
  EXPECT_EQ(ClassifyFetch(Answered(200, false, true)), FetchOutcome::kNotHtml);
}

TEST(FetchOutcomeCounterTest, HandCounted) {
  FetchOutcomeCounter c;
  // Three on-topic pages on two hosts (b.test twice, once with another
  // path), one on a:8080 (a host of its own: another port).
  c.Add(FetchOutcome::kOnTopic, "http://b.test/x");
  c.Add(FetchOutcome::kOnTopic, "http://B.test/y");
  c.Add(FetchOutcome::kOnTopic, "http://a.test:8080/");
  c.Add(FetchOutcome::kOffTopic, "http://c.test/");
  c.Add(FetchOutcome::kOffTopic, "http://c.test/2");
  c.Add(FetchOutcome::kNotFound, "http://d.test/gone");
  c.Add(FetchOutcome::kNotFound, "http://d.test/gone2");
  c.Add(FetchOutcome::kNotFound, "http://d.test/gone3");
  c.Add(FetchOutcome::kHttpError, "http://d.test/500");
  c.Add(FetchOutcome::kTransportError, "");
  c.Add(FetchOutcome::kRobots, "");
  c.Add(FetchOutcome::kRobots, "");
  c.Add(FetchOutcome::kNotHtml, "http://c.test/a.pdf");
  c.Add(FetchOutcome::kRedirected, "http://e.test/elsewhere");
  const FetchOutcomeCounts& n = c.counts();
  EXPECT_EQ(n.on_topic, 3);
  EXPECT_EQ(n.off_topic, 2);
  EXPECT_EQ(n.not_found, 3);
  EXPECT_EQ(n.http_error, 1);
  EXPECT_EQ(n.transport_error, 1);
  EXPECT_EQ(n.robots, 2);
  EXPECT_EQ(n.not_html, 1);
  EXPECT_EQ(n.redirected, 1);
  EXPECT_EQ(n.on_topic_hosts, 2);  // b.test, a.test:8080
  // Only on-topic pages bring hosts; an unusable URL brings none.
  c.Add(FetchOutcome::kOnTopic, "not a url");
  EXPECT_EQ(c.counts().on_topic, 4);
  EXPECT_EQ(c.counts().on_topic_hosts, 2);
}

}  // namespace
}  // namespace fcrawl::worker
