// worker: the crawl worker's command line.
//
//   worker --standalone --config FILE [--parse-threads N] [--quiet]
//       Crawls on its own (no coordinator) until the budget is spent or the
//       frontier is empty. Progress on stderr; one JSON summary line on
//       stdout. SIGINT or SIGTERM stops cleanly (a second one kills); running
//       the same command again resumes from output_dir.
//   worker --join COORDINATOR --name NAME --data DIR [--listen ADDR]
//          [--token T | --token_file F] [--tls_cert F --tls_key F]
//          [--tls_ca F] [--parse-threads N] [--quiet]
//       Joins the cluster of the coordinator at COORDINATOR (host:port) as
//       NAME, serving the Worker service on ADDR (default 127.0.0.1:0, a
//       free port; printed as "worker NAME grpc=HOST:PORT" on stdout), and
//       crawls the hosts it is given; each crawl's data in DIR/<crawl id>.
//       Started again with the same NAME and DIR it continues from there.
//       SIGINT/SIGTERM: leave the cluster (hosts handed over), then exit; a
//       second signal: exit at once.
//   worker --dump-state (--config FILE | --db DIR)
//       Prints every link record of the crawl's database as JSON lines.
//   worker --print-config --config FILE
//       Prints the effective config (defaults filled in).
//   worker --list-patterns HOST|all (--config FILE | --db DIR)
//       Prints the URL patterns the url-rule strategy learned for HOST (or
//       for every site), with the counts they were learned from.
//   worker --export-graph (--config FILE | --db DIR) --out DIR
//          [--worker-name NAME] [--shard-pages N]
//       Writes the crawl's block-level link graph as ranker shards
//       (proto/graph.proto) into DIR; works while the crawl runs.
//   worker --build-interest-model --config FILE --out MODEL
//       Builds the interest model ([INTEREST]) from the config's positive and
//       negative example folders and strategy.interest parameters, and saves
//       it for strategy.interest.model_file.
//
// Exit status: 0 on success, 1 on a runtime failure, 2 on a usage or
// config error.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/rpc.h"
#include "core/json.h"
#include "formats/crawl_config.h"
#include "worker/cluster_node.h"
#include "worker/crawl_setup.h"
#include "worker/crawler.h"
#include "worker/graph_export.h"
#include "worker/state_tools.h"

namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_signals{0};
bool g_cluster = false;

void OnSignal(int) {
  if (g_cluster) {
    // First: leave the cluster; second: stop at once; third: exit.
    if (g_signals.fetch_add(1) >= 2) _exit(130);
    return;
  }
  if (g_stop.exchange(true)) _exit(130);  // second signal: leave now
}

// SIGINT/SIGTERM go to OnSignal; a closed pipe is an error, not a death.
void InstallSignalHandlers() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof(sa));
  sa.sa_handler = OnSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

int Usage(const char* why) {
  std::fprintf(stderr,
               "worker: %s\n"
               "usage: worker --standalone --config FILE [--parse-threads N] "
               "[--quiet]\n"
               "       worker --join COORDINATOR --name NAME --data DIR "
               "[--listen ADDR] [--token T|--token_file F] [--tls_cert F "
               "--tls_key F] [--tls_ca F]\n"
               "       worker --dump-state (--config FILE | --db DIR)\n"
               "       worker --print-config --config FILE\n"
               "       worker --list-patterns HOST|all (--config FILE | "
               "--db DIR)\n"
               "       worker --export-graph (--config FILE | --db DIR) --out "
               "DIR [--worker-name NAME] [--shard-pages N]\n"
               "       worker --build-interest-model --config FILE --out "
               "MODEL\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode, config_path, db_dir, host, out_path;
  std::string coordinator, name, data_dir, listen = "127.0.0.1:0";
  std::string token, token_file, tls_cert, tls_key, tls_ca;
  fcrawl::worker::GraphExportOptions export_options;
  int parse_threads = 0;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)name;
      return argv[++i];
    };
    if (a == "--standalone" || a == "--dump-state" || a == "--print-config" ||
        a == "--list-patterns" || a == "--build-interest-model" ||
        a == "--export-graph" || a == "--join") {
      if (!mode.empty())
        return Usage(
            "choose one of --standalone, --join, --dump-state, "
            "--print-config, --list-patterns, --build-interest-model, "
            "--export-graph");
      mode = a;
      if (a == "--list-patterns") {
        const char* v = value("--list-patterns");
        if (v == nullptr) return Usage("--list-patterns needs a host or 'all'");
        host = v;
      }
      if (a == "--join") {
        const char* v = value("--join");
        if (v == nullptr)
          return Usage("--join needs the coordinator's host:port");
        coordinator = v;
      }
    } else if (a == "--name" || a == "--data" || a == "--listen" ||
               a == "--token" || a == "--token_file" || a == "--tls_cert" ||
               a == "--tls_key" || a == "--tls_ca") {
      const char* v = value(a.c_str());
      if (v == nullptr) return Usage((a + " needs a value").c_str());
      std::string* dest = a == "--name"         ? &name
                          : a == "--data"       ? &data_dir
                          : a == "--listen"     ? &listen
                          : a == "--token"      ? &token
                          : a == "--token_file" ? &token_file
                          : a == "--tls_cert"   ? &tls_cert
                          : a == "--tls_key"    ? &tls_key
                                                : &tls_ca;
      *dest = v;
    } else if (a == "--worker-name") {
      const char* v = value("--worker-name");
      if (v == nullptr) return Usage("--worker-name needs a name");
      export_options.worker = v;
    } else if (a == "--shard-pages") {
      const char* v = value("--shard-pages");
      if (v == nullptr ||
          !absl::SimpleAtoi(v, &export_options.pages_per_shard) ||
          export_options.pages_per_shard < 1) {
        return Usage("--shard-pages needs a positive number");
      }
    } else if (a == "--out") {
      const char* v = value("--out");
      if (v == nullptr) return Usage("--out needs a file");
      out_path = v;
    } else if (a == "--config") {
      const char* v = value("--config");
      if (v == nullptr) return Usage("--config needs a file");
      config_path = v;
    } else if (a == "--db") {
      const char* v = value("--db");
      if (v == nullptr) return Usage("--db needs a folder");
      db_dir = v;
    } else if (a == "--parse-threads") {
      const char* v = value("--parse-threads");
      if (v == nullptr || !absl::SimpleAtoi(v, &parse_threads) ||
          parse_threads < 0 || parse_threads > 256) {
        return Usage("--parse-threads needs a number in [0, 256]");
      }
    } else if (a == "--quiet") {
      quiet = true;
    } else if (a == "--help" || a == "-h") {
      Usage("the focused-crawl worker");
      return 0;
    } else {
      return Usage(absl::StrFormat("unknown argument '%s'", a).c_str());
    }
  }
  if (mode.empty()) return Usage("say what to do (--standalone, ...)");
  if (mode == "--join") {
    if (name.empty() || data_dir.empty()) {
      return Usage("--join needs --name NAME and --data DIR");
    }
    absl::StatusOr<fcrawl::cluster::RpcSecurity> security =
        fcrawl::cluster::MakeSecurity(token, token_file, tls_cert, tls_key,
                                      tls_ca);
    if (!security.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(security.status().message()).c_str());
      return 2;
    }
    g_cluster = true;
    InstallSignalHandlers();
    fcrawl::worker::ClusterNodeOptions o;
    o.name = name;
    o.coordinator = coordinator;
    o.listen = listen;
    o.data_dir = data_dir;
    o.security = *security;
    o.crawler.parse_threads = parse_threads;
    o.crawler.progress = quiet ? nullptr : stderr;
    absl::StatusOr<std::unique_ptr<fcrawl::worker::ClusterNode>> node =
        fcrawl::worker::ClusterNode::Create(o);
    if (!node.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(node.status().message()).c_str());
      return absl::IsInvalidArgument(node.status()) ? 2 : 1;
    }
    std::printf("worker %s grpc=%s\n", name.c_str(),
                (*node)->address().c_str());
    std::fflush(stdout);
    absl::Status s = (*node)->Run(&g_signals);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    return 0;
  }

  fcrawl::proto::CrawlConfig config;
  if (!config_path.empty()) {
    absl::StatusOr<fcrawl::proto::CrawlConfig> loaded =
        fcrawl::formats::LoadCrawlConfig(config_path);
    if (!loaded.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(loaded.status().message()).c_str());
      return 2;
    }
    config = fcrawl::formats::WithDefaults(*std::move(loaded));
  }

  if (mode == "--print-config") {
    if (config_path.empty()) return Usage("--print-config needs --config");
    std::fputs(fcrawl::formats::CrawlConfigToText(config).c_str(), stdout);
    return 0;
  }
  if (mode == "--build-interest-model") {
    if (config_path.empty() || out_path.empty()) {
      return Usage(
          "--build-interest-model needs --config FILE and --out MODEL");
    }
    absl::StatusOr<fcrawl::focus::InterestModel> model =
        fcrawl::worker::BuildInterestModel(config);
    absl::Status s = model.ok() ? model->Save(out_path) : model.status();
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
      return absl::IsInvalidArgument(s) ? 2 : 1;
    }
    std::printf("{\"terms\":%zu,\"out\":%s}\n", model->size(),
                fcrawl::json::Quote(out_path).c_str());
    return 0;
  }
  if (mode == "--dump-state" || mode == "--list-patterns" ||
      mode == "--export-graph") {
    if (db_dir.empty()) {
      if (config_path.empty())
        return Usage(
            absl::StrFormat("%s needs --config or --db", mode).c_str());
      db_dir = config.output_dir() + "/db";
    }
  }
  if (mode == "--export-graph") {
    if (out_path.empty()) return Usage("--export-graph needs --out DIR");
    absl::StatusOr<fcrawl::worker::GraphExportSummary> s =
        fcrawl::worker::ExportGraph(db_dir, out_path, export_options);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(s.status().message()).c_str());
      return absl::IsInvalidArgument(s.status()) ? 2 : 1;
    }
    std::printf(
        "{\"pages\":%lld,\"links\":%lld,\"shards\":%lld,"
        "\"pages_without_record\":%lld}\n",
        static_cast<long long>(s->pages), static_cast<long long>(s->links),
        static_cast<long long>(s->shards),
        static_cast<long long>(s->pages_without_record));
    return 0;
  }
  if (mode == "--list-patterns") {
    absl::StatusOr<std::string> listing =
        fcrawl::worker::ListUrlPatterns(db_dir, host == "all" ? "" : host);
    if (!listing.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(listing.status().message()).c_str());
      return 1;
    }
    std::fputs(listing->c_str(), stdout);
    return 0;
  }
  if (mode == "--dump-state") {
    absl::Status s = fcrawl::worker::DumpLinkState(db_dir, stdout);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    return 0;
  }
  if (config_path.empty()) return Usage("--standalone needs --config FILE");

  InstallSignalHandlers();

  fcrawl::worker::CrawlerOptions options;
  options.parse_threads = parse_threads;
  options.stop = &g_stop;
  options.progress = quiet ? nullptr : stderr;
  absl::StatusOr<std::unique_ptr<fcrawl::worker::Crawler>> crawler =
      fcrawl::worker::Crawler::Create(config, options);
  if (!crawler.ok()) {
    std::fprintf(stderr, "worker: %s\n",
                 std::string(crawler.status().message()).c_str());
    return absl::IsInvalidArgument(crawler.status()) ? 2 : 1;
  }
  absl::StatusOr<fcrawl::worker::CrawlSummary> summary = (*crawler)->Run();
  if (!summary.ok()) {
    std::fprintf(stderr, "worker: crawl failed: %s\n",
                 std::string(summary.status().message()).c_str());
    return 1;
  }
  const fcrawl::worker::CrawlSummary& s = *summary;
  std::string skipped;
  for (const auto& [why, n] : s.skipped) {
    absl::StrAppend(&skipped, skipped.empty() ? "" : ",",
                    fcrawl::json::Quote(why), ":", n);
  }
  std::printf(
      "{\"pages_fetched\":%lld,\"pages_fetched_total\":%lld,\"on_topic\":%lld,"
      "\"errors\":%lld,\"robots_fetched\":%lld,\"queued\":%lld,"
      "\"held_by_order\":%lld,\"deferred\":%lld,\"skipped\":{%s},"
      "\"seconds\":%s,\"pages_per_s\":%s,\"stop_reason\":%s}\n",
      static_cast<long long>(s.pages_fetched),
      static_cast<long long>(s.pages_fetched_total),
      static_cast<long long>(s.on_topic), static_cast<long long>(s.errors),
      static_cast<long long>(s.robots_fetched),
      static_cast<long long>(s.queued), static_cast<long long>(s.held_by_order),
      static_cast<long long>(s.deferred), skipped.c_str(),
      fcrawl::json::Number(s.seconds).c_str(),
      fcrawl::json::Number(s.seconds > 0 ? s.pages_fetched / s.seconds : 0)
          .c_str(),
      fcrawl::json::Quote(s.stop_reason).c_str());
  return 0;
}
