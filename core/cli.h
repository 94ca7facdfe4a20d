// cli: the one command-line parser of every fcrawl binary.
//
// Every binary is `PROGRAM COMMAND [--flag value | --flag=value]... [ARGS]`:
// the first positional argument names the command, flags may come before or
// after it, flag names are snake_case. Flags are abseil flags (ABSL_FLAG in
// the binary's main file or its component's cli file, so a flag's default
// and meaning are written once, next to the code that reads it); this file
// only decides which of them a command takes and sets them from argv.
//
// Why not absl::ParseCommandLine: it exits 1 on a bad command line (fcrawl
// binaries exit 2), it accepts any flag linked into the binary (abseil's own
// --flagfile, --fromenv, ... and flags of other commands), and its --help
// lists flags by source file rather than by command.
//
//   `PROGRAM --help`, `PROGRAM -h`, `PROGRAM help`: the usage (the commands
//       and the global flags) on stdout, exit 0.
//   `PROGRAM COMMAND --help`, `PROGRAM help COMMAND`: the command's usage
//       with the meaning and default of each of its flags.
//   An unknown command or flag, a flag of another command, a missing value,
//   a value that does not parse, too few or too many arguments: an error
//   naming it, on stderr, exit 2.
//
// Boolean flags are `--quiet`, `--quiet=true|false` or `--noquiet`. `--`
// ends the flags. Thread-safety: Parse sets process-wide flags; call it from
// one thread (main, or a test).
#ifndef FCRAWL_CORE_CLI_H_
#define FCRAWL_CORE_CLI_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fcrawl::cli {

// Exit status of a usage error (every fcrawl binary).
inline constexpr int kExitUsage = 2;

struct Command {
  std::string name;                // "crawl"
  std::string args;                // synopsis of the positionals: "HOST:PORT"
  int min_args = 0;                // positionals after the command name
  int max_args = 0;                // -1: no limit
  std::string help;                // what it does; may span lines
  std::vector<std::string> flags;  // the flags it takes besides the globals
};

struct Program {
  std::string name;                       // "worker"
  std::string about;                      // one paragraph
  std::vector<std::string> global_flags;  // taken by every command
  std::vector<Command> commands;
  std::string footer;  // e.g. the exit statuses
};

struct Invocation {
  // True when the usage was asked for; `command` is then the command whose
  // usage it is, or null for the program's.
  bool help = false;
  const Command* command = nullptr;
  std::vector<std::string> args;  // positionals after the command name
  std::set<std::string> given;    // the flags on the command line

  bool Given(absl::string_view flag) const {
    return given.count(std::string(flag)) > 0;
  }
};

// Parses `args` (argv without argv[0]). First resets every flag of the
// program to its default, so a second Parse (tests) starts afresh. A usage
// error is InvalidArgument with a message naming the flag, command or
// argument.
absl::StatusOr<Invocation> Parse(const Program& program,
                                 const std::vector<std::string>& args);

// The usage text: of the program (command null) or of one command.
std::string Usage(const Program& program, const Command* command = nullptr);

// For main(): Parse, and on --help print the usage on stdout and exit 0; on
// a usage error print it (see UsageError) and exit 2.
Invocation ParseOrExit(const Program& program, int argc, char** argv);

// Prints "PROGRAM: message" and how to get the usage on stderr; returns 2.
// For errors main() finds after parsing (a bound, a missing flag).
int UsageError(const Program& program, absl::string_view message,
               const Command* command = nullptr);

}  // namespace fcrawl::cli

#endif  // FCRAWL_CORE_CLI_H_
