#!/usr/bin/env python3
"""`ranker-mpi` under mpirun against one `ranker` process, end to end.

usage: ranker_mpi_test.py MPIRUN RANKER_MPI RANKER GRAPH_GEN OUT_DIR

graph_gen writes a web-like graph of 5 chunks in 3 shards; for every
algorithm `mpirun -np 2` and `-np 3 ranker-mpi run` give the ranking (and
blpr's blocks) of `ranker run`, bit for bit (checked to 1e-9 and byte for
byte), in the same rounds; three `ranker-mpi round`s then `run` equal the
uninterrupted run; a graph of one chunk runs on 3 processes (two own
nothing); a damaged shard makes every process fail with the file named, and
none hangs.
"""
import json
import os
import shutil
import subprocess
import sys

MPIRUN, RANKER_MPI, RANKER, GEN, OUT = sys.argv[1:6]
ALGORITHMS = ["pagerank", "quarkrank", "blpr", "topic-pagerank", "url-rule",
              "topic-quarkrank"]
# We may run as root (containers); 3 processes may share 2 cores.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
           OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_btl="self,vader",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(args, expect=0, timeout=120):
    try:
        p = subprocess.run(args, capture_output=True, text=True,
                           timeout=timeout, env=ENV)
    except subprocess.TimeoutExpired:
        check(False, f"{' '.join(args)}: hung (over {timeout} s)")
        return None
    ok = p.returncode == expect if expect is not None else p.returncode != 0
    check(ok, f"{' '.join(args)}: exit {p.returncode}, wanted "
          f"{'non-zero' if expect is None else expect}: "
          f"{p.stderr.strip()[-800:]}")
    return p


def summary(p):
    if p is None or p.returncode != 0:
        return {}
    lines = p.stdout.strip().splitlines()
    check(len(lines) == 1, f"one summary line (process 0 only): {p.stdout!r}")
    return json.loads(lines[0]) if lines else {}


def single(*args):
    return summary(run([RANKER, *args, "--quiet"]))


def mpi(np, *args, expect=0, timeout=120):
    p = run([MPIRUN, "-np", str(np), "--bind-to", "none", RANKER_MPI, *args,
             "--quiet"], expect=expect, timeout=timeout)
    return summary(p) if expect == 0 else p


def read_rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    head = lines[0].split("\t")
    return [dict(zip(head, l.split("\t"))) for l in lines[1:]]


def same_ranking(want_path, got_path, key, what):
    """Same rows (by key), scores within 1e-9, and the same bytes."""
    want, got = read_rows(want_path), read_rows(got_path)
    check(len(want) == len(got) and len(want) > 0,
          f"{what}: {len(got)} rows, wanted {len(want)}")
    w = {key(r): r for r in want}
    g = {key(r): r for r in got}
    check(w.keys() == g.keys(), f"{what}: other rows")
    worst = 0.0
    for k in w.keys() & g.keys():
        for col in ("score", "pagerank"):
            if col in w[k]:
                worst = max(worst, abs(float(w[k][col]) - float(g[k][col])))
    check(worst <= 1e-9, f"{what}: score differs by {worst}")
    with open(want_path, "rb") as a, open(got_path, "rb") as b:
        check(a.read() == b.read(), f"{what}: not byte-identical")


shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT)
shards = os.path.join(OUT, "shards")
# 20000 pages and some unknown targets: 5 chunks of 4096, so 2 and 3
# processes own 2–3 and 1–2 chunks, one of them short.
run([GEN, "generate", "--out", shards, "--pages", "20000", "--hosts", "200", "--shards",
     "3", "--unknown", "0.02", "--seed", "9"])

# ---- every algorithm: 2 and 3 processes against one
for alg in ALGORITHMS:
    def outputs(tag):
        args = ["--out", os.path.join(OUT, f"{alg}-{tag}.tsv")]
        if alg == "blpr":
            args += ["--blocks_out", os.path.join(OUT, f"{alg}-{tag}-b.tsv")]
        return args
    want = single("run", shards, "--algorithm", alg, *outputs("1"))
    for np in (2, 3):
        got = mpi(np, "run", shards, "--algorithm", alg, *outputs(np))
        if not want or not got:
            continue
        check(got["processes"] == np, f"{alg} -np {np}: processes")
        check(got["exchange_bytes"] > 0, f"{alg} -np {np}: exchange_bytes")
        for field in ("round", "converged", "pages", "links", "fingerprint"):
            check(got[field] == want[field],
                  f"{alg} -np {np}: {field} {got[field]}, wanted {want[field]}")
        same_ranking(os.path.join(OUT, f"{alg}-1.tsv"),
                     os.path.join(OUT, f"{alg}-{np}.tsv"),
                     lambda r: r["url"], f"{alg} -np {np} pages")
        if alg == "blpr":
            same_ranking(os.path.join(OUT, f"{alg}-1-b.tsv"),
                         os.path.join(OUT, f"{alg}-{np}-b.tsv"),
                         lambda r: (r["url"], r["block"]),
                         f"{alg} -np {np} blocks")
    check(want.get("processes") == 1, f"{alg}: one process says so")

# ---- three rounds, then run: the uninterrupted run
for alg in ("quarkrank", "url-rule"):
    ckpt = os.path.join(OUT, f"ck-{alg}")
    for i in (1, 2, 3):
        got = mpi(3, "round", shards, "--algorithm", alg, "--checkpoint_dir",
                  ckpt)
        check(got.get("round") == i, f"{alg} round {i}: {got.get('round')}")
    out = os.path.join(OUT, f"{alg}-resumed.tsv")
    got = mpi(2, "run", shards, "--algorithm", alg, "--checkpoint_dir", ckpt,
              "--out", out)
    check(got.get("resumed") is True and got.get("start_round") == 3,
          f"{alg} resumed: {got}")
    same_ranking(os.path.join(OUT, f"{alg}-1.tsv"), out, lambda r: r["url"],
                 f"{alg} rounds then run")

# ---- fewer chunks than processes: two of three own nothing
tiny = os.path.join(OUT, "tiny")
run([GEN, "generate", "--out", tiny, "--pages", "60", "--hosts", "4", "--shards", "2",
     "--seed", "3"])
for alg in ("blpr", "url-rule"):
    want = single("run", tiny, "--algorithm", alg, "--out",
                  os.path.join(OUT, f"tiny-{alg}-1.tsv"))
    got = mpi(3, "run", tiny, "--algorithm", alg, "--out",
              os.path.join(OUT, f"tiny-{alg}-3.tsv"))
    check(got.get("round") == want.get("round"), f"tiny {alg}: rounds")
    same_ranking(os.path.join(OUT, f"tiny-{alg}-1.tsv"),
                 os.path.join(OUT, f"tiny-{alg}-3.tsv"), lambda r: r["url"],
                 f"tiny {alg} -np 3")

# ---- a damaged shard: every process fails, naming it; none hangs
bad = os.path.join(OUT, "bad")
shutil.copytree(shards, bad)
victim = os.path.join(bad, "graph-gen-1.fcg")
with open(victim, "r+b") as f:
    f.truncate(os.path.getsize(victim) // 2)
p = mpi(3, "run", bad, "--algorithm", "quarkrank", expect=None, timeout=60)
if p is not None:
    for r in range(3):
        check(f"ranker (process {r} of 3): {victim}" in p.stderr,
              f"damaged shard, process {r}: {p.stderr[-800:]}")
    check(p.stdout.strip() == "", f"damaged shard: no summary: {p.stdout}")

# ---- usage errors: printed once, every process exits 2
p = mpi(3, "run", shards, "--bogus", "1", expect=None, timeout=60)
if p is not None:
    check(p.stderr.count("unknown flag '--bogus'") == 1,
          f"usage once: {p.stderr[-800:]}")

if failures:
    print(f"{len(failures)} failure(s)", file=sys.stderr)
    sys.exit(1)
print("ranker_mpi_test: ok")
