// worker: the crawl worker's command line (`worker --help`).
//
//   worker crawl --config FILE [--parse_threads N] [--quiet]
//   worker join HOST:PORT --name NAME --data DIR [--listen ADDR] [...]
//   worker dump-state | list-patterns HOST|all | list-outcomes HOST|all
//          | export-graph --out DIR
//          (--config FILE | --db DIR)
//   worker print-config --config FILE
//   worker build-interest-model --config FILE --out MODEL
//   worker build-page-model --config FILE --out MODEL
//   worker corpus IN... --out FILE [--format jsonl|csv|bulk] [filters]
//   worker index IN... --index DIR [--ranks FILE] [filters]
//   worker search QUERY --index DIR [--limit N] [--rank_weight W]
//                 [--topic_weight W]
//
// What each command does and means is in kProgram below, the one place the
// usage is written. Exit status: 0 on success, 1 on a runtime failure, 2 on
// a usage or config error.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/rpc.h"
#include "core/cli.h"
#include "core/json.h"
#include "corpus/corpus_cli.h"
#include "formats/crawl_config.h"
#include "worker/crawl_setup.h"
#include "worker/crawler.h"
#include "worker/graph_export.h"
#include "worker/judge_inputs.h"
#include "worker/member/cluster_node.h"
#include "worker/state_tools.h"

ABSL_FLAG(std::string, config, "",
          "the crawl config (textproto); its output_dir holds the crawl's "
          "data");
ABSL_FLAG(std::string, db, "",
          "the crawl's database folder (OUTPUT_DIR/db), instead of --config");
ABSL_FLAG(std::string, out, "",
          "export-graph: the folder for the shards; build-interest-model, "
          "build-page-model: the model file; corpus: the export file");
ABSL_FLAG(int, parse_threads, 0,
          "threads that parse fetched pages, 0 to 256; 0: one per core");
ABSL_FLAG(bool, quiet, false, "no progress lines on stderr");
ABSL_FLAG(std::string, judge_inputs, "",
          "crawl: append what the on-topic decision read of each page to "
          "this file (JSON lines), for `worker judge` to judge again with "
          "other settings");
ABSL_FLAG(bool, strict, false,
          "crawl: the strict order, one transfer at a time and each fetch "
          "the best URL of the whole frontier once the page before it is "
          "scored (strategy.order_window 1, fetch.max_in_flight 1): the "
          "same crawl every run, slower");
ABSL_FLAG(std::string, name, "",
          "the worker's name in the cluster (letters, digits, '-', '_', '.')");
ABSL_FLAG(std::string, data, "",
          "folder of the worker's crawls, one subfolder per crawl id");
ABSL_FLAG(std::string, listen, "127.0.0.1:0",
          "address of the worker's gRPC service (port 0 picks a free one)");
ABSL_FLAG(std::string, token, "", "the cluster token");
ABSL_FLAG(std::string, token_file, "",
          "a file whose first line is the cluster token (instead of --token)");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate: serve with TLS");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls_cert");
ABSL_FLAG(std::string, tls_ca, "",
          "PEM roots: talk TLS to the coordinator and the other workers");
ABSL_FLAG(int64_t, route_interval_ms,
          absl::ToInt64Milliseconds(
              fcrawl::worker::ClusterNodeOptions().route_interval),
          "join: links routed to other workers are sent at least this often "
          "(more at once when 2,000 wait); 1 to 60000");
ABSL_FLAG(std::string, export_root, "",
          "join: graph exports (crawlctl export) are written only inside "
          "this folder; default: the working directory");
ABSL_FLAG(bool, insecure, false,
          "join: allow a --listen address that is not loopback without a "
          "token and TLS (anyone who reaches it can call the worker)");
ABSL_FLAG(std::string, worker_name, fcrawl::worker::GraphExportOptions().worker,
          "the name in the shard headers and file names "
          "(graph-NAME-K.fcg)");
ABSL_FLAG(int64_t, shard_pages,
          fcrawl::worker::GraphExportOptions().pages_per_shard,
          "pages per shard file (at least 1)");

ABSL_FLAG(std::string, format, "jsonl",
          "corpus: the export's format: jsonl (corpus records), csv, bulk "
          "(OpenSearch/Elasticsearch bulk request)");
ABSL_FLAG(bool, on_topic, false,
          "corpus, index, search: only pages judged on topic");
ABSL_FLAG(std::string, language, "",
          "corpus, index: only pages in this language (\"en\" keeps en, "
          "en-us, ...)");
ABSL_FLAG(std::string, min_score, "",
          "corpus, index: only pages whose topic_score is at least this");
ABSL_FLAG(bool, media_only, false,
          "corpus, index: only pages with audio, video or animation");
ABSL_FLAG(bool, no_duplicates, false,
          "corpus, index: leave out pages marked duplicate_of");
ABSL_FLAG(bool, include_gone, false,
          "corpus: write the tombstone (\"gone\": true) of a page a revisit "
          "found gone, instead of leaving the page out");
ABSL_FLAG(bool, all_duplicates,
          !fcrawl::corpus::SearchOptions().collapse_duplicates,
          "search: show a page's near-duplicates (duplicate_of) as results "
          "of their own instead of the best of them only");
ABSL_FLAG(std::string, ranks, "",
          "corpus, index: a ranker output (ranker run --out) to join in as "
          "rank and rank_score");
ABSL_FLAG(int64_t, num_pages, 0,
          "corpus, index: N of R = N*score when --ranks holds only the top "
          "pages; 0: the file's page count");
ABSL_FLAG(std::string, bulk_index, fcrawl::corpus::ExportOptions().bulk_index,
          "corpus --format bulk: the index the documents go to");
ABSL_FLAG(std::string, index, "", "index, search: the search index folder");
ABSL_FLAG(std::string, stem_language,
          fcrawl::corpus::IndexOptions().stem_language,
          "index: Snowball stemmer of a new index (english, german, ..., "
          "none)");
ABSL_FLAG(int, limit, fcrawl::corpus::SearchOptions().limit,
          "search: results to print, 1 to 1000");
ABSL_FLAG(double, rank_weight, fcrawl::corpus::SearchOptions().rank_weight,
          "search: weight of the block-level rank B = R/(1+R) added to BM25; "
          "0: BM25 alone");
ABSL_FLAG(double, topic_weight, fcrawl::corpus::SearchOptions().topic_weight,
          "search: weight of the crawl's on-topic score (0 to 1) added to "
          "BM25; 0: not used");
ABSL_FLAG(bool, json, false, "search: JSON lines instead of text");

namespace {

// The commands: name, positional arguments (synopsis, min, max), what it
// does, its flags.
const fcrawl::cli::Program& Cli() {
  static const auto* const kProgram = new fcrawl::cli::Program{
      "worker",
      "The focused-crawl worker: crawls on its own or as a member of "
      "a cluster, and reads a crawl's database.",
      {},
      {
          {"crawl",
           "",
           0,
           0,
           "Crawls on its own (no coordinator) until the budget "
           "is spent or the frontier is empty. Progress on stderr; "
           "one JSON summary line on stdout. SIGINT or SIGTERM "
           "stops cleanly (a second one kills); running the same "
           "command again resumes from output_dir.",
           {"config", "parse_threads", "quiet", "strict", "judge_inputs"}},
          {"join",
           "HOST:PORT",
           1,
           1,
           "Joins the cluster of the coordinator at HOST:PORT as "
           "--name, serving the Worker service on --listen "
           "(printed as \"worker NAME grpc=HOST:PORT\" on stdout), "
           "and crawls the hosts it is given; each crawl's data in "
           "DATA/<crawl id>. Started again with the same name and "
           "folder it continues from there. SIGINT/SIGTERM: leave "
           "the cluster (hosts handed over), then exit; a second "
           "signal: exit at once.",
           {"name", "data", "listen", "token", "token_file", "tls_cert",
            "tls_key", "tls_ca", "insecure", "export_root", "route_interval_ms",
            "parse_threads", "quiet"}},
          {"dump-state",
           "",
           0,
           0,
           "Prints every link record of the crawl's database as "
           "JSON lines.",
           {"config", "db"}},
          {"print-config",
           "",
           0,
           0,
           "Prints the effective config (defaults filled in; with "
           "--strict, what `crawl --strict` runs).",
           {"config", "strict"}},
          {"list-patterns",
           "HOST|all",
           1,
           1,
           "Prints the URL patterns the url-rule strategy learned "
           "for HOST (or for every site), with the counts they "
           "were learned from.",
           {"config", "db"}},
          {"list-outcomes",
           "HOST|all",
           1,
           1,
           "Prints what the learned strategy learned of fetch outcomes "
           "on HOST (or on every host): per folder its fetches, those "
           "that gave a page to read, and what a new link into it is "
           "weighted by.",
           {"config", "db"}},
          {"export-graph",
           "",
           0,
           0,
           "Writes the crawl's block-level link graph as ranker "
           "shards (proto/graph.proto) into --out; works while the "
           "crawl runs.",
           {"config", "db", "out", "worker_name", "shard_pages"}},
          {"build-interest-model",
           "",
           0,
           0,
           "Builds the interest model ([INTEREST]) from the "
           "config's positive and negative example folders and "
           "strategy.interest parameters, and saves it in --out "
           "for strategy.interest.model_file.",
           {"config", "out"}},
          {"build-page-model",
           "",
           0,
           0,
           "Trains the on-topic decision's page classifier "
           "(LIBLINEAR logistic regression) on the config's "
           "positive and negative example folders and saves it in "
           "--out for topic.judge.model_file.",
           {"config", "out"}},
          {"corpus",
           "IN...",
           1,
           -1,
           "Reads the corpus records (pages.jsonl) of one or more "
           "crawls or workers (IN: an output folder or a file), keeps "
           "each URL's latest record, filters them, joins a ranking "
           "in, and writes them to --out as JSON lines, CSV or an "
           "OpenSearch bulk file. Prints what it read as JSON.",
           {"out", "format", "on_topic", "language", "min_score", "media_only",
            "no_duplicates", "include_gone", "ranks", "num_pages",
            "bulk_index"}},
          {"judge",
           "FILE...",
           1,
           -1,
           "Judges again the pages whose judge inputs `crawl "
           "--judge_inputs FILE` recorded, with the topic and on-topic "
           "decision of --config (another threshold, weight or keyword "
           "list), in the order they were recorded; prints a JSON object "
           "per page (url, score, on_topic, model) and a summary line on "
           "stderr.",
           {"config"}},
          {"index",
           "IN...",
           1,
           -1,
           "Indexes the corpus records (as `corpus` reads them) for "
           "search into --index (Xapian, BM25; created or updated).",
           {"index", "on_topic", "language", "min_score", "media_only",
            "no_duplicates", "ranks", "num_pages", "stem_language"}},
          {"search",
           "QUERY",
           1,
           1,
           "Searches the index: the best pages for QUERY (words, "
           "\"phrases\", AND/OR/NOT, title:word, anchor:word) with "
           "snippets of their main text, BM25 plus the block-level rank.",
           {"index", "limit", "rank_weight", "topic_weight", "on_topic",
            "all_duplicates", "json"}},
      },
      "Exit status: 0 on success, 1 on a runtime failure, 2 on a "
      "usage or config error.",
  };
  return *kProgram;
}

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

}  // namespace

int main(int argc, char** argv) {
  const fcrawl::cli::Invocation inv =
      fcrawl::cli::ParseOrExit(Cli(), argc, argv);
  const std::string mode = inv.command->name;
  auto usage = [&](const std::string& why) {
    return fcrawl::cli::UsageError(Cli(), why, inv.command);
  };
  const std::string config_path = absl::GetFlag(FLAGS_config);
  std::string db_dir = absl::GetFlag(FLAGS_db);
  const std::string out_path = absl::GetFlag(FLAGS_out);
  const int parse_threads = absl::GetFlag(FLAGS_parse_threads);
  const bool quiet = absl::GetFlag(FLAGS_quiet);
  if (parse_threads < 0 || parse_threads > 256) {
    return usage("--parse_threads must be a number in [0, 256]");
  }
  fcrawl::worker::GraphExportOptions export_options;
  export_options.worker = absl::GetFlag(FLAGS_worker_name);
  export_options.pages_per_shard = absl::GetFlag(FLAGS_shard_pages);
  if (export_options.pages_per_shard < 1) {
    return usage("--shard_pages must be a positive number");
  }
  if (mode == "corpus" || mode == "index" || mode == "search") {
    fcrawl::corpus::CorpusCliFlags f;
    f.out = out_path;
    f.format = absl::GetFlag(FLAGS_format);
    f.on_topic = absl::GetFlag(FLAGS_on_topic);
    f.language = absl::GetFlag(FLAGS_language);
    f.min_score = absl::GetFlag(FLAGS_min_score);
    f.media_only = absl::GetFlag(FLAGS_media_only);
    f.no_duplicates = absl::GetFlag(FLAGS_no_duplicates);
    f.all_duplicates = absl::GetFlag(FLAGS_all_duplicates);
    f.include_gone = absl::GetFlag(FLAGS_include_gone);
    f.ranks = absl::GetFlag(FLAGS_ranks);
    f.num_pages = absl::GetFlag(FLAGS_num_pages);
    f.bulk_index = absl::GetFlag(FLAGS_bulk_index);
    f.index = absl::GetFlag(FLAGS_index);
    f.stem_language = absl::GetFlag(FLAGS_stem_language);
    f.limit = absl::GetFlag(FLAGS_limit);
    f.rank_weight = absl::GetFlag(FLAGS_rank_weight);
    f.topic_weight = absl::GetFlag(FLAGS_topic_weight);
    f.json = absl::GetFlag(FLAGS_json);
    if (mode == "corpus") {
      return fcrawl::corpus::RunCorpusExport(inv.args, f, stdout, stderr);
    }
    if (mode == "index") {
      return fcrawl::corpus::RunCorpusIndex(inv.args, f, stdout, stderr);
    }
    return fcrawl::corpus::RunCorpusSearch(inv.args[0], f, stdout, stderr);
  }
  if (mode == "join") {
    const std::string name = absl::GetFlag(FLAGS_name);
    const std::string data_dir = absl::GetFlag(FLAGS_data);
    if (name.empty() || data_dir.empty()) {
      return usage("join needs --name NAME and --data DIR");
    }
    absl::StatusOr<fcrawl::cluster::RpcSecurity> security =
        fcrawl::cluster::MakeSecurity(
            absl::GetFlag(FLAGS_token), absl::GetFlag(FLAGS_token_file),
            absl::GetFlag(FLAGS_tls_cert), absl::GetFlag(FLAGS_tls_key),
            absl::GetFlag(FLAGS_tls_ca));
    if (!security.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(security.status().message()).c_str());
      return 2;
    }
    security->insecure = absl::GetFlag(FLAGS_insecure);
    g_cluster = true;
    InstallSignalHandlers();
    fcrawl::worker::ClusterNodeOptions o;
    o.name = name;
    o.coordinator = inv.args[0];
    o.listen = absl::GetFlag(FLAGS_listen);
    o.data_dir = data_dir;
    o.export_root = absl::GetFlag(FLAGS_export_root);
    o.security = *security;
    o.crawler.parse_threads = parse_threads;
    o.crawler.progress = quiet ? nullptr : stderr;
    const int64_t route_ms = absl::GetFlag(FLAGS_route_interval_ms);
    if (route_ms < 1 || route_ms > 60000) {
      std::fprintf(stderr,
                   "worker: --route_interval_ms must be in [1, 60000], "
                   "got %lld\n",
                   static_cast<long long>(route_ms));
      return 2;
    }
    o.route_interval = absl::Milliseconds(route_ms);
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
  if (absl::GetFlag(FLAGS_strict)) {
    // With a wider window (or more transfers) the next fetch starts while
    // the page before it is still parsed, and which links were scored in
    // time is up to the clock: an adaptive strategy's crawl then differs
    // from run to run.
    config.mutable_strategy()->set_order_window(1);
    config.mutable_fetch()->set_max_in_flight(1);
  }

  if (mode == "print-config") {
    if (config_path.empty()) return usage("print-config needs --config FILE");
    std::fputs(fcrawl::formats::CrawlConfigToText(config).c_str(), stdout);
    return 0;
  }
  if (mode == "build-interest-model") {
    if (config_path.empty() || out_path.empty()) {
      return usage("build-interest-model needs --config FILE and --out MODEL");
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
  if (mode == "build-page-model") {
    if (config_path.empty() || out_path.empty()) {
      return usage("build-page-model needs --config FILE and --out MODEL");
    }
    // The features are the pages' own words, stemmed: no topic term is
    // left out of a classifier trained on examples.
    absl::StatusOr<fcrawl::focus::PageClassifier> model =
        fcrawl::worker::BuildPageModel(config,
                                       fcrawl::focus::Topic::FromText("", ""));
    absl::Status s = model.ok() ? model->Save(out_path) : model.status();
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
      return absl::IsInvalidArgument(s) || absl::IsNotFound(s) ? 2 : 1;
    }
    std::printf(
        "{\"positives\":%d,\"negatives\":%d,\"features\":%d,"
        "\"out\":%s}\n",
        model->model().positives(), model->model().negatives(),
        model->model().ids_size(), fcrawl::json::Quote(out_path).c_str());
    return 0;
  }
  if (mode == "judge") {
    if (config_path.empty()) return usage("judge needs --config FILE");
    absl::StatusOr<fcrawl::worker::RejudgeSummary> s =
        fcrawl::worker::RejudgeInputs(config, inv.args, stdout);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(s.status().message()).c_str());
      return absl::IsInvalidArgument(s.status()) ? 2 : 1;
    }
    std::fprintf(
        stderr, "{\"pages\":%lld,\"on_topic\":%lld,\"bad_lines\":%lld}\n",
        static_cast<long long>(s->pages), static_cast<long long>(s->on_topic),
        static_cast<long long>(s->bad_lines));
    return 0;
  }
  if (mode == "dump-state" || mode == "list-patterns" ||
      mode == "list-outcomes" || mode == "export-graph") {
    if (db_dir.empty()) {
      if (config_path.empty()) {
        return usage(absl::StrCat(mode, " needs --config FILE or --db DIR"));
      }
      db_dir = config.output_dir() + "/db";
    }
  }
  if (mode == "export-graph") {
    if (out_path.empty()) return usage("export-graph needs --out DIR");
    absl::StatusOr<fcrawl::worker::GraphExportSummary> s =
        fcrawl::worker::ExportGraph(db_dir, out_path, export_options);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(s.status().message()).c_str());
      return absl::IsInvalidArgument(s.status()) ? 2 : 1;
    }
    std::printf(
        "{\"pages\":%lld,\"links\":%lld,\"shards\":%lld,"
        "\"pages_without_record\":%lld,\"noindex_pages\":%lld,"
        "\"aliases\":%lld,\"duplicate_pages\":%lld}\n",
        static_cast<long long>(s->pages), static_cast<long long>(s->links),
        static_cast<long long>(s->shards),
        static_cast<long long>(s->pages_without_record),
        static_cast<long long>(s->noindex_pages),
        static_cast<long long>(s->aliases),
        static_cast<long long>(s->duplicate_pages));
    return 0;
  }
  if (mode == "list-patterns" || mode == "list-outcomes") {
    const std::string host = inv.args[0] == "all" ? "" : inv.args[0];
    absl::StatusOr<std::string> listing =
        mode == "list-patterns"
            ? fcrawl::worker::ListUrlPatterns(db_dir, host)
            : fcrawl::worker::ListFetchOutcomes(db_dir, host);
    if (!listing.ok()) {
      std::fprintf(stderr, "worker: %s\n",
                   std::string(listing.status().message()).c_str());
      return 1;
    }
    std::fputs(listing->c_str(), stdout);
    return 0;
  }
  if (mode == "dump-state") {
    absl::Status s = fcrawl::worker::DumpLinkState(db_dir, stdout);
    if (!s.ok()) {
      std::fprintf(stderr, "worker: %s\n", std::string(s.message()).c_str());
      return 1;
    }
    return 0;
  }
  if (config_path.empty()) return usage("crawl needs --config FILE");

  InstallSignalHandlers();

  fcrawl::worker::CrawlerOptions options;
  options.parse_threads = parse_threads;
  options.stop = &g_stop;
  options.progress = quiet ? nullptr : stderr;
  options.judge_inputs = absl::GetFlag(FLAGS_judge_inputs);
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
  // What this run's revisits found (config `revisit`).
  const std::string revisits = absl::StrCat(
      "\"made\":", s.revisits, ",\"not_modified\":", s.revisits_not_modified,
      ",\"unchanged\":", s.revisits_unchanged,
      ",\"changed\":", s.revisits_changed, ",\"gone\":", s.revisits_gone,
      ",\"failed\":", s.revisits_failed,
      ",\"from_sitemaps\":", s.revisits_from_sitemaps);
  // What became of the URLs this run set out to fetch
  // (worker/fetch_outcomes.h).
  const fcrawl::worker::FetchOutcomeCounts& fo = s.fetch_outcomes;
  const std::string outcomes = absl::StrCat(
      "\"on_topic\":", fo.on_topic, ",\"off_topic\":", fo.off_topic,
      ",\"not_found\":", fo.not_found, ",\"http_error\":", fo.http_error,
      ",\"transport_error\":", fo.transport_error, ",\"robots\":", fo.robots,
      ",\"not_html\":", fo.not_html, ",\"redirected\":", fo.redirected,
      ",\"on_topic_hosts\":", fo.on_topic_hosts);
  std::printf(
      "{\"pages_fetched\":%lld,\"pages_fetched_total\":%lld,\"on_topic\":%lld,"
      "\"noindex\":%lld,\"aliases\":%lld,\"duplicates\":%lld,\"sitemaps_read\":"
      "%lld,"
      "\"sitemaps_failed\":%lld,\"sitemap_urls\":%lld,\"errors\":%lld,\"robots_"
      "fetched\":%"
      "lld,\"fetch_outcomes\":{%s},\"queued\":%"
      "lld,"
      "\"held_by_order\":%lld,\"deferred\":%lld,\"skipped\":{%s},"
      "\"hosts_unreachable\":%lld,\"hosts_parked\":%lld,"
      "\"dns_lookups\":%lld,\"dns_failures\":%lld,\"disk_full_pauses\":%lld,"
      "\"revisits\":{%s},\"search\":{\"indexed\":%lld,\"cpu_seconds\":%s},"
      "\"seconds\":%s,\"pages_per_s\":%s,\"stop_reason\":%s}\n",
      static_cast<long long>(s.pages_fetched),
      static_cast<long long>(s.pages_fetched_total),
      static_cast<long long>(s.on_topic), static_cast<long long>(s.noindex),
      static_cast<long long>(s.aliases), static_cast<long long>(s.duplicates),
      static_cast<long long>(s.sitemaps_read),
      static_cast<long long>(s.sitemaps_failed),
      static_cast<long long>(s.sitemap_urls), static_cast<long long>(s.errors),
      static_cast<long long>(s.robots_fetched), outcomes.c_str(),
      static_cast<long long>(s.queued), static_cast<long long>(s.held_by_order),
      static_cast<long long>(s.deferred), skipped.c_str(),
      static_cast<long long>(s.hosts_unreachable),
      static_cast<long long>(s.hosts_parked),
      static_cast<long long>(s.dns_lookups),
      static_cast<long long>(s.dns_failures),
      static_cast<long long>(s.disk_full_pauses), revisits.c_str(),
      static_cast<long long>(s.search_indexed),
      fcrawl::json::Number(s.search_cpu_seconds).c_str(),
      fcrawl::json::Number(s.seconds).c_str(),
      fcrawl::json::Number(s.seconds > 0 ? s.pages_fetched / s.seconds : 0)
          .c_str(),
      fcrawl::json::Quote(s.stop_reason).c_str());
  return 0;
}
