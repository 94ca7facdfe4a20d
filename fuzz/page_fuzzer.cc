// libFuzzer target for the page pipeline: charset decoding, HTML parsing
// (core/html.h), Quark segmentation and block classification (quark/quark.h),
// main-content extraction, the block viewer and the proto/JSON records that
// `quark segment` prints; and what the crawl reads of a page's head: robots
// directives (protocol/robots_directives.h) and its canonical URL
// (protocol/canonical.h).
//
// Checked on every page AnalyzePage accepts:
//  - blocks are disjoint (each Block::node distinct and in range) and
//    numbered in order;
//  - every link index is in range and every link sits in exactly one block;
//  - text_length is the code-point count of a block's text, and the block
//    lengths add up to Segmentation::text_length;
//  - content_probability is in [0, 1];
//  - lines a block leaves out of the main text are sorted lines of it;
//  - every string is valid UTF-8 (the declared article's too; proto3 strings
//  must be; `quark segment`'s
//    JSON printing fails otherwise);
//  - MainContent, RenderView, ToProto, binary and JSON serialisation work,
//    and the view contains no <script>;
//  - the corpus record (quark::ToCorpusRecord: metadata, block summary,
//    media) keeps its limits, its media are in the page's links with their
//    block in range, and its JSON line (formats/corpus.h) reads back equal;
//  - html::Parse gives the same Document with and without cutting script
//    and style text first (ParseOptions::cut_raw_text).
//
// Built as a fuzzer by fuzz/CMakeLists.txt (deploy/fuzz.sh runs it) and, with
// -DFCRAWL_FUZZ_REPLAY, into tests/fuzz_replay_test, which runs FuzzPage over
// every file of fuzz/corpus/page/.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/charset.h"
#include "core/html.h"
#include "core/text.h"
#include "core/url.h"
#include "formats/corpus.h"
#include "fuzz/fuzz_check.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "proto/page.pb.h"
#include "protocol/canonical.h"
#include "protocol/robots_directives.h"
#include "quark/page_proto.h"
#include "quark/quark.h"

namespace fcrawl::fuzz {
namespace {

constexpr char kPageUrl[] = "http://example.com/a/b.html";

using charset::IsValidUtf8;

// Limits far below the defaults, so that small inputs reach the code paths
// of every limit (truncated attributes, flattened nesting, dropped nodes and
// links) and no input is slow.
// A <script> start tag; "<scriptv>" (an unknown element the page may well
// contain) is not one.
bool HasScriptTag(const std::string& html) {
  std::string lower = absl::AsciiStrToLower(html);
  for (size_t at = lower.find("<script"); at != std::string::npos;
       at = lower.find("<script", at + 1)) {
    size_t end = at + 7;
    if (end == lower.size()) return true;
    char c = lower[end];
    if (c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' ||
        c == '\r' || c == '\f') {
      return true;
    }
  }
  return false;
}

quark::PageOptions SmallOptions() {
  quark::PageOptions options;
  options.parse.max_input_bytes = 1u << 20;  // 1 MiB
  options.parse.max_depth = 64;
  options.parse.max_nodes = 1u << 14;
  options.parse.max_links = 200;
  options.parse.max_attributes_per_element = 16;
  options.parse.max_attribute_bytes = 1001;  // odd: splits 2-byte sequences
  return options;
}

void CheckPage(const quark::AnalyzedPage& page) {
  const html::Document& doc = page.document;
  const quark::Segmentation& seg = page.segmentation;
  FUZZ_CHECK(!doc.nodes.empty(), "a Document has at least the root");
  FUZZ_CHECK(IsValidUtf8(doc.title) && IsValidUtf8(doc.keywords) &&
                 IsValidUtf8(doc.description) && IsValidUtf8(doc.url) &&
                 IsValidUtf8(doc.charset),
             "document strings are not UTF-8");
  const quark::DeclaredArticle& declared = page.declared;
  FUZZ_CHECK(IsValidUtf8(declared.headline) && IsValidUtf8(declared.author) &&
                 IsValidUtf8(declared.date_published) &&
                 IsValidUtf8(declared.language) && IsValidUtf8(declared.body),
             "the declared article's strings are not UTF-8");

  std::vector<int> owner_of_node(doc.nodes.size(), -1);
  std::vector<int> block_of_link(doc.links.size(), -1);
  size_t text_length = 0;
  for (size_t i = 0; i < seg.blocks.size(); ++i) {
    const quark::Block& b = seg.blocks[i];
    FUZZ_CHECK(b.index == static_cast<int32_t>(i),
               absl::StrCat("block ", i, " has index ", b.index));
    FUZZ_CHECK(b.node >= 0 && static_cast<size_t>(b.node) < doc.nodes.size(),
               absl::StrCat("block ", i, " node ", b.node));
    FUZZ_CHECK(owner_of_node[b.node] == -1,
               absl::StrCat("blocks ", owner_of_node[b.node], " and ", i,
                            " share node ", b.node));
    owner_of_node[b.node] = static_cast<int>(i);
    FUZZ_CHECK(doc.nodes[b.node].is_element() && doc.nodes[b.node].tag == b.tag,
               absl::StrCat("block ", i, " tag ", b.tag));
    FUZZ_CHECK(b.text_length > 0 || !b.links.empty(),
               absl::StrCat("block ", i, " is empty"));
    FUZZ_CHECK(IsValidUtf8(b.text) && IsValidUtf8(b.group_title),
               absl::StrCat("block ", i, " text is not UTF-8"));
    FUZZ_CHECK(b.text_length == text::CountCodePoints(b.text),
               absl::StrCat("block ", i, " text_length ", b.text_length));
    FUZZ_CHECK(b.anchor_text_length <= b.text_length,
               absl::StrCat("block ", i, " anchor text longer than text"));
    FUZZ_CHECK(b.content_probability >= 0 && b.content_probability <= 1,
               absl::StrCat("block ", i, " content_probability ",
                            b.content_probability));
    FUZZ_CHECK(b.type == quark::BlockType::kContent ||
                   b.type == quark::BlockType::kRelatedLinks ||
                   b.type == quark::BlockType::kNavigation ||
                   b.type == quark::BlockType::kNoise,
               absl::StrCat("block ", i, " type ", static_cast<int>(b.type)));
    // Lines left out of the main text (header, closing and undeclared
    // lines) are sorted lines of the block's text.
    const int32_t lines =
        static_cast<int32_t>(std::count(b.text.begin(), b.text.end(), '\n')) +
        1;
    FUZZ_CHECK(
        b.text.empty() || b.line_nodes.size() == static_cast<size_t>(lines),
        absl::StrCat("block ", i, " has ", lines, " lines and ",
                     b.line_nodes.size(), " line_nodes"));
    for (const std::vector<int32_t>* marked :
         {&b.header_lines, &b.footer_lines, &b.undeclared_lines,
          &b.against_lines}) {
      FUZZ_CHECK(std::is_sorted(marked->begin(), marked->end()) &&
                     (marked->empty() ||
                      (marked->front() >= 0 && marked->back() < lines)),
                 absl::StrCat("block ", i, " marks lines outside its text"));
    }
    text_length += b.text_length;
    for (int32_t l : b.links) {
      FUZZ_CHECK(l >= 0 && static_cast<size_t>(l) < doc.links.size(),
                 absl::StrCat("block ", i, " link index ", l, " of ",
                              doc.links.size()));
      FUZZ_CHECK(block_of_link[l] == -1,
                 absl::StrCat("link ", l, " in blocks ", block_of_link[l],
                              " and ", i));
      block_of_link[l] = static_cast<int>(i);
    }
  }
  FUZZ_CHECK(text_length == seg.text_length,
             absl::StrCat("block lengths add up to ", text_length,
                          ", segmentation says ", seg.text_length));
  for (size_t l = 0; l < doc.links.size(); ++l) {
    const html::Link& link = doc.links[l];
    FUZZ_CHECK(block_of_link[l] != -1,
               absl::StrCat("link ", l, " in no block"));
    FUZZ_CHECK(IsValidUtf8(link.url) && IsValidUtf8(link.anchor_text),
               absl::StrCat("link ", l, " is not UTF-8"));
    if (link.resolved) {
      // "Absolute, normalised URL": url::Parse gives it back unchanged.
      absl::StatusOr<url::Url> parsed = url::Parse(link.url);
      FUZZ_CHECK(parsed.ok() && parsed->spec() == link.url,
                 absl::StrCat("link ", l, " url '", link.url,
                              "' is not a normalised URL"));
    }
  }

  // Consumers of the page.
  std::string main = quark::MainContent(seg);
  FUZZ_CHECK(IsValidUtf8(main), "main content is not UTF-8");
  std::string view = quark::RenderView(page);
  FUZZ_CHECK(!view.empty(), "empty view");
  FUZZ_CHECK(!HasScriptTag(view), "the view contains a <script> element");

  proto::Page record = quark::ToProto(page);
  FUZZ_CHECK(record.blocks_size() == static_cast<int>(seg.blocks.size()), "");
  FUZZ_CHECK(record.links_size() == static_cast<int>(doc.links.size()), "");
  std::string wire;
  FUZZ_CHECK(record.SerializeToString(&wire), "proto serialisation failed");
  proto::Page back;
  FUZZ_CHECK(back.ParseFromString(wire), "proto does not parse back");
  FUZZ_CHECK(back.blocks_size() == record.blocks_size(), "");
  std::string json;
  google::protobuf::util::JsonPrintOptions json_options;
  json_options.preserve_proto_field_names = true;
  json_options.always_print_primitive_fields = true;
  auto status =
      google::protobuf::util::MessageToJsonString(record, &json, json_options);
  FUZZ_CHECK(status.ok(), absl::StrCat("JSON printing failed: ",
                                       std::string(status.message())));

  quark::CorpusRecordOptions limits;
  limits.max_blocks = 50;
  limits.max_media = 20;
  limits.markdown = true;
  const proto::CorpusRecord corpus = quark::ToCorpusRecord(page, limits);
  FUZZ_CHECK(corpus.blocks_size() <= 50 && corpus.media_size() <= 20,
             "corpus record over its limits");
  FUZZ_CHECK(IsValidUtf8(corpus.main_markdown()), "Markdown is not UTF-8");
  // quark/markdown.h's bound on the Markdown's size.
  FUZZ_CHECK(corpus.main_markdown().size() <= 4 * (main.size() + 1) + 4096,
             absl::StrCat("Markdown of ", corpus.main_markdown().size(),
                          " bytes for ", main.size(), " bytes of text"));
  for (const proto::MediaResource& m : corpus.media()) {
    FUZZ_CHECK(m.kind() != proto::MEDIA_TYPE_NONE, "media without a kind");
    FUZZ_CHECK(
        m.block() >= -1 && m.block() < static_cast<int32_t>(seg.blocks.size()),
        absl::StrCat("media block ", m.block()));
    bool linked = false;
    for (const html::Link& link : doc.links) linked |= link.url == m.url();
    FUZZ_CHECK(linked, absl::StrCat("media ", m.url(), " is no link"));
  }
  absl::StatusOr<proto::CorpusRecord> line =
      formats::ParseCorpusJson(formats::CorpusJson(corpus));
  FUZZ_CHECK(line.ok(), absl::StrCat("corpus line does not read back: ",
                                     line.status().ToString()));
  FUZZ_CHECK(google::protobuf::util::MessageDifferencer::Equals(corpus, *line),
             "corpus line reads back different");
}

}  // namespace

int FuzzPage(const uint8_t* data, size_t size) {
  static const quark::PageOptions options = SmallOptions();
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<quark::AnalyzedPage> page =
      quark::AnalyzePage(bytes, kPageUrl, "", "", options);
  if (!page.ok()) {
    FUZZ_CHECK(page.status().code() == absl::StatusCode::kInvalidArgument,
               page.status().ToString());
    return 0;
  }
  CheckPage(*page);
  // Cutting script and style text before gumbo reads the page
  // (ParseOptions::cut_raw_text) gives the Document gumbo gives without it.
  html::ParseOptions uncut = options.parse;
  uncut.cut_raw_text = false;
  absl::StatusOr<html::Document> whole =
      html::Parse(bytes, kPageUrl, "", "", uncut);
  FUZZ_CHECK(whole.ok(), whole.status().ToString());
  const std::string difference =
      html::DocumentDifference(page->document, *whole);
  FUZZ_CHECK(
      difference.empty(),
      absl::StrCat("cutting script text changed the Document: ", difference));
  // Robots directives read from the same bytes, as a page and as a
  // response head: bounded, linear, never a crash.
  protocol::MetaDirectives(page->document, "fcrawl");
  protocol::HeaderDirectives(bytes, "fcrawl");
  for (const html::Link& link : page->document.links) {
    if (protocol::RelNofollow(page->document, link)) {
      FUZZ_CHECK(link.kind == html::LinkKind::kAnchor ||
                     link.kind == html::LinkKind::kArea,
                 "rel=nofollow on a link that is no <a> or <area>");
    }
  }
  // The canonical URL it declares, from the page and the bytes as a
  // response head: one normalised http(s) URL on the page's registrable
  // domain, or none.
  if (std::optional<std::string> c =
          protocol::DeclaredCanonical(page->document, bytes, kPageUrl);
      c.has_value()) {
    absl::StatusOr<url::Url> u = url::Parse(*c);
    FUZZ_CHECK(u.ok() && u->spec() == *c, *c);
    FUZZ_CHECK(url::RegistrableDomain(u->host()) == "example.com", *c);
  }
  return 0;
}

}  // namespace fcrawl::fuzz

#ifndef FCRAWL_FUZZ_REPLAY
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fcrawl::fuzz::FuzzPage(data, size);
}
#endif
