#include "core/cli.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(int, count, 3, "how many");
ABSL_FLAG(bool, loud, false, "shout");
ABSL_FLAG(std::string, target, "", "where");

namespace fcrawl::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const Program& TestProgram() {
  static const auto* const kProgram = new Program{
      "prog",
      "A test program.",
      {"loud"},
      {
          {"go", "PLACE", 1, 1, "Goes to PLACE.", {"count"}},
          {"stay", "", 0, 0, "Stays.", {"target"}},
      },
      "Exit status: 0 or 2.",
  };
  return *kProgram;
}

std::string Error(const std::vector<std::string>& args) {
  absl::StatusOr<Invocation> inv = Parse(TestProgram(), args);
  return inv.ok() ? "parsed" : std::string(inv.status().message());
}

TEST(CliTest, CommandFlagsAndArgsInAnyOrder) {
  absl::StatusOr<Invocation> inv =
      Parse(TestProgram(), {"--loud", "go", "--count", "7", "home"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_FALSE(inv->help);
  EXPECT_EQ(inv->command->name, "go");
  EXPECT_EQ(inv->args, std::vector<std::string>{"home"});
  EXPECT_EQ(absl::GetFlag(FLAGS_count), 7);
  EXPECT_TRUE(absl::GetFlag(FLAGS_loud));
  EXPECT_TRUE(inv->Given("count"));

  // A second parse starts from the defaults.
  inv = Parse(TestProgram(), {"go", "--count=-2", "--noloud", "--", "-x"});
  ASSERT_TRUE(inv.ok()) << inv.status();
  EXPECT_EQ(absl::GetFlag(FLAGS_count), -2);
  EXPECT_FALSE(absl::GetFlag(FLAGS_loud));
  EXPECT_EQ(inv->args, std::vector<std::string>{"-x"});
  inv = Parse(TestProgram(), {"stay"});
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_count), 3);
  EXPECT_FALSE(inv->Given("count"));
}

TEST(CliTest, Help) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{
           {"--help"}, {"-h"}, {"help"}, {"go", "--help"}, {"help", "go"}}) {
    absl::StatusOr<Invocation> inv = Parse(TestProgram(), args);
    ASSERT_TRUE(inv.ok()) << inv.status();
    EXPECT_TRUE(inv->help);
  }
  EXPECT_EQ(Parse(TestProgram(), {"--help"})->command, nullptr);
  EXPECT_EQ(Parse(TestProgram(), {"go", "--help"})->command->name, "go");

  const std::string usage = Usage(TestProgram());
  EXPECT_THAT(usage, HasSubstr("usage: prog COMMAND [flags] [ARGS]"));
  EXPECT_THAT(usage, HasSubstr("  go PLACE\n      Goes to PLACE.\n"));
  EXPECT_THAT(usage, HasSubstr("--loud (bool, default false)\n      shout\n"));
  const std::string go = Usage(TestProgram(), &TestProgram().commands[0]);
  EXPECT_THAT(go, HasSubstr("usage: prog go [flags] PLACE"));
  EXPECT_THAT(go, HasSubstr("--count (integer, default 3)\n      how many\n"));
  EXPECT_THAT(go, Not(HasSubstr("--target")));
}

TEST(CliTest, Errors) {
  EXPECT_EQ(Error({}), "no command given (one of: go, stay)");
  EXPECT_EQ(Error({"fly"}), "unknown command 'fly'");
  EXPECT_EQ(Error({"go"}), "go needs PLACE");
  EXPECT_EQ(Error({"go", "a", "b"}), "unexpected argument 'b' after go");
  EXPECT_EQ(Error({"go", "a", "--bogus"}), "unknown flag '--bogus'");
  EXPECT_EQ(Error({"go", "a", "--flagfile=x"}), "unknown flag '--flagfile'");
  EXPECT_EQ(Error({"go", "a", "-c"}),
            "unknown flag '-c' (flags are --name or --name=value)");
  EXPECT_EQ(Error({"stay", "--my-target", "x"}),
            "unknown flag '--my-target' (did you mean --my_target? flag names "
            "are snake_case)");
  EXPECT_EQ(Error({"go", "a", "--count"}), "--count needs a value");
  EXPECT_THAT(Error({"go", "a", "--count=many"}), HasSubstr("--count: "));
  EXPECT_EQ(Error({"stay", "--count", "1"}),
            "--count is not a flag of 'stay' (it is one of: go)");
  EXPECT_EQ(Error({"help", "fly"}), "unknown command 'fly'");
}

}  // namespace
}  // namespace fcrawl::cli
