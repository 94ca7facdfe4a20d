#include "worker/fetch_outcomes.h"

#include <string>
#include <utility>

#include "core/url.h"

namespace fcrawl::worker {

std::optional<FetchOutcome> ClassifyFetch(const FetchFacts& facts) {
  if (facts.decided.has_value()) return facts.decided;
  if (!facts.fetched) return std::nullopt;
  if (facts.parsed && facts.on_topic) return FetchOutcome::kOnTopic;
  const int status = facts.http_status;
  if (facts.transport_error || status == 0) {
    return FetchOutcome::kTransportError;
  }
  if (status == 404 || status == 410) return FetchOutcome::kNotFound;
  if (status >= 300 && status < 400) return FetchOutcome::kRedirected;
  if (status >= 400 || status < 200) return FetchOutcome::kHttpError;
  return facts.parsed ? FetchOutcome::kOffTopic : FetchOutcome::kNotHtml;
}

void FetchOutcomeCounter::Add(FetchOutcome outcome,
                              absl::string_view final_url) {
  switch (outcome) {
    case FetchOutcome::kOnTopic:
      ++counts_.on_topic;
      if (std::string host = url::HostKey(final_url); !host.empty()) {
        on_topic_hosts_.insert(std::move(host));
        counts_.on_topic_hosts = static_cast<int64_t>(on_topic_hosts_.size());
      }
      break;
    case FetchOutcome::kOffTopic:
      ++counts_.off_topic;
      break;
    case FetchOutcome::kNotFound:
      ++counts_.not_found;
      break;
    case FetchOutcome::kHttpError:
      ++counts_.http_error;
      break;
    case FetchOutcome::kTransportError:
      ++counts_.transport_error;
      break;
    case FetchOutcome::kRobots:
      ++counts_.robots;
      break;
    case FetchOutcome::kNotHtml:
      ++counts_.not_html;
      break;
    case FetchOutcome::kRedirected:
      ++counts_.redirected;
      break;
  }
}

}  // namespace fcrawl::worker
