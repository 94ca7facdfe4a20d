#!/usr/bin/python3
"""Ranker benchmark: `ranker run --algorithm pagerank` against python3-igraph's
PageRank on one generated web-like graph, in one run.

Run through bench/ranker.sh, which builds the ranker and graph_gen first.
graph_gen writes a graph (power-law out-degrees, most links inside a host;
ranker/graph_gen_main.cc) as shards and as a binary edge list; the ranker
reads the shards, igraph the edge list (numpy). Both are timed with GNU time
(peak RSS). The ranker stops at an L1 change below --epsilon; igraph's PRPACK
solves the system to machine precision, and the L1 distance between the two
score vectors is reported so the tolerance is visible. Also igraph's ARPACK
implementation for comparison. Writes bench/out/ranker/results.json and the
section of docs/benchmarks.md between <!-- ranker:begin --> and
<!-- ranker:end -->.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extraction  # noqa: E402  (machine_info, write_section)
import benchlib  # noqa: E402

BEGIN = "<!-- ranker:begin -->"
END = "<!-- ranker:end -->"
GNU_TIME = "/usr/bin/time"
TIME_FORMAT = "%M %e %U %S"  # peak RSS KiB, wall s, user s, system s

IGRAPH_SCRIPT = r'''
import json, sys, time
import numpy, igraph
path, impl, out = sys.argv[1], sys.argv[2], sys.argv[3]
t0 = time.perf_counter()
with open(path, "rb") as f:
    n, m = (int(x) for x in numpy.fromfile(f, numpy.uint64, 2))
    e = numpy.fromfile(f, numpy.uint32).reshape(-1, 2)
g = igraph.Graph(n=n, edges=e, directed=True)
del e
t1 = time.perf_counter()
pr = g.pagerank(damping=0.85, directed=True, implementation=impl)
t2 = time.perf_counter()
numpy.array(pr, dtype=numpy.float64).tofile(out)
print(json.dumps({"vertices": n, "edges": m, "load_seconds": t1 - t0,
                  "pagerank_seconds": t2 - t1}))
'''


log = benchlib.logger("ranker")


def timed(cmd, stdout_path, stderr_path, timeout):
    t0 = time.perf_counter()
    with open(stdout_path, "w") as out, open(stderr_path, "w") as err:
        r = subprocess.run([GNU_TIME, "-f", TIME_FORMAT, "-o", stdout_path + ".time"] + cmd,
                           stdout=out, stderr=err, timeout=timeout)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        with open(stderr_path) as f:
            raise SystemExit("ranker_bench: %s failed (%d):\n%s"
                             % (cmd[0], r.returncode, f.read()[-3000:]))
    with open(stdout_path + ".time") as f:
        rss_kib, elapsed, user, system = f.read().split()[-4:]
    with open(stdout_path) as f:
        lines = [line for line in f.read().splitlines() if line.strip().startswith("{")]
    return {"summary": json.loads(lines[-1]) if lines else {}, "rss_bytes": int(rss_kib) * 1024,
            "wall_seconds": float(elapsed), "cpu_seconds": float(user) + float(system),
            "measured_wall": wall}


def read_ranker_scores(tsv, n):
    """Scores by page id: graph_gen names page i http://h<host>.example/p<i>.html
    and the ranker gives it id i; link targets without a record follow."""
    import array
    scores = array.array("d", [0.0]) * n
    with open(tsv) as f:
        header = f.readline().rstrip("\n").split("\t")
        col_url, col_score = header.index("url"), header.index("score")
        for line in f:
            parts = line.rstrip("\n").split("\t")
            url = parts[col_url]
            k = url.rfind("/p")
            if k < 0 or not url.endswith(".html"):
                return None
            try:
                i = int(url[k + 2:-5])
            except ValueError:
                return None
            if 0 <= i < n:
                scores[i] = float(parts[col_score])
    return scores


def l1_distance(a, path_b, n):
    import array
    b = array.array("d")
    with open(path_b, "rb") as f:
        b.fromfile(f, n)
    return sum(abs(x - y) for x, y in zip(a, b))


def render(r, command):
    g, rk = r["graph"], r["ranker"]
    s = rk["summary"]
    links = s.get("links", 0)
    rounds = s.get("rounds_run", 0)
    threads = r["threads"]
    eps_core = s.get("edge_visits_per_second", 0) / max(1, threads)
    mi = extraction.machine_info()
    out = [BEGIN, "## Ranker: PageRank against igraph (bench/ranker.sh)", ""]
    out.append("Measured %s on %s cores (%s), with `%s`. Graph from `graph_gen`: %s pages on %s "
               "hosts, %s links (power-law out-degrees, %d%% inside the host), %d shards. "
               "Both programs run PageRank with damping 0.85 on the same graph; the ranker "
               "stops when the L1 change of the scores falls below %g, igraph's PRPACK solves "
               "the linear system directly."
               % (datetime.date.today().isoformat(), mi["nproc"], mi["model"], command,
                  f"{g['pages']:,}", f"{g['hosts']:,}", f"{links:,}", int(100 * g["local"]),
                  g["shards"], r["epsilon"]))
    out.append("")
    out.append("| run | load s | PageRank s | total wall s | CPU s | peak RSS | bytes per link |")
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    out.append("| ranker (%d threads, %d rounds) | %.2f | %.2f | %.2f | %.2f | %.0f MB | %.1f |" % (
        threads, rounds, s.get("load_seconds", 0), s.get("round_seconds", 0), rk["wall_seconds"],
        rk["cpu_seconds"], rk["rss_bytes"] / 1e6, rk["rss_bytes"] / max(1, links)))
    for name in ("prpack", "arpack"):
        ig = r.get("igraph_" + name)
        if not ig:
            continue
        out.append("| igraph %s (python3-igraph %s) | %.2f | %.2f | %.2f | %.2f | %.0f MB | %.1f |" % (
            name, r.get("igraph_version", "?"), ig["summary"]["load_seconds"],
            ig["summary"]["pagerank_seconds"], ig["wall_seconds"], ig["cpu_seconds"],
            ig["rss_bytes"] / 1e6, ig["rss_bytes"] / max(1, links)))
    out.append("")
    per_round = s.get("round_seconds", 0) / max(1, rounds)
    out.append("- Ranker: %.3f s per round, %.0f M edge visits per second, %.0f M per core "
               "(%d threads); its graph takes %.1f bytes per link (`graph_bytes_per_link`), "
               "the whole process %.1f bytes per link at its peak (URL table and shard "
               "reading included)." % (per_round, s.get("edge_visits_per_second", 0) / 1e6,
                                       eps_core / 1e6, threads, s.get("graph_bytes_per_link", 0),
                                       rk["rss_bytes"] / max(1, links)))
    if r.get("l1_vs_prpack") is not None:
        out.append("- L1 distance between the ranker's scores and igraph PRPACK's: %.2g "
                   "(scores sum to 1)." % r["l1_vs_prpack"])
    ig = r.get("igraph_prpack")
    if ig:
        a = s.get("round_seconds", 0)
        b = ig["summary"]["pagerank_seconds"]
        out.append("- PageRank time, ranker ÷ igraph PRPACK: %.2f (%s); whole run including "
                   "loading: %.2f." % (a / b if b else 0, "faster" if a < b else "**slower**",
                                       rk["wall_seconds"] / ig["wall_seconds"]))
    targets = []
    if ig:
        targets.append("faster than igraph to the same tolerance: %s"
                       % ("met" if s.get("round_seconds", 0) < ig["summary"]["pagerank_seconds"]
                          else "**missed**"))
    targets.append("≥ 100 M edges per second per core per round: %s (%.0f M)"
                   % ("met" if eps_core >= 100e6 else "**missed**", eps_core / 1e6))
    bpl = rk["rss_bytes"] / max(1, links)
    targets.append("≤ 16 bytes of memory per link: %s (%.1f at peak RSS, %.1f for the graph)"
                   % ("met" if bpl <= 16 else "**missed**", bpl, s.get("graph_bytes_per_link", 0)))
    out.append("- Targets: " + "; ".join(targets) + ".")
    b = r.get("batch")
    if b:
        out.append("")
        out.append("### Rounds as batch jobs: graph cache and MPI processes")
        out.append("")
        out.append("The same graph, PageRank, each row one job of its own (`ranker round` runs "
                   "exactly one round from the last checkpoint; `ranker-mpi` runs under "
                   "`mpirun -np 2 --oversubscribe --mca mpi_yield_when_idle 1`, each process "
                   "with %d thread(s)). The first round builds the graph from the shards and "
                   "writes the graph cache beside the checkpoint; the later jobs load it." % b["mpi_threads"])
        out.append("")
        out.append("| job | graph | load s | rounds | s per round | wall s | peak RSS (largest process) | received per round |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for row in b["rows"]:
            sm = row["summary"]
            rounds = sm.get("rounds_run", 0)
            per = sm.get("round_seconds", 0) / max(1, rounds)
            recv = sm.get("exchange_bytes", 0) / max(1, rounds)
            out.append("| %s | %s | %.2f | %d | %.3f | %.2f | %.0f MB | %s |" % (
                row["name"], "cache" if sm.get("graph_from_cache") else "built from shards",
                sm.get("load_seconds", 0), rounds, per, row["wall_seconds"], row["rss_bytes"] / 1e6,
                "%.1f MB" % (recv / 1e6) if recv else "–"))
        first, cached = b["rows"][0], b["rows"][1]
        out.append("")
        out.append("- A batch round from the cache takes %.2f s of wall time against %.2f s for the "
                   "round that built the graph (%.0f× less)." % (
                       cached["wall_seconds"], first["wall_seconds"],
                       first["wall_seconds"] / max(1e-9, cached["wall_seconds"])))
        out.append("- %s" % b["agreement"])
        out.append("- This machine has 2 cores: two processes split them, so MPI shows its cost "
                   "(exchange, every process loading the graph) and not a speed-up; it is for "
                   "rounds spread over machines.")
    out.append(END)
    return "\n".join(out) + "\n"


def batch_jobs(args, gdir):
    """`ranker round` building and then loading the graph cache, and the
    same rounds as two MPI processes; the MPI run's scores against the
    single process's."""
    ckpt = os.path.join(args.out_dir, "batch-ckpt")
    shutil.rmtree(ckpt, ignore_errors=True)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    os.environ.update(env)
    mpi_threads = max(1, (os.cpu_count() or 1) // 2)
    mpirun = ["mpirun", "-np", "2", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]
    common = ["--algorithm", "pagerank", "--epsilon", str(args.epsilon), "--max_rounds", "200",
              "--checkpoint_dir", ckpt]
    rows = []

    def job(name, cmd, tag):
        log(name)
        row = timed(cmd, os.path.join(args.out_dir, "batch-%s.out" % tag),
                    os.path.join(args.out_dir, "batch-%s.err" % tag), 3600)
        row["name"] = name
        rows.append(row)
        return row

    job("`ranker round` (first: builds, writes the cache)",
        [args.ranker, "round"] + common + ["--threads", str(args.threads), gdir], "round1")
    job("`ranker round`", [args.ranker, "round"] + common + ["--threads", str(args.threads), gdir],
        "round2")
    job("`ranker-mpi round`, 2 processes",
        mpirun + [args.ranker_mpi, "round"] + common + ["--threads", str(mpi_threads), gdir],
        "round3")
    one = os.path.join(args.out_dir, "batch-one.tsv")
    two = os.path.join(args.out_dir, "batch-two.tsv")
    job("`ranker run` to convergence",
        [args.ranker, "run", "--fresh"] + common + ["--threads", str(args.threads), "--out", one,
                                                    gdir], "run1")
    job("`ranker-mpi run` to convergence, 2 processes",
        mpirun + [args.ranker_mpi, "run", "--fresh"] + common +
        ["--threads", str(mpi_threads), "--out", two, gdir], "run2")
    with open(one, "rb") as f:
        a = f.read()
    with open(two, "rb") as f:
        b = f.read()
    agreement = ("The 2-process ranking file is byte for byte the 1-process one."
                 if a == b else "**The 2-process ranking differs from the 1-process one.**")
    return {"rows": rows, "mpi_threads": mpi_threads, "agreement": agreement}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranker", required=True)
    ap.add_argument("--graph-gen", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--docs", default="")
    ap.add_argument("--command", default="bench/ranker.sh")
    ap.add_argument("--pages", type=int, default=1000000)
    ap.add_argument("--links", type=int, default=20000000)
    ap.add_argument("--hosts", type=int, default=0)
    ap.add_argument("--local", type=float, default=0.8)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epsilon", type=float, default=1e-6)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-igraph", action="store_true")
    ap.add_argument("--ranker-mpi", default="",
                    help="ranker-mpi: also time batch rounds (graph cache, 2 MPI processes)")
    args = ap.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    hosts = args.hosts or max(1, args.pages // 100)
    gdir = os.path.join(args.out_dir, "graph-p%d-l%d-s%d" % (args.pages, args.links, args.seed))
    edges = gdir + ".edges"
    manifest = gdir + ".json"
    want = {"pages": args.pages, "links": args.links, "hosts": hosts, "local": args.local,
            "shards": args.shards, "seed": args.seed}
    have = None
    if os.path.exists(manifest) and os.path.exists(edges):
        with open(manifest) as f:
            have = json.load(f)
    if have != want:
        log("generating %d pages, %d links -> %s" % (args.pages, args.links, gdir))
        subprocess.run([args.graph_gen, "generate", "--out", gdir, "--pages", str(args.pages),
                        "--links", str(args.links), "--hosts", str(hosts), "--local",
                        str(args.local), "--shards", str(args.shards), "--seed", str(args.seed),
                        "--edges", edges], check=True, stdout=sys.stderr)
        with open(manifest, "w") as f:
            json.dump(want, f)
    r = {"graph": want, "epsilon": args.epsilon, "threads": args.threads}
    tsv = os.path.join(args.out_dir, "ranker.tsv")
    log("ranker run --algorithm pagerank")
    r["ranker"] = timed([args.ranker, "run", "--algorithm", "pagerank", "--fresh",
                         "--epsilon", str(args.epsilon), "--max_rounds", "200",
                         "--threads", str(args.threads), "--out", tsv, gdir],
                        os.path.join(args.out_dir, "ranker.out"),
                        os.path.join(args.out_dir, "ranker.err"), 3600)
    if not args.no_igraph:
        try:
            r["igraph_version"] = subprocess.run(
                ["/usr/bin/python3", "-c", "import igraph; print(igraph.__version__)"],
                capture_output=True, text=True, check=True).stdout.strip()
        except subprocess.CalledProcessError:
            raise SystemExit("ranker_bench: python3-igraph is missing "
                             "(deploy/install-deps.sh installs it)")
        script = os.path.join(args.out_dir, "igraph_pagerank.py")
        with open(script, "w") as f:
            f.write(IGRAPH_SCRIPT)
        for impl in ("prpack", "arpack"):
            log("igraph pagerank (%s)" % impl)
            vec = os.path.join(args.out_dir, "igraph-%s.f64" % impl)
            r["igraph_" + impl] = timed(["/usr/bin/python3", script, edges, impl, vec],
                                        os.path.join(args.out_dir, "igraph-%s.out" % impl),
                                        os.path.join(args.out_dir, "igraph-%s.err" % impl), 3600)
        n = r["igraph_prpack"]["summary"]["vertices"]
        mine = read_ranker_scores(tsv, n)
        if mine is not None:
            r["l1_vs_prpack"] = l1_distance(mine, os.path.join(args.out_dir, "igraph-prpack.f64"), n)
    if args.ranker_mpi:
        r["batch"] = batch_jobs(args, gdir)
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(r, f, indent=1)
    section = render(r, args.command)
    print(section)
    if args.docs:
        extraction.write_section(args.docs, BEGIN, END, section, extraction.DOC_HEADER)
        log("wrote %s" % args.docs)


if __name__ == "__main__":
    main()
