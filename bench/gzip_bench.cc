// gzip_bench: which gzip library the WARC writer should use (issue 18).
//
// Every record of a crawl's WARC files is one gzip member (protocol/warc.h),
// compressed on the parse threads. For a list of HTML files this builds
// WARC-like response records (a WARC header, an HTTP response head, the
// page) in memory, then compresses every record as one gzip member with
// each codec — zlib (deflateInit2 with a gzip wrapper, what the writer
// uses), libdeflate (libdeflate_gzip_compress) and ISA-L's igzip
// (isal_deflate_stateless, gzip wrapper) — single-threaded, best (minimum)
// of --repeat runs, and checks that zlib's inflate gives back every record
// from every codec's output (the files must stay readable by every WARC
// tool). ISA-L is also measured at level 0 with Huffman tables built once
// from the first records (a file's own tables, issue 52) instead of per
// record. zstd frames (the optional .warc.zst) are measured beside them and
// read back with ZSTD_decompress. Prints one JSON line per codec and level:
// input MB/s, compressed size as a share of the input, and the records.
//
// usage: gzip_bench [--repeat N] [--list FILE] [FILE...]
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A response record as the writer lays it out (header block, HTTP head,
// body, trailer), with plausible field values.
std::string Record(const std::string& body, size_t i) {
  char header[512];
  std::snprintf(header, sizeof(header),
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: "
                "<urn:uuid:5b2d6c1e-0000-4000-8000-%012zu>\r\nWARC-Date: "
                "2026-11-27T06:00:00.000000Z\r\nWARC-Target-URI: "
                "http://site%zu.example/page/%zu.html\r\nWARC-IP-Address: "
                "203.0.113.7\r\nContent-Type: application/http; "
                "msgtype=response\r\nWARC-Payload-Digest: "
                "sha1:2UJ5ZNXT5O7WGQ4KKP6OW6HG6RSLYB4H\r\nContent-Length: "
                "%zu\r\n\r\n",
                i, i % 97, i, body.size() + 180);
  std::string r = header;
  r += "HTTP/1.1 200 OK\r\nServer: nginx\r\nDate: Fri, 27 Nov 2026 06:00:00 "
       "GMT\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ";
  r += std::to_string(body.size());
  r += "\r\nConnection: keep-alive\r\nETag: \"6b0912c2-6b\"\r\n\r\n";
  r += body;
  r += "\r\n\r\n";
  return r;
}

std::string Zlib(const std::string& in, int level) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, in.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string Libdeflate(libdeflate_compressor* c, const std::string& in) {
  std::string out(libdeflate_gzip_compress_bound(c, in.size()), '\0');
  const size_t n =
      libdeflate_gzip_compress(c, in.data(), in.size(), out.data(), out.size());
  out.resize(n);
  return out;
}

std::string Igzip(const std::string& in, int level,
                  std::vector<uint8_t>& level_buf,
                  isal_hufftables* tables = nullptr) {
  isal_zstream s;
  isal_deflate_stateless_init(&s);
  s.level = level;
  if (tables != nullptr) s.hufftables = tables;
  s.gzip_flag = IGZIP_GZIP;
  if (level > 0) {
    s.level_buf = level_buf.data();
    s.level_buf_size = static_cast<uint32_t>(level_buf.size());
  }
  std::string out(in.size() + in.size() / 8 + 1024, '\0');
  s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
  s.avail_in = static_cast<uint32_t>(in.size());
  s.next_out = reinterpret_cast<uint8_t*>(out.data());
  s.avail_out = static_cast<uint32_t>(out.size());
  s.end_of_stream = 1;
  s.flush = NO_FLUSH;
  if (isal_deflate_stateless(&s) != COMP_OK) return "";
  out.resize(s.total_out);
  return out;
}

bool Inflates(const std::string& gz, const std::string& expect) {
  z_stream zs;
  std::memset(&zs, 0, sizeof(zs));
  inflateInit2(&zs, 15 + 16);
  std::string out(expect.size() + 1, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&zs, Z_FINISH);
  const bool ok = rc == Z_STREAM_END && zs.total_out == expect.size() &&
                  std::memcmp(out.data(), expect.data(), expect.size()) == 0 &&
                  zs.avail_in == 0;
  inflateEnd(&zs);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--list" && i + 1 < argc) {
      std::ifstream list(argv[++i]);
      for (std::string line; std::getline(list, line);) {
        if (!line.empty()) files.push_back(line);
      }
    } else {
      files.push_back(a);
    }
  }
  std::vector<std::string> records;
  size_t total = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string body = ReadFile(files[i]);
    if (body.empty()) continue;
    records.push_back(Record(body, i));
    total += records.back().size();
  }
  if (records.empty()) {
    std::fprintf(stderr, "gzip_bench: no input files\n");
    return 2;
  }
  std::vector<uint8_t> isal_buf(ISAL_DEF_LVL3_DEFAULT);
  struct Codec {
    std::string name;
    int level;
    std::function<std::string(const std::string&)> compress;
  };
  std::vector<libdeflate_compressor*> compressors;
  std::vector<Codec> codecs;
  for (int level : {1, 6}) {
    codecs.push_back({"zlib", level, [level](const std::string& in) {
                        return Zlib(in, level);
                      }});
  }
  for (int level : {1, 6}) {
    libdeflate_compressor* c = libdeflate_alloc_compressor(level);
    compressors.push_back(c);
    codecs.push_back({"libdeflate", level, [c](const std::string& in) {
                        return Libdeflate(c, in);
                      }});
  }
  // Level 0 compresses with ISA-L's fixed tables instead of building them
  // per member (a fixed cost that small records feel most).
  for (int level : {0, 1, 3}) {
    codecs.push_back(
        {"isa-l igzip", level, [level, &isal_buf](const std::string& in) {
           return Igzip(in, level, isal_buf);
         }});
  }
  // Level 0 with Huffman tables of the file's own: what the first records
  // (up to 1 MB) use, counted once per file, then every record with them.
  isal_hufftables file_tables;
  codecs.push_back(
      {"isa-l igzip, the file's tables", 0,
       [&isal_buf, &file_tables, &records](const std::string& in) {
         if (&in == &records.front()) {
           isal_huff_histogram h;
           std::memset(&h, 0, sizeof(h));
           size_t seen = 0;
           for (const std::string& r : records) {
             isal_update_histogram(
                 reinterpret_cast<uint8_t*>(const_cast<char*>(r.data())),
                 static_cast<int>(r.size()), &h);
             seen += r.size();
             if (seen >= (1 << 20)) break;
           }
           if (isal_create_hufftables(&file_tables, &h) != 0) {
             std::fprintf(stderr,
                          "gzip_bench: isal_create_hufftables failed\n");
             std::exit(1);
           }
         }
         return Igzip(in, 0, isal_buf, &file_tables);
       }});
  // Not gzip: the optional .warc.zst, for comparison (zlib cannot read it;
  // checked with ZSTD_decompress instead).
  for (int level : {1, 3}) {
    codecs.push_back(
        {"zstd (.warc.zst)", level, [level](const std::string& in) {
           std::string out(ZSTD_compressBound(in.size()), '\0');
           out.resize(ZSTD_compress(out.data(), out.size(), in.data(),
                                    in.size(), level));
           return out;
         }});
  }
  for (const Codec& codec : codecs) {
    double best = std::numeric_limits<double>::infinity();
    size_t out_bytes = 0;
    bool ok = true;
    for (int r = 0; r < repeat; ++r) {
      size_t bytes = 0;
      const auto t0 = std::chrono::steady_clock::now();
      for (const std::string& rec : records) {
        bytes += codec.compress(rec).size();
      }
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
      best = std::min(best, s);
      out_bytes = bytes;
    }
    const bool zstd = codec.name.rfind("zstd", 0) == 0;
    for (const std::string& rec : records) {
      const std::string c = codec.compress(rec);
      if (zstd) {
        std::string back(rec.size(), '\0');
        ok = ok &&
             ZSTD_decompress(back.data(), back.size(), c.data(), c.size()) ==
                 rec.size() &&
             back == rec;
      } else {
        ok = ok && Inflates(c, rec);
      }
    }
    std::printf(
        "{\"codec\":\"%s\",\"level\":%d,\"records\":%zu,\"input_mb\":%.2f,"
        "\"mb_per_s\":%.1f,\"size_share\":%.4f,\"reads_back\":%s}\n",
        codec.name.c_str(), codec.level, records.size(), total / 1e6,
        total / 1e6 / best, static_cast<double>(out_bytes) / total,
        ok ? "true" : "false");
  }
  for (libdeflate_compressor* c : compressors) libdeflate_free_compressor(c);
  return 0;
}
