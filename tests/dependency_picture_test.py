#!/usr/bin/python3
"""docs/design.md's dependency picture is what the CMake files build, and
every source folder says in a README what it owns.

  dependency_picture_test.py --source SRC [unittest args]

The picture ("Dependency direction" in docs/design.md, the first fenced
block after that heading) has a line per library target:

    target ──► public, deps; private, deps privately

Names are CMake target names; words that are no library target of the tree
(ICU, RocksDB, "rank files") are read as third-party libraries or comments
and not checked, and so is text in parentheses. Before the ";" come the
targets linked PUBLIC (or INTERFACE), after it those linked PRIVATE, which
end with the word "privately"; a list with no ";" that ends with
"privately" is all private. A continuation line starts with blanks.

The test reads every add_library and target_link_libraries of the source
folders' CMakeLists.txt and fails, naming the target, when a library has
no line, a line names a target that is not a library, or a line's public or
private set differs from what CMake links: the picture cannot drift from
the build.
"""

import argparse
import os
import re
import sys
import tempfile
import unittest

# Folders with code (a CMakeLists.txt, subfolders too) and these two of
# scripts: each keeps a README.md that says what it owns and what it may
# depend on.
README_FOLDERS = ("bench", "tests")
ARROW = "──►"


def strip_comments(cmake):
    return re.sub(r"#[^\n]*", "", cmake)


def cmake_files(source):
    """The CMakeLists.txt of the source folders and their subfolders (not
    the top one, not build trees, not dotted folders)."""
    out = []
    for folder in sorted(os.listdir(source)):
        top = os.path.join(source, folder)
        if (not os.path.isdir(top) or folder.startswith(".")
                or os.path.exists(os.path.join(top, "CMakeCache.txt"))):
            continue
        for dirpath, dirnames, files in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and d not in ("node_modules", "out"))
            if "CMakeLists.txt" in files:
                out.append(os.path.join(dirpath, "CMakeLists.txt"))
    return out


def cmake_libraries(source):
    """{library: {"public": set, "private": set}} of the tree's fcrawl
    library targets, their links to other fcrawl libraries only."""
    libraries, links = set(), {}
    for path in cmake_files(source):
        with open(path, encoding="utf-8") as f:
            text = strip_comments(f.read())
        for m in re.finditer(r"add_library\(\s*([\w-]+)([^)]*)\)", text):
            if not re.search(r"\b(ALIAS|IMPORTED)\b", m.group(2)):
                libraries.add(m.group(1))
        for m in re.finditer(r"target_link_libraries\(\s*([\w-]+)([^)]*)\)",
                             text):
            links.setdefault(m.group(1), []).append(m.group(2).split())
    out = {}
    for lib in libraries:
        deps = {"public": set(), "private": set()}
        for call in links.get(lib, []):
            kind = "public"  # each call starts public (its plain signature)
            for word in call:
                if word in ("PUBLIC", "INTERFACE", "LINK_PUBLIC"):
                    kind = "public"
                elif word in ("PRIVATE", "LINK_PRIVATE"):
                    kind = "private"
                elif word in libraries:
                    deps[kind].add(word)
        out[lib] = deps
    return out


def picture_lines(design):
    """The picture's logical lines (continuations joined), as text."""
    lines = design.split("\n")
    try:
        start = next(i for i, l in enumerate(lines)
                     if l.strip() == "### Dependency direction")
        open_ = next(i for i in range(start, len(lines))
                     if lines[i].startswith("```"))
        close = next(i for i in range(open_ + 1, len(lines))
                     if lines[i].startswith("```"))
    except StopIteration:
        return None
    out = []
    for line in lines[open_ + 1:close]:
        if ARROW in line:
            out.append(line)
        elif out and line.strip():
            out[-1] += " " + line.strip()
    return out


def words(text, libraries):
    return {w for w in re.findall(r"[\w-]+", text) if w in libraries}


def parse_picture(design, libraries):
    """({target: {"public": set, "private": set}}, problems)."""
    lines = picture_lines(design)
    if lines is None:
        return {}, ["docs/design.md has no fenced block under "
                    "'### Dependency direction'"]
    out, problems = {}, []
    for line in lines:
        name, _, deps = line.partition(ARROW)
        name = name.strip()
        if name not in libraries:
            problems.append(f"picture: {name!r} is no library target")
            continue
        if name in out:
            problems.append(f"picture: {name} has two lines")
            continue
        deps = re.sub(r"\([^)]*\)", " ", deps).strip()
        public, semi, private = deps.partition(";")
        if not semi and re.search(r"\bprivately\s*$", public):
            public, private = "", public
        if private and not re.search(r"\bprivately\s*$", private):
            problems.append(f"picture: {name}: what follows ';' must end "
                            "with 'privately'")
        out[name] = {"public": words(public, libraries),
                     "private": words(private, libraries)}
    return out, problems


def problems(source):
    """What the tree and its docs disagree on, one line each."""
    libraries = cmake_libraries(source)
    with open(os.path.join(source, "docs", "design.md"), encoding="utf-8") as f:
        picture, out = parse_picture(f.read(), set(libraries))
    for lib in sorted(libraries):
        if lib not in picture:
            out.append(f"picture: library {lib} has no line "
                       f"(CMake links it to {_show(libraries[lib])})")
            continue
        for kind in ("public", "private"):
            want, got = libraries[lib][kind], picture[lib][kind]
            if want != got:
                out.append(f"picture: {lib} links {kind}ly "
                           f"{_list(want)} in CMake, the picture says "
                           f"{_list(got)}")
    folders = {os.path.relpath(os.path.dirname(p), source)
               for p in cmake_files(source)}
    folders |= {f for f in README_FOLDERS
                if os.path.isdir(os.path.join(source, f))}
    for folder in sorted(folders):
        if not os.path.isfile(os.path.join(source, folder, "README.md")):
            out.append(f"{folder}/ has no README.md (what it owns, what "
                       "it may depend on)")
    return out


def _list(names):
    return ", ".join(sorted(names)) or "nothing"


def _show(deps):
    return (f"{_list(deps['public'])} publicly, "
            f"{_list(deps['private'])} privately")


class DependencyPictureTest(unittest.TestCase):
    def test_the_picture_is_the_build(self):
        self.assertEqual(problems(ARGS.source), [])

    def test_a_drift_is_found(self):
        with tempfile.TemporaryDirectory() as d:
            for folder in ("a", "b", "c", "docs", "bench", "tests"):
                os.makedirs(os.path.join(d, folder))
            for folder in ("a", "bench", "tests"):
                with open(os.path.join(d, folder, "README.md"), "w") as f:
                    f.write("# x\n")
            with open(os.path.join(d, "a", "CMakeLists.txt"), "w") as f:
                f.write("add_library(a a.cc)  # add_library(ghost)\n"
                        "target_link_libraries(a PUBLIC b absl::strings\n"
                        "  PRIVATE c)\n")
            with open(os.path.join(d, "b", "CMakeLists.txt"), "w") as f:
                f.write("add_library(b b.cc)\n")
            with open(os.path.join(d, "c", "CMakeLists.txt"), "w") as f:
                f.write("add_library(c c.cc)\ntarget_link_libraries(c b)\n")
            with open(os.path.join(d, "docs", "design.md"), "w") as f:
                f.write("### Dependency direction\n\n```\n"
                        f" a ──► b (see c), c; RocksDB\n"
                        f" c ──► b\n"
                        f" z ──► b\n```\n")
            got = problems(d)
            self.assertEqual(got, [
                "picture: a: what follows ';' must end with 'privately'",
                "picture: 'z' is no library target",
                "picture: a links publicly b in CMake, the picture says b, c",
                "picture: a links privately c in CMake, the picture says "
                "nothing",
                "picture: library b has no line (CMake links it to nothing "
                "publicly, nothing privately)",
                "b/ has no README.md (what it owns, what it may depend on)",
                "c/ has no README.md (what it owns, what it may depend on)",
            ])

    def test_each_link_call_starts_public_and_subfolders_count(self):
        with tempfile.TemporaryDirectory() as d:
            for folder in ("a", "a/sub", "b", "docs"):
                os.makedirs(os.path.join(d, folder))
            for folder in ("a", "b"):
                with open(os.path.join(d, folder, "README.md"), "w") as f:
                    f.write("# x\n")
            with open(os.path.join(d, "a", "CMakeLists.txt"), "w") as f:
                f.write("add_library(a a.cc)\nadd_library(a::x ALIAS a)\n"
                        "target_link_libraries(a PRIVATE b)\n"
                        "target_link_libraries(a s)\nadd_subdirectory(sub)\n")
            with open(os.path.join(d, "a", "sub", "CMakeLists.txt"), "w") as f:
                f.write("add_library(s s.cc)\n")
            with open(os.path.join(d, "b", "CMakeLists.txt"), "w") as f:
                f.write("add_library(b b.cc)\n")
            with open(os.path.join(d, "docs", "design.md"), "w") as f:
                f.write("### Dependency direction\n```\n"
                        " a ──► s; b privately\n b ──► z\n s ──► z\n```\n")
            self.assertEqual(problems(d), [
                "a/sub/ has no README.md (what it owns, what it may depend "
                "on)"])

    def test_private_lists(self):
        libs = {"a", "b", "c"}
        picture, bad = parse_picture(
            "### Dependency direction\n```\n"
            " a ──► b; c privately\n"
            " b ──► c (and more\n"
            "        text) privately\n"
            " c ──► zlib\n```\n", libs)
        self.assertEqual(bad, [])
        self.assertEqual(picture, {
            "a": {"public": {"b"}, "private": {"c"}},
            "b": {"public": set(), "private": {"c"}},
            "c": {"public": set(), "private": set()}})


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
