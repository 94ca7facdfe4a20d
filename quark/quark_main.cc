// quark: segment a page into blocks, extract its main content, or view its
// blocks. See `quark --help`.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/file.h"
#include "google/protobuf/util/json_util.h"
#include "quark/metadata.h"
#include "quark/page_proto.h"
#include "quark/quark.h"

namespace {

constexpr char kUsage[] = R"(usage: quark COMMAND [options] FILE...

Commands:
  segment FILE        print the page's blocks as JSON (type, text, text length,
                      position, links with anchor text) and its metadata
                      (title, byline, date, language)
  extract FILE...     print the main content text; with --out-dir, write
                      OUT_DIR/<name>.txt for each FILE instead
  view FILE -o OUT    write the page with every block outlined and coloured by
                      type (content, related links, navigation, noise)

FILE may be '-' for standard input.

Options:
  --url URL           the page's URL (base for relative links)
  --charset NAME      decode the bytes as NAME instead of detecting
  --content-type V    the HTTP Content-Type header the page came with
  --max-bytes N       refuse larger input (default 33554432)
  --min-block-text N  QuarkRecognizer text threshold (default 40)
  --sim-threshold X   QuarkAnalyzer similarity threshold (default 0.3)
  --container-levels N  a block inside the reference block's ancestor N levels
                      up counts as similar (default 1; -1: off)
  --same-template B   a block built like the reference (tag, class, parent)
                      counts as similar (default true)
  --structure-hints B  choose the reference block and drop comments,
                      footers, sidebars etc. by tag/class/id/itemprop/role
                      words, keep short paragraphs next to the reference
                      (default true)
  --favor WHAT        precision, recall or balanced (default: balanced, the
                      best F1): precision keeps only the reference block's
                      own container; recall looks one level further up and
                      keeps comments and other blocks marked against that
                      naive Bayes accepts
  --paper             the paper's similarity test only: same as
                      --container-levels -1 --same-template false
                      --structure-hints false
  -o, --output FILE   output file (view: required; others: default stdout)
  --out-dir DIR       extract: one .txt per input file
  -h, --help          this text
)";

struct Args {
  std::string command;
  std::vector<std::string> files;
  std::string url, charset, content_type, output, out_dir;
  fcrawl::quark::PageOptions options;
};

int Fail(const std::string& message) {
  std::cerr << "quark: " << message << "\n";
  return 1;
}

bool ParseArgs(int argc, char** argv, Args* args, std::string* error) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string* out) {
      size_t eq = a.find('=');
      if (absl::StartsWith(a, "--") && eq != std::string::npos) {
        *out = a.substr(eq + 1);
        return true;
      }
      if (i + 1 >= argc) {
        *error = absl::StrCat(a, " needs a value");
        return false;
      }
      *out = argv[++i];
      return true;
    };
    auto is = [&](absl::string_view name) {
      return a == name || absl::StartsWith(a, absl::StrCat(name, "="));
    };
    std::string v;
    if (a == "-h" || a == "--help") {
      args->command = "help";
      return true;
    } else if (is("--url")) {
      if (!value(&args->url)) return false;
    } else if (is("--charset")) {
      if (!value(&args->charset)) return false;
    } else if (is("--content-type")) {
      if (!value(&args->content_type)) return false;
    } else if (a == "-o" || is("--output")) {
      if (!value(&args->output)) return false;
    } else if (is("--out-dir")) {
      if (!value(&args->out_dir)) return false;
    } else if (is("--max-bytes")) {
      size_t n;
      if (!value(&v)) return false;
      if (!absl::SimpleAtoi(v, &n) || n == 0) {
        *error = absl::StrCat("--max-bytes: not a positive number: '", v, "'");
        return false;
      }
      args->options.parse.max_input_bytes = n;
    } else if (is("--min-block-text")) {
      size_t n;
      if (!value(&v)) return false;
      if (!absl::SimpleAtoi(v, &n)) {
        *error = absl::StrCat("--min-block-text: not a number: '", v, "'");
        return false;
      }
      args->options.recognizer.min_block_text = n;
    } else if (is("--sim-threshold")) {
      double x;
      if (!value(&v)) return false;
      if (!absl::SimpleAtod(v, &x) || x < 0 || x > 1) {
        *error =
            absl::StrCat("--sim-threshold: not a number in [0, 1]: '", v, "'");
        return false;
      }
      args->options.analyzer.sim_threshold = x;
    } else if (is("--container-levels")) {
      int n;
      if (!value(&v)) return false;
      if (!absl::SimpleAtoi(v, &n) || n < -1 || n > 64) {
        *error = absl::StrCat("--container-levels: not a number in [-1, 64]: '",
                              v, "'");
        return false;
      }
      args->options.analyzer.container_levels = n;
    } else if (is("--same-template")) {
      if (!value(&v)) return false;
      if (v != "true" && v != "false") {
        *error = absl::StrCat("--same-template: not true or false: '", v, "'");
        return false;
      }
      args->options.analyzer.same_template = v == "true";
    } else if (is("--structure-hints")) {
      if (!value(&v)) return false;
      if (v != "true" && v != "false") {
        *error =
            absl::StrCat("--structure-hints: not true or false: '", v, "'");
        return false;
      }
      args->options.analyzer.structure_hints = v == "true";
    } else if (is("--favor")) {
      if (!value(&v)) return false;
      if (v == "precision") {
        args->options.analyzer.favor = fcrawl::quark::Favor::kPrecision;
      } else if (v == "recall") {
        args->options.analyzer.favor = fcrawl::quark::Favor::kRecall;
      } else if (v == "balanced") {
        args->options.analyzer.favor = fcrawl::quark::Favor::kBalanced;
      } else {
        *error = absl::StrCat("--favor: not precision, recall or balanced: '",
                              v, "'");
        return false;
      }
    } else if (a == "--paper") {
      args->options.analyzer.container_levels = -1;
      args->options.analyzer.same_template = false;
      args->options.analyzer.structure_hints = false;
    } else if (a.size() > 1 && a[0] == '-') {
      *error = absl::StrCat("unknown option ", a);
      return false;
    } else {
      rest.push_back(a);
    }
  }
  if (rest.empty()) {
    *error = "missing command";
    return false;
  }
  args->command = rest[0];
  args->files.assign(rest.begin() + 1, rest.end());
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
                          "-byte limit (--max-bytes)");
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
  fcrawl::quark::PageMetadata m = fcrawl::quark::ExtractMetadata(page);
  size_t brace = json->find('{');
  if (brace == std::string::npos) return;
  json->insert(
      brace + 1,
      absl::StrCat("\n \"metadata\": {\"title\": ", JsonString(m.title),
                   ", \"byline\": ", JsonString(m.byline),
                   ", \"date\": ", JsonString(m.date),
                   ", \"language\": ", JsonString(m.language), "},"));
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
  Args args;
  std::string error;
  if (!ParseArgs(argc, argv, &args, &error)) {
    std::cerr << "quark: " << error << "\n\n" << kUsage;
    return 2;
  }
  if (args.command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (args.command != "segment" && args.command != "extract" &&
      args.command != "view") {
    std::cerr << "quark: unknown command '" << args.command << "'\n\n"
              << kUsage;
    return 2;
  }
  if (args.files.empty()) {
    return Fail(absl::StrCat(args.command, ": missing FILE"));
  }
  if (args.command != "extract" && args.files.size() > 1) {
    return Fail(absl::StrCat(args.command, " takes one FILE"));
  }
  if (args.command == "view" && args.output.empty()) {
    return Fail("view: missing -o OUT.html");
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
    } else if (args.command == "extract") {
      out = fcrawl::quark::MainContent(page->segmentation);
      if (!out.empty()) out.push_back('\n');
    } else {
      out = fcrawl::quark::RenderView(*page);
    }
    std::string target = args.output;
    if (args.command == "extract" && !args.out_dir.empty()) {
      target = absl::StrCat(args.out_dir, "/", BaseName(file), ".txt");
    }
    if (!WriteOutput(target, out, &error)) {
      std::cerr << "quark: " << error << "\n";
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
