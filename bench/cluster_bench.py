#!/usr/bin/python3
"""Cluster throughput benchmark: 1, 2 and 4 workers against one standalone
worker, on one synthetic test web, in one run.

Run through bench/cluster.sh. On one web (tests/testweb/generate.py, kept in
OUT/web-p<pages>-h<hosts>-s<seed> and reused) served by one nginx
(tests/testweb/nginx.sh), for each worker count asked for (default 1, 2, 4)
and each repeat:

  - a fresh coordinator (`coordinator serve --listen 127.0.0.1:0 --http
    127.0.0.1:0 --data DIR --lease_ms L`) and N fresh workers (`worker join
    COORD --name wI --data DIR --listen 127.0.0.1:0 --quiet`), each with its
    own new data folder; the crawl is started (`crawlctl start CONFIG`) only
    once the view has the N members and is settled;
  - wall time from StartCrawl to the state DONE (polled on the coordinator's
    /status.json every 0.1 s, so no crawlctl process is spawned per poll);
  - `crawlctl status --json` just before StartCrawl and at DONE: pages
    fetched, per-worker pages, CPU seconds of the coordinator
    (coordinatorCpuSeconds) and of each worker (workers[].stats.cpuSeconds);
    CPU figures are the difference between the two snapshots, so they cover
    the crawl only.

Plus `worker crawl` with the same config as the reference row (its
pages/s from the JSON summary line it prints). Every configuration runs
--repeat times; the table shows the median of each figure. Writes
OUT/results.json and the section of docs/benchmarks.md between
<!-- cluster:begin --> and <!-- cluster:end -->.

Every process started here is in OUT/pids while it runs (cluster.sh's EXIT
trap ends the ones still alive should this script die without doing so).
"""

import argparse
import datetime
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crawl_bench  # noqa: E402  (Nginx, read_sites, topic_keywords, summary_line, ...)
import extraction  # noqa: E402  (machine_info, git_revision, write_section, DOC_HEADER)
import benchlib  # noqa: E402

BEGIN = "<!-- cluster:begin -->"
END = "<!-- cluster:end -->"
TITLE = "## Cluster throughput (bench/cluster.sh)"
TARGET_SPEEDUP_2 = 1.6       # 2 workers at least 1.6x one worker's pages/s
TARGET_COORD_SHARE = 0.10    # coordinator under 10% of the cluster's CPU
POLL_S = 0.1
GNU_TIME = "/usr/bin/time"


log = benchlib.logger("cluster")


class Interrupted(Exception):
    pass


def on_signal(signum, frame):
    raise Interrupted("signal %d" % signum)


def field(d, snake, default=None):
    """A field of proto3 JSON by its proto name: lowerCamelCase as
    MessageToJsonString prints it, the proto name as a fallback."""
    parts = snake.split("_")
    camel = parts[0] + "".join(p.title() for p in parts[1:])
    if camel in d:
        return d[camel]
    return d.get(snake, default)


def num(d, snake):
    """A numeric field (int64 comes as a string in proto3 JSON)."""
    v = field(d, snake, 0)
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0


# ---------------------------------------------------------------- processes


class Processes:
    """The processes this script started, also listed in a file so that the
    shell wrapper can end them should this script be killed."""

    def __init__(self, pid_file):
        self.pid_file = pid_file
        self.procs = []  # (Popen, name)
        self._write()

    def _write(self):
        with open(self.pid_file, "w") as f:
            for p, _ in self.procs:
                if p.poll() is None:
                    f.write("%d %s\n" % (p.pid, p.args[0]))

    def start(self, name, cmd, stdout_path, stderr_path):
        with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
            # Own session: a Ctrl-C in the terminal reaches this script,
            # which then stops them in order.
            p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                 start_new_session=True)
        self.procs.append((p, name))
        self._write()
        return p

    def stop_all(self, grace_s=5.0):
        """The workers first (SIGTERM twice: the first alone is a request to
        leave, which needs the coordinator), then the coordinator; a process
        still there after grace_s gets SIGKILL."""
        t0 = time.perf_counter()
        live = [(p, n) for p, n in self.procs if p.poll() is None]
        killed = []
        for group in ([x for x in live if x[1] != "coordinator"],
                      [x for x in live if x[1] == "coordinator"]):
            for p, _ in group:
                for _ in range(2):
                    try:
                        p.send_signal(signal.SIGTERM)
                    except ProcessLookupError:
                        pass
            deadline = time.time() + grace_s
            for p, name in group:
                try:
                    p.wait(timeout=max(0.1, deadline - time.time()))
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                    killed.append(name)
        if killed or time.perf_counter() - t0 > 1:
            log("stopping %s took %.1f s (killed after %.0f s: %s)"
                % (", ".join(n for _, n in live), time.perf_counter() - t0, grace_s,
                   ", ".join(killed) or "none"))
        self.procs = []
        self._write()


def wait_line(proc, path, prefix, timeout=30):
    """The first line of path starting with prefix, written by proc."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith(prefix) and line.endswith("\n"):
                        return line.strip()
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError("%s exited (%d) before saying %r" % (proc.args[0],
                                                                   proc.returncode, prefix))
        time.sleep(0.05)
    raise RuntimeError("%s did not say %r within %d s" % (proc.args[0], prefix, timeout))


def proc_cpu_seconds(pid):
    """utime + stime of a live process from /proc (None if it is gone)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            rest = f.read().rsplit(")", 1)[1].split()
        return (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def nginx_cpu_seconds(web):
    """CPU of the nginx serving web: its master and its worker processes."""
    try:
        with open(os.path.join(web, ".nginx", "nginx.pid")) as f:
            master = int(f.read().strip())
    except (OSError, ValueError):
        return None
    total = proc_cpu_seconds(master) or 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                rest = f.read().rsplit(")", 1)[1].split()
            if int(rest[1]) == master:
                total += (int(rest[11]) + int(rest[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return total


def machine_busy_seconds():
    """Busy CPU seconds of the whole machine so far (every process: others'
    too) and its total CPU seconds, from /proc/stat."""
    with open("/proc/stat") as f:
        cpu = [int(x) for x in f.readline().split()[1:]]
    idle = cpu[3] + (cpu[4] if len(cpu) > 4 else 0)
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(cpu[:8]) - idle) / hz, sum(cpu[:8]) / hz


# ---------------------------------------------------------------- config


def write_config(path, args, sites, port, keywords, output_dir):
    """bfs, politeness off, the page budget, every served host's root as a
    seed (ads.test aside), every host resolved to nginx (the unserved ad and
    pixel hosts too, so that nothing needs DNS) and kept in scope."""
    q = crawl_bench.textproto_string
    served = sorted(sites)
    hosts = served + crawl_bench.UNSERVED_HOSTS
    lines = ["# Written by bench/cluster_bench.py", ""]
    lines += ["seeds: %s" % q("http://%s/" % h) for h in served if h != crawl_bench.AD_HOST]
    lines.append("strategy { name: %s }" % q(args.strategy))
    lines.append("topic {")
    lines += ["  keywords: %s" % q(k) for k in keywords]
    lines.append("}")
    lines.append("budget { max_pages: %d }" % args.pages)
    lines.append("scope {")
    lines += ["  allowed_hosts: %s" % q(h) for h in hosts]
    lines.append("}")
    lines.append("politeness { per_host_delay_ms: 0 max_crawl_delay_ms: 0 }")
    lines.append("fetch { max_in_flight: %d }" % args.in_flight)
    lines.append("output_dir: %s" % q(output_dir))
    lines.append("allow_private_addresses: true")
    for h in hosts:
        lines.append("resolve { host_port: %s address: %s }" % (q(h), q("127.0.0.1:%d" % port)))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


# ---------------------------------------------------------------- runs


def crawlctl(args, grpc, *cmd, timeout=60):
    r = subprocess.run([args.crawlctl, "--coordinator", grpc] + list(cmd),
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("crawlctl %s: exit %d: %s%s" % (" ".join(cmd), r.returncode,
                                                          r.stdout[-2000:], r.stderr[-2000:]))
    return r.stdout


def status_json(args, grpc):
    return json.loads(crawlctl(args, grpc, "status", "--json"))


def http_status(http):
    with urllib.request.urlopen("http://%s/status.json" % http, timeout=10) as r:
        return json.loads(r.read())["status"]


def wait_members(args, grpc, n, timeout=60):
    deadline = time.time() + timeout
    st = {}
    while time.time() < deadline:
        st = status_json(args, grpc)
        view = field(st, "view", {}) or {}
        members = field(view, "members", []) or []
        if len(members) == n and num(st, "settled_version") == num(view, "version"):
            return st
        time.sleep(0.2)
    raise RuntimeError("the view never had %d settled members: %s" % (n, json.dumps(st)[:2000]))


def worker_figures(st):
    """{name: (pages_fetched, cpu_seconds)} of a status snapshot."""
    out = {}
    for w in field(st, "workers", []) or []:
        name = field(field(w, "member", {}) or {}, "name", "?")
        stats = field(w, "stats", {}) or {}
        out[name] = (num(stats, "pages_fetched"), num(stats, "cpu_seconds"))
    return out


def fetch_span(run_dir, names, crawl_id, t_start_epoch):
    """Seconds from StartCrawl to the first fetch's start and to the last
    fetch's end any worker logged (robots.txt included), so that start-up
    and the DONE detection's tail can be told apart from crawling."""
    first = last = None
    for name in names:
        path = os.path.join(run_dir, name, crawl_id, "fetch_log.jsonl")
        try:
            f = open(path, encoding="utf-8", errors="replace")
        except OSError:
            continue
        with f:
            for line in f:
                try:
                    e = json.loads(line)
                    t = parse_time(e["fetched_at"])
                    end = t + float(e.get("fetch_ms") or 0) / 1000
                except (ValueError, KeyError, TypeError):
                    continue
                first = t if first is None else min(first, t)
                last = end if last is None else max(last, end)
    if first is None:
        return None, None
    return first - t_start_epoch, last - t_start_epoch


def parse_time(s):
    return datetime.datetime.strptime(s.replace("Z", "+0000"),
                                      "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def run_cluster(args, procs, n, rep, config, web):
    run_dir = os.path.join(args.out_dir, "runs", "cluster-n%d-r%d" % (n, rep))
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    res = {"kind": "cluster", "workers": n, "repeat": rep, "dir": run_dir, "ok": False}
    try:
        coord = procs.start("coordinator", [
            args.coordinator, "serve", "--listen", "127.0.0.1:0", "--http", "127.0.0.1:0",
            "--data", os.path.join(run_dir, "coordinator"), "--lease_ms", str(args.lease_ms)],
            os.path.join(run_dir, "coordinator.out"), os.path.join(run_dir, "coordinator.log"))
        line = wait_line(coord, os.path.join(run_dir, "coordinator.out"), "coordinator ")
        addr = dict(kv.split("=", 1) for kv in line.split()[1:])
        grpc, http = addr["grpc"], addr["http"]
        pids = {"coordinator": coord.pid}
        names = ["w%d" % (i + 1) for i in range(n)]
        for name in names:
            p = procs.start(name, [
                args.worker, "join", grpc, "--name", name,
                "--data", os.path.join(run_dir, name), "--listen", "127.0.0.1:0", "--quiet"],
                os.path.join(run_dir, name + ".out"), os.path.join(run_dir, name + ".log"))
            wait_line(p, os.path.join(run_dir, name + ".out"), "worker ")
            pids[name] = p.pid
        before = wait_members(args, grpc, n)
        proc_before = {k: proc_cpu_seconds(v) for k, v in pids.items()}
        nginx_before = nginx_cpu_seconds(web)
        busy_before, total_before = machine_busy_seconds()

        t0 = time.perf_counter()
        t0_epoch = time.time()
        crawl_id = crawlctl(args, grpc, "start", config).strip().split()[-1]
        res["crawl_id"] = crawl_id
        st = {}
        deadline = t0 + args.timeout
        while True:
            try:
                st = http_status(http)
            except OSError as e:
                st = {"http_error": str(e)}
            state = field(st, "state", "")
            if state in ("DONE", "STOPPED"):
                break
            if time.perf_counter() > deadline:
                break
            for name, pid in pids.items():
                if proc_cpu_seconds(pid) is None:
                    raise RuntimeError("%s died during the crawl (see %s)" % (name, run_dir))
            time.sleep(POLL_S)
        wall = time.perf_counter() - t0
        proc_after = {k: proc_cpu_seconds(v) for k, v in pids.items()}
        nginx_after = nginx_cpu_seconds(web)
        busy_after, total_after = machine_busy_seconds()
        final = status_json(args, grpc)
        res["state"] = field(final, "state", "")
        res["stop_reason"] = field(final, "stop_reason", "")
        if res["state"] != "DONE":
            res["error"] = "did not reach DONE within %d s (state %s)" % (args.timeout,
                                                                         res["state"])
            res["last_status"] = final
            log("%d workers, repeat %d: %s" % (n, rep, res["error"]))
            return res
        wb, wa = worker_figures(before), worker_figures(final)
        res["wall_s"] = wall
        res["coordinator_elapsed_s"] = num(final, "elapsed_seconds")
        res["pages"] = num(final, "pages_fetched")
        res["pages_per_s"] = res["pages"] / wall if wall > 0 else 0.0
        res["per_worker_pages"] = {k: v[0] for k, v in sorted(wa.items())}
        res["worker_cpu_s"] = {k: v[1] - wb.get(k, (0, 0))[1] for k, v in sorted(wa.items())}
        res["coordinator_cpu_s"] = (num(final, "coordinator_cpu_seconds") -
                                    num(before, "coordinator_cpu_seconds"))
        res["cluster_cpu_s"] = res["coordinator_cpu_s"] + sum(res["worker_cpu_s"].values())
        res["coordinator_share"] = (res["coordinator_cpu_s"] / res["cluster_cpu_s"]
                                    if res["cluster_cpu_s"] > 0 else 0.0)
        res["links_routed"] = num(final, "links_routed")
        res["lessons_in_bytes"] = num(final, "lessons_in_bytes")
        res["lessons_out_bytes"] = num(final, "lessons_out_bytes")
        res["errors"] = num(final, "errors")
        res["proc_cpu_s"] = {k: (proc_after[k] - proc_before[k])
                             if proc_after[k] is not None and proc_before[k] is not None
                             else None for k in pids}
        res["nginx_cpu_s"] = (nginx_after - nginx_before
                              if nginx_after is not None and nginx_before is not None else None)
        res["machine_busy_cores"] = ((busy_after - busy_before) / wall) if wall > 0 else None
        res["machine_cores"] = (total_after - total_before) / wall if wall > 0 else None
        res["first_fetch_s"], res["last_fetch_s"] = fetch_span(run_dir, names, crawl_id,
                                                               t0_epoch)
        res["ok"] = True
        log("%d worker%s, repeat %d: %d pages in %.2f s (fetches from %s to %s s): %.1f pages/s; "
            "CPU coordinator %.2f s, workers %s; %s"
            % (n, "s" if n > 1 else "", rep, res["pages"], wall, fmt(res["first_fetch_s"], "%.2f"),
               fmt(res["last_fetch_s"], "%.2f"),
               res["pages_per_s"], res["coordinator_cpu_s"],
               ", ".join("%s %.2f s %d pages" % (k, v, res["per_worker_pages"].get(k, 0))
                         for k, v in res["worker_cpu_s"].items()),
               res["stop_reason"]))
        return res
    except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
        res["error"] = str(e)
        log("%d workers, repeat %d FAILED: %s" % (n, rep, e))
        return res
    finally:
        procs.stop_all()


def run_standalone(args, rep, sites, port, keywords):
    run_dir = os.path.join(args.out_dir, "runs", "standalone-r%d" % rep)
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    config = write_config(os.path.join(run_dir, "config.textproto"), args, sites, port,
                          keywords, os.path.join(run_dir, "crawl"))
    res = {"kind": "standalone", "repeat": rep, "dir": run_dir, "ok": False}
    time_path = os.path.join(run_dir, "time.txt")
    cmd = [GNU_TIME, "-o", time_path, "-f", "%e %U %S", args.worker, "crawl",
           "--config", config, "--quiet"]
    with open(os.path.join(run_dir, "stdout.txt"), "wb") as out, \
            open(os.path.join(run_dir, "stderr.txt"), "wb") as err:
        p = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            res["error"] = "did not finish within %d s" % args.timeout
            return res
        except BaseException:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            raise
    if rc != 0:
        res["error"] = "exit %d: %s" % (rc, crawl_bench.tail(os.path.join(run_dir, "stderr.txt")))
        log("standalone FAILED: " + res["error"])
        return res
    s = crawl_bench.summary_line(os.path.join(run_dir, "stdout.txt")) or {}
    res["summary"] = s
    try:
        with open(time_path) as f:
            wall, user, system = (float(x) for x in f.read().split()[-3:])
        res["process_wall_s"] = wall
        res["cpu_s"] = user + system
    except (OSError, ValueError):
        pass
    res["pages"] = float(s.get("pages_fetched", 0))
    res["wall_s"] = float(s.get("seconds", 0))
    res["pages_per_s"] = float(s.get("pages_per_s", 0))
    res["stop_reason"] = s.get("stop_reason", "")
    res["ok"] = res["pages"] > 0
    log("standalone, repeat %d: %d pages in %.2f s: %.1f pages/s (its summary), CPU %s s; %s"
        % (rep, res["pages"], res["wall_s"], res["pages_per_s"],
           "%.2f" % res["cpu_s"] if "cpu_s" in res else "?", res["stop_reason"]))
    return res


# ---------------------------------------------------------------- report


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs):
    """Median of every figure over the successful repeats of one config."""
    ok = [r for r in runs if r.get("ok")]
    out = {"repeats": len(runs), "ok": len(ok), "errors": [r.get("error") for r in runs
                                                            if not r.get("ok")]}
    if not ok:
        return out
    for key in ("pages", "wall_s", "pages_per_s", "coordinator_cpu_s", "cluster_cpu_s",
                "coordinator_share", "nginx_cpu_s", "machine_busy_cores", "first_fetch_s",
                "last_fetch_s",
                "links_routed", "cpu_s", "coordinator_elapsed_s"):
        out[key] = median([r.get(key) for r in ok])
    for key in ("per_worker_pages", "worker_cpu_s"):
        names = sorted({k for r in ok for k in r.get(key, {})})
        if names:
            out[key] = {k: median([r.get(key, {}).get(k) for r in ok]) for k in names}
    out["stop_reasons"] = sorted({r.get("stop_reason", "") for r in ok})
    return out


def fmt(v, spec="%.1f", none="–"):
    return none if v is None else spec % v


def render(results):
    args = results["args"]
    mi = results["machine"]
    rows = results["summary"]
    standalone = rows.get("standalone", {})
    one = rows.get("1", {})
    base = one.get("pages_per_s")
    out = [BEGIN, TITLE, ""]
    out.append("Command (from the project root): `%s`" % results["command"])
    out.append("")
    out.append("- Date: %s" % results["date"])
    out.append("- Machine: %s cores, %s; load average at start %s, at the end %s. The "
               "coordinator, every worker, nginx and crawlctl share these %s cores (and the "
               "machine is shared with other work), so more workers add no cores: they "
               "divide the same ones." % (mi["nproc"], mi["model"], mi["loadavg_at_start"],
                                           results["loadavg_at_end"], mi["nproc"]))
    out.append("- Code: %s; binaries `%s`, `%s`, `%s`" % (
        results["revision"], results["binaries"]["coordinator"], results["binaries"]["worker"],
        results["binaries"]["crawlctl"]))
    w = results["web"]
    out.append("- Web: synthetic, `generate.py synthetic --pages %d --hosts %d --seed %d%s` "
               "(%d sites with ads.test); seeds: the %d hosts' roots (not ads.test)"
               % (w["pages"], w["hosts"], w["seed"],
                  " --calendar-months %d" % w["calendar_months"]
                  if w["calendar_months"] is not None else "", w["sites"], w["seeds"]))
    out.append("- Crawl: strategy %s, budget max_pages %d, `politeness { per_host_delay_ms: 0 "
               "max_crawl_delay_ms: 0 }`, `fetch { max_in_flight: %d }`, topic (12 astronomy "
               "words), every host resolved to nginx, `allow_private_addresses: true`; lease "
               "%d ms; %d repeat%s per configuration, the median of each figure shown"
               % (args.get("strategy", "bfs"), args["pages"], args["in_flight"],
                  args["lease_ms"], args["repeat"],
                  "s" if args["repeat"] > 1 else ""))
    out.append("- Run time of the whole benchmark: %.0f s" % results["seconds"])
    out.append("")
    out.append("| run | pages | wall s | first → last fetch s | pages/s | speed-up vs 1 worker "
               "| pages per worker | coordinator CPU s | workers' CPU s | coordinator share "
               "| nginx CPU s | machine cores busy |")
    out.append("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    if standalone.get("ok"):
        out.append("| `worker crawl` (reference) | %d | %s | – | %s | %s | – | – | %s "
                   "| – | – | – |" % (
                       standalone["pages"], fmt(standalone["wall_s"], "%.2f"),
                       fmt(standalone["pages_per_s"]),
                       fmt(standalone["pages_per_s"] / base if base else None, "%.2f×"),
                       fmt(standalone.get("cpu_s"), "%.1f")))
    elif standalone:
        out.append("| `worker crawl` (reference) | failed: %s | | | | | | | | | | |"
                   % "; ".join(str(e) for e in standalone.get("errors", []))[:200])
    for n in args["workers"]:
        s = rows.get(str(n), {})
        label = "cluster, %d worker%s" % (n, "s" if n > 1 else "")
        if not s.get("ok"):
            out.append("| %s | failed: %s | | | | | | | | | | |"
                       % (label, "; ".join(str(e) for e in s.get("errors", []))[:200]))
            continue
        per = s.get("per_worker_pages", {})
        wcpu = s.get("worker_cpu_s", {})
        out.append("| %s | %d | %s | %s → %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, s["pages"], fmt(s["wall_s"], "%.2f"), fmt(s.get("first_fetch_s"), "%.2f"),
            fmt(s.get("last_fetch_s"), "%.2f"), fmt(s["pages_per_s"]),
            fmt(s["pages_per_s"] / base if base else None, "%.2f×"),
            " / ".join("%d" % v for v in per.values()),
            fmt(s["coordinator_cpu_s"], "%.2f"),
            " + ".join("%.1f" % v for v in wcpu.values()) if len(wcpu) > 1
            else fmt(sum(wcpu.values()), "%.1f"),
            fmt(100 * s["coordinator_share"], "%.1f %%"),
            fmt(s.get("nginx_cpu_s"), "%.1f"), fmt(s.get("machine_busy_cores"), "%.2f")))
    out.append("")
    # Targets.
    two = rows.get("2", {})
    out.append("### Targets")
    out.append("")
    out.append("| target | measured | met |")
    out.append("|---|---|---|")
    if base and two.get("ok"):
        sp = two["pages_per_s"] / base
        out.append("| 2 workers ≥ %.1f× one worker's pages/s | %.2f× (%.1f vs %.1f pages/s) | %s |"
                   % (TARGET_SPEEDUP_2, sp, two["pages_per_s"], base,
                      "yes" if sp >= TARGET_SPEEDUP_2 else "**no**"))
    else:
        out.append("| 2 workers ≥ %.1f× one worker's pages/s | not measured (a run failed) "
                   "| **no** |" % TARGET_SPEEDUP_2)
    shares = [(n, rows[str(n)]["coordinator_share"]) for n in args["workers"]
              if rows.get(str(n), {}).get("ok")]
    if shares:
        worst = max(shares, key=lambda x: x[1])
        out.append("| coordinator CPU < %d %% of the cluster's | %s (highest: %d worker%s) | %s |"
                   % (100 * TARGET_COORD_SHARE,
                      ", ".join("%d worker%s %.1f %%" % (n, "s" if n > 1 else "", 100 * v)
                                for n, v in shares),
                      worst[0], "s" if worst[0] > 1 else "",
                      "yes" if worst[1] < TARGET_COORD_SHARE else "**no**"))
    if one.get("machine_busy_cores") is not None and two.get("ok"):
        out.append("")
        out.append("CPU headroom: during the 1-worker crawl the machine had %.2f of its %s cores "
                   "busy (every process, nginx and other users' work included) and the cluster "
                   "used %.2f CPU s per 1000 pages; with 2 workers %.2f cores busy and %.2f CPU "
                   "s per 1000 pages. A speed-up of %.1f× on the same cores needs the busy "
                   "cores × %.1f or less CPU per page."
                   % (one["machine_busy_cores"], mi["nproc"],
                      1000 * one["cluster_cpu_s"] / max(1, one["pages"]),
                      two["machine_busy_cores"], 1000 * two["cluster_cpu_s"] / max(1, two["pages"]),
                      TARGET_SPEEDUP_2, TARGET_SPEEDUP_2))
    out.append("")
    out.append("### Method")
    out.append("")
    out.append("- For each worker count and each repeat: a fresh `coordinator serve --listen "
               "127.0.0.1:0 --http 127.0.0.1:0 --data DIR --lease_ms %d` and fresh `worker "
               "join COORD --name wI --data DIR --listen 127.0.0.1:0 --quiet` processes "
               "with new data folders; `crawlctl start CONFIG` once the view has all the "
               "workers and is settled. Wall s = from just before `crawlctl start` to the "
               "first poll of the coordinator's `/status.json` (every %.1f s) that shows DONE "
               "(pages/s = pages ÷ wall s). First → last fetch s: when, after the start, "
               "the first fetch began and the last one ended (the workers' "
               "fetch_log.jsonl); the time before the first is the start (seeds routed, "
               "robots.txt, page tokens from heartbeats), the time after the last is the "
               "DONE detection: the coordinator decides DONE only after two quiet checks "
               "at least lease/4 = %.2f s apart."
               % (args["lease_ms"], POLL_S, args["lease_ms"] / 4000.0))
    out.append("- pages = the coordinator's pagesFetched at DONE (every fetch but robots.txt, "
               "404s included; the budget counts the same pages); pages per worker = "
               "workers[].stats.pagesFetched. CPU s from `crawlctl status --json` at DONE "
               "minus just before the start: coordinatorCpuSeconds and "
               "workers[].stats.cpuSeconds (the workers' figures arrive with their "
               "heartbeats, at most 250 ms old); coordinator share = coordinator CPU ÷ "
               "(coordinator + workers' CPU). nginx CPU s: nginx's master and worker "
               "processes from /proc over the same interval; machine cores busy: every "
               "process's CPU (/proc/stat, other users' included) ÷ wall s.")
    out.append("- `worker crawl --config FILE --quiet` with the same config (its own "
               "output folder): pages, seconds and pages/s from the JSON summary line it "
               "prints (its crawl loop only, start-up and shutdown not included); CPU s from "
               "GNU time (the whole process).")
    out.append("- Raw results: `%s/results.json`; each run's logs, configs and data folders in "
               "`%s/runs/` (not committed)." % (results["out_dir_rel"], results["out_dir_rel"]))
    out.append(END)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- main


def ensure_web(args):
    web = os.path.join(args.out_dir, "web-p%d-h%d-s%d%s" % (
        args.web_pages, args.hosts, args.seed,
        "-c%d" % args.calendar_months if args.calendar_months is not None else ""))
    want = {"mode": "synthetic", "pages": args.web_pages, "hosts": args.hosts,
            "seed": args.seed}
    if args.calendar_months is not None:
        want["calendar_months"] = args.calendar_months
    try:
        with open(os.path.join(web, "manifest.json")) as f:
            have = json.load(f)
        if all(have.get(k) == v for k, v in want.items()) and \
                os.path.exists(os.path.join(web, "sites.tsv")):
            log("reusing the web in %s" % web)
            return web
    except (OSError, ValueError):
        pass
    cmd = [sys.executable, os.path.join(args.root, "tests", "testweb", "generate.py"),
           "synthetic", "--pages", str(args.web_pages), "--hosts", str(args.hosts),
           "--seed", str(args.seed), "--out", web]
    if args.calendar_months is not None:
        cmd += ["--calendar-months", str(args.calendar_months)]
    log("generating: " + " ".join(cmd[1:]))
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    return web


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--coordinator", required=True)
    ap.add_argument("--worker", required=True)
    ap.add_argument("--crawlctl", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--docs", default="")
    ap.add_argument("--t0", type=float, default=None)
    ap.add_argument("--pages", type=int, default=12000, help="the crawl's page budget")
    ap.add_argument("--web-pages", type=int, default=20000)
    ap.add_argument("--hosts", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calendar-months", type=int, default=None)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--strategy", default="bfs", help="the crawl's strategy.name")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--in-flight", type=int, default=64)
    ap.add_argument("--lease-ms", type=int, default=5000)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per crawl")
    ap.add_argument("--no-standalone", action="store_true")
    args = ap.parse_args()
    worker_counts = [int(x) for x in args.workers.split(",") if x.strip()]
    if not worker_counts or any(n < 1 or n > 64 for n in worker_counts):
        ap.error("--workers: a comma-separated list of counts in [1, 64]")
    if 1 not in worker_counts:
        worker_counts.insert(0, 1)  # the speed-up's base
    if args.repeat < 1 or args.pages < 1:
        ap.error("--repeat and --pages must be at least 1")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    started = time.time()
    os.makedirs(args.out_dir, exist_ok=True)
    machine = extraction.machine_info()
    web = ensure_web(args)
    sites = crawl_bench.read_sites(web)
    keywords = crawl_bench.topic_keywords(
        os.path.join(args.root, "tests", "testweb", "generate.py"))
    nginx = crawl_bench.Nginx(os.path.join(args.root, "tests", "testweb", "nginx.sh"), web,
                              os.path.join(args.out_dir, "serving"))
    procs = Processes(os.path.join(args.out_dir, "pids"))
    runs = {"standalone": []}
    for n in worker_counts:
        runs[str(n)] = []
    try:
        port = nginx.start()
        log("nginx serves %s on port %d" % (web, port))
        config = write_config(os.path.join(args.out_dir, "cluster.textproto"), args, sites,
                              port, keywords, os.path.join(args.out_dir, "unused"))
        for rep in range(1, args.repeat + 1):
            if not args.no_standalone:
                runs["standalone"].append(run_standalone(args, rep, sites, port, keywords))
            for n in worker_counts:
                runs[str(n)].append(run_cluster(args, procs, n, rep, config, web))
    except Interrupted as e:
        log("interrupted (%s): stopping" % e)
        procs.stop_all()
        nginx.stop()
        return 130
    finally:
        procs.stop_all()
        nginx.stop()
        try:
            os.remove(procs.pid_file)
        except OSError:
            pass

    with open("/proc/loadavg") as f:
        loadavg_end = " ".join(f.read().split()[:3])
    rel = os.path.relpath(args.out_dir, args.root)
    results = {
        "command": args.command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine, "loadavg_at_end": loadavg_end,
        "revision": extraction.git_revision(args.root),
        "binaries": {k: os.path.relpath(getattr(args, k), args.root)
                     for k in ("coordinator", "worker", "crawlctl")},
        "web": {"dir": web, "pages": args.web_pages, "hosts": args.hosts, "seed": args.seed,
                "calendar_months": args.calendar_months, "sites": len(sites),
                "seeds": len([h for h in sites if h != crawl_bench.AD_HOST])},
        "args": {"strategy": args.strategy, "pages": args.pages, "in_flight": args.in_flight,
                 "lease_ms": args.lease_ms, "repeat": args.repeat, "workers": worker_counts},
        "runs": runs,
        "summary": {k: summarize(v) for k, v in runs.items() if v},
        "seconds": time.time() - (args.t0 or started),
        "out_dir_rel": rel,
    }
    for s in results["summary"].values():
        s["ok"] = s.get("ok", 0) > 0
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(results, f, indent=1, default=str)
    section = render(results)
    sys.stdout.write(section)
    if args.docs:
        extraction.write_section(args.docs, BEGIN, END, section, extraction.DOC_HEADER)
        log("wrote %s" % args.docs)
    failed = [k for k, v in runs.items() for r in v if not r.get("ok")]
    if failed:
        log("some runs failed: %s" % ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
