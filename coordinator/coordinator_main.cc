// coordinator: the crawl cluster's coordinator (coordinator/coordinator.h).
//
//   coordinator serve --data DIR [--listen HOST:PORT] [--http HOST:PORT]
//                     [--lease_ms N] [--token T | --token_file F]
//                     [--tls_cert PEM --tls_key PEM] [--tls_ca PEM]
//                     [--metrics HOST:PORT --metrics_token_file F]
//                     [--insecure]
//
// The flags' meanings are with their definitions below (`coordinator serve
// --help`). Once its listeners are bound it prints one line to stdout:
// "coordinator grpc=HOST:PORT http=HOST:PORT" (http= is empty without
// HTTP), then " metrics=HOST:PORT" with --metrics. SIGINT or SIGTERM shuts down
// cleanly. Exit status: 0 after a clean shutdown, 2 on a usage or start-up
// error.
#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cluster/rpc.h"
#include "coordinator/coordinator.h"
#include "coordinator/http_status.h"
#include "core/cli.h"
#include "core/host_port.h"
#include "corpus/search.h"

ABSL_FLAG(std::string, data, "",
          "folder of the coordinator's database (required)");
ABSL_FLAG(std::string, listen, "127.0.0.1:7000",
          "gRPC address HOST:PORT (port 0 picks a free one)");
ABSL_FLAG(std::string, http, "127.0.0.1:7080",
          "address of /metrics, /status, /status.json and the probes "
          "/healthz (the process answers) and /readyz (it takes "
          "heartbeats; 503 before and while it shuts down) (\"\": no HTTP; "
          "port 0 picks a free one). With a token, /metrics and "
          "/status.json need the header \"Authorization: Bearer <token>\" "
          "(the /status page asks for it; the probes need none). Plain "
          "HTTP: a non-loopback address needs --insecure");
ABSL_FLAG(int64_t, lease_ms, 5000,
          "worker lease in ms, 100 to 3600000 (workers heartbeat every "
          "lease/4)");
ABSL_FLAG(std::string, token, "", "the cluster token");
ABSL_FLAG(std::string, token_file, "",
          "a file whose first line is the cluster token (instead of --token)");
ABSL_FLAG(std::string, tls_cert, "", "PEM certificate: serve with TLS");
ABSL_FLAG(std::string, tls_key, "", "PEM private key of --tls_cert");
ABSL_FLAG(std::string, tls_ca, "",
          "PEM roots the workers' TLS certificates are checked against "
          "(the coordinator calls them)");
ABSL_FLAG(std::string, search_index, "",
          "a search index of the crawl (worker index --index DIR): the "
          "/status page gets a search box and /search.json?q=QUERY answers "
          "(with a token, like /status.json, only with the header)");
ABSL_FLAG(std::string, metrics, "",
          "address of a listener that serves /metrics and the probes only, "
          "for a scraper on the pod network (Prometheus): /metrics there "
          "needs \"Authorization: Bearer <metrics token>\", a read-only "
          "token of its own (--metrics_token_file), so a scraper holds no "
          "key to the crawl; a non-loopback address needs that token or "
          "--insecure (\"\": none; port 0 picks a free one)");
ABSL_FLAG(std::string, metrics_token_file, "",
          "a file whose first line is the token /metrics on --metrics asks "
          "for (16 to 256 printable characters, not the cluster token)");
ABSL_FLAG(bool, insecure, false,
          "allow non-loopback listeners without protection: --listen "
          "without a token and TLS, --http at all (it has no TLS), "
          "--metrics without a metrics token");

namespace {

const fcrawl::cli::Program& Cli() {
  static const auto* const kProgram = new fcrawl::cli::Program{
      "coordinator",
      "The crawl cluster's coordinator: assigns hosts to workers, keeps the "
      "crawl's state and serves crawlctl.",
      {},
      {
          {"serve",
           "",
           0,
           0,
           "Serves the Coordinator gRPC service and the HTTP status pages "
           "until SIGINT or SIGTERM. Prints \"coordinator grpc=HOST:PORT "
           "http=HOST:PORT\" once both listen.",
           {"data", "listen", "http", "lease_ms", "token", "token_file",
            "tls_cert", "tls_key", "tls_ca", "search_index", "metrics",
            "metrics_token_file", "insecure"}},
      },
      "Exit status: 0 after a clean shutdown, 2 on a usage or start-up "
      "error.",
  };
  return *kProgram;
}

int Usage(const std::string& why) {
  return fcrawl::cli::UsageError(Cli(), why, &Cli().commands[0]);
}

int Fail(const std::string& why) {
  std::fprintf(stderr, "coordinator: %s\n", why.c_str());
  return 2;
}

// Constant-time comparison (the token is a secret).
bool SameSecret(const std::string& got, const std::string& want) {
  unsigned diff = got.size() != want.size();
  for (size_t i = 0; i < want.size(); ++i) {
    diff |= static_cast<unsigned>((i < got.size() ? got[i] : 0) ^ want[i]);
  }
  return diff == 0;
}

// Whether `req` carries "Authorization: Bearer <token>"; when not, `res`
// is the 401 that says so (`why`) and the caller answers with it.
bool Authorized(const httplib::Request& req, httplib::Response& res,
                const std::string& token, const char* why) {
  if (SameSecret(req.get_header_value("Authorization"), "Bearer " + token)) {
    return true;
  }
  res.status = 401;
  res.set_header("WWW-Authenticate", "Bearer");
  res.set_content(why, "text/plain");
  return false;
}

// Binds `server` to `address` (HOST:PORT of flag --`flag`; port 0 picks a
// free one) and runs it on `*thread`, setting `*ended` when it stops;
// returns the address it listens on once it runs.
absl::StatusOr<std::string> ListenInBackground(httplib::Server& server,
                                               const std::string& flag,
                                               const std::string& address,
                                               std::thread* thread,
                                               std::atomic<bool>* ended) {
  const std::optional<fcrawl::HostPort> split = fcrawl::SplitHostPort(address);
  if (!split.has_value() || !split->port.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, " needs HOST:PORT, not '", address, "'"));
  }
  const std::string host(fcrawl::Unbracketed(split->host));
  int port = *split->port;
  if (port == 0) {
    port = server.bind_to_any_port(host);
    if (port <= 0) {
      return absl::UnavailableError(
          absl::StrCat("cannot listen for HTTP on ", address));
    }
  } else if (!server.bind_to_port(host, port)) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen for HTTP on ", address,
                     " (address in use, or not an address of this machine)"));
  }
  *thread = std::thread([&server, ended] {
    server.listen_after_bind();
    *ended = true;
  });
  // stop() only reaches a server that runs: wait for it, so a signal that
  // comes at once cannot leave the HTTP thread listening forever.
  while (!server.is_running() && !*ended) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return absl::StrCat(address.substr(0, address.rfind(':')), ":", port);
}

}  // namespace

int main(int argc, char** argv) {
  fcrawl::cli::ParseOrExit(Cli(), argc, argv);
  const std::string listen = absl::GetFlag(FLAGS_listen);
  const std::string http = absl::GetFlag(FLAGS_http);
  const std::string data = absl::GetFlag(FLAGS_data);
  const int64_t lease_ms = absl::GetFlag(FLAGS_lease_ms);
  if (lease_ms < 100 || lease_ms > 3600000) {
    return Usage("--lease_ms must be a number of ms in [100, 3600000]");
  }
  if (data.empty()) return Usage("--data DIR is required");
  if (listen.empty()) return Usage("--listen needs HOST:PORT");

  absl::StatusOr<fcrawl::cluster::RpcSecurity> security =
      fcrawl::cluster::MakeSecurity(
          absl::GetFlag(FLAGS_token), absl::GetFlag(FLAGS_token_file),
          absl::GetFlag(FLAGS_tls_cert), absl::GetFlag(FLAGS_tls_key),
          absl::GetFlag(FLAGS_tls_ca));
  if (!security.ok()) return Fail(std::string(security.status().message()));
  security->insecure = absl::GetFlag(FLAGS_insecure);
  if (!http.empty() && !fcrawl::cluster::IsLoopbackAddress(http) &&
      !security->insecure) {
    // The status pages are plain HTTP: the crawl's state (and a token,
    // when there is one) would cross the network in clear.
    return Fail("--http " + http +
                " is not a loopback address and the status pages have no "
                "TLS (the crawl's state and the token would travel in "
                "clear); give --insecure to listen there anyway");
  }

  const std::string metrics = absl::GetFlag(FLAGS_metrics);
  if (const std::optional<fcrawl::HostPort> split =
          fcrawl::SplitHostPort(metrics);
      !metrics.empty() && (!split.has_value() || !split->port.has_value())) {
    return Usage("--metrics needs HOST:PORT, not '" + metrics + "'");
  }
  std::string metrics_token;
  if (const std::string file = absl::GetFlag(FLAGS_metrics_token_file);
      !file.empty()) {
    if (metrics.empty()) return Usage("--metrics_token_file needs --metrics");
    absl::StatusOr<fcrawl::cluster::RpcSecurity> read =
        fcrawl::cluster::MakeSecurity("", file, "", "", "");
    if (!read.ok()) {
      return Fail("--metrics_token_file: " +
                  std::string(read.status().message()));
    }
    metrics_token = read->token;
    if (!security->token.empty() && metrics_token == security->token) {
      return Fail(
          "--metrics_token_file holds the cluster token: give the scraper "
          "a token of its own, which opens /metrics and nothing else");
    }
  }
  if (!metrics.empty() && !fcrawl::cluster::IsLoopbackAddress(metrics) &&
      metrics_token.empty() && !security->insecure) {
    return Fail("--metrics " + metrics +
                " is not a loopback address: give it a token "
                "(--metrics_token_file) or --insecure");
  }

  // Signals are taken by sigwait below; every thread started from here on
  // inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  fcrawl::coordinator::CoordinatorOptions options;
  options.data_dir = data;
  options.lease = absl::Milliseconds(lease_ms);
  options.tick = std::min(absl::Milliseconds(200), options.lease / 4);
  options.security = *security;
  absl::StatusOr<std::unique_ptr<fcrawl::coordinator::Coordinator>> created =
      fcrawl::coordinator::Coordinator::Create(options);
  if (!created.ok()) return Fail(created.status().ToString());
  std::unique_ptr<fcrawl::coordinator::Coordinator> coord = *std::move(created);

  absl::StatusOr<std::unique_ptr<fcrawl::cluster::RpcServer>> server =
      fcrawl::cluster::RpcServer::Start(listen, *security, {coord.get()});
  if (!server.ok()) return Fail(server.status().ToString());

  httplib::Server web;
  std::thread web_thread;
  // /readyz: the coordinator's state is loaded and it takes heartbeats
  // (after Start, until a signal says stop).
  std::atomic<bool> ready{false};
  std::atomic<bool> web_ended{false};
  std::string http_address;
  fcrawl::coordinator::Coordinator* c = coord.get();
  const auto healthz = [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok\n", "text/plain");
  };
  const auto readyz = [&ready](const httplib::Request&,
                               httplib::Response& res) {
    const bool is_ready = ready.load();
    res.status = is_ready ? 200 : 503;
    res.set_content(is_ready ? "ready\n" : "not ready\n", "text/plain");
  };
  const auto metrics_page = [c](const httplib::Request&,
                                httplib::Response& res) {
    res.set_content(fcrawl::coordinator::RenderMetrics(c->Status()),
                    "text/plain; version=0.0.4; charset=utf-8");
  };
  if (!http.empty()) {
    if (const std::optional<fcrawl::HostPort> split =
            fcrawl::SplitHostPort(http);
        !split.has_value() || !split->port.has_value()) {
      return Usage("--http needs HOST:PORT, not '" + http + "'");
    }
    const std::string secret = security->token;
    web.set_pre_routing_handler(
        [secret](const httplib::Request& req, httplib::Response& res) {
          // The page itself holds no data (it asks for the token and sends
          // it in the header); only the data needs the token. The token
          // is never taken from the URL, where logs and history keep it.
          // The page (it asks for the token itself) and the probes of a
          // process manager (Kubernetes), which say nothing of the crawl.
          if (secret.empty() || req.path == "/status" || req.path == "/" ||
              req.path == "/healthz" || req.path == "/readyz") {
            return httplib::Server::HandlerResponse::Unhandled;
          }
          return Authorized(req, res, secret, "this cluster needs a token\n")
                     ? httplib::Server::HandlerResponse::Unhandled
                     : httplib::Server::HandlerResponse::Handled;
        });
    web.Get("/healthz", healthz);
    web.Get("/readyz", readyz);
    web.Get("/metrics", metrics_page);
    web.Get("/status.json",
            [c](const httplib::Request&, httplib::Response& res) {
              res.set_header("Cache-Control", "no-store");
              res.set_content(fcrawl::coordinator::RenderStatusJson(
                                  c->Status(), c->history().Snapshot()),
                              "application/json");
            });
    const std::string search_index = absl::GetFlag(FLAGS_search_index);
    web.Get("/search.json", [search_index](const httplib::Request& req,
                                           httplib::Response& res) {
      const fcrawl::corpus::HttpAnswer a = fcrawl::corpus::SearchForHttp(
          search_index, req.get_param_value("q"), req.get_param_value("limit"));
      res.status = a.status;
      res.set_header("Cache-Control", "no-store");
      res.set_content(a.body, "application/json");
    });
    web.Get("/status", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(fcrawl::coordinator::StatusPageHtml(),
                      "text/html; charset=utf-8");
    });
    web.Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("/status");
    });
    absl::StatusOr<std::string> bound =
        ListenInBackground(web, "http", http, &web_thread, &web_ended);
    if (!bound.ok()) return Fail(std::string(bound.status().message()));
    http_address = *bound;
  }

  // The scraper's listener: /metrics behind its own read-only token, and
  // the probes; nothing else of the crawl.
  httplib::Server scrape;
  std::thread scrape_thread;
  std::atomic<bool> scrape_ended{false};
  std::string metrics_address;
  if (!metrics.empty()) {
    scrape.set_pre_routing_handler(
        [metrics_token](const httplib::Request& req, httplib::Response& res) {
          if (metrics_token.empty() || req.path != "/metrics" ||
              Authorized(req, res, metrics_token,
                         "/metrics needs the metrics token\n")) {
            return httplib::Server::HandlerResponse::Unhandled;
          }
          return httplib::Server::HandlerResponse::Handled;
        });
    scrape.Get("/healthz", healthz);
    scrape.Get("/readyz", readyz);
    scrape.Get("/metrics", metrics_page);
    absl::StatusOr<std::string> bound = ListenInBackground(
        scrape, "metrics", metrics, &scrape_thread, &scrape_ended);
    if (!bound.ok()) {
      if (web_thread.joinable()) {
        web.stop();
        web_thread.join();
      }
      return Fail(std::string(bound.status().message()));
    }
    metrics_address = *bound;
  }

  coord->Start();
  ready = true;
  std::printf("coordinator grpc=%s http=%s%s\n", (*server)->address().c_str(),
              http_address.c_str(),
              metrics_address.empty()
                  ? ""
                  : absl::StrCat(" metrics=", metrics_address).c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  std::fprintf(stderr, "coordinator: signal %d, shutting down\n", sig);
  ready = false;
  if (web_thread.joinable()) {
    web.stop();
    web_thread.join();
  }
  if (scrape_thread.joinable()) {
    scrape.stop();
    scrape_thread.join();
  }
  (*server)->Shutdown(absl::Seconds(2));
  coord->Stop();
  coord.reset();  // closes the database
  return 0;
}
