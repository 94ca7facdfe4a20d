#!/usr/bin/env bash
# The main job: sets up, builds, and segments a sample page, printing its
# blocks (type, length, start of the text) and then its main content.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/deploy/build.sh"
page="$root/quark/testdata/article.html"
echo
echo "== quark segment $page (summary of the JSON) =="
"$root/build/quark/quark" segment --url http://physics.example.com/physics/entanglement.html "$page" |
  /usr/bin/python3 -c '
import json, sys
page = json.load(sys.stdin)
print("title: %r  charset: %s (%s)  links: %d" % (
    page["title"], page["charset"], page["charset_source"], len(page["links"])))
for b in page["blocks"]:
    text = b["text"].replace("\n", " / ")
    print("  #%-2d %-14s <%s> %5d chars  p(content)=%.3f  %r" % (
        b["index"], b["type"], b["tag"], b["text_length"],
        b["content_probability"], text[:60]))
'
echo
echo "== quark extract =="
"$root/build/quark/quark" extract "$page"
"$root/build/quark/quark" view "$page" -o "$root/build/article.view.html"
echo
echo "Block view written to $root/build/article.view.html (open it in a browser)."
