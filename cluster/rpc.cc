#include "cluster/rpc.h"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/security/auth_metadata_processor.h"

namespace fcrawl::cluster {
namespace {

absl::StatusOr<std::string> ReadSmallFile(const std::string& path,
                                          absl::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read the ", what, " file '", path, "'"));
  }
  std::string data;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<size_t>(in.gcount()));
    if (data.size() > (1 << 20)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the ", what, " file '", path, "' is over 1 MiB"));
    }
  }
  return data;
}

absl::Status CheckToken(absl::string_view token) {
  if (token.size() < 16 || token.size() > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("the cluster token must have 16 to 256 characters, not ",
                     token.size()));
  }
  for (char c : token) {
    if (c <= ' ' || c > '~') {
      return absl::InvalidArgumentError(
          "the cluster token must be printable ASCII without spaces");
    }
  }
  return absl::OkStatus();
}

// Refuses every call whose metadata lacks the token.
class TokenProcessor : public grpc::AuthMetadataProcessor {
 public:
  explicit TokenProcessor(std::string token)
      : expected_(absl::StrCat("Bearer ", token)) {}
  bool IsBlocking() const override { return false; }
  grpc::Status Process(const InputMetadata& auth_metadata,
                       grpc::AuthContext* context,
                       OutputMetadata* consumed_auth_metadata,
                       OutputMetadata* response_metadata) override {
    auto it = auth_metadata.find("authorization");
    if (it == auth_metadata.end()) {
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                          "this cluster needs a token (authorization: Bearer)");
    }
    const grpc::string_ref got = it->second;
    // Constant-time comparison: the token is a secret.
    unsigned diff = got.size() != expected_.size();
    for (size_t i = 0; i < expected_.size(); ++i) {
      const char c = i < got.size() ? got.data()[i] : 0;
      diff |= static_cast<unsigned>(c ^ expected_[i]);
    }
    if (diff != 0) {
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                          "wrong cluster token");
    }
    consumed_auth_metadata->insert(
        {"authorization", std::string(got.data(), got.size())});
    return grpc::Status::OK;
  }

 private:
  const std::string expected_;
};

}  // namespace

absl::StatusOr<RpcSecurity> MakeSecurity(const std::string& token,
                                         const std::string& token_file,
                                         const std::string& tls_cert_file,
                                         const std::string& tls_key_file,
                                         const std::string& tls_ca_file) {
  RpcSecurity s;
  if (!token.empty() && !token_file.empty()) {
    return absl::InvalidArgumentError("give --token or --token_file, not both");
  }
  s.token = token;
  if (!token_file.empty()) {
    absl::StatusOr<std::string> data = ReadSmallFile(token_file, "token");
    if (!data.ok()) return data.status();
    absl::string_view first = *data;
    first = first.substr(0, first.find('\n'));
    s.token = std::string(absl::StripAsciiWhitespace(first));
    if (s.token.empty()) {
      // Not "no token": whoever gave the file meant the cluster to have one.
      return absl::InvalidArgumentError(absl::StrCat(
          "the token file ", token_file,
          " has no token on its first line (an empty file is not \"no "
          "token\")"));
    }
  }
  if (!s.token.empty()) {
    if (absl::Status st = CheckToken(s.token); !st.ok()) return st;
  }
  if (tls_cert_file.empty() != tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both --tls_cert and --tls_key");
  }
  for (const auto& [path, what] :
       {std::pair<std::string, const char*>{tls_cert_file, "TLS certificate"},
        {tls_key_file, "TLS key"},
        {tls_ca_file, "TLS CA"}}) {
    if (path.empty()) continue;
    absl::StatusOr<std::string> data = ReadSmallFile(path, what);
    if (!data.ok()) return data.status();
  }
  s.tls_cert_file = tls_cert_file;
  s.tls_key_file = tls_key_file;
  s.tls_ca_file = tls_ca_file;
  return s;
}

bool IsLoopbackAddress(absl::string_view host_port) {
  absl::string_view host = host_port;
  if (absl::StartsWith(host, "[")) {
    host = host.substr(1, host.find(']') == absl::string_view::npos
                              ? absl::string_view::npos
                              : host.find(']') - 1);
    return host == "::1";
  }
  host = host.substr(0, host.rfind(':'));
  if (absl::AsciiStrToLower(host) == "localhost") return true;
  return absl::StartsWith(host, "127.") &&
         std::count(host.begin(), host.end(), '.') == 3;
}

absl::StatusOr<std::unique_ptr<RpcServer>> RpcServer::Start(
    const std::string& address, const RpcSecurity& security,
    const std::vector<grpc::Service*>& services) {
  std::shared_ptr<grpc::ServerCredentials> creds;
  const bool tls = !security.tls_cert_file.empty();
  if (!IsLoopbackAddress(address) && !security.insecure &&
      (!tls || security.token.empty())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "listening on the non-loopback address ", address,
        " needs a token and TLS (--token or --token_file, --tls_cert and "
        "--tls_key): anyone who can reach it could steer the crawl; give "
        "--insecure to listen there without them anyway"));
  }
  if (tls) {
    grpc::SslServerCredentialsOptions o;
    absl::StatusOr<std::string> cert =
        ReadSmallFile(security.tls_cert_file, "TLS certificate");
    if (!cert.ok()) return cert.status();
    absl::StatusOr<std::string> key =
        ReadSmallFile(security.tls_key_file, "TLS key");
    if (!key.ok()) return key.status();
    o.pem_key_cert_pairs.push_back({*key, *cert});
    creds = grpc::SslServerCredentials(o);
  } else if (!security.token.empty()) {
    if (!IsLoopbackAddress(address)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a cluster token on the non-loopback address ", address,
          " needs TLS (--tls_cert/--tls_key): it would travel in clear"));
    }
    creds = grpc::experimental::LocalServerCredentials(LOCAL_TCP);
  } else {
    creds = grpc::InsecureServerCredentials();
  }
  if (!security.token.empty()) {
    creds->SetAuthMetadataProcessor(
        std::make_shared<TokenProcessor>(security.token));
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  auto server = std::unique_ptr<RpcServer>(new RpcServer());
  builder.AddListeningPort(address, creds, &server->port_);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  // Without this gRPC sets SO_REUSEPORT and a second server on a taken port
  // would silently share it.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  for (grpc::Service* s : services) builder.RegisterService(s);
  server->server_ = builder.BuildAndStart();
  if (server->server_ == nullptr || server->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", address,
                     " (address in use, or not an address of this machine)"));
  }
  server->server_->GetHealthCheckService()->SetServingStatus(true);
  server->address_ =
      absl::StrCat(address.substr(0, address.rfind(':')), ":", server->port_);
  return server;
}

RpcServer::~RpcServer() { Shutdown(absl::ZeroDuration()); }

void RpcServer::Shutdown(absl::Duration deadline) {
  if (shut_down_ || server_ == nullptr) return;
  shut_down_ = true;
  server_->GetHealthCheckService()->SetServingStatus(false);
  server_->Shutdown(absl::ToChronoTime(absl::Now() + deadline));
  server_->Wait();
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& address,
                                           const RpcSecurity& security) {
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (!security.tls_ca_file.empty() || !security.tls_cert_file.empty()) {
    grpc::SslCredentialsOptions o;
    const std::string& roots = security.tls_ca_file.empty()
                                   ? security.tls_cert_file
                                   : security.tls_ca_file;
    if (absl::StatusOr<std::string> pem = ReadSmallFile(roots, "TLS CA");
        pem.ok()) {
      o.pem_root_certs = *pem;
    }
    creds = grpc::SslCredentials(o);
  } else if (!security.token.empty() && IsLoopbackAddress(address)) {
    creds = grpc::experimental::LocalCredentials(LOCAL_TCP);
  } else {
    creds = grpc::InsecureChannelCredentials();
  }
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(kMaxMessageBytes);
  args.SetMaxSendMessageSize(kMaxMessageBytes);
  // Reconnect quickly after a peer restarts (default backoff reaches 120 s).
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  return grpc::CreateCustomChannel(address, creds, args);
}

void PrepareContext(const RpcSecurity& security, absl::Duration timeout,
                    grpc::ClientContext* context) {
  if (!security.token.empty()) {
    context->AddMetadata("authorization",
                         absl::StrCat("Bearer ", security.token));
  }
  context->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
}

double ProcessCpuSeconds() {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
         ru.ru_stime.tv_usec / 1e6;
}

absl::Status FromGrpc(const grpc::Status& status, absl::string_view what) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      absl::StrCat(what, ": ", status.error_message()));
}

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

std::vector<grpc::Status> AcceptLinksAll(
    const RpcSecurity& security, absl::Duration timeout,
    const std::vector<std::shared_ptr<proto::Worker::Stub>>& stubs,
    const std::vector<const proto::AcceptLinksRequest*>& requests,
    std::vector<proto::AcceptLinksResponse>* responses) {
  std::vector<proto::AcceptLinksResponse> answers;
  std::vector<grpc::Status> statuses =
      CallAll(security, timeout, requests.size(), &answers,
              [&](size_t i, grpc::ClientContext* context,
                  proto::AcceptLinksResponse* response,
                  std::function<void(grpc::Status)> done) {
                stubs[i]->async()->AcceptLinks(context, requests[i], response,
                                               std::move(done));
              });
  if (responses != nullptr) *responses = std::move(answers);
  return statuses;
}

}  // namespace fcrawl::cluster
