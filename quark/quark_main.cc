// quark: segment a page into blocks, extract its main content, or view its
// blocks. See `quark --help`.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/cli.h"
#include "core/file.h"
#include "google/protobuf/util/json_util.h"
#include "quark/markdown.h"
#include "quark/page_proto.h"
#include "quark/page_type.h"
#include "quark/quark.h"

// The analysis flags' defaults are PageOptions' (quark.h), written there
// once.
ABSL_FLAG(std::string, url, "", "the page's URL (base for relative links)");
ABSL_FLAG(std::string, charset, "",
          "decode the bytes as this charset instead of detecting it");
ABSL_FLAG(std::string, content_type, "",
          "the HTTP Content-Type header the page came with");
ABSL_FLAG(
    int64_t, max_bytes,
    static_cast<int64_t>(fcrawl::quark::PageOptions().parse.max_input_bytes),
    "refuse larger input");
ABSL_FLAG(int64_t, min_block_text,
          static_cast<int64_t>(
              fcrawl::quark::PageOptions().recognizer.min_block_text),
          "QuarkRecognizer text threshold");
ABSL_FLAG(double, sim_threshold,
          fcrawl::quark::PageOptions().analyzer.sim_threshold,
          "QuarkAnalyzer similarity threshold, in [0, 1]");
ABSL_FLAG(int, container_levels,
          fcrawl::quark::PageOptions().analyzer.container_levels,
          "a block inside the reference block's ancestor N levels up counts "
          "as similar (-1: off)");
ABSL_FLAG(int, similarity_levels,
          fcrawl::quark::PageOptions().analyzer.similarity_levels,
          "with structure hints: the similarity test counts only for blocks "
          "inside the reference block's ancestor N levels up (-1: anywhere)");
ABSL_FLAG(bool, same_template,
          fcrawl::quark::PageOptions().analyzer.same_template,
          "a block built like the reference (tag, class, parent) counts as "
          "similar");
ABSL_FLAG(bool, structure_hints,
          fcrawl::quark::PageOptions().analyzer.structure_hints,
          "choose the reference block and drop comments, footers, sidebars "
          "etc. by tag/class/id/itemprop/role words, keep short paragraphs "
          "next to the reference");
ABSL_FLAG(bool, fill_gaps, fcrawl::quark::PageOptions().analyzer.fill_gaps,
          "with structure hints: a run of short plain-text blocks between two "
          "content blocks in reading order is content");
ABSL_FLAG(bool, article_header,
          fcrawl::quark::PageOptions().analyzer.article_header,
          "with structure hints: the headline, byline and date line above "
          "the article are metadata, not main text");
ABSL_FLAG(bool, article_footer,
          fcrawl::quark::PageOptions().analyzer.article_footer,
          "with structure hints: the closing lines after the article (share "
          "and print controls, tags, credits, copyright notices, the "
          "reporter's and editor's notes) are not main text");
ABSL_FLAG(bool, against_lines,
          fcrawl::quark::PageOptions().analyzer.against_lines,
          "with structure hints: lines of the main text inside an element "
          "whose tag, class or id says it is no article (breadcrumbs, share "
          "bars, captions, tag lists, ad slots) are left out");
ABSL_FLAG(bool, declared_body,
          fcrawl::quark::PageOptions().analyzer.declared_body,
          "with structure hints: the article body the page declares in its "
          "JSON-LD (articleBody), when it can be trusted, says which blocks "
          "and lines are main text");
ABSL_FLAG(bool, by_type, fcrawl::quark::PageOptions().analyzer.by_type,
          "with structure hints: on a service, listing, collection, product "
          "or documentation page the main text is every block outside the "
          "page's navigation, banner, footer and sidebars, not one region");
ABSL_FLAG(std::string, favor, "balanced",
          "precision, recall or balanced (the best F1): precision keeps only "
          "the reference block's own container; recall looks one level "
          "further up, applies the similarity test anywhere on the page and "
          "keeps comments and other blocks marked against that naive Bayes "
          "accepts");
ABSL_FLAG(bool, paper, false,
          "the paper's segmentation and similarity test only: same as "
          "--container_levels=-1 --nosame_template --nostructure_hints, and "
          "footers, sidebars and comment sections are not made blocks of "
          "their own");
ABSL_FLAG(std::string, output, "",
          "output file (view: required; otherwise default stdout)");
ABSL_FLAG(std::string, out_dir, "",
          "extract: one .txt (or .md with --format markdown) per input file "
          "here");
ABSL_FLAG(std::string, format, "text",
          "extract: text (the main content as plain text) or markdown "
          "(the same lines with their headings, lists, code blocks, tables "
          "and quotes marked in Markdown)");

namespace {

const fcrawl::cli::Program& Cli() {
  static const std::vector<std::string> kAnalysis = {"url",
                                                     "charset",
                                                     "content_type",
                                                     "max_bytes",
                                                     "min_block_text",
                                                     "sim_threshold",
                                                     "container_levels",
                                                     "similarity_levels",
                                                     "same_template",
                                                     "structure_hints",
                                                     "fill_gaps",
                                                     "article_header",
                                                     "article_footer",
                                                     "against_lines",
                                                     "declared_body",
                                                     "by_type",
                                                     "favor",
                                                     "paper"};
  static const auto* const kProgram = new fcrawl::cli::Program{
      "quark",
      "Segments a page into blocks, extracts its main content, or views its "
      "blocks. FILE may be '-' for standard input.",
      kAnalysis,
      {
          {"segment",
           "FILE",
           1,
           1,
           "Prints the page's blocks as JSON (type, text, text length, "
           "position, links with anchor text) and its metadata (title, "
           "byline, date, language).",
           {"output"}},
          {"extract",
           "FILE...",
           1,
           -1,
           "Prints the main content as text or, with --format markdown, as "
           "Markdown (the same words); with --out_dir, writes "
           "OUT_DIR/<name>.txt (.md) for each FILE instead.",
           {"output", "out_dir", "format"}},
          {"page-type",
           "FILE...",
           1,
           -1,
           "Prints what kind of page each FILE is (article, forum, product, "
           "collection, listing, documentation, service or other), the "
           "model's probability of each type and the features it read, one "
           "JSON object a line (give the page's address with --url: its "
           "words are features).",
           {"output"}},
          {"view",
           "FILE",
           1,
           1,
           "Writes the page to --output with every block outlined and "
           "coloured by type (content, related links, navigation, noise).",
           {"output"}},
      },
      "Exit status: 0 on success, 1 when a file could not be read, "
      "analysed or written, 2 on a usage error.",
  };
  return *kProgram;
}

struct Args {
  std::string command;
  std::vector<std::string> files;
  std::string url, charset, content_type, output, out_dir;
  bool markdown = false;  // extract --format markdown
  fcrawl::quark::PageOptions options;
};

// The flags into `args`; false with `error` naming the flag when a value
// is out of range.
bool ReadFlags(const fcrawl::cli::Invocation& inv, Args* args,
               std::string* error) {
  args->command = inv.command->name;
  args->files = inv.args;
  args->url = absl::GetFlag(FLAGS_url);
  args->charset = absl::GetFlag(FLAGS_charset);
  args->content_type = absl::GetFlag(FLAGS_content_type);
  args->output = absl::GetFlag(FLAGS_output);
  args->out_dir = absl::GetFlag(FLAGS_out_dir);
  fcrawl::quark::PageOptions& o = args->options;
  const int64_t max_bytes = absl::GetFlag(FLAGS_max_bytes);
  if (max_bytes < 1) {
    *error = "--max_bytes must be a positive number";
    return false;
  }
  o.parse.max_input_bytes = static_cast<size_t>(max_bytes);
  const int64_t min_block_text = absl::GetFlag(FLAGS_min_block_text);
  if (min_block_text < 0) {
    *error = "--min_block_text must not be negative";
    return false;
  }
  o.recognizer.min_block_text = static_cast<size_t>(min_block_text);
  o.analyzer.sim_threshold = absl::GetFlag(FLAGS_sim_threshold);
  if (!(o.analyzer.sim_threshold >= 0 && o.analyzer.sim_threshold <= 1)) {
    *error = "--sim_threshold must be a number in [0, 1]";
    return false;
  }
  o.analyzer.container_levels = absl::GetFlag(FLAGS_container_levels);
  if (o.analyzer.container_levels < -1 || o.analyzer.container_levels > 64) {
    *error = "--container_levels must be a number in [-1, 64]";
    return false;
  }
  o.analyzer.similarity_levels = absl::GetFlag(FLAGS_similarity_levels);
  if (o.analyzer.similarity_levels < -1 || o.analyzer.similarity_levels > 64) {
    *error = "--similarity_levels must be a number in [-1, 64]";
    return false;
  }
  o.analyzer.same_template = absl::GetFlag(FLAGS_same_template);
  o.analyzer.structure_hints = absl::GetFlag(FLAGS_structure_hints);
  o.analyzer.fill_gaps = absl::GetFlag(FLAGS_fill_gaps);
  o.analyzer.article_header = absl::GetFlag(FLAGS_article_header);
  o.analyzer.article_footer = absl::GetFlag(FLAGS_article_footer);
  o.analyzer.against_lines = absl::GetFlag(FLAGS_against_lines);
  o.analyzer.declared_body = absl::GetFlag(FLAGS_declared_body);
  o.analyzer.by_type = absl::GetFlag(FLAGS_by_type);
  // The page-type model's features read the content blocks as Analyze
  // left them (its training data, bench/page_type_train.py, are this
  // command's lines), so page-type reads them before the widening.
  if (args->command == "page-type") o.analyzer.by_type = false;
  const std::string favor = absl::GetFlag(FLAGS_favor);
  if (favor == "precision") {
    o.analyzer.favor = fcrawl::quark::Favor::kPrecision;
  } else if (favor == "recall") {
    o.analyzer.favor = fcrawl::quark::Favor::kRecall;
  } else if (favor == "balanced") {
    o.analyzer.favor = fcrawl::quark::Favor::kBalanced;
  } else {
    *error = absl::StrCat(
        "--favor must be precision, recall or balanced, not '", favor, "'");
    return false;
  }
  if (absl::GetFlag(FLAGS_paper)) {
    o.analyzer.container_levels = -1;
    o.analyzer.same_template = false;
    o.analyzer.structure_hints = false;
    o.recognizer.hint_blocks = false;
    o.recognizer.mixed_blocks = false;
  }
  if (args->command != "extract" && !args->out_dir.empty()) {
    *error = "--out_dir is for extract";
    return false;
  }
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format != "text" && format != "markdown") {
    *error =
        absl::StrCat("--format must be text or markdown, not '", format, "'");
    return false;
  }
  args->markdown = format == "markdown";
  return true;
}

// Reads at most `limit` + 1 bytes so an oversized input is detected without
// reading all of it.
bool ReadInput(const std::string& path, size_t limit, std::string* out,
               std::string* error) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error =
        std::string(fcrawl::file::ErrnoStatus("cannot open", path).message());
    return false;
  }
  out->clear();
  char buf[1 << 16];
  size_t n;
  while (out->size() <= limit && (n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
    out->append(buf, n);
  }
  bool failed = std::ferror(f) != 0;
  if (f != stdin) std::fclose(f);
  if (failed) {
    *error = absl::StrCat(path, ": read error");
    return false;
  }
  if (out->size() > limit) {
    *error = absl::StrCat(path, ": input is larger than the ", limit,
                          "-byte limit (--max_bytes)");
    return false;
  }
  return true;
}

bool WriteOutput(const std::string& path, const std::string& data,
                 std::string* error) {
  if (path.empty() || path == "-") {
    std::cout << data;
    std::cout.flush();
    return static_cast<bool>(std::cout);
  }
  std::ofstream f(path, std::ios::binary);
  f << data;
  f.close();
  if (!f) {
    *error =
        std::string(fcrawl::file::ErrnoStatus("cannot write", path).message());
    return false;
  }
  return true;
}

// A JSON string literal of UTF-8 text.
std::string JsonString(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      absl::StrAppend(&out, "\\u00", absl::Hex(c, absl::kZeroPad2));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
  return out;
}

// The page's metadata as the first member of the segment JSON object (the
// proto record has the title only; byline, date and language are quark's).
void AddMetadata(const fcrawl::quark::AnalyzedPage& page, std::string* json) {
  const fcrawl::quark::PageMetadata& m = page.metadata;
  size_t brace = json->find('{');
  if (brace == std::string::npos) return;
  json->insert(
      brace + 1,
      absl::StrCat(
          "\n \"metadata\": {\"title\": ", JsonString(m.title),
          ", \"byline\": ", JsonString(m.byline),
          ", \"date\": ", JsonString(m.date),
          ", \"language\": ", JsonString(m.language), ", \"page_type\": ",
          JsonString(fcrawl::quark::PageTypeName(page.page_type)),
          ", \"page_type_probability\": ", page.page_type_probability, "},"));
}

// One JSON line: the file, its page type, the model's probabilities and
// the features (quark/page_type.h), for `quark page-type`.
std::string PageTypeLine(const std::string& file, const std::string& url,
                         const fcrawl::quark::AnalyzedPage& page) {
  using fcrawl::quark::PageType;
  const std::vector<double> features =
      fcrawl::quark::PageTypeFeatures(page, url);
  const fcrawl::quark::PageTypeGuess g = fcrawl::quark::GuessPageType(features);
  std::string out = absl::StrCat(
      "{\"file\": ", JsonString(file),
      ", \"type\": ", JsonString(fcrawl::quark::PageTypeName(g.type)),
      ", \"probability\": ", g.probability, ", \"probabilities\": {");
  for (size_t t = 0; t < fcrawl::quark::kPageTypes; ++t) {
    absl::StrAppend(
        &out, t == 0 ? "" : ", ",
        JsonString(fcrawl::quark::PageTypeName(static_cast<PageType>(t))), ": ",
        g.probabilities[t]);
  }
  absl::StrAppend(&out, "}, \"features\": {");
  const std::vector<std::string>& names = fcrawl::quark::PageTypeFeatureNames();
  for (size_t i = 0; i < names.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", JsonString(names[i]), ": ",
                    features[i]);
  }
  absl::StrAppend(&out, "}}\n");
  return out;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  const fcrawl::cli::Invocation inv =
      fcrawl::cli::ParseOrExit(Cli(), argc, argv);
  Args args;
  std::string error;
  if (!ReadFlags(inv, &args, &error)) {
    return fcrawl::cli::UsageError(Cli(), error, inv.command);
  }
  if (args.command == "view" && args.output.empty()) {
    return fcrawl::cli::UsageError(Cli(), "view needs --output OUT.html",
                                   inv.command);
  }

  int failures = 0;
  std::string bytes;
  for (const std::string& file : args.files) {
    if (!ReadInput(file, args.options.parse.max_input_bytes, &bytes, &error)) {
      std::cerr << "quark: " << error << "\n";
      ++failures;
      continue;
    }
    absl::StatusOr<fcrawl::quark::AnalyzedPage> page =
        fcrawl::quark::AnalyzePage(bytes, args.url, args.content_type,
                                   args.charset, args.options);
    if (!page.ok()) {
      std::cerr << "quark: " << file << ": " << page.status().message() << "\n";
      ++failures;
      continue;
    }
    std::string out;
    if (args.command == "segment") {
      google::protobuf::util::JsonPrintOptions json;
      json.add_whitespace = true;
      json.preserve_proto_field_names = true;
      json.always_print_primitive_fields = true;
      json.always_print_enums_as_ints = false;
      auto status = google::protobuf::util::MessageToJsonString(
          fcrawl::quark::ToProto(*page), &out, json);
      if (!status.ok()) {
        std::cerr << "quark: " << file << ": " << status.ToString() << "\n";
        ++failures;
        continue;
      }
      AddMetadata(*page, &out);
    } else if (args.command == "page-type") {
      out = PageTypeLine(file, args.url, *page);
    } else if (args.command == "extract") {
      out = args.markdown ? fcrawl::quark::MainContentMarkdown(
                                page->document, page->segmentation)
                          : fcrawl::quark::MainContent(page->segmentation);
      if (!out.empty()) out.push_back('\n');
    } else {
      out = fcrawl::quark::RenderView(*page);
    }
    std::string target = args.output;
    if (args.command == "extract" && !args.out_dir.empty()) {
      target = absl::StrCat(args.out_dir, "/", BaseName(file),
                            args.markdown ? ".md" : ".txt");
    }
    if (!WriteOutput(target, out, &error)) {
      std::cerr << "quark: " << error << "\n";
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
