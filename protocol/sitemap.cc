#include "protocol/sitemap.h"

#include <libxml/xmlreader.h>
#include <zlib.h>

#include <memory>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "core/url.h"

namespace fcrawl::protocol {
namespace {

// Gunzips `gz` into `out`, at most `max_bytes`.
absl::Status Gunzip(absl::string_view gz, int64_t max_bytes, std::string* out) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) {
    return absl::InternalError("sitemap: zlib initialisation failed");
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  char buffer[64 * 1024];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof(buffer);
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&z);
      return absl::InvalidArgumentError(
          absl::StrCat("sitemap: broken gzip stream (zlib error ", rc, ")"));
    }
    const size_t n = sizeof(buffer) - z.avail_out;
    if (static_cast<int64_t>(out->size() + n) > max_bytes) {
      inflateEnd(&z);
      return absl::InvalidArgumentError(
          absl::StrCat("sitemap: more than ", max_bytes,
                       " bytes uncompressed (the sitemap protocol's limit)"));
    }
    out->append(buffer, n);
    if (rc == Z_OK && n == 0 && z.avail_in == 0) {
      inflateEnd(&z);
      return absl::InvalidArgumentError("sitemap: gzip stream cut short");
    }
  }
  inflateEnd(&z);
  return absl::OkStatus();
}

std::string Name(xmlTextReaderPtr r) {
  const xmlChar* n = xmlTextReaderConstLocalName(r);
  return n == nullptr ? "" : reinterpret_cast<const char*>(n);
}

struct ReaderDeleter {
  void operator()(xmlTextReader* r) const { xmlFreeTextReader(r); }
};

void Add(SitemapEntry e, const SitemapLimits& limits, Sitemap* s) {
  if (e.loc.empty() || e.loc.size() > url::kMaxUrlLength) return;
  if (static_cast<int64_t>(s->entries.size()) >= limits.max_urls) {
    ++s->over_limit;
    return;
  }
  s->entries.push_back(std::move(e));
}

absl::StatusOr<Sitemap> ParseText(absl::string_view text,
                                  const SitemapLimits& limits) {
  Sitemap s;
  s.kind = Sitemap::Kind::kText;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    // Only URLs: a text error page at /sitemap.xml lists none.
    if (!absl::StartsWithIgnoreCase(line, "http://") &&
        !absl::StartsWithIgnoreCase(line, "https://")) {
      continue;
    }
    SitemapEntry e;
    e.loc = std::string(line);
    Add(std::move(e), limits, &s);
  }
  return s;
}

absl::StatusOr<Sitemap> ParseXml(absl::string_view xml,
                                 const SitemapLimits& limits) {
  // libxml2's global set-up, once (its first implicit call is not
  // thread-safe).
  static const bool initialised = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialised;
  std::unique_ptr<xmlTextReader, ReaderDeleter> r(xmlReaderForMemory(
      xml.data(), static_cast<int>(xml.size()), nullptr, nullptr,
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
  if (r == nullptr) {
    return absl::InvalidArgumentError("sitemap: the XML reader did not start");
  }
  Sitemap s;
  bool root_seen = false;
  std::optional<SitemapEntry> entry;  // inside <url> or <sitemap>
  std::string* field = nullptr;       // inside <loc> or <lastmod>
  std::string lastmod;
  int rc;
  while ((rc = xmlTextReaderRead(r.get())) == 1) {
    const int type = xmlTextReaderNodeType(r.get());
    const int depth = xmlTextReaderDepth(r.get());
    if (type == XML_READER_TYPE_ELEMENT) {
      const std::string name = Name(r.get());
      const bool empty = xmlTextReaderIsEmptyElement(r.get()) == 1;
      if (!root_seen) {
        root_seen = true;
        if (name == "sitemapindex") {
          s.kind = Sitemap::Kind::kIndex;
        } else if (name != "urlset") {
          return absl::InvalidArgumentError(
              absl::StrCat("sitemap: root element <", name.substr(0, 64),
                           "> is neither <urlset> nor <sitemapindex>"));
        }
        continue;
      }
      const char* item = s.kind == Sitemap::Kind::kIndex ? "sitemap" : "url";
      if (depth == 1 && name == item && !empty) {
        entry.emplace();
        lastmod.clear();
      } else if (depth == 2 && entry.has_value() && !empty) {
        if (name == "loc") {
          field = &entry->loc;
          field->clear();
        } else if (name == "lastmod") {
          field = &lastmod;
          field->clear();
        }
      }
    } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
               type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
      if (field != nullptr && depth == 3) {
        const xmlChar* v = xmlTextReaderConstValue(r.get());
        // One location is a URL, not a book: stop growing it past the
        // longest URL kept (it is then dropped).
        if (v != nullptr && field->size() <= url::kMaxUrlLength) {
          field->append(reinterpret_cast<const char*>(v));
        }
      }
    } else if (type == XML_READER_TYPE_END_ELEMENT) {
      if (depth == 2) {
        field = nullptr;
      } else if (depth == 1 && entry.has_value()) {
        entry->loc = std::string(absl::StripAsciiWhitespace(entry->loc));
        entry->lastmod_ms =
            ParseW3cDatetime(absl::StripAsciiWhitespace(lastmod));
        if (entry->loc.empty() && s.warning.empty()) {
          s.warning = "an entry without <loc> was left out";
        }
        Add(*std::move(entry), limits, &s);
        entry.reset();
        field = nullptr;
      }
    }
  }
  if (rc != 0) {
    const std::string where =
        absl::StrCat("not well-formed XML near line ",
                     xmlTextReaderGetParserLineNumber(r.get()));
    if (!root_seen || (s.entries.empty() && s.over_limit == 0)) {
      return absl::InvalidArgumentError(absl::StrCat("sitemap: ", where));
    }
    s.warning = absl::StrCat(where, "; the entries before it were kept");
  }
  if (!root_seen) {
    return absl::InvalidArgumentError("sitemap: no root element");
  }
  return s;
}

}  // namespace

std::optional<int64_t> ParseW3cDatetime(absl::string_view s) {
  // Four digits of year first (absl::ParseTime also takes longer years
  // and "infinite-future").
  if (s.size() < 4 || s.size() > 40 || (s.size() > 4 && s[4] != '-')) {
    return std::nullopt;
  }
  for (int i = 0; i < 4; ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) {
      return std::nullopt;
    }
  }
  std::string text(s);
  // absl's %Ez reads "+hh:mm"; the W3C form also allows "Z".
  if (text.back() == 'Z' || text.back() == 'z') {
    text.pop_back();
    text += "+00:00";
  }
  absl::Time t;
  std::string err;
  for (const char* f : {"%Y-%m-%dT%H:%M:%E*S%Ez", "%Y-%m-%dT%H:%M%Ez",
                        "%Y-%m-%d", "%Y-%m", "%Y"}) {
    if (absl::ParseTime(f, text, absl::UTCTimeZone(), &t, &err) &&
        t != absl::InfiniteFuture() && t != absl::InfinitePast()) {
      return absl::ToUnixMillis(t);
    }
  }
  return std::nullopt;
}

absl::StatusOr<Sitemap> ParseSitemap(absl::string_view body,
                                     const SitemapLimits& limits) {
  std::string unzipped;
  if (body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f &&
      static_cast<unsigned char>(body[1]) == 0x8b) {
    if (absl::Status s = Gunzip(body, limits.max_uncompressed_bytes, &unzipped);
        !s.ok()) {
      return s;
    }
    body = unzipped;
  } else if (static_cast<int64_t>(body.size()) >
             limits.max_uncompressed_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("sitemap: more than ", limits.max_uncompressed_bytes,
                     " bytes (the sitemap protocol's limit)"));
  }
  if (body.size() > static_cast<size_t>(INT32_MAX)) {
    return absl::InvalidArgumentError("sitemap: too large for the XML reader");
  }
  // A UTF-8 byte order mark, then the first character says XML or text.
  absl::string_view rest = body;
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  rest = absl::StripLeadingAsciiWhitespace(rest);
  if (!rest.empty() && rest.front() != '<') return ParseText(rest, limits);
  return ParseXml(body, limits);
}

}  // namespace fcrawl::protocol
