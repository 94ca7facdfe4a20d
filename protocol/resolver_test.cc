#include "protocol/resolver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace fcrawl::protocol {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A DNS server on 127.0.0.1 (UDP, random port) that answers A queries from
// a table: an address with a TTL, NXDOMAIN, or silence. AAAA queries for a
// known name get an empty NOERROR answer. Counts the queries per name.
class FakeDns {
 public:
  struct Answer {
    enum Kind { kAddress, kNxDomain, kSilent } kind;
    std::string ipv4;
    uint32_t ttl = 0;
  };

  FakeDns() {
    fd_ = socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    socklen_t len = sizeof(a);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeDns() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }

  std::string server() const { return absl::StrCat("127.0.0.1:", port_); }
  void Set(const std::string& name, Answer a) {
    absl::MutexLock l(&mu_);
    table_[name] = a;
  }
  int queries(const std::string& name) {
    absl::MutexLock l(&mu_);
    return queries_[name];
  }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      unsigned char q[512];
      sockaddr_in from{};
      socklen_t len = sizeof(from);
      const ssize_t n = recvfrom(fd_, q, sizeof(q), 0,
                                 reinterpret_cast<sockaddr*>(&from), &len);
      if (n < 12) continue;
      // The question: labels from byte 12, then type and class.
      size_t i = 12;
      std::string name;
      while (i < static_cast<size_t>(n) && q[i] != 0) {
        const size_t l = q[i];
        if (!name.empty()) name += '.';
        name.append(reinterpret_cast<const char*>(q) + i + 1, l);
        i += l + 1;
      }
      if (i + 5 > static_cast<size_t>(n)) continue;
      const int type = (q[i + 1] << 8) | q[i + 2];
      const size_t question_end = i + 5;
      Answer a{Answer::kNxDomain, "", 0};
      {
        absl::MutexLock l(&mu_);
        if (type == 1) ++queries_[name];
        if (auto it = table_.find(name); it != table_.end()) a = it->second;
      }
      if (a.kind == Answer::kSilent) continue;
      std::vector<unsigned char> r(q, q + question_end);
      r[2] = 0x81;                                       // QR, RD
      r[3] = a.kind == Answer::kNxDomain ? 0x83 : 0x80;  // RA, rcode
      r[6] = r[7] = r[8] = r[9] = r[10] = r[11] = 0;
      if (a.kind == Answer::kAddress && type == 1) {
        r[7] = 1;  // one answer
        const uint32_t ttl = a.ttl;
        const unsigned char rr[] = {0xc0,
                                    0x0c,
                                    0,
                                    1,
                                    0,
                                    1,
                                    static_cast<unsigned char>(ttl >> 24),
                                    static_cast<unsigned char>(ttl >> 16),
                                    static_cast<unsigned char>(ttl >> 8),
                                    static_cast<unsigned char>(ttl),
                                    0,
                                    4};
        r.insert(r.end(), rr, rr + sizeof(rr));
        in_addr addr{};
        inet_pton(AF_INET, a.ipv4.c_str(), &addr);
        const auto* b = reinterpret_cast<const unsigned char*>(&addr);
        r.insert(r.end(), b, b + 4);
      }
      sendto(fd_, r.data(), r.size(), 0, reinterpret_cast<sockaddr*>(&from),
             len);
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  absl::Mutex mu_;
  std::map<std::string, Answer> table_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> queries_ ABSL_GUARDED_BY(mu_);
};

std::unique_ptr<Resolver> MakeResolver(const FakeDns& dns,
                                       ResolverOptions o = {}) {
  o.servers = {dns.server()};
  auto r = Resolver::Create(o);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : nullptr;
}

// Polls until `host`'s lookup ends (bounded by a number of rounds, not by
// the clock: each Poll waits at most 50 ms).
Resolution Await(Resolver& r, const std::string& host) {
  for (int i = 0; i < 400; ++i) {
    if (std::optional<Resolution> res = r.Lookup(host, absl::Now())) {
      return *res;
    }
    r.Poll(absl::Milliseconds(50));
  }
  ADD_FAILURE() << "lookup of " << host << " never ended";
  return {};
}

TEST(ResolverTest, IpLiteralsAndLocalhostNeedNoLookup) {
  FakeDns dns;
  auto r = MakeResolver(dns);
  ASSERT_NE(r, nullptr);
  for (const auto& [host, want] :
       std::vector<std::pair<std::string, std::string>>{
           {"192.0.2.1", "192.0.2.1"},
           {"[2001:db8::1]", "2001:db8::1"},
           {"::1", "::1"}}) {
    std::optional<Resolution> res = r->Lookup(host, absl::Now());
    ASSERT_TRUE(res.has_value()) << host;
    EXPECT_TRUE(res->status.ok());
    EXPECT_THAT(res->addresses, ElementsAre(want));
  }
  std::optional<Resolution> local = r->Lookup("LocalHost", absl::Now());
  ASSERT_TRUE(local.has_value());
  EXPECT_THAT(local->addresses, ElementsAre("127.0.0.1", "::1"));
  EXPECT_EQ(r->lookups(), 0);
  EXPECT_EQ(r->pending(), 0u);
}

TEST(ResolverTest, AnswerIsCachedForItsTtl) {
  FakeDns dns;
  dns.Set("www.example.org", {FakeDns::Answer::kAddress, "192.0.2.7", 300});
  auto r = MakeResolver(dns);
  ASSERT_NE(r, nullptr);
  const absl::Time start = absl::Now();
  EXPECT_FALSE(r->Lookup("www.example.org", start).has_value());
  EXPECT_EQ(r->pending(), 1u);
  Resolution res = Await(*r, "www.example.org");
  ASSERT_TRUE(res.status.ok()) << res.status;
  EXPECT_THAT(res.addresses, ElementsAre("192.0.2.7"));
  EXPECT_GE(res.expires, start + absl::Seconds(300));
  EXPECT_LE(res.expires, absl::Now() + absl::Seconds(300));
  // Answered from the cache until it expires; then asked again.
  std::optional<Resolution> again = r->Lookup("WWW.example.org", absl::Now());
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->from_cache);
  EXPECT_EQ(dns.queries("www.example.org"), 1);
  EXPECT_EQ(r->lookups(), 1);
  EXPECT_EQ(r->cache_hits(), 2);  // Await's answer, then this one
  EXPECT_FALSE(r->Lookup("www.example.org", absl::Now() + absl::Seconds(301))
                   .has_value());
  EXPECT_EQ(r->lookups(), 2);
}

TEST(ResolverTest, TtlIsClampedToTheMinimum) {
  FakeDns dns;
  dns.Set("short.example.org", {FakeDns::Answer::kAddress, "192.0.2.8", 1});
  ResolverOptions o;
  o.min_ttl = absl::Seconds(60);
  auto r = MakeResolver(dns, o);
  ASSERT_NE(r, nullptr);
  const absl::Time start = absl::Now();
  Resolution res = Await(*r, "short.example.org");
  ASSERT_TRUE(res.status.ok()) << res.status;
  EXPECT_GE(res.expires, start + absl::Seconds(60));
}

TEST(ResolverTest, NoSuchNameIsNotFoundAndCachedNegatively) {
  FakeDns dns;
  ResolverOptions o;
  o.negative_ttl = absl::Seconds(30);
  auto r = MakeResolver(dns, o);
  ASSERT_NE(r, nullptr);
  Resolution res = Await(*r, "nowhere.example.org");
  EXPECT_TRUE(absl::IsNotFound(res.status)) << res.status;
  EXPECT_THAT(res.status.message(), HasSubstr("nowhere.example.org"));
  EXPECT_TRUE(res.addresses.empty());
  const int asked = dns.queries("nowhere.example.org");
  EXPECT_GE(asked, 1);
  std::optional<Resolution> again =
      r->Lookup("nowhere.example.org", absl::Now());
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(absl::IsNotFound(again->status));
  EXPECT_EQ(dns.queries("nowhere.example.org"), asked);
  EXPECT_EQ(r->failures(), 1);
}

TEST(ResolverTest, SilentServerTimesOutWithinTheTimeout) {
  FakeDns dns;
  dns.Set("silent.example.org", {FakeDns::Answer::kSilent, "", 0});
  ResolverOptions o;
  o.timeout = absl::Milliseconds(300);
  auto r = MakeResolver(dns, o);
  ASSERT_NE(r, nullptr);
  const absl::Time start = absl::Now();
  EXPECT_FALSE(r->Lookup("silent.example.org", start).has_value());
  // NextWake says when to come back, never later than the deadline.
  EXPECT_LE(r->NextWake(start), start + absl::Milliseconds(300));
  Resolution res = Await(*r, "silent.example.org");
  EXPECT_TRUE(absl::IsDeadlineExceeded(res.status)) << res.status;
  EXPECT_EQ(r->pending(), 0u);
}

TEST(ResolverTest, LookupsBeyondTheLimitWaitTheirTurn) {
  FakeDns dns;
  dns.Set("a.example.org", {FakeDns::Answer::kAddress, "192.0.2.1", 300});
  dns.Set("b.example.org", {FakeDns::Answer::kAddress, "192.0.2.2", 300});
  dns.Set("c.example.org", {FakeDns::Answer::kAddress, "192.0.2.3", 300});
  ResolverOptions o;
  o.max_lookups = 1;
  auto r = MakeResolver(dns, o);
  ASSERT_NE(r, nullptr);
  for (const char* h : {"a.example.org", "b.example.org", "c.example.org"}) {
    EXPECT_FALSE(r->Lookup(h, absl::Now()).has_value());
  }
  // Asking again for a host already queued starts nothing new.
  EXPECT_FALSE(r->Lookup("b.example.org", absl::Now()).has_value());
  EXPECT_EQ(r->pending(), 3u);
  EXPECT_EQ(r->lookups(), 1);  // only one sent so far
  EXPECT_THAT(Await(*r, "c.example.org").addresses, ElementsAre("192.0.2.3"));
  EXPECT_THAT(Await(*r, "a.example.org").addresses, ElementsAre("192.0.2.1"));
  EXPECT_EQ(r->lookups(), 3);
  EXPECT_EQ(dns.queries("b.example.org"), 1);
}

TEST(ResolverTest, NamesNoQueryCanCarryAreRefused) {
  FakeDns dns;
  auto r = MakeResolver(dns);
  ASSERT_NE(r, nullptr);
  for (const std::string& host :
       {std::string("a..example.org"), std::string(300, 'a'),
        absl::StrCat(std::string(64, 'b'), ".org"), std::string("a b.org")}) {
    std::optional<Resolution> res = r->Lookup(host, absl::Now());
    ASSERT_TRUE(res.has_value()) << host;
    EXPECT_TRUE(absl::IsInvalidArgument(res->status)) << res->status;
  }
  EXPECT_EQ(r->lookups(), 0);
}

TEST(ResolverTest, BadOptionsAreRefused) {
  for (const std::string& server :
       {std::string("dns.example.org"), std::string("127.0.0.1:0"),
        std::string("127.0.0.1:x"), std::string("[::1")}) {
    ResolverOptions o;
    o.servers = {server};
    EXPECT_TRUE(absl::IsInvalidArgument(Resolver::Create(o).status()))
        << server;
  }
  ResolverOptions o;
  o.tries = 0;
  EXPECT_TRUE(absl::IsInvalidArgument(Resolver::Create(o).status()));
}

TEST(ResolverTest, CacheStaysWithinItsBound) {
  FakeDns dns;
  ResolverOptions o;
  o.max_entries = 4;
  auto r = MakeResolver(dns, o);
  ASSERT_NE(r, nullptr);
  for (int i = 0; i < 10; ++i) {
    const std::string h = absl::StrCat("h", i, ".example.org");
    dns.Set(h, {FakeDns::Answer::kAddress, "192.0.2.9", 300});
    EXPECT_TRUE(Await(*r, h).status.ok());
  }
  // The first hosts were evicted: asking again sends a new query.
  EXPECT_FALSE(r->Lookup("h0.example.org", absl::Now()).has_value());
  EXPECT_TRUE(Await(*r, "h0.example.org").status.ok());
  EXPECT_EQ(dns.queries("h0.example.org"), 2);
}

}  // namespace
}  // namespace fcrawl::protocol
