#include "cluster/rpc.h"

#include <cstdio>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/test_temp_dir.h"
#include "gtest/gtest.h"
#include "proto/cluster.grpc.pb.h"

namespace fcrawl::cluster {
namespace {

class StatsService : public proto::Worker::Service {
 public:
  grpc::Status GetStats(grpc::ServerContext*, const proto::StatsRequest*,
                        proto::WorkerStats* out) override {
    out->set_name("w1");
    out->set_pages_fetched(42);
    return grpc::Status::OK;
  }
};

grpc::Status Call(const std::string& address, const RpcSecurity& client,
                  proto::WorkerStats* out) {
  auto stub = proto::Worker::NewStub(MakeChannel(address, client));
  grpc::ClientContext ctx;
  PrepareContext(client, absl::Seconds(5), &ctx);
  return stub->GetStats(&ctx, proto::StatsRequest(), out);
}

const char kToken[] = "0123456789abcdef-token";

TEST(RpcTest, LoopbackAddresses) {
  EXPECT_TRUE(IsLoopbackAddress("127.0.0.1:7000"));
  EXPECT_TRUE(IsLoopbackAddress("127.1.2.3:0"));
  EXPECT_TRUE(IsLoopbackAddress("localhost:1"));
  EXPECT_TRUE(IsLoopbackAddress("[::1]:7000"));
  EXPECT_FALSE(IsLoopbackAddress("0.0.0.0:7000"));
  EXPECT_FALSE(IsLoopbackAddress("10.0.0.1:7000"));
  EXPECT_FALSE(IsLoopbackAddress("[::]:7000"));
  EXPECT_FALSE(IsLoopbackAddress("127.evil.com:80"));
}

TEST(RpcTest, PlainServerAnswers) {
  StatsService service;
  auto server = RpcServer::Start("127.0.0.1:0", {}, {&service});
  ASSERT_TRUE(server.ok()) << server.status();
  EXPECT_GT((*server)->port(), 0);
  EXPECT_EQ((*server)->address(),
            absl::StrCat("127.0.0.1:", (*server)->port()));
  proto::WorkerStats out;
  grpc::Status s = Call((*server)->address(), {}, &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(out.pages_fetched(), 42);
}

TEST(RpcTest, TokenIsRequired) {
  StatsService service;
  RpcSecurity sec;
  sec.token = kToken;
  auto server = RpcServer::Start("127.0.0.1:0", sec, {&service});
  ASSERT_TRUE(server.ok()) << server.status();
  proto::WorkerStats out;
  grpc::Status ok = Call((*server)->address(), sec, &out);
  ASSERT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_EQ(out.name(), "w1");

  // The right transport but no token, or a wrong one.
  auto stub = proto::Worker::NewStub(MakeChannel((*server)->address(), sec));
  {
    grpc::ClientContext ctx;
    ctx.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
    grpc::Status s = stub->GetStats(&ctx, proto::StatsRequest(), &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED)
        << s.error_message();
  }
  {
    RpcSecurity wrong = sec;
    wrong.token = "0123456789abcdef-other";
    grpc::ClientContext ctx;
    PrepareContext(wrong, absl::Seconds(5), &ctx);
    grpc::Status s = stub->GetStats(&ctx, proto::StatsRequest(), &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
}

TEST(RpcTest, TokenWithoutTlsOnlyOnLoopback) {
  StatsService service;
  RpcSecurity sec;
  sec.token = kToken;
  auto server = RpcServer::Start("0.0.0.0:0", sec, {&service});
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(server.status().message().find("TLS"), std::string::npos);
  // Not even with --insecure: gRPC checks a token only on a secure
  // transport, so it could not be enforced.
  sec.insecure = true;
  EXPECT_FALSE(RpcServer::Start("0.0.0.0:0", sec, {&service}).ok());
}

TEST(RpcTest, OpenServerOnlyOnLoopbackUnlessInsecure) {
  StatsService service;
  for (const char* address : {"0.0.0.0:0", "[::]:0"}) {
    auto server = RpcServer::Start(address, {}, {&service});
    ASSERT_FALSE(server.ok()) << address;
    EXPECT_EQ(server.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(server.status().message().find("--insecure"), std::string::npos)
        << server.status();
  }
  RpcSecurity insecure;
  insecure.insecure = true;
  auto open = RpcServer::Start("0.0.0.0:0", insecure, {&service});
  EXPECT_TRUE(open.ok()) << open.status();
  StatsService other;
  EXPECT_TRUE(RpcServer::Start("127.0.0.1:0", {}, {&other}).ok());
}

TEST(RpcTest, UnbindableAddress) {
  StatsService service;
  auto first = RpcServer::Start("127.0.0.1:0", {}, {&service});
  ASSERT_TRUE(first.ok());
  StatsService other;
  auto second = RpcServer::Start((*first)->address(), {}, {&other});
  EXPECT_FALSE(second.ok());
}

TEST(RpcTest, MakeSecurityChecksItsInputs) {
  EXPECT_TRUE(MakeSecurity("", "", "", "", "").ok());
  EXPECT_FALSE(MakeSecurity("short", "", "", "", "").ok());
  EXPECT_FALSE(MakeSecurity("with space 0123456789", "", "", "", "").ok());
  EXPECT_FALSE(MakeSecurity(kToken, "/x", "", "", "").ok());
  EXPECT_EQ(MakeSecurity("", "/nonexistent/token", "", "", "").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_FALSE(MakeSecurity("", "", "/a.pem", "", "").ok());  // key missing
  file::TestTempDir tmp_dir;
  const std::string path =
      tmp_dir.Write("token", absl::StrCat("  ", kToken, "  \nignored\n"));
  absl::StatusOr<RpcSecurity> s = MakeSecurity("", path, "", "", "");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->token, kToken);
  // A token file without a token is an error, not "no token".
  for (const char* content : {"", "\n", "   \nsecond line\n"}) {
    const std::string empty = tmp_dir.Write("empty-token", content);
    absl::StatusOr<RpcSecurity> e = MakeSecurity("", empty, "", "", "");
    EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument) << content;
    EXPECT_NE(e.status().message().find("no token"), std::string::npos);
  }
}

}  // namespace
}  // namespace fcrawl::cluster
