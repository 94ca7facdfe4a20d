// Over 800 lines for a reason: fetcher.cc is one transfer engine, and every
// test here shares the loopback servers (HttpServer, RawServer) defined first.
#include "protocol/fetcher.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "proto/crawl_config.pb.h"

namespace fcrawl::protocol {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kCap = 1 << 20;  // max_body_bytes in most tests

// An in-process cpp-httplib server on 127.0.0.1 and a random port. Stopped
// (and its threads joined) by the destructor, so a failing test leaks
// nothing. Declare it before the Fetcher so the Fetcher (and its keep-alive
// connections) goes first.
class HttpServer {
 public:
  HttpServer() {
    server_.new_task_queue = [] { return new httplib::ThreadPool(64); };
    server_.set_keep_alive_timeout(1);
    server_.set_tcp_nodelay(true);
  }
  ~HttpServer() { Stop(); }

  httplib::Server& server() { return server_; }

  void Start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    ASSERT_GT(port_, 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() is a no-op until the server runs.
    while (!server_.is_running()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  void Stop() {
    if (!thread_.joinable()) return;
    server_.stop();
    thread_.join();
  }

  int port() const { return port_; }
  std::string Url(absl::string_view path) const {
    return absl::StrCat("http://127.0.0.1:", port_, path);
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
};

// A TCP server on 127.0.0.1 whose connections are handled by `handler`, for
// misbehaviour httplib cannot produce. The handler should return when `stop`
// is set; the destructor also shuts the sockets down to unblock it.
class RawServer {
 public:
  using Handler = std::function<void(int fd, const std::atomic<bool>& stop)>;

  explicit RawServer(Handler handler) : handler_(std::move(handler)) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in addr = {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    const int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) !=
            0 ||
        listen(listen_fd_, 128) != 0) {
      ADD_FAILURE() << "bind/listen: " << std::strerror(errno);
      return;
    }
    socklen_t len = sizeof(addr);
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    accept_thread_ = std::thread([this] { AcceptLoop(); });
  }

  ~RawServer() {
    stop_ = true;
    if (accept_thread_.joinable()) accept_thread_.join();
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int fd : fds_) shutdown(fd, SHUT_RDWR);
    }
    for (std::thread& t : threads_) t.join();
    for (int fd : fds_) close(fd);
    if (listen_fd_ >= 0) close(listen_fd_);
  }

  int port() const { return port_; }
  std::string Url(absl::string_view path) const {
    return absl::StrCat("http://127.0.0.1:", port_, path);
  }
  int connections() const { return connections_.load(); }

 private:
  void AcceptLoop() {
    while (!stop_) {
      struct pollfd p = {listen_fd_, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) continue;
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) continue;
      ++connections_;
      std::lock_guard<std::mutex> lock(mu_);
      fds_.push_back(fd);
      threads_.emplace_back([this, fd] { handler_(fd, stop_); });
    }
  }

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  std::thread accept_thread_;
  std::mutex mu_;
  std::vector<int> fds_;
  std::vector<std::thread> threads_;
};

// Reads the request head (up to the blank line); "" on EOF, error or stop.
std::string ReadHead(int fd, const std::atomic<bool>& stop) {
  std::string head;
  char buf[4096];
  while (!stop && head.find("\r\n\r\n") == std::string::npos) {
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 20) <= 0) continue;
    const ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) return "";
    head.append(buf, static_cast<size_t>(n));
  }
  return head;
}

bool SendAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t n = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void SleepUnlessStopped(absl::Duration d, const std::atomic<bool>& stop) {
  const absl::Time end = absl::Now() + d;
  while (!stop && absl::Now() < end) absl::SleepFor(absl::Milliseconds(5));
}

// Answers every request on the connection (keep-alive) with
// `respond(path)`'s body. A minimal server for load: httplib's listen
// backlog is 5, so a burst of 50 connects loses SYNs to it.
void ServeKeepAlive(
    int fd, const std::atomic<bool>& stop,
    const std::function<std::string(absl::string_view)>& respond) {
  while (!stop) {
    const std::string head = ReadHead(fd, stop);
    if (head.empty()) return;
    absl::string_view path = head;
    path.remove_prefix(std::min(path.size(), path.find(' ') + 1));
    path = path.substr(0, path.find(' '));
    const std::string body = respond(path);
    if (!SendAll(
            fd, absl::StrCat("HTTP/1.1 200 OK\r\nContent-Length: ", body.size(),
                             "\r\nContent-Type: text/plain\r\n\r\n", body))) {
      return;
    }
  }
}

// Timeouts far above what a loopback transfer needs, so that a loaded
// machine does not turn a slow answer into a failed fetch; the tests of the
// timeouts set their own.
FetcherOptions TestOptions() {
  FetcherOptions o;
  o.connect_timeout = absl::Seconds(10);
  o.total_timeout = absl::Seconds(30);
  o.low_speed_bytes_per_s = 0;
  o.max_body_bytes = kCap;
  o.user_agent = "fcrawl-test/1.0";
  o.allow_private_addresses = true;
  return o;
}

std::unique_ptr<Fetcher> MakeFetcher(const FetcherOptions& options) {
  absl::StatusOr<std::unique_ptr<Fetcher>> f = Fetcher::Create(options);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? std::move(*f) : nullptr;
}

// Polls until every started transfer has completed or `limit` has passed
// (a guard against a hang, above TestOptions' total timeout; no test
// measures it).
std::vector<FetchResult> PollAll(Fetcher& f,
                                 absl::Duration limit = absl::Seconds(60)) {
  std::vector<FetchResult> all;
  const absl::Time end = absl::Now() + limit;
  while (f.in_flight() > 0 && absl::Now() < end) {
    for (FetchResult& r : f.Poll(absl::Milliseconds(100))) {
      all.push_back(std::move(r));
    }
  }
  return all;
}

FetchResult FetchOne(Fetcher& f, const std::string& url) {
  f.Start(7, url);
  std::vector<FetchResult> results = PollAll(f);
  if (results.size() != 1) {
    ADD_FAILURE() << "expected one result for " << url << ", got "
                  << results.size();
    return FetchResult();
  }
  EXPECT_EQ(results[0].id, 7u);
  EXPECT_EQ(results[0].url, url);
  return std::move(results[0]);
}

FetchResult FetchOne(const FetcherOptions& options, const std::string& url) {
  std::unique_ptr<Fetcher> f = MakeFetcher(options);
  if (f == nullptr) return FetchResult();
  return FetchOne(*f, url);
}

// 128 MB of zeros, gzipped (about 130 KB). Deflating 128 MB takes seconds,
// so only two 1 MB pieces are compressed, each ended with Z_FULL_FLUSH (which
// resets the compressor, so every further 1 MB piece would compress to the
// same bytes as the second); the second is repeated and the trailer (CRC-32
// and length of the whole) is written by hand.
constexpr int kBombMiB = 128;

const std::string& GzipBomb() {
  static const std::string* bomb = [] {
    const std::vector<unsigned char> zeros(1 << 20, 0);
    z_stream z = {};
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    auto run = [&](const unsigned char* in, size_t size, int flush) {
      std::string out;
      std::vector<unsigned char> buf(1 << 16);
      z.next_in = const_cast<unsigned char*>(in);
      z.avail_in = static_cast<uInt>(size);
      do {
        z.next_out = buf.data();
        z.avail_out = static_cast<uInt>(buf.size());
        deflate(&z, flush);
        out.append(reinterpret_cast<char*>(buf.data()),
                   buf.size() - z.avail_out);
      } while (z.avail_out == 0);
      return out;
    };
    const std::string first = run(zeros.data(), zeros.size(), Z_FULL_FLUSH);
    const std::string piece = run(zeros.data(), zeros.size(), Z_FULL_FLUSH);
    std::string end = run(nullptr, 0, Z_FINISH);  // last block + trailer
    deflateEnd(&z);
    auto* out = new std::string(first);
    for (int i = 1; i < kBombMiB; ++i) *out += piece;
    const uLong piece_crc =
        crc32(0L, zeros.data(), static_cast<uInt>(zeros.size()));
    uLong crc = piece_crc;
    for (int i = 1; i < kBombMiB; ++i) {
      crc = crc32_combine(crc, piece_crc, static_cast<z_off_t>(zeros.size()));
    }
    const uint32_t size = static_cast<uint32_t>(uint64_t{kBombMiB} << 20);
    end.resize(end.size() - 8);
    for (int i = 0; i < 4; ++i)
      end += static_cast<char>((crc >> (8 * i)) & 0xff);
    for (int i = 0; i < 4; ++i)
      end += static_cast<char>((size >> (8 * i)) & 0xff);
    *out += end;
    return out;
  }();
  return *bomb;
}

// Inflated size of a gzip stream; -1 when it is not valid.
int64_t GunzippedSize(const std::string& gz) {
  z_stream z = {};
  inflateInit2(&z, 15 + 16);
  std::vector<unsigned char> buf(1 << 20);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  int64_t total = 0;
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = buf.data();
    z.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&z, Z_NO_FLUSH);
    total += static_cast<int64_t>(buf.size() - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END && z.avail_in == 0 ? total : -1;
}

// --- Normal responses -------------------------------------------------------

// The fetcher's own defaults (for a Fetcher made outside a crawl; the
// crawl sets every one from its config) are the crawl config's.
TEST(FetcherOptionsTest, DefaultsAreTheCrawlConfigs) {
  const FetcherOptions o;
  const proto::Fetch f;
  EXPECT_EQ(o.connect_timeout, absl::Milliseconds(f.connect_timeout_ms()));
  EXPECT_EQ(o.total_timeout, absl::Milliseconds(f.total_timeout_ms()));
  EXPECT_EQ(o.low_speed_bytes_per_s, f.low_speed_bytes_per_s());
  EXPECT_EQ(o.low_speed_time, absl::Seconds(f.low_speed_seconds()));
  EXPECT_EQ(o.max_body_bytes, f.max_body_bytes());
  EXPECT_EQ(o.max_in_flight, f.max_in_flight());
  EXPECT_EQ(o.http2, f.http2());
  EXPECT_EQ(o.user_agent, proto::Politeness().user_agent());
  EXPECT_EQ(o.from, proto::Politeness().from());
  EXPECT_EQ(o.accept_language, proto::Politeness().accept_language());
}

TEST(FetcherTest, OkResponseWithBodyHeadersIpAndRequestHead) {
  std::string page = "<html><body>";
  for (int i = 0; i < 200; ++i) absl::StrAppend(&page, "<p>line ", i, "</p>");
  page += "</body></html>";
  HttpServer server;
  server.server().Get("/page",
                      [&](const httplib::Request&, httplib::Response& res) {
                        res.set_header("X-Test", "yes");
                        res.set_content(page, "text/html; charset=utf-8");
                      });
  server.Start();
  const absl::Time before = absl::Now();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/page"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, page);  // decoded: httplib compresses text/html
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(r.ip, "127.0.0.1");
  EXPECT_EQ(r.location, "");
  EXPECT_FALSE(r.retry_after.has_value());
  EXPECT_THAT(r.request_head,
              AllOf(StartsWith("GET /page HTTP/1.1\r\n"),
                    HasSubstr(absl::StrCat(
                        "\r\nHost: 127.0.0.1:", server.port(), "\r\n")),
                    HasSubstr("\r\nUser-Agent: fcrawl-test/1.0\r\n"),
                    HasSubstr("\r\nAccept-Encoding: gzip, deflate, br\r\n"),
                    EndsWith("\r\n\r\n")));
  EXPECT_THAT(
      r.response_head,
      AllOf(StartsWith("HTTP/1.1 200 OK\r\n"), HasSubstr("\r\nX-Test: yes\r\n"),
            HasSubstr("\r\nContent-Encoding: "), EndsWith("\r\n\r\n")));
  EXPECT_GE(r.started, before);
  EXPECT_LE(r.started + r.elapsed, absl::Now());
  EXPECT_GT(r.elapsed, absl::ZeroDuration());
}

// From and Accept-Language go out when set, and not at all when empty.
TEST(FetcherTest, PollingWithoutWaitingStillCompletes) {
  // A caller may poll with no timeout again and again (the crawl loop does
  // when work is due): each call must still serve the ready sockets.
  HttpServer server;
  server.server().Get("/p",
                      [](const httplib::Request&, httplib::Response& res) {
                        res.set_content("hello", "text/plain");
                      });
  server.Start();
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  f->Start(1, server.Url("/p"));
  // At least 3 s of polling (1 ms apart) for a loopback answer: served,
  // it takes a few polls; starved, the sockets were only looked at when
  // one of curl's timers ran out (10 s here).
  std::vector<FetchResult> all;
  for (int polls = 0; polls < 3000 && all.empty(); ++polls) {
    for (FetchResult& r : f->Poll(absl::ZeroDuration())) {
      all.push_back(std::move(r));
    }
    absl::SleepFor(absl::Milliseconds(1));
  }
  ASSERT_EQ(all.size(), 1u) << "not answered after 3,000 polls";
  EXPECT_TRUE(all[0].error.ok()) << all[0].error;
  EXPECT_EQ(all[0].status, 200);
  EXPECT_EQ(all[0].body, "hello");
}

TEST(FetcherTest, FromAndAcceptLanguageHeaders) {
  HttpServer server;
  server.server().Get(
      "/h", [](const httplib::Request& req, httplib::Response& res) {
        res.set_content(absl::StrCat(req.get_header_value("From"), "|",
                                     req.get_header_value("Accept-Language"),
                                     "|", req.has_header("From") ? 1 : 0),
                        "text/plain");
      });
  server.Start();
  FetcherOptions o = TestOptions();
  EXPECT_EQ(FetchOne(o, server.Url("/h")).body, "||0");
  o.from = "crawl-ops@x.test";
  o.accept_language = "en, zh;q=0.8";
  const FetchResult r = FetchOne(o, server.Url("/h"));
  EXPECT_EQ(r.body, "crawl-ops@x.test|en, zh;q=0.8|1");
  EXPECT_THAT(r.request_head,
              AllOf(HasSubstr("\r\nFrom: crawl-ops@x.test\r\n"),
                    HasSubstr("\r\nAccept-Language: en, zh;q=0.8\r\n")));
}

// A conditional GET: the validators go out as If-None-Match and
// If-Modified-Since next to the shared headers, a 304 comes back without a
// body, and the response's own validators are kept when they are safe to
// send back. A transfer reused afterwards sends none.
TEST(FetcherTest, ConditionalGetSendsValidatorsAndKeepsTheResponses) {
  HttpServer server;
  server.server().Get(
      "/c", [](const httplib::Request& req, httplib::Response& res) {
        res.set_header("ETag", "\"v2\"");
        res.set_header("Last-Modified", "Fri, 27 Nov 2026 05:00:00 GMT");
        if (req.get_header_value("If-None-Match") == "\"v2\"") {
          res.status = 304;
          return;
        }
        res.set_content(
            absl::StrCat("inm=", req.get_header_value("If-None-Match"),
                         " ims=", req.get_header_value("If-Modified-Since")),
            "text/plain");
      });
  server.server().Get(
      "/bad", [](const httplib::Request&, httplib::Response& res) {
        res.set_header("ETag", std::string(kMaxValidatorBytes + 1, 'x'));
        res.set_content("x", "text/plain");
      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.max_in_flight = 1;  // one transfer, reused by every fetch below
  o.from = "ops@x.test";
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);
  f->Start(1, server.Url("/c"), "",
           {"\"v2\"", "Fri, 27 Nov 2026 05:00:00 GMT"});
  std::vector<FetchResult> r = PollAll(*f);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, 304);
  EXPECT_EQ(r[0].body, "");
  EXPECT_THAT(r[0].request_head,
              AllOf(HasSubstr("\r\nIf-None-Match: \"v2\"\r\n"),
                    HasSubstr("\r\nIf-Modified-Since: Fri, 27 Nov 2026 "
                              "05:00:00 GMT\r\n"),
                    HasSubstr("\r\nFrom: ops@x.test\r\n")));
  // An old ETag: the page in full, with the new validators.
  f->Start(2, server.Url("/c"), "", {"\"v1\"", ""});
  r = PollAll(*f);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, 200);
  EXPECT_EQ(r[0].body, "inm=\"v1\" ims=");
  EXPECT_EQ(r[0].etag, "\"v2\"");
  EXPECT_EQ(r[0].last_modified, "Fri, 27 Nov 2026 05:00:00 GMT");
  // A validator that could inject a header is not sent; nor is anything on
  // the next request of the same transfer.
  f->Start(3, server.Url("/c"), "", {"\"v2\"\r\nX-Evil: 1", ""});
  r = PollAll(*f);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].body, "inm= ims=");
  EXPECT_THAT(r[0].request_head, Not(HasSubstr("X-Evil")));
  EXPECT_THAT(r[0].request_head, HasSubstr("\r\nFrom: ops@x.test\r\n"));
  // An over-long ETag from a server is not kept.
  EXPECT_EQ(FetchOne(*f, server.Url("/bad")).etag, "");
}

TEST(FetcherTest, IsValidator) {
  EXPECT_TRUE(IsValidator("\"abc\""));
  EXPECT_TRUE(IsValidator("W/\"abc\""));
  EXPECT_FALSE(IsValidator(""));
  EXPECT_FALSE(IsValidator("a\r\nb"));
  EXPECT_FALSE(IsValidator(absl::string_view("a\0b", 3)));
  EXPECT_FALSE(IsValidator("caf\xc3\xa9"));
  EXPECT_TRUE(IsValidator(std::string(kMaxValidatorBytes, 'x')));
  EXPECT_FALSE(IsValidator(std::string(kMaxValidatorBytes + 1, 'x')));
}

TEST(FetcherTest, NotFoundIsOkWithStatus) {
  HttpServer server;
  server.server().Get("/missing",
                      [](const httplib::Request&, httplib::Response& res) {
                        res.status = 404;
                        res.set_content("nope", "text/plain");
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/missing"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body, "nope");
  EXPECT_EQ(r.content_type, "text/plain");
}

TEST(FetcherTest, RedirectIsNotFollowedAndLocationIsResolved) {
  std::atomic<int> new_hits{0};
  HttpServer server;
  server.server().Get("/dir/old",
                      [](const httplib::Request&, httplib::Response& res) {
                        res.status = 301;
                        res.set_header("Location", "../new?x=1#frag");
                      });
  server.server().Get("/new",
                      [&](const httplib::Request&, httplib::Response& res) {
                        ++new_hits;
                        res.set_content("new", "text/plain");
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/dir/old"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 301);
  EXPECT_EQ(r.location, server.Url("/new?x=1"));
  EXPECT_EQ(new_hits.load(), 0);
}

TEST(FetcherTest, InvalidLocationIsEmpty) {
  HttpServer server;
  server.server().Get("/r",
                      [](const httplib::Request&, httplib::Response& res) {
                        res.status = 302;
                        res.set_header("Location", "javascript:alert(1)");
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/r"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 302);
  EXPECT_EQ(r.location, "");
}

TEST(FetcherTest, TooManyRequestsSurfacesRetryAfter) {
  HttpServer server;
  server.server().Get("/busy",
                      [](const httplib::Request&, httplib::Response& res) {
                        res.status = 429;
                        res.set_header("Retry-After", "120");
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/busy"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 429);
  ASSERT_TRUE(r.retry_after.has_value());
  EXPECT_EQ(*r.retry_after, absl::Seconds(120));
}

TEST(FetcherTest, InterimResponseIsNotTheResponseHead) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    SendAll(fd,
            "HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\n"
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
            "Content-Type: text/plain\r\n\r\nok");
  });
  const FetchResult r = FetchOne(TestOptions(), server.Url("/"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "ok");
  EXPECT_EQ(r.response_head,
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
            "Content-Type: text/plain\r\n\r\n");
}

// --- Concurrency and connection reuse --------------------------------------

TEST(FetcherTest, ManyConcurrentTransfersAllComplete) {
  std::atomic<int> active{0};
  std::atomic<int> max_active{0};
  RawServer server([&](int fd, const std::atomic<bool>& stop) {
    ServeKeepAlive(fd, stop, [&](absl::string_view path) {
      const int now = ++active;
      int prev = max_active.load();
      while (now > prev && !max_active.compare_exchange_weak(prev, now)) {
      }
      absl::SleepFor(absl::Milliseconds(50));
      --active;
      return absl::StrCat("page ", path.substr(3));  // "/n/<id>"
    });
  });
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  constexpr int kN = 50;
  for (int i = 0; i < kN; ++i) f->Start(i, server.Url(absl::StrCat("/n/", i)));
  EXPECT_EQ(f->in_flight(), static_cast<size_t>(kN));
  std::vector<FetchResult> results = PollAll(*f);
  ASSERT_EQ(results.size(), static_cast<size_t>(kN));
  std::vector<bool> seen(kN, false);
  for (const FetchResult& r : results) {
    ASSERT_LT(r.id, static_cast<uint64_t>(kN));
    EXPECT_FALSE(seen[r.id]);
    seen[r.id] = true;
    EXPECT_TRUE(r.error.ok()) << r.error;
    EXPECT_EQ(r.body, absl::StrCat("page ", r.id));
  }
  // Concurrent: requests overlapped at the server. Counted rather than timed
  // (a loaded machine may take long either way), and one transfer at a
  // time would never overlap.
  EXPECT_GT(max_active.load(), 1);
  EXPECT_EQ(f->in_flight(), 0u);
  EXPECT_EQ(server.connections(), kN);
}

TEST(FetcherTest, StartsBeyondMaxInFlightQueue) {
  std::atomic<int> active{0};
  std::atomic<int> max_active{0};
  HttpServer server;
  server.server().Get(
      "/slow", [&](const httplib::Request&, httplib::Response& res) {
        const int now = ++active;
        int prev = max_active.load();
        while (now > prev && !max_active.compare_exchange_weak(prev, now)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        --active;
        res.set_content("x", "text/plain");
      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.max_in_flight = 4;
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);
  for (int i = 0; i < 20; ++i) f->Start(i, server.Url("/slow"));
  EXPECT_EQ(f->in_flight(), 20u);
  std::vector<FetchResult> results = PollAll(*f);
  ASSERT_EQ(results.size(), 20u);
  for (const FetchResult& r : results) EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_LE(max_active.load(), 4);
}

TEST(FetcherTest, ReusesConnections) {
  HttpServer server;
  server.server().Get(
      "/port", [](const httplib::Request& req, httplib::Response& res) {
        res.set_content(absl::StrCat(req.remote_port), "text/plain");
      });
  server.Start();
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  std::string first;
  for (int i = 0; i < 5; ++i) {
    const FetchResult r = FetchOne(*f, server.Url("/port"));
    ASSERT_TRUE(r.error.ok()) << r.error;
    if (i == 0) first = r.body;
    EXPECT_EQ(r.body, first) << "request " << i << " used a new connection";
  }
}

TEST(FetcherTest, PollReturnsAtOnceWhenIdle) {
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  const absl::Time start = absl::Now();
  EXPECT_TRUE(f->Poll(absl::Seconds(30)).empty());
  // Time is the feature: Poll must not wait out its timeout when nothing is
  // in flight. The bound is far above an immediate return on a loaded
  // machine and far below the 30 s.
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  EXPECT_EQ(f->in_flight(), 0u);
}

TEST(FetcherTest, PollReturnsAfterTimeoutWithNothingDone) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    ReadHead(fd, stop);
    SleepUnlessStopped(absl::Seconds(10), stop);
  });
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  f->Start(1, server.Url("/"));
  const absl::Time start = absl::Now();
  EXPECT_TRUE(f->Poll(absl::Milliseconds(200)).empty());
  const absl::Duration took = absl::Now() - start;
  // Time is the feature: Poll waits its 200 ms, and returns then rather than
  // when the server answers (10 s). Load only lengthens the wait, so the
  // lower bound is tight; the upper one only has to stay below the server's
  // 10 s, as far above 200 ms as that allows on a loaded machine.
  EXPECT_GE(took, absl::Milliseconds(190));
  EXPECT_LT(took, absl::Seconds(9));
  EXPECT_EQ(f->in_flight(), 1u);
  // Destroying the fetcher with a transfer running aborts it cleanly.
}

// --- Time bounds ------------------------------------------------------------

TEST(FetcherTest, SilentServerHitsTotalTimeout) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    ReadHead(fd, stop);
    SleepUnlessStopped(absl::Seconds(30), stop);
  });
  FetcherOptions o = TestOptions();
  o.total_timeout = absl::Seconds(1);
  const FetchResult r = FetchOne(o, server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kDeadlineExceeded) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("127.0.0.1"));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.ip, "127.0.0.1");
  // Time is the feature: the transfer ends at the 1 s timeout, long before
  // the server would (30 s). Generous above for a loaded machine.
  EXPECT_GE(r.elapsed, absl::Milliseconds(950));
  EXPECT_LT(r.elapsed, absl::Seconds(15));
}

TEST(FetcherTest, TricklingServerHitsLowSpeedLimit) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    if (!SendAll(fd, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")) {
      return;
    }
    while (!stop) {
      if (!SendAll(fd, "x")) return;
      SleepUnlessStopped(absl::Milliseconds(200), stop);
    }
  });
  FetcherOptions o = TestOptions();
  o.total_timeout = absl::Seconds(60);
  o.low_speed_bytes_per_s = 1000;
  o.low_speed_time = absl::Seconds(1);
  const FetchResult r = FetchOne(o, server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kDeadlineExceeded) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("too slow"));
  EXPECT_TRUE(r.body.empty());  // partial bodies of failed transfers dropped
  // Time is the feature: the low-speed limit (1 s below 1000 B/s) cut the
  // transfer, not the total timeout (60 s). Generous for a loaded machine.
  EXPECT_LT(r.elapsed, absl::Seconds(30));
}

// The low-speed rule counts the wait for the head too: a server that reads
// the request and never answers is stopped by it, long before the total
// timeout. A server that is slow for less than low_speed_time and then
// sends everything is not stopped.
TEST(FetcherTest, LowSpeedRuleStopsASilentServerAndSparesABriefStall) {
  RawServer silent([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    while (!stop) SleepUnlessStopped(absl::Milliseconds(50), stop);
  });
  FetcherOptions o = TestOptions();
  o.total_timeout = absl::Seconds(60);
  o.low_speed_bytes_per_s = 1000;
  o.low_speed_time = absl::Seconds(1);
  FetchResult r = FetchOne(o, silent.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kDeadlineExceeded) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("too slow"));
  EXPECT_LT(r.elapsed, absl::Seconds(30));  // not the total timeout

  RawServer brief([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    SleepUnlessStopped(absl::Milliseconds(1200), stop);
    SendAll(fd,
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            "Content-Length: 5\r\n\r\nhello");
  });
  o.low_speed_time = absl::Seconds(4);
  r = FetchOne(o, brief.Url("/"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "hello");
}

// --- Size bounds ------------------------------------------------------------
// Each cap is shown by sizes (the bytes kept, the bytes the server got to
// send), not by how long the transfer took, which load changes.

TEST(FetcherTest, GzipBombIsTruncatedAtTheCap) {
  const std::string& bomb = GzipBomb();
  ASSERT_LT(bomb.size(), 512u << 10);
  ASSERT_EQ(GunzippedSize(bomb), int64_t{kBombMiB} << 20);
  HttpServer server;
  server.server().Get("/bomb",
                      [&](const httplib::Request&, httplib::Response& res) {
                        res.set_header("Content-Encoding", "gzip");
                        res.set_content(bomb, "application/octet-stream");
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/bomb"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.truncated);
  ASSERT_EQ(r.body.size(), static_cast<size_t>(kCap));
  EXPECT_EQ(r.body, std::string(kCap, '\0'));
}

TEST(FetcherTest, EndlessChunkedBodyIsTruncatedAtTheCap) {
  std::atomic<int64_t> sent{0};
  HttpServer server;
  server.server().Get("/big",
                      [&](const httplib::Request&, httplib::Response& res) {
                        res.set_chunked_content_provider(
                            "application/octet-stream",
                            [&](size_t offset, httplib::DataSink& sink) {
                              static const std::string chunk(64 << 10, 'a');
                              if (offset >= static_cast<size_t>(kGiB)) {
                                sink.done();
                                return true;
                              }
                              if (!sink.write(chunk.data(), chunk.size()))
                                return false;
                              sent += static_cast<int64_t>(chunk.size());
                              return true;
                            });
                      });
  server.Start();
  const FetchResult r = FetchOne(TestOptions(), server.Url("/big"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.body, std::string(kCap, 'a'));
  EXPECT_THAT(r.response_head, HasSubstr("Transfer-Encoding: chunked"));
  server.Stop();
  EXPECT_LT(sent.load(), 64 << 20);
}

// Serves /big: 1 GiB announced by Content-Length, of `type`, each byte
// `fill`, counting the bytes sent into `sent`.
void ServeHugeBody(HttpServer* server, const std::string& type, char fill,
                   std::atomic<int64_t>* sent) {
  server->server().Get(
      "/big", [=](const httplib::Request&, httplib::Response& res) {
        res.set_content_provider(
            static_cast<size_t>(kGiB), type,
            [=](size_t offset, size_t length, httplib::DataSink& sink) {
              const std::string chunk(64 << 10, fill);
              const size_t n = std::min(length, chunk.size());
              if (!sink.write(chunk.data(), n)) return false;
              *sent += static_cast<int64_t>(n);
              return true;
            });
      });
  server->Start();
}

// A page announced above the cap is cut at the cap and kept (parsed by
// the worker), as the same page sent chunked is; the rest is not read.
TEST(FetcherTest, HugePageWithContentLengthIsTruncatedAtTheCap) {
  std::atomic<int64_t> sent{0};
  HttpServer server;
  ServeHugeBody(&server, "text/html; charset=utf-8", 'p', &sent);
  const FetchResult r = FetchOne(TestOptions(), server.Url("/big"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.body, std::string(kCap, 'p'));
  EXPECT_THAT(r.response_head, HasSubstr("Content-Length: 1073741824"));
  server.Stop();
  EXPECT_LT(sent.load(), 64 << 20);
}

// Anything else announced above the cap (a video, an archive) is not worth
// the cap's bytes: the transfer stops before the body.
TEST(FetcherTest, HugeContentLengthStopsBeforeTheBody) {
  std::atomic<int64_t> sent{0};
  HttpServer server;
  ServeHugeBody(&server, "application/octet-stream", 'b', &sent);
  const FetchResult r = FetchOne(TestOptions(), server.Url("/big"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(r.body.empty());
  EXPECT_THAT(r.response_head, AllOf(HasSubstr("Content-Length: 1073741824"),
                                     EndsWith("\r\n\r\n")));
  EXPECT_EQ(r.content_type, "application/octet-stream");
  server.Stop();
  EXPECT_LT(sent.load(), 64 << 20);
}

TEST(FetcherTest, BodyOfExactlyTheCapIsNotTruncated) {
  HttpServer server;
  server.server().Get(
      "/exact", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(kCap, 'e'), "application/octet-stream");
      });
  server.server().Get("/chunked", [](const httplib::Request&,
                                     httplib::Response& res) {
    res.set_chunked_content_provider(
        "application/octet-stream", [](size_t offset, httplib::DataSink& sink) {
          if (offset >= static_cast<size_t>(kCap)) {
            sink.done();
            return true;
          }
          const std::string chunk(kCap / 4, 'c');
          return sink.write(chunk.data(), chunk.size());
        });
  });
  server.Start();
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  FetchResult r = FetchOne(*f, server.Url("/exact"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.body, std::string(kCap, 'e'));
  r = FetchOne(*f, server.Url("/chunked"));
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.body, std::string(kCap, 'c'));
}

TEST(FetcherTest, HeaderFloodIsResourceExhausted) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    if (!SendAll(fd, "HTTP/1.1 200 OK\r\n")) return;
    const std::string line =
        absl::StrCat("X-Flood: ", std::string(100, 'f'), "\r\n");
    for (int i = 0; i < 100000 && !stop; ++i) {
      if (!SendAll(fd, line)) return;
    }
  });
  FetcherOptions o = TestOptions();
  o.max_header_bytes = 64 << 10;
  const FetchResult r = FetchOne(o, server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kResourceExhausted) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("max_header_bytes"));
  EXPECT_LE(r.response_head.size(), 64u << 10);
}

TEST(FetcherTest, GiantHeaderLineIsResourceExhausted) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    SendAll(fd, absl::StrCat(
                    "HTTP/1.1 200 OK\r\nX-Giant: ", std::string(200 << 10, 'g'),
                    "\r\nContent-Length: 2\r\n\r\nok"));
  });
  const FetchResult r = FetchOne(TestOptions(), server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kResourceExhausted) << r.error;
}

TEST(FetcherTest, ChunkedTrailersCountAgainstTheHeaderCap) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    if (ReadHead(fd, stop).empty()) return;
    if (!SendAll(fd,
                 "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "2\r\nok\r\n0\r\n")) {
      return;
    }
    const std::string line =
        absl::StrCat("X-Trailer: ", std::string(100, 't'), "\r\n");
    for (int i = 0; i < 100000 && !stop; ++i) {
      if (!SendAll(fd, line)) return;
    }
  });
  FetcherOptions o = TestOptions();
  o.max_header_bytes = 64 << 10;
  const FetchResult r = FetchOne(o, server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kResourceExhausted) << r.error;
  EXPECT_THAT(r.response_head, EndsWith("chunked\r\n\r\n"));
}

// --- Connection errors and address checks -----------------------------------

TEST(FetcherTest, ConnectionRefusedIsUnavailable) {
  // A port that was just free: bind, read the port, close.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  const std::string url =
      absl::StrCat("http://127.0.0.1:", ntohs(addr.sin_port), "/");
  const FetchResult r = FetchOne(TestOptions(), url);
  EXPECT_EQ(r.error.code(), absl::StatusCode::kUnavailable) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("127.0.0.1"));
  EXPECT_EQ(r.status, 0);
}

TEST(FetcherTest, ServerClosingWithoutAnswerIsUnavailable) {
  RawServer server([](int fd, const std::atomic<bool>& stop) {
    ReadHead(fd, stop);
    shutdown(fd, SHUT_RDWR);
  });
  const FetchResult r = FetchOne(TestOptions(), server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kUnavailable) << r.error;
}

TEST(FetcherTest, MalformedUrlsAreInvalidArgument) {
  std::unique_ptr<Fetcher> f = MakeFetcher(TestOptions());
  ASSERT_NE(f, nullptr);
  f->Start(1, "ftp://example.com/file");
  f->Start(2, "not a url");
  f->Start(3, absl::string_view("http://a\0b/", 11));
  EXPECT_EQ(f->in_flight(), 3u);
  std::vector<FetchResult> results = PollAll(*f);
  ASSERT_EQ(results.size(), 3u);
  for (const FetchResult& r : results) {
    EXPECT_EQ(r.error.code(), absl::StatusCode::kInvalidArgument)
        << r.id << ": " << r.error;
    EXPECT_EQ(r.status, 0);
  }
}

TEST(FetcherTest, PrivateAddressIsRefused) {
  std::atomic<int> hits{0};
  HttpServer server;
  server.server().Get("/",
                      [&](const httplib::Request&, httplib::Response& res) {
                        ++hits;
                        res.set_content("hi", "text/plain");
                      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.allow_private_addresses = false;
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);

  FetchResult r = FetchOne(*f, server.Url("/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kPermissionDenied) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("non-public address 127.0.0.1"));
  EXPECT_EQ(r.ip, "");

  // By name, through the system resolver.
  r = FetchOne(*f, absl::StrCat("http://localhost:", server.port(), "/"));
  EXPECT_EQ(r.error.code(), absl::StatusCode::kPermissionDenied) << r.error;
  EXPECT_THAT(r.error.message(), HasSubstr("localhost"));
  EXPECT_EQ(hits.load(), 0);
}

TEST(FetcherTest, PrivateAddressFromResolveOverrideIsRefused) {
  std::atomic<int> hits{0};
  HttpServer server;
  server.server().Get("/",
                      [&](const httplib::Request&, httplib::Response& res) {
                        ++hits;
                        res.set_content("hi", "text/plain");
                      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.allow_private_addresses = false;
  o.resolve.push_back(
      {"public.example:80", absl::StrCat("127.0.0.1:", server.port())});
  const FetchResult r = FetchOne(o, "http://public.example/");
  EXPECT_EQ(r.error.code(), absl::StatusCode::kPermissionDenied) << r.error;
  EXPECT_THAT(r.error.message(),
              AllOf(HasSubstr("public.example"), HasSubstr("127.0.0.1")));
  EXPECT_EQ(hits.load(), 0);

  // The same with private addresses allowed.
  o.allow_private_addresses = true;
  const FetchResult ok = FetchOne(o, "http://public.example/");
  EXPECT_TRUE(ok.error.ok()) << ok.error;
  EXPECT_EQ(ok.body, "hi");
  EXPECT_EQ(hits.load(), 1);
}

TEST(FetcherTest, ResolveOverrideKeepsTheHostHeader) {
  HttpServer server;
  server.server().Get(
      "/", [](const httplib::Request& req, httplib::Response& res) {
        const std::string host = req.get_header_value("Host");
        if (host == "site-a.test" || host == "site-b.test:8080") {
          res.set_content(host, "text/plain");
        } else {
          res.status = 400;
          res.set_content(absl::StrCat("wrong host ", host), "text/plain");
        }
      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.resolve.push_back(
      {"site-a.test", absl::StrCat("127.0.0.1:", server.port())});
  o.resolve.push_back(
      {"site-b.test:8080", absl::StrCat("127.0.0.1:", server.port())});
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);

  FetchResult r = FetchOne(*f, "http://site-a.test/");
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "site-a.test");
  EXPECT_EQ(r.ip, "127.0.0.1");
  EXPECT_THAT(r.request_head, HasSubstr("\r\nHost: site-a.test\r\n"));

  r = FetchOne(*f, "http://site-b.test:8080/");
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "site-b.test:8080");

  // Host names match in any case; an entry with a port matches that port
  // only (the .test names do not resolve otherwise).
  r = FetchOne(*f, "http://SITE-A.test/");
  EXPECT_TRUE(r.error.ok()) << r.error;  // reached the server
  EXPECT_EQ(r.ip, "127.0.0.1");
  r = FetchOne(*f, "http://site-b.test:8081/");
  EXPECT_FALSE(r.error.ok());
  EXPECT_EQ(r.ip, "");
}

// Many overrides cost one lookup per transfer: 100,000 entries, the one
// that matches is the last.
TEST(FetcherTest, ManyResolveOverrides) {
  HttpServer server;
  server.server().Get(
      "/", [](const httplib::Request& req, httplib::Response& res) {
        res.set_content(req.get_header_value("Host"), "text/plain");
      });
  server.Start();
  FetcherOptions o = TestOptions();
  for (int i = 0; i < 100000; ++i) {
    o.resolve.push_back({absl::StrCat("h", i, ".test"), "127.0.0.1:9"});
  }
  o.resolve.push_back({"last.test", absl::StrCat("127.0.0.1:", server.port())});
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);
  for (int i = 0; i < 20; ++i) {
    const FetchResult r = FetchOne(*f, "http://last.test/");
    EXPECT_EQ(r.body, "last.test");
  }
}

TEST(FetcherTest, ConnectAddressSkipsResolution) {
  HttpServer server;
  server.server().Get(
      "/", [](const httplib::Request& req, httplib::Response& res) {
        res.set_content(req.get_header_value("Host"), "text/plain");
      });
  server.Start();
  FetcherOptions o = TestOptions();
  o.resolve.push_back(
      {"site-a.test", absl::StrCat("127.0.0.1:", server.port())});
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);
  // A name no resolver knows: the address given is where it connects, on
  // the URL's port, with the URL's Host header.
  const std::string url =
      absl::StrCat("http://nowhere.invalid:", server.port(), "/");
  f->Start(1, url, "127.0.0.1");
  std::vector<FetchResult> rs = PollAll(*f);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_TRUE(rs[0].error.ok()) << rs[0].error;
  EXPECT_EQ(rs[0].body, absl::StrCat("nowhere.invalid:", server.port()));
  EXPECT_EQ(rs[0].ip, "127.0.0.1");
  // The pooled handle goes back to the shared overrides afterwards.
  FetchResult r = FetchOne(*f, "http://site-a.test/");
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.body, "site-a.test");
  // IPv6 is bracketed for curl; the server listens on 127.0.0.1 only, so
  // the connection to ::1 fails. Not an address: refused before curl.
  f->Start(2, url, "::1");
  rs = PollAll(*f);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_FALSE(rs[0].error.ok());
  f->Start(4, url, "127.0.0.1:80");
  rs = PollAll(*f);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].error.code(), absl::StatusCode::kInvalidArgument)
      << rs[0].error;
  // The address is still checked when private addresses are refused.
  o.allow_private_addresses = false;
  std::unique_ptr<Fetcher> strict = MakeFetcher(o);
  ASSERT_NE(strict, nullptr);
  strict->Start(3, url, "127.0.0.1");
  rs = PollAll(*strict);
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].error.code(), absl::StatusCode::kPermissionDenied)
      << rs[0].error;
}

TEST(FetcherTest, ProxyGetsTheAbsoluteUrl) {
  std::mutex mu;
  std::string seen;
  RawServer proxy([&](int fd, const std::atomic<bool>& stop) {
    const std::string head = ReadHead(fd, stop);
    if (head.empty()) return;
    {
      std::lock_guard<std::mutex> lock(mu);
      seen = head;
    }
    SendAll(fd,
            "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n"
            "Content-Type: text/plain\r\n\r\nvia proxy");
  });
  FetcherOptions o = TestOptions();
  o.proxy = absl::StrCat("http://127.0.0.1:", proxy.port());
  // The proxy is on loopback; targets are the proxy's business.
  o.allow_private_addresses = false;
  const FetchResult r = FetchOne(o, "http://site.example/page?q=1");
  EXPECT_TRUE(r.error.ok()) << r.error;
  EXPECT_EQ(r.body, "via proxy");
  EXPECT_EQ(r.protocol, "http/1.1");
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_THAT(seen,
              StartsWith("GET http://site.example/page?q=1 HTTP/1.1\r\n"));
  EXPECT_THAT(seen, HasSubstr("\r\nHost: site.example\r\n"));
  EXPECT_THAT(r.request_head, StartsWith("GET http://site.example/page?q=1 "));
}

// --- Options ----------------------------------------------------------------

TEST(FetcherTest, CreateRejectsBadOptions) {
  auto expect_invalid = [](FetcherOptions o, const char* what) {
    absl::StatusOr<std::unique_ptr<Fetcher>> f = Fetcher::Create(o);
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument) << what;
  };
  FetcherOptions o = TestOptions();
  o.connect_timeout = absl::ZeroDuration();
  expect_invalid(o, "connect_timeout");
  o = TestOptions();
  o.total_timeout = absl::Seconds(-1);
  expect_invalid(o, "total_timeout");
  o = TestOptions();
  o.max_body_bytes = 0;
  expect_invalid(o, "max_body_bytes");
  o = TestOptions();
  o.max_header_bytes = -1;
  expect_invalid(o, "max_header_bytes");
  o = TestOptions();
  o.max_in_flight = 0;
  expect_invalid(o, "max_in_flight");
  o = TestOptions();
  o.low_speed_bytes_per_s = 100;
  o.low_speed_time = absl::ZeroDuration();
  expect_invalid(o, "low_speed_time");
  o = TestOptions();
  o.user_agent = "x\r\nX-Injected: 1";
  expect_invalid(o, "user_agent");
  o = TestOptions();
  o.from = "me@x.test\r\nX-Injected: 1";
  expect_invalid(o, "from");
  o = TestOptions();
  o.accept_language = "en\nX-Injected: 1";
  expect_invalid(o, "accept_language");
  for (const char* proxy : {"proxy.example:3128", "ftp://proxy.example",
                            "http://", "http://p x:1"}) {
    o = TestOptions();
    o.proxy = proxy;
    expect_invalid(o, proxy);
  }
  o = TestOptions();
  o.ca_file = "/nonexistent/ca.pem";
  expect_invalid(o, "ca_file");
  for (const auto& [host_port, address] :
       std::vector<std::pair<std::string, std::string>>{
           {"", "1.2.3.4:80"},
           {"a.test:", "1.2.3.4:80"},
           {"a.test:http", "1.2.3.4:80"},
           {"a.test:70000", "1.2.3.4:80"},
           {"a b.test", "1.2.3.4:80"},
           {"a.test", ""},
           {"a.test", "1.2.3.4:0"},
           {"a.test", "::1:80"},
           {"a.test", "[::1:80"},
           {"a.test", "[::1]x"},
       }) {
    o = TestOptions();
    o.resolve.push_back({host_port, address});
    expect_invalid(o, (host_port + " -> " + address).c_str());
  }
  o = TestOptions();
  o.resolve.push_back({"a.test", "[::1]:8080"});
  o.resolve.push_back({"b.test:443", "10.0.0.1"});
  o.resolve.push_back({"[2001:db8::1]:80", "1.2.3.4:80"});
  EXPECT_TRUE(Fetcher::Create(o).ok());
}

// --- Throughput -------------------------------------------------------------

// The crawler needs ~1000 pages/s on loopback; this measures the fetcher
// alone (the server answers from memory on one thread per connection) and
// checks the connections are reused.
TEST(FetcherTest, ThroughputOnLoopback) {
  const std::string page(8 << 10, 'p');
  RawServer server([&](int fd, const std::atomic<bool>& stop) {
    ServeKeepAlive(fd, stop, [&](absl::string_view) { return page; });
  });
  constexpr int kInFlight = 32;
  FetcherOptions o = TestOptions();
  o.max_in_flight = kInFlight;
  std::unique_ptr<Fetcher> f = MakeFetcher(o);
  ASSERT_NE(f, nullptr);
  constexpr int kN = 5000;
  int started = 0;
  int done = 0;
  const absl::Time start = absl::Now();
  // A guard against a hang, not a bound being tested: the figure is printed.
  const absl::Time end = start + absl::Seconds(300);
  while (done < kN && absl::Now() < end) {
    while (started < kN && f->in_flight() < kInFlight) {
      f->Start(started, server.Url(absl::StrCat("/p/", started)));
      ++started;
    }
    for (const FetchResult& r : f->Poll(absl::Milliseconds(100))) {
      ASSERT_TRUE(r.error.ok()) << r.error;
      ASSERT_EQ(r.body.size(), page.size());
      ++done;
    }
  }
  const double seconds = absl::ToDoubleSeconds(absl::Now() - start);
  EXPECT_EQ(done, kN);
  EXPECT_LE(server.connections(), kInFlight);
  std::printf("%d pages in %.2f s: %.0f pages/s over %d connections\n", done,
              seconds, done / seconds, server.connections());
}

// --- ParseRetryAfter and IsNonPublicAddress ---------------------------------

TEST(ParseRetryAfterTest, DelaySeconds) {
  const absl::Time now = absl::FromUnixSeconds(1700000000);
  EXPECT_EQ(ParseRetryAfter("120", now), absl::Seconds(120));
  EXPECT_EQ(ParseRetryAfter("0", now), absl::ZeroDuration());
  EXPECT_EQ(ParseRetryAfter(" 5 ", now), absl::Seconds(5));
}

TEST(ParseRetryAfterTest, HttpDates) {
  // 1994-11-06 08:49:37 UTC.
  const absl::Time date = absl::FromUnixSeconds(784111777);
  const absl::Time before = date - absl::Seconds(90);
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", before),
            absl::Seconds(90));
  EXPECT_EQ(ParseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", before),
            absl::Seconds(90));
  EXPECT_EQ(ParseRetryAfter("Sun Nov  6 08:49:37 1994", before),
            absl::Seconds(90));
  // A past date is no delay.
  EXPECT_EQ(
      ParseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", date + absl::Hours(1)),
      absl::ZeroDuration());
  // A date an hour from the real now.
  const absl::Time now = absl::Now();
  const std::string future = absl::FormatTime(
      "%a, %d %b %Y %H:%M:%S GMT", now + absl::Hours(1), absl::UTCTimeZone());
  std::optional<absl::Duration> d = ParseRetryAfter(future, now);
  ASSERT_TRUE(d.has_value()) << future;
  EXPECT_GT(*d, absl::Minutes(59));
  EXPECT_LE(*d, absl::Hours(1));
}

TEST(ParseRetryAfterTest, GarbageIsNullopt) {
  const absl::Time now = absl::Now();
  for (const char* value :
       {"", " ", "soon", "-1", "1.5", "12abc", "+3", "0x10",
        "99999999999999999999999", "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 08:49:37 GMT garbage",
        "Sun, 32 Nov 1994 08:49:37 GMT", "2024-01-01T00:00:00Z"}) {
    EXPECT_FALSE(ParseRetryAfter(value, now).has_value())
        << "'" << value << "'";
  }
}

TEST(IsNonPublicAddressTest, NonPublic) {
  for (const char* ip : {"10.0.0.1",
                         "10.255.255.255",
                         "172.16.0.1",
                         "172.31.255.254",
                         "192.168.1.1",
                         "127.0.0.1",
                         "127.1.2.3",
                         "169.254.169.254",
                         "0.0.0.0",
                         "0.1.2.3",
                         "100.64.0.1",
                         "100.127.255.255",
                         "224.0.0.1",
                         "239.255.255.250",
                         "240.0.0.1",
                         "255.255.255.255",
                         "192.0.2.1",
                         "198.18.0.1",
                         "::1",
                         "::",
                         "fc00::1",
                         "fd12:3456::1",
                         "fe80::1",
                         "febf::1",
                         "ff02::1",
                         "::ffff:127.0.0.1",
                         "::ffff:10.0.0.1",
                         "::ffff:192.168.0.1",
                         "64:ff9b::10.0.0.1",
                         "2002:c0a8:0101::1",
                         "2001:db8::1",
                         "2001::1",
                         "::127.0.0.1",
                         "",
                         "not an ip",
                         "127.1",
                         "1.2.3.4.5",
                         "fe80::1%eth0",
                         "[::1]",
                         " 8.8.8.8"}) {
    EXPECT_TRUE(IsNonPublicAddress(ip)) << ip;
  }
}

TEST(IsNonPublicAddressTest, Public) {
  for (const char* ip :
       {"8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255",
        "100.128.0.1", "169.253.0.1", "192.169.0.1", "223.255.255.255",
        "2001:4860::1", "2606:4700::1111", "2a00:1450:4001::1",
        "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:0808:0808::1"}) {
    EXPECT_FALSE(IsNonPublicAddress(ip)) << ip;
  }
}

}  // namespace
}  // namespace fcrawl::protocol
