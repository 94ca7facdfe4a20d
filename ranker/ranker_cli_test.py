#!/usr/bin/env python3
"""The real `ranker` and `graph_gen` binaries, end to end.

usage: ranker_cli_test.py RANKER GRAPH_GEN OUT_DIR

graph_gen writes a web-like graph (shards and an edge list); ranker ranks it
with every algorithm; plain PageRank is checked against an independent power
iteration over the edge list; `round` advances one round at a time; a run
stopped by SIGINT resumes; checkpoints of other graphs or algorithms are
refused; damaged shards and bad usage give clear errors.
"""
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time

RANKER, GEN, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
ALGORITHMS = ["pagerank", "quarkrank", "blpr", "topic-pagerank", "url-rule"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, expect=0):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=240)
    check(p.returncode == expect,
          f"{' '.join(args[1:])}: exit {p.returncode}, wanted {expect}: "
          f"{p.stderr.strip()[-500:]}")
    return p


def ranker(*args, expect=0):
    p = run(RANKER, *args, "--quiet", expect=expect)
    if expect == 0 and p.returncode == 0:
        return json.loads(p.stdout)
    return p


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return head, [dict(zip(head, l.split("\t"))) for l in lines[1:]]


def page_number(url):
    # http://h<host>.example/p<n>.html
    return int(url.rsplit("/p", 1)[1].split(".")[0])


shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
shards = os.path.join(OUT, "shards")
edges = os.path.join(OUT, "edges.bin")

# ---- graph_gen
p = run(GEN, "generate", "--out", shards, "--pages", "3000", "--hosts", "30", "--shards",
        "3", "--unknown", "0.05", "--seed", "5", "--edges", edges)
gen = json.loads(p.stdout)
check(sorted(os.listdir(shards)) ==
      ["graph-gen-0.fcg", "graph-gen-1.fcg", "graph-gen-2.fcg"],
      f"shard names: {os.listdir(shards)}")
with open(edges, "rb") as f:
    n, m = struct.unpack("<QQ", f.read(16))
    data = f.read()
check(len(data) == 8 * m, "edge list size")
check(n == 3000 + gen["unknown_pages"], "edge list vertex count")
check(m == gen["links"] and 40000 < m < 80000, f"links: {m}")
pairs = struct.unpack(f"<{2 * m}I", data)

# ---- info: the counts the ranker sees
info = ranker("info", shards, "--algorithm", "pagerank")
check(info["records"] == 3000 and info["fetched_pages"] == 3000, "records")
check(info["pages"] == n, f"pages {info['pages']} != {n}")
check(info["links"] == m, f"links {info['links']} != {m}")
check(info["shards"] == 3, "shards")
check(info["unknown_pages"] == gen["unknown_pages"], "unknown pages")
check(info["rounds_run"] == 0, "info runs no round")

# ---- plain PageRank against an independent power iteration
out_deg = [0] * n
for i in range(0, len(pairs), 2):
    out_deg[pairs[i]] += 1
x = [1.0 / n] * n
for _ in range(300):
    nxt = [0.0] * n
    dangling = sum(x[s] for s in range(n) if out_deg[s] == 0)
    for i in range(0, len(pairs), 2):
        s, t = pairs[i], pairs[i + 1]
        nxt[t] += x[s] / out_deg[s]
    base = 0.15 / n + 0.85 * dangling / n
    x = [base + 0.85 * v for v in nxt]
pr = os.path.join(OUT, "pagerank.tsv")
ranker("run", shards, "--algorithm", "pagerank", "--out", pr, "--epsilon",
       "1e-12", "--max_rounds", "300")
_, rows = read_tsv(pr)
check(len(rows) == n, "pagerank rows")
unknown_got, unknown_want = [], sorted(x[3000:])
worst = 0.0
for r in rows:
    if r["fetched"] == "1":
        worst = max(worst, abs(float(r["score"]) - x[page_number(r["url"])]))
    else:
        unknown_got.append(float(r["score"]))
for a, b in zip(sorted(unknown_got), unknown_want):
    worst = max(worst, abs(a - b))
check(len(unknown_got) == len(unknown_want), "unknown rows")
check(worst < 1e-7, f"pagerank differs from the power iteration by {worst}")

# ---- every algorithm
for alg in ALGORITHMS:
    out = os.path.join(OUT, f"{alg}.tsv")
    args = ["run", shards, "--algorithm", alg, "--out", out,
            "--checkpoint_dir", os.path.join(OUT, f"ck-{alg}")]
    if alg == "blpr":
        args += ["--blocks_out", os.path.join(OUT, "blocks.tsv")]
    p = run(RANKER, *args, "--quiet")
    rep = json.loads(p.stdout)
    check(rep["converged"] or rep["round"] == 50, f"{alg}: stopped early")
    check(rep["converged"] == ("has not converged" not in p.stderr),
          f"{alg}: converged {rep['converged']}, stderr {p.stderr!r}")
    check(0 < rep["round"] <= 50, f"{alg}: rounds {rep['round']}")
    # The blocks read with the pages, whatever the algorithm (it said 0 for
    # all but blpr, which alone keeps them).
    check(rep["blocks"] > 3000 * 3, f"{alg}: blocks {rep['blocks']}")
    head, rows = read_tsv(out)
    check(head == ["rank", "url", "score", "pagerank", "relevance",
                   "combined", "fetched"], f"{alg}: header {head}")
    check(len(rows) == n, f"{alg}: rows")
    scores = [float(r["score"]) for r in rows]
    check(scores == sorted(scores, reverse=True), f"{alg}: not sorted")
    check(abs(sum(scores) - 1) < 1e-5, f"{alg}: scores sum to {sum(scores)}")
    plain = sum(float(r["pagerank"]) for r in rows)
    check(abs(plain - 1) < 1e-5, f"{alg}: pagerank sums to {plain}")
    top = rows[0]
    big_r = n * float(top["score"])
    want = 0.4 * float(top["relevance"]) + 0.6 * big_r / (1 + big_r)
    check(abs(float(top["combined"]) - want) < 1e-6, f"{alg}: combined")
    if alg == "blpr":
        bhead, blocks = read_tsv(os.path.join(OUT, "blocks.tsv"))
        check(len(blocks) == rep["blocks"] > 3000 * 3, "block rows")
        total = sum(float(b["score"]) for b in blocks)
        check(abs(total - 1) < 1e-5, f"block scores sum to {total}")
        check(bhead == ["rank", "url", "block", "type", "importance", "score"],
              "block header")

# Weighted algorithms do differ from plain PageRank.
_, q = read_tsv(os.path.join(OUT, "quarkrank.tsv"))
check(any(abs(float(r["score"]) - float(r["pagerank"])) > 1e-6 for r in q),
      "quarkrank equals pagerank")

# ---- thread count does not change the output
t1, t2 = os.path.join(OUT, "t1.tsv"), os.path.join(OUT, "t2.tsv")
ranker("run", shards, "--algorithm", "url-rule", "--out", t1, "--threads", "1")
ranker("run", shards, "--algorithm", "url-rule", "--out", t2, "--threads", "2")
check(open(t1).read() == open(t2).read(), "threads change the output")

# ---- round: exactly one round per call; output from the checkpoint
ck = os.path.join(OUT, "ck-round")
for k in (1, 2, 3):
    rep = ranker("round", shards, "--algorithm", "blpr", "--checkpoint_dir", ck,
                 "--epsilon", "0")
    check(rep["round"] == k and rep["rounds_run"] == 1,
          f"round {k}: {rep['round']} / {rep['rounds_run']}")
p = run(RANKER, "output", shards, "--algorithm", "blpr", "--checkpoint_dir", ck,
        "--out", os.path.join(OUT, "round.tsv"), "--format", "jsonl", "--top",
        "10", "--quiet")
# Three rounds have not converged (the L1 change is far above the default
# epsilon): the ranking is written, with a warning that says so.
check(not json.loads(p.stdout)["converged"], "three rounds converged")
check("round 3, which has not converged" in p.stderr and
      "run more rounds" in p.stderr, f"no unconverged warning: {p.stderr!r}")
with open(os.path.join(OUT, "round.tsv")) as f:
    lines = [json.loads(l) for l in f]
check(len(lines) == 10 and lines[0]["rank"] == 1, "jsonl top 10")
ranker("run", shards, "--algorithm", "blpr", "--max_rounds", "3", "--epsilon",
       "0", "--checkpoint_dir", os.path.join(OUT, "ck-run3"), "--out",
       os.path.join(OUT, "run3.jsonl"), "--format", "jsonl", "--top", "10")
check(open(os.path.join(OUT, "round.tsv")).read() ==
      open(os.path.join(OUT, "run3.jsonl")).read(),
      "three rounds differ from a run of three rounds")

# ---- the graph cache: the second round loads the graph the first built
ck = os.path.join(OUT, "ck-cache")
reps = [ranker("round", shards, "--algorithm", "pagerank", "--checkpoint_dir",
               ck, *extra) for extra in ([], [], ["--no_graph_cache"])]
check([r["graph_from_cache"] for r in reps] == [False, True, False],
      f"graph_from_cache: {[r['graph_from_cache'] for r in reps]}")
check(len({r["fingerprint"] for r in reps}) == 1, "cached graph differs")
check(os.path.exists(os.path.join(ck, "graph.fcgc")), "no graph.fcgc")

# ---- SIGINT stops a run after a round; running again resumes
ck = os.path.join(OUT, "ck-sigint")
proc = subprocess.Popen([RANKER, "run", shards, "--algorithm", "quarkrank",
                         "--epsilon", "0", "--max_rounds", "1000000",
                         "--checkpoint_dir", ck, "--quiet"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
deadline = time.time() + 60
while not os.path.exists(os.path.join(ck, "checkpoint.fcr")):
    check(time.time() < deadline and proc.poll() is None, "no checkpoint")
    if failures:
        break
    time.sleep(0.05)
proc.send_signal(signal.SIGINT)
stdout, stderr = proc.communicate(timeout=60)
check(proc.returncode == 130, f"SIGINT exit {proc.returncode}: {stderr}")
stopped = json.loads(stdout)["round"] if stdout else 0
check(stopped >= 1, "stopped before a round")
rep = ranker("run", shards, "--algorithm", "quarkrank", "--epsilon", "0",
             "--max_rounds", str(stopped + 2), "--checkpoint_dir", ck, "--out",
             os.path.join(OUT, "resumed.tsv"))
check(rep["resumed"] and rep["start_round"] == stopped and
      rep["round"] == stopped + 2, f"resume: {rep}")
ranker("run", shards, "--algorithm", "quarkrank", "--epsilon", "0",
       "--max_rounds", str(stopped + 2), "--out",
       os.path.join(OUT, "straight.tsv"))
check(open(os.path.join(OUT, "resumed.tsv")).read() ==
      open(os.path.join(OUT, "straight.tsv")).read(),
      "a resumed run differs from a straight one")

# ---- refusals
p = ranker("run", shards, "--algorithm", "blpr", "--checkpoint_dir",
           os.path.join(OUT, "ck-quarkrank"), expect=1)
check("quarkrank ranking, not blpr" in p.stderr, f"other algorithm: {p.stderr}")
p = ranker("round", shards, "--algorithm", "quarkrank", "--damping", "0.5",
           "--checkpoint_dir", os.path.join(OUT, "ck-quarkrank"), expect=1)
check("other parameters" in p.stderr, f"other damping: {p.stderr}")
few = os.path.join(OUT, "few")
os.makedirs(few)
shutil.copy(os.path.join(shards, "graph-gen-0.fcg"), few)
p = ranker("round", few, "--algorithm", "quarkrank", "--checkpoint_dir",
           os.path.join(OUT, "ck-quarkrank"), expect=1)
check("another graph" in p.stderr, f"other graph: {p.stderr}")

# ---- damaged shards
bad = os.path.join(OUT, "bad")
shutil.copytree(shards, bad)
victim = os.path.join(bad, "graph-gen-1.fcg")
with open(victim, "r+b") as f:
    f.truncate(os.path.getsize(victim) // 2)
p = ranker("run", bad, expect=1)
check(victim in p.stderr and "record" in p.stderr, f"truncated: {p.stderr}")
with open(victim, "wb") as f:
    f.write(b"\x00" * 100)
p = ranker("run", bad, expect=1)
check("bad magic" in p.stderr, f"garbage: {p.stderr}")
empty = os.path.join(OUT, "empty")
os.makedirs(empty)
p = ranker("run", empty, expect=1)
check("no shard files" in p.stderr, f"empty folder: {p.stderr}")

# ---- usage
run(RANKER, expect=2)
run(RANKER, "rank", shards, expect=2)
run(RANKER, "run", shards, "--bogus", "1", expect=2)
run(RANKER, "run", shards, "--algorithm", "hits", expect=2)
run(RANKER, "run", shards, "--damping", "1", expect=2)
run(RANKER, "run", shards, "--blocks_out", "x", expect=2)
run(RANKER, "round", shards, expect=2)
run(RANKER, "run", expect=2)
run(RANKER, "run", shards, "--quark_weights", "content=-1", expect=2)
run(GEN, expect=2)

if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("ok")
