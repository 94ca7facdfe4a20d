// coordinator: the crawl cluster's coordinator (coordinator/coordinator.h).
//
//   coordinator --data DIR [--listen HOST:PORT] [--http HOST:PORT]
//               [--lease_ms N] [--token T | --token_file F]
//               [--tls_cert PEM --tls_key PEM] [--tls_ca PEM]
//
//   --listen   gRPC address (default 127.0.0.1:7000; port 0 picks one)
//   --http     /metrics, /status and /status.json (default 127.0.0.1:7080;
//              "" = no HTTP; port 0 picks one). With a token, HTTP requests
//              need "Authorization: Bearer <token>" or "?token=<token>".
//   --data     folder of the coordinator's database (required)
//   --lease_ms worker lease (default 5000; workers heartbeat every lease/4)
//
// Flags are "--name value" or "--name=value". Once both listeners are bound
// it prints one line to stdout: "coordinator grpc=HOST:PORT http=HOST:PORT"
// (http= is empty without HTTP). SIGINT or SIGTERM shuts down cleanly.
// Exit status: 0 after a clean shutdown, 2 on a usage or start-up error.
#include <httplib.h>
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "cluster/rpc.h"
#include "coordinator/coordinator.h"
#include "coordinator/http_status.h"

namespace {

int Usage(const std::string& why) {
  std::fprintf(
      stderr,
      "coordinator: %s\n"
      "usage: coordinator --data DIR [--listen HOST:PORT] [--http HOST:PORT]\n"
      "                   [--lease_ms N] [--token T | --token_file F]\n"
      "                   [--tls_cert PEM --tls_key PEM] [--tls_ca PEM]\n",
      why.c_str());
  return 2;
}

int Fail(const std::string& why) {
  std::fprintf(stderr, "coordinator: %s\n", why.c_str());
  return 2;
}

// "host:port" → host (brackets of an IPv6 literal removed) and port.
bool SplitHostPort(const std::string& address, std::string* host, int* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  *host = address.substr(0, colon);
  if (host->size() >= 2 && host->front() == '[' && host->back() == ']') {
    *host = host->substr(1, host->size() - 2);
  }
  return absl::SimpleAtoi(address.substr(colon + 1), port) && *port >= 0 &&
         *port <= 65535 && !host->empty();
}

// Constant-time comparison (the token is a secret).
bool SameSecret(const std::string& got, const std::string& want) {
  unsigned diff = got.size() != want.size();
  for (size_t i = 0; i < want.size(); ++i) {
    diff |= static_cast<unsigned>((i < got.size() ? got[i] : 0) ^ want[i]);
  }
  return diff == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:7000", http = "127.0.0.1:7080", data;
  std::string token, token_file, tls_cert, tls_key, tls_ca;
  int64_t lease_ms = 5000;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      Usage("the crawl cluster's coordinator");
      return 0;
    }
    std::string value;
    bool has_value = false;
    if (const size_t eq = a.find('=');
        absl::StartsWith(a, "--") && eq != std::string::npos) {
      value = a.substr(eq + 1);
      a = a.substr(0, eq);
      has_value = true;
    }
    std::string* target = nullptr;
    if (a == "--listen")
      target = &listen;
    else if (a == "--http")
      target = &http;
    else if (a == "--data")
      target = &data;
    else if (a == "--token")
      target = &token;
    else if (a == "--token_file")
      target = &token_file;
    else if (a == "--tls_cert")
      target = &tls_cert;
    else if (a == "--tls_key")
      target = &tls_key;
    else if (a == "--tls_ca")
      target = &tls_ca;
    else if (a != "--lease_ms")
      return Usage("unknown argument '" + a + "'");
    if (!has_value) {
      if (i + 1 >= argc) return Usage(a + " needs a value");
      value = argv[++i];
    }
    if (target != nullptr) {
      *target = value;
    } else if (!absl::SimpleAtoi(value, &lease_ms) || lease_ms < 100 ||
               lease_ms > 3600000) {
      return Usage("--lease_ms needs a number of ms in [100, 3600000]");
    }
  }
  if (data.empty()) return Usage("--data DIR is required");
  if (listen.empty()) return Usage("--listen needs HOST:PORT");

  absl::StatusOr<fcrawl::cluster::RpcSecurity> security =
      fcrawl::cluster::MakeSecurity(token, token_file, tls_cert, tls_key,
                                    tls_ca);
  if (!security.ok()) return Fail(std::string(security.status().message()));

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
  std::atomic<bool> web_ended{false};
  std::string http_address;
  if (!http.empty()) {
    std::string host;
    int port = 0;
    if (!SplitHostPort(http, &host, &port)) {
      return Usage("--http needs HOST:PORT, not '" + http + "'");
    }
    const std::string secret = security->token;
    web.set_pre_routing_handler(
        [secret](const httplib::Request& req, httplib::Response& res) {
          if (secret.empty())
            return httplib::Server::HandlerResponse::Unhandled;
          const std::string bearer = req.get_header_value("Authorization");
          if (SameSecret(bearer, "Bearer " + secret) ||
              (req.has_param("token") &&
               SameSecret(req.get_param_value("token"), secret))) {
            return httplib::Server::HandlerResponse::Unhandled;
          }
          res.status = 401;
          res.set_header("WWW-Authenticate", "Bearer");
          res.set_content("this cluster needs a token\n", "text/plain");
          return httplib::Server::HandlerResponse::Handled;
        });
    fcrawl::coordinator::Coordinator* c = coord.get();
    web.Get("/metrics", [c](const httplib::Request&, httplib::Response& res) {
      res.set_content(fcrawl::coordinator::RenderMetrics(c->Status()),
                      "text/plain; version=0.0.4; charset=utf-8");
    });
    web.Get("/status.json",
            [c](const httplib::Request&, httplib::Response& res) {
              res.set_header("Cache-Control", "no-store");
              res.set_content(fcrawl::coordinator::RenderStatusJson(
                                  c->Status(), c->history().Snapshot()),
                              "application/json");
            });
    web.Get("/status", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(fcrawl::coordinator::StatusPageHtml(),
                      "text/html; charset=utf-8");
    });
    web.Get("/", [](const httplib::Request&, httplib::Response& res) {
      res.set_redirect("/status");
    });
    if (port == 0) {
      port = web.bind_to_any_port(host);
      if (port <= 0) return Fail("cannot listen for HTTP on " + http);
    } else if (!web.bind_to_port(host, port)) {
      return Fail("cannot listen for HTTP on " + http +
                  " (address in use, or not an address of this machine)");
    }
    http_address = absl::StrCat(http.substr(0, http.rfind(':')), ":", port);
    web_thread = std::thread([&web, &web_ended] {
      web.listen_after_bind();
      web_ended = true;
    });
    // stop() only reaches a server that runs: wait for it, so a signal that
    // comes at once cannot leave the HTTP thread listening forever.
    while (!web.is_running() && !web_ended) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  coord->Start();
  std::printf("coordinator grpc=%s http=%s\n", (*server)->address().c_str(),
              http_address.c_str());
  std::fflush(stdout);

  int sig = 0;
  sigwait(&signals, &sig);
  std::fprintf(stderr, "coordinator: signal %d, shutting down\n", sig);
  if (web_thread.joinable()) {
    web.stop();
    web_thread.join();
  }
  (*server)->Shutdown(absl::Seconds(2));
  coord->Stop();
  coord.reset();  // closes the database
  return 0;
}
