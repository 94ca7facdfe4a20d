#include "core/cli.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/types/optional.h"

namespace fcrawl::cli {
namespace {

absl::Status Error(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// The flag registered under `name`; a name in a Program without an
// ABSL_FLAG is a bug of the binary, not of its user.
absl::CommandLineFlag* MustFind(absl::string_view name) {
  absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
  if (flag == nullptr) {
    std::fprintf(stderr, "cli: no ABSL_FLAG named '%s'\n",
                 std::string(name).c_str());
    std::abort();
  }
  return flag;
}

const Command* FindCommand(const Program& p, absl::string_view name) {
  for (const Command& c : p.commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

bool Contains(const std::vector<std::string>& v, absl::string_view s) {
  for (const std::string& x : v) {
    if (x == s) return true;
  }
  return false;
}

// The commands that take `flag` ("" when none does).
std::string CommandsTaking(const Program& p, absl::string_view flag) {
  std::vector<std::string> names;
  for (const Command& c : p.commands) {
    if (Contains(c.flags, flag)) names.push_back(c.name);
  }
  return absl::StrJoin(names, ", ");
}

std::string TypeName(const absl::CommandLineFlag& f) {
  if (f.IsOfType<bool>()) return "bool";
  if (f.IsOfType<std::string>()) return "string";
  if (f.IsOfType<double>()) return "number";
  if (f.IsOfType<std::vector<std::string>>()) return "comma-separated list";
  return "integer";
}

// `text` wrapped to lines of at most 78 columns, each indented by `indent`.
void AppendWrapped(absl::string_view text, int indent, std::string* out) {
  const std::string pad(indent, ' ');
  for (absl::string_view paragraph : absl::StrSplit(text, '\n')) {
    std::string line;
    for (absl::string_view word :
         absl::StrSplit(paragraph, ' ', absl::SkipEmpty())) {
      if (!line.empty() && indent + line.size() + 1 + word.size() > 78) {
        absl::StrAppend(out, pad, line, "\n");
        line.clear();
      }
      absl::StrAppend(&line, line.empty() ? "" : " ", word);
    }
    absl::StrAppend(out, pad, line, "\n");
  }
}

void AppendFlags(const std::vector<std::string>& names, std::string* out) {
  for (const std::string& name : names) {
    const absl::CommandLineFlag* f = MustFind(name);
    std::string head = absl::StrCat("  --", name, " (", TypeName(*f));
    const std::string def = f->DefaultValue();
    if (f->IsOfType<std::string>() || f->IsOfType<std::vector<std::string>>()) {
      if (!def.empty()) absl::StrAppend(&head, ", default \"", def, "\"");
    } else {
      absl::StrAppend(&head, ", default ", def);
    }
    absl::StrAppend(out, head, ")\n");
    AppendWrapped(f->Help(), 6, out);
  }
}

}  // namespace

std::string Usage(const Program& p, const Command* command) {
  std::string out;
  if (command != nullptr) {
    absl::StrAppend(
        &out, "usage: ", p.name, " ", command->name,
        command->flags.empty() && p.global_flags.empty() ? "" : " [flags]",
        command->args.empty() ? "" : " ", command->args, "\n\n");
    AppendWrapped(command->help, 2, &out);
    if (!command->flags.empty()) {
      absl::StrAppend(&out, "\nflags:\n");
      AppendFlags(command->flags, &out);
    }
    if (!p.global_flags.empty()) {
      absl::StrAppend(&out, "\nflags of every command:\n");
      AppendFlags(p.global_flags, &out);
    }
    return out;
  }
  absl::StrAppend(&out, "usage: ", p.name, " COMMAND [flags] [ARGS]\n\n");
  AppendWrapped(p.about, 0, &out);
  absl::StrAppend(&out, "\ncommands:\n");
  for (const Command& c : p.commands) {
    std::string head =
        absl::StrCat("  ", c.name, c.args.empty() ? "" : " ", c.args);
    absl::StrAppend(&out, head, "\n");
    AppendWrapped(c.help, 6, &out);
  }
  if (!p.global_flags.empty()) {
    absl::StrAppend(&out, "\nflags of every command:\n");
    AppendFlags(p.global_flags, &out);
  }
  absl::StrAppend(&out, "\n`", p.name,
                  " COMMAND --help` lists the command's flags.\n");
  if (!p.footer.empty()) {
    absl::StrAppend(&out, "\n");
    AppendWrapped(p.footer, 0, &out);
  }
  return out;
}

absl::StatusOr<Invocation> Parse(const Program& p,
                                 const std::vector<std::string>& args) {
  // Every flag of the program back to its default.
  std::vector<std::string> all = p.global_flags;
  for (const Command& c : p.commands) {
    all.insert(all.end(), c.flags.begin(), c.flags.end());
  }
  for (const std::string& name : all) {
    absl::CommandLineFlag* f = MustFind(name);
    std::string error;
    if (!f->ParseFrom(f->DefaultValue(), &error)) std::abort();
  }

  Invocation inv;
  std::vector<std::string> positionals;
  // Flags are checked against the command once it is known (it may come
  // after them).
  std::vector<std::pair<std::string, std::string>> flags;
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (flags_done || a == "-" || !absl::StartsWith(a, "-")) {
      positionals.push_back(a);
      continue;
    }
    if (a == "--") {
      flags_done = true;
      continue;
    }
    if (a == "-h" || a == "--help" || a == "-help") {
      inv.help = true;
      continue;
    }
    if (!absl::StartsWith(a, "--")) {
      return Error(absl::StrCat("unknown flag '", a,
                                "' (flags are --name or --name=value)"));
    }
    absl::string_view body = absl::string_view(a).substr(2);
    const size_t eq = body.find('=');
    std::string name(body.substr(0, eq));
    if (absl::StrContains(name, '-')) {
      return Error(absl::StrCat("unknown flag '--", name, "' (did you mean --",
                                absl::StrReplaceAll(name, {{"-", "_"}}),
                                "? flag names are snake_case)"));
    }
    absl::optional<std::string> value;
    if (eq != absl::string_view::npos) value = std::string(body.substr(eq + 1));
    // --noquiet is --quiet=false.
    if (!Contains(all, name) && absl::StartsWith(name, "no") &&
        Contains(all, name.substr(2)) &&
        MustFind(name.substr(2))->IsOfType<bool>() && !value.has_value()) {
      name = name.substr(2);
      value = "false";
    }
    if (!Contains(all, name)) {
      return Error(absl::StrCat("unknown flag '--", name, "'"));
    }
    if (!value.has_value()) {
      if (MustFind(name)->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return Error(absl::StrCat("--", name, " needs a value"));
      }
    }
    flags.emplace_back(name, *value);
  }

  if (!positionals.empty()) {
    if (positionals[0] == "help") {
      inv.help = true;
      if (positionals.size() > 1) {
        inv.command = FindCommand(p, positionals[1]);
        if (inv.command == nullptr) {
          return Error(absl::StrCat("unknown command '", positionals[1], "'"));
        }
      }
      return inv;
    }
    inv.command = FindCommand(p, positionals[0]);
    if (inv.command == nullptr) {
      return Error(absl::StrCat("unknown command '", positionals[0], "'"));
    }
  }
  if (inv.help) return inv;
  if (inv.command == nullptr) {
    return Error(absl::StrCat(
        "no command given (one of: ",
        absl::StrJoin(
            p.commands, ", ",
            [](std::string* out, const Command& c) { out->append(c.name); }),
        ")"));
  }
  const Command& c = *inv.command;
  inv.args.assign(positionals.begin() + 1, positionals.end());
  const int n = static_cast<int>(inv.args.size());
  if (n < c.min_args) {
    return Error(absl::StrCat(c.name, " needs ", c.args));
  }
  if (c.max_args >= 0 && n > c.max_args) {
    return Error(absl::StrCat("unexpected argument '", inv.args[c.max_args],
                              "' after ", c.name));
  }
  for (const auto& [name, value] : flags) {
    if (!Contains(p.global_flags, name) && !Contains(c.flags, name)) {
      return Error(absl::StrCat("--", name, " is not a flag of '", c.name,
                                "' (it is one of: ", CommandsTaking(p, name),
                                ")"));
    }
    std::string error;
    if (!MustFind(name)->ParseFrom(value, &error)) {
      return Error(absl::StrCat("--", name, ": ", error));
    }
    inv.given.insert(name);
  }
  return inv;
}

int UsageError(const Program& p, absl::string_view message,
               const Command* command) {
  // The message, the synopsis and where the rest is: the full usage would
  // bury the message.
  std::string synopsis;
  if (command != nullptr) {
    synopsis = absl::StrCat(p.name, " ", command->name, " [flags]",
                            command->args.empty() ? "" : " ", command->args);
  } else {
    synopsis = absl::StrCat(
        p.name, " COMMAND [flags] [ARGS]; COMMAND is one of ",
        absl::StrJoin(p.commands, ", ", [](std::string* out, const Command& c) {
          out->append(c.name);
        }));
  }
  std::fprintf(stderr, "%s: %s\nusage: %s\n(`%s%s%s --help` says more)\n",
               p.name.c_str(), std::string(message).c_str(), synopsis.c_str(),
               p.name.c_str(), command == nullptr ? "" : " ",
               command == nullptr ? "" : command->name.c_str());
  return kExitUsage;
}

Invocation ParseOrExit(const Program& p, int argc, char** argv) {
  absl::StatusOr<Invocation> inv =
      Parse(p, std::vector<std::string>(argv + 1, argv + argc));
  if (!inv.ok()) std::exit(UsageError(p, inv.status().message()));
  if (inv->help) {
    std::fputs(Usage(p, inv->command).c_str(), stdout);
    std::exit(0);
  }
  return *std::move(inv);
}

}  // namespace fcrawl::cli
