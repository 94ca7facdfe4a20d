#!/usr/bin/python3
"""Crawl throughput benchmark: the fcrawl worker vs wget2 vs gumbo alone.

Run through bench/crawl.sh, which builds the worker and bench/gumbo_parse_bench
first. In one run, on one synthetic test web (tests/testweb/generate.py)
served by one nginx (tests/testweb/nginx.sh), this script measures

  (a) the worker (`worker crawl --config FILE`), politeness delays off,
      robots.txt obeyed, for each strategy asked for (bfs, ssaps), budget =
      the number of HTML files of the web, seeds = every host's home page;
  (b) `wget2 --recursive` mirroring the same web from the same seeds, through
      nginx used as an HTTP proxy (nginx picks the virtual host from the
      absolute-form request line), for each thread count asked for;
  (c) gumbo parsing, alone, the HTML pages the worker fetched (read from disk
      into memory first) on as many threads as there are cores, and quark's
      whole pipeline (decode, gumbo, segmentation, classification) the same
      way (bench/gumbo_parse_bench --threads N);

and writes bench/out/crawl/results.json and the crawl section of
docs/benchmarks.md (between <!-- crawl:begin --> and <!-- crawl:end -->).
"""

import argparse
import collections
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in bench/ or tests/testweb/
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import extraction  # noqa: E402  (machine_info, DOC_HEADER, write_section: shared)
import benchlib  # noqa: E402

BEGIN = "<!-- crawl:begin -->"
END = "<!-- crawl:end -->"
TITLE = "## Crawl throughput (bench/crawl.sh)"

TARGET_GUMBO_SHARE = 0.70  # worker pages/s at least 70% of gumbo-alone pages/s
GNU_TIME = "/usr/bin/time"
TIME_FORMAT = "%M %e %U %S"  # peak RSS KiB, wall s, user s, system s
# Hosts the synthetic pages link to that nginx does not serve (testweb_common.py:
# DEAD_AD_HOST, PIXEL_HOST); the worker is pointed at nginx for them too, so
# they get the default server's 404 instead of a DNS lookup.
UNSERVED_HOSTS = ["click.adnet-nowhere.test", "pixel.tracker.invalid"]
AD_HOST = "ads.test"
TOPIC = "astronomy"  # the synthetic topic whose words make the crawl's topic
TOPIC_KEYWORDS = 12


log = benchlib.logger("crawl")


class Interrupted(Exception):
    pass


def on_signal(signum, frame):
    raise Interrupted("signal %d" % signum)


# ---------------------------------------------------------------- the web


def web_dir_for(args):
    return os.path.join(args.out_dir, "web-p%d-h%d-s%d-c%d" % (
        args.pages, args.hosts, args.seed, args.calendar_months))


def ensure_web(args, generate_py):
    """Generates the synthetic web unless the folder already holds this one."""
    web = args.web_dir or web_dir_for(args)
    want = {"mode": "synthetic", "pages": args.pages, "hosts": args.hosts,
            "seed": args.seed, "calendar_months": args.calendar_months}
    manifest_path = os.path.join(web, "manifest.json")
    try:
        with open(manifest_path) as f:
            have = json.load(f)
        if all(have.get(k) == v for k, v in want.items()) and \
                os.path.exists(os.path.join(web, "sites.tsv")):
            log("reusing the web in %s" % web)
            return web, have, 0.0
    except (OSError, ValueError):
        pass
    log("generating a synthetic web: %d pages, %d hosts, seed %d, calendar months %d -> %s"
        % (args.pages, args.hosts, args.seed, args.calendar_months, web))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, generate_py, "synthetic", "--pages", str(args.pages),
                    "--hosts", str(args.hosts), "--seed", str(args.seed),
                    "--calendar-months", str(args.calendar_months), "--out", web],
                   check=True, stdout=sys.stderr)
    seconds = time.perf_counter() - t0
    with open(manifest_path) as f:
        return web, json.load(f), seconds


HREF_HOST = re.compile(rb'href\s*=\s*["\']?https?://([A-Za-z0-9.-]+)', re.I)


VALID_HOST = re.compile(r"^[a-z0-9]([a-z0-9-]{0,62})(\.[a-z0-9]([a-z0-9-]{0,62}))*$")


def linked_hosts(sites):
    """Every host named in an absolute link of the sites' pages, with the
    sites' own: resolved to the local nginx, the hosts without a site get
    404 from its default server, as dead links on a real web do."""
    hosts = set(sites)
    for root in sites.values():
        for d, _, files in os.walk(root):
            for name in files:
                if name.endswith(".html"):
                    with open(os.path.join(d, name), "rb") as f:
                        hosts.update(h.decode().lower() for h in HREF_HOST.findall(f.read()))
    # Real pages (the mdn web) also link to names no resolver would take
    # ("www..xulplanet.com") or write a root's trailing dot: the crawl
    # config accepts host names only, so those are dropped or folded.
    return sorted({h.rstrip(".") for h in hosts if h and VALID_HOST.match(h.rstrip("."))})


def read_sites(web):
    sites = {}
    with open(os.path.join(web, "sites.tsv")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 2 and parts[0]:
                sites[parts[0]] = parts[1]
    return sites


def count_html_files(sites):
    n = 0
    for root in sites.values():
        for _, _, files in os.walk(root):
            n += sum(1 for name in files if name.endswith(".html"))
    return n


def topic_keywords(generate_py):
    """The first words of one synthetic topic's vocabulary (generate.py)."""
    sys.path.insert(0, os.path.dirname(generate_py))
    try:
        import generate  # noqa: E402
        for name, words in generate.topic_vocab():
            if name == TOPIC:
                return words[:TOPIC_KEYWORDS]
    finally:
        sys.path.pop(0)
    raise SystemExit("crawl_bench: topic %s not in generate.py" % TOPIC)


def classify(host, path):
    """What kind of page of the synthetic web a URL is (for the breakdowns)."""
    if host == AD_HOST:
        return "ads.test"
    if host not in SERVED_HOSTS:
        return "unserved host"
    if path == "/robots.txt":
        return "robots.txt"
    if path.startswith(("/login.html", "/item.html")):
        return "session-id trap"
    if path.startswith("/private/"):
        return "private (robots.txt)"
    if path.startswith("/calendar/"):
        return "calendar"
    if path in ("/about.html", "/contact.html"):
        return "about/contact"
    if "/media/" in path or path.endswith((".mp3", ".mp4", ".swf")):
        return "media"
    if path.endswith("/") or re.search(r"/index(-\d+)?\.html$", path):
        return "index"
    if path.endswith(".html"):
        return "article"
    return "other"


SERVED_HOSTS = set()  # filled in main()


def is_html_path(path):
    """Every HTML file of the synthetic web ends in .html or is a folder."""
    return path.endswith(".html") or path.endswith("/")


# ---------------------------------------------------------------- nginx


class Nginx:
    def __init__(self, script, web, serving_file):
        self.script = script
        self.web = web
        self.serving_file = serving_file
        self.port = None
        self.log_path = os.path.join(web, ".nginx", "access.log")

    def start(self):
        running = subprocess.run(["bash", self.script, "status", self.web],
                                 capture_output=True, text=True).returncode == 0
        if not running and os.path.exists(self.log_path):
            os.remove(self.log_path)  # one benchmark run per log
        with open(self.serving_file, "w") as f:
            f.write(self.web + "\n")  # crawl.sh's trap stops it if we die
        out = subprocess.run(["bash", self.script, "start", self.web],
                             check=True, capture_output=True, text=True).stdout
        self.port = int(out.strip().splitlines()[-1])
        return self.port

    def stop(self):
        subprocess.run(["bash", self.script, "stop", self.web], check=False)
        try:
            os.remove(self.serving_file)
        except FileNotFoundError:
            pass

    def offset(self):
        try:
            return os.path.getsize(self.log_path)
        except OSError:
            return 0

    def entries(self, offset):
        """Access-log entries written since offset (nginx writes whole lines)."""
        time.sleep(0.2)
        out = []
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out


def access_stats(entries, ua_prefix):
    """Requests in the access log by the client whose User-Agent starts with
    ua_prefix: totals, GETs answered 200 for HTML paths, hosts."""
    mine = [e for e in entries if str(e.get("ua", "")).lower().startswith(ua_prefix)]
    by_status = collections.Counter(e.get("status") for e in mine)
    html = [e for e in mine if e.get("method") == "GET" and e.get("status") == 200
            and is_html_path(urllib.parse.urlsplit(e.get("request_uri", "")).path)]
    kinds = collections.Counter(
        classify(e.get("host", ""), urllib.parse.urlsplit(e.get("request_uri", "")).path)
        for e in html)
    hosts = collections.Counter(e.get("host", "") for e in mine)
    distinct_html = len({(e.get("host"), e.get("request_uri")) for e in html})
    return {
        "requests": len(mine),
        "by_method": dict(collections.Counter(e.get("method") for e in mine)),
        "by_status": {str(k): v for k, v in sorted(by_status.items(), key=lambda kv: str(kv[0]))},
        "html_200": len(html),
        "html_200_distinct": distinct_html,
        "html_200_kinds": dict(kinds.most_common()),
        "bytes": sum(int(e.get("bytes") or 0) for e in mine),
        "hosts": len(hosts),
        "served_hosts_requested": len([h for h in hosts if h in SERVED_HOSTS]),
        "requests_to_unserved_hosts": sum(v for h, v in hosts.items() if h not in SERVED_HOSTS),
        "unserved_hosts": sorted(h for h in hosts if h not in SERVED_HOSTS)[:20],
        "private_requests": sum(
            1 for e in mine
            if urllib.parse.urlsplit(e.get("request_uri", "")).path.startswith("/private/")),
    }


# ---------------------------------------------------------------- processes


def run_timed(cmd, cwd, stdout_path, stderr_path, timeout):
    """Runs cmd under GNU time in its own process group; returns rc, wall
    seconds (measured here), peak RSS MB and CPU seconds (from time)."""
    time_path = stderr_path + ".time"
    full = [GNU_TIME, "-o", time_path, "-f", TIME_FORMAT] + cmd
    # No proxy settings from the environment (wget2 gets its proxy on the
    # command line; a no_proxy list must not send it around nginx).
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, cwd=cwd, stdout=out, stderr=err, env=env,
                                start_new_session=True)
        timed_out = False
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            rc = proc.wait()
        except BaseException:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        wall = time.perf_counter() - t0
    result = {"rc": rc, "timed_out": timed_out, "wall_s": wall,
              "command": " ".join(cmd)}
    try:
        with open(time_path) as f:
            lines = [line.split() for line in f if line.strip()]
        last = lines[-1]
        result["peak_rss_mb"] = int(last[0]) / 1024.0
        result["time_wall_s"] = float(last[1])
        result["cpu_s"] = float(last[2]) + float(last[3])
    except (OSError, IndexError, ValueError):
        result["peak_rss_mb"] = None
        result["cpu_s"] = None
    return result


def tail(path, n=2000):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - n))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


# ---------------------------------------------------------------- (a) the worker


def textproto_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def worker_config(args, strategy, seeds, keywords, budget, port, output_dir, hosts):
    q = textproto_string
    lines = ["# Written by bench/crawl_bench.py", ""]
    lines += ["seeds: %s" % q(s) for s in seeds]
    lines.append("topic {")
    lines += ["  keywords: %s" % q(k) for k in keywords]
    lines.append("}")
    lines.append("strategy { name: %s }" % q(strategy))
    lines.append("budget { max_pages: %d max_seconds: %d }" % (budget, args.timeout))
    lines.append("scope {")
    lines += ["  allowed_hosts: %s" % q(h) for h in hosts]
    lines.append("  max_pages_per_host: %d" % budget)
    lines.append("}")
    lines.append("politeness { per_host_delay_ms: 0 per_ip_delay_ms: 0 obey_robots: true "
                 "max_crawl_delay_ms: 0 }")
    lines.append("fetch { max_in_flight: %d }" % args.in_flight)
    lines.append("output_dir: %s" % q(output_dir))
    for h in hosts:
        lines.append("resolve { host_port: %s address: %s }" % (q(h), q("127.0.0.1:%d" % port)))
    lines.append("allow_private_addresses: true")
    return "\n".join(lines) + "\n"


def summary_line(stdout_path):
    try:
        with open(stdout_path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


def fetch_log_stats(path):
    stats = {"fetches": 0, "by_status": collections.Counter(), "html_200": 0,
             "html_200_kinds": collections.Counter(), "errors": collections.Counter(),
             "bytes": 0, "max_depth": 0, "html_urls": [], "bad_lines": 0}
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError:
        stats["missing"] = True
        return stats
    with f:
        for line in f:
            if not line.strip():
                continue
            try:
                e = json.loads(line)
            except ValueError:
                stats["bad_lines"] += 1
                continue
            stats["fetches"] += 1
            status = e.get("status")
            stats["by_status"][str(status)] += 1
            if e.get("error"):
                stats["errors"][str(e["error"])[:80]] += 1
            try:
                stats["bytes"] += int(e.get("bytes") or 0)
                stats["max_depth"] = max(stats["max_depth"], int(e.get("depth") or 0))
            except (TypeError, ValueError):
                pass
            ctype = str(e.get("content_type") or "").lower()
            if status == 200 and ctype.startswith("text/html"):
                url = e.get("final_url") or e.get("url") or ""
                stats["html_200"] += 1
                stats["html_urls"].append(url)
                parts = urllib.parse.urlsplit(url)
                stats["html_200_kinds"][classify(parts.hostname or "", parts.path)] += 1
    stats["by_status"] = dict(stats["by_status"])
    stats["html_200_kinds"] = dict(stats["html_200_kinds"].most_common())
    stats["errors"] = dict(stats["errors"].most_common(10))
    return stats


def run_worker(args, nginx, strategy, seeds, keywords, budget, hosts):
    run_dir = os.path.join(args.out_dir, "worker-" + strategy)
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    crawl_dir = os.path.join(run_dir, "crawl")
    config_path = os.path.join(run_dir, "config.textproto")
    with open(config_path, "w") as f:
        f.write(worker_config(args, strategy, seeds, keywords, budget, nginx.port,
                              crawl_dir, hosts))
    offset = nginx.offset()
    log("worker %s: budget %d pages, %d seeds, max_in_flight %d"
        % (strategy, budget, len(seeds), args.in_flight))
    res = run_timed([args.worker, "crawl", "--config", config_path], run_dir,
                    os.path.join(run_dir, "stdout.txt"), os.path.join(run_dir, "stderr.txt"),
                    args.timeout + 120)
    res.update({"strategy": strategy, "budget": budget, "config": config_path,
                "output_dir": crawl_dir})
    res["summary"] = summary_line(os.path.join(run_dir, "stdout.txt"))
    flog = fetch_log_stats(os.path.join(crawl_dir, "fetch_log.jsonl"))
    res["html_urls"] = flog.pop("html_urls")
    res["fetch_log"] = flog
    res["access_log"] = access_stats(nginx.entries(offset), "fcrawl")
    res["html_pages"] = flog["html_200"]
    res["pages_per_s"] = res["html_pages"] / res["wall_s"] if res["wall_s"] > 0 else 0.0
    s = res["summary"] or {}
    try:
        res["own_pages_per_s"] = float(s["pages_per_s"]) if "pages_per_s" in s else \
            float(s["pages_fetched"]) / float(s["seconds"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        res["own_pages_per_s"] = None
    res["ok"] = res["rc"] == 0 and not res["timed_out"] and flog["fetches"] > 0
    if not res["ok"]:
        res["stderr_tail"] = tail(os.path.join(run_dir, "stderr.txt"))
        log("worker %s FAILED (rc %s%s); stderr ends with:\n%s"
            % (strategy, res["rc"], ", timed out" if res["timed_out"] else "",
               res["stderr_tail"]))
    log("worker %s: %d HTML pages (%d fetches) in %.1f s: %.1f pages/s, peak %s MB"
        % (strategy, res["html_pages"], flog["fetches"], res["wall_s"], res["pages_per_s"],
           "%.0f" % res["peak_rss_mb"] if res["peak_rss_mb"] else "?"))
    return res


# ---------------------------------------------------------------- (b) wget2


def wget2_version():
    try:
        out = subprocess.run(["wget2", "--version"], capture_output=True, text=True).stdout
        m = re.search(r"Wget2 (\S+)", out)
        return m.group(1) if m else out.splitlines()[0]
    except (OSError, IndexError):
        return "?"


def wget2_command(port, threads, out_dir, seeds):
    return ["wget2",
            # nginx as the proxy: requests go to 127.0.0.1:PORT with the
            # absolute URL in the request line, nginx serves that URL's host.
            "--http-proxy=http://127.0.0.1:%d" % port,
            "--recursive", "--level=inf",
            "--span-hosts", "--domains=test",   # every *.test host, nothing else
            "--robots=on", "--wait=0", "--max-threads=%d" % threads,
            # Skip the endless session-id trap (/item.html?sid=... answers with
            # fresh ids): --filter-urls applies --reject-regex before the
            # download (without it wget2 fetches rejected HTML anyway).
            "--filter-urls", "--reject-regex=[?&]sid=",
            # <a>, <link> and frames only: not the tracking pixel's <img>.
            "--ignore-tags=img",
            "--tries=1", "--quiet", "--directory-prefix=" + out_dir] + seeds


def run_wget2(args, nginx, threads, seeds):
    run_dir = os.path.join(args.out_dir, "wget2-t%d" % threads)
    shutil.rmtree(run_dir, ignore_errors=True)
    os.makedirs(run_dir)
    mirror = os.path.join(run_dir, "mirror")
    cmd = wget2_command(nginx.port, threads, mirror, seeds)
    offset = nginx.offset()
    log("wget2 --recursive, %d threads" % threads)
    res = run_timed(cmd, run_dir, os.path.join(run_dir, "stdout.txt"),
                    os.path.join(run_dir, "stderr.txt"), args.timeout + 120)
    res["threads"] = threads
    res["command"] = " ".join(cmd[:-len(seeds)]) + " http://HOST/ ... (%d seeds)" % len(seeds)
    acc = access_stats(nginx.entries(offset), "wget2")
    res["access_log"] = acc
    res["html_pages"] = acc["html_200"]
    res["pages_per_s"] = res["html_pages"] / res["wall_s"] if res["wall_s"] > 0 else 0.0
    files = 0
    for _, _, names in os.walk(mirror):
        files += len(names)
    res["files_saved"] = files
    # wget2 exits 8 when some request got an error status (the 404s of the
    # unserved ad host); that is expected here.
    res["ok"] = res["rc"] in (0, 8) and not res["timed_out"] and acc["requests"] > 0
    if not res["ok"]:
        res["stderr_tail"] = tail(os.path.join(run_dir, "stderr.txt"))
        log("wget2 FAILED (rc %s): %s" % (res["rc"], res["stderr_tail"]))
    shutil.rmtree(mirror, ignore_errors=True)  # the web again, not needed
    log("wget2 %d threads: %d HTML pages (%d requests) in %.1f s: %.1f pages/s, peak %s MB"
        % (threads, res["html_pages"], acc["requests"], res["wall_s"], res["pages_per_s"],
           "%.0f" % res["peak_rss_mb"] if res["peak_rss_mb"] else "?"))
    return res


# ---------------------------------------------------------------- (c) gumbo


def url_to_file(url, sites):
    """The file nginx serves for a URL: root + path, index.html for folders."""
    parts = urllib.parse.urlsplit(url)
    root = sites.get((parts.hostname or "").lower())
    if root is None:
        return None
    path = urllib.parse.unquote(parts.path or "/")
    full = os.path.normpath(root + "/" + path.lstrip("/"))
    if not (full == root or full.startswith(root + os.sep)):
        return None
    if path.endswith("/") or os.path.isdir(full):
        full = os.path.join(full, "index.html")
    return full if os.path.isfile(full) else None


def run_gumbo(args, urls, sites, name):
    run_dir = os.path.join(args.out_dir, "gumbo-" + name)
    os.makedirs(run_dir, exist_ok=True)
    files, missing = [], []
    for u in urls:
        f = url_to_file(u, sites)
        (files if f else missing).append(f or u)
    list_path = os.path.join(run_dir, "pages.txt")
    with open(list_path, "w") as f:
        f.write("".join(p + "\n" for p in files))
    res = {"pages_listed": len(files), "urls_without_file": len(missing),
           "urls_without_file_examples": missing[:5], "threads": args.threads,
           "repeat": args.repeat, "list": list_path}
    if not files:
        res["error"] = "no pages"
        return res
    cmd = [args.gumbo_bench, "--threads", str(args.threads), "--repeat", str(args.repeat),
           "--list", list_path]
    log("gumbo alone and quark's pipeline on %d pages (%s's), %d threads, best of %d"
        % (len(files), name, args.threads, args.repeat))
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=7200)
    if proc.returncode != 0:
        res["error"] = "gumbo_parse_bench exited with %d: %s" % (
            proc.returncode, proc.stderr.strip()[-500:])
        return res
    res.update(json.loads(proc.stdout))
    res["command"] = " ".join(cmd)
    log("gumbo alone %.1f pages/s, pipeline %.1f pages/s (%d threads)"
        % (res["gumbo_pages_per_s"], res.get("pipeline_pages_per_s", 0), args.threads))
    return res


# ---------------------------------------------------------------- report


def git_revision(root, paths):
    """Short HEAD plus whether `paths` have changes not committed (read-only git)."""
    try:
        git = ["git", "--no-optional-locks"]
        rev = subprocess.run(git + ["rev-parse", "--short", "HEAD"], cwd=root,
                             capture_output=True, text=True, timeout=30).stdout.strip()
        if not rev:
            return "unknown"
        dirty = subprocess.run(git + ["diff", "--quiet", "HEAD", "--"] + paths, cwd=root,
                               capture_output=True, timeout=60).returncode != 0
        untracked = subprocess.run(git + ["ls-files", "--others", "--exclude-standard", "--"]
                                   + paths, cwd=root, capture_output=True, text=True,
                                   timeout=60).stdout.strip() != ""
        return rev + (" with uncommitted changes in %s" % ", ".join(p + "/" for p in paths)
                      if dirty or untracked else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def build_info(binary):
    """CMAKE_BUILD_TYPE and sanitizer options of the build tree a binary is in."""
    d = os.path.dirname(os.path.abspath(binary))
    for _ in range(4):
        cache = os.path.join(d, "CMakeCache.txt")
        if os.path.exists(cache):
            info = {}
            with open(cache) as f:
                for line in f:
                    m = re.match(r"(CMAKE_BUILD_TYPE|FCRAWL_SANITIZE|FCRAWL_FUZZ):\w+=(.*)", line)
                    if m:
                        info[m.group(1)] = m.group(2).strip()
            info["dir"] = d
            return info
        d = os.path.dirname(d)
    return {}


def fmt(x, spec="%.1f", none="n/a"):
    return none if x is None else spec % x


def mb(x):
    return fmt(x, "%.0f")


def busy(run):
    """CPU seconds per wall second: how many cores the process kept busy."""
    if run.get("cpu_s") is None or not run.get("wall_s"):
        return "n/a"
    return "%.2f" % (run["cpu_s"] / run["wall_s"])


def kinds_text(kinds):
    return ", ".join("%s %d" % (k, v) for k, v in kinds.items()) or "none"


def render(r):
    lines = []
    add = lines.append
    add(BEGIN)
    add(TITLE)
    add("")
    add("Command (from the project root): `%s`" % r["command"])
    add("")
    m = r["machine"]
    add("- Date: %s" % r["date"])
    add("- Machine: %d cores, %s; load average at start %s, at the end %s (the machine is "
        "shared, so timings carry noise)" % (m["nproc"], m["model"], m["loadavg_at_start"],
                                             r["loadavg_at_end"]))
    b = r["worker_build"]
    gb = r["gumbo_bench_build"]
    add("- Code: %s; worker `%s` (%s build%s); `%s` (%s build)" % (
        r["revision"], r["worker_rel"], b.get("CMAKE_BUILD_TYPE", "?"),
        ", sanitizers ON" if b.get("FCRAWL_SANITIZE") == "ON" else "",
        r["gumbo_bench_rel"], gb.get("CMAKE_BUILD_TYPE", "?")))
    add("- Peers: wget2 %s (Debian), nginx %s, gumbo %s" % (r["wget2_version"],
                                                             r["nginx_version"],
                                                             r["gumbo_version"]))
    w = r["web"]
    add("- Web: synthetic, `--pages %d --hosts %d --seed %d --calendar-months %d`: %d sites "
        "(ads.test included), %d files, %d HTML files, %.0f MB; seeds: the %d hosts' home "
        "pages; generated in %.0f s%s" % (
            w["pages"], w["hosts"], w["seed"], w["calendar_months"], w["sites"], w["files"],
            w["html_files"], w["bytes"] / 1e6, len(r["seeds"]), w["generate_s"],
            " (reused)" if w["reused"] else ""))
    add("- Run time of the whole benchmark: %.0f s" % r["elapsed_s"])
    add("")
    add("| run | HTML pages | requests | wall s | pages/s | own pages/s | peak MB | CPU s "
        "| cores busy | ÷ gumbo alone | ÷ wget2 |")
    add("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    best_wget = r["best_wget2_pages_per_s"]
    for w_ in r["workers"]:
        g = r["gumbo"].get(w_["strategy"], {})
        gp = g.get("gumbo_pages_per_s")
        add("| fcrawl worker, %s%s | %d | %d | %.1f | %.1f | %s | %s | %s | %s | %s | %s |" % (
            w_["strategy"], "" if w_["ok"] else " (FAILED: rc %s%s)" % (
                w_["rc"], ", timed out" if w_["timed_out"] else ""),
            w_["html_pages"], w_["fetch_log"]["fetches"], w_["wall_s"], w_["pages_per_s"],
            fmt(w_["own_pages_per_s"]), mb(w_["peak_rss_mb"]), fmt(w_["cpu_s"]),
            busy(w_),
            "%.0f %%" % (100 * w_["pages_per_s"] / gp) if gp else "n/a",
            "%.2f" % (w_["pages_per_s"] / best_wget) if best_wget else "n/a"))
    for wg in r["wget2"]:
        add("| wget2 --recursive, %d threads%s | %d | %d | %.1f | %.1f | – | %s | %s | %s | – "
            "| – |" % (wg["threads"], "" if wg["ok"] else " (FAILED: rc %s)" % wg["rc"],
                       wg["html_pages"], wg["access_log"]["requests"], wg["wall_s"],
                       wg["pages_per_s"], mb(wg["peak_rss_mb"]), fmt(wg["cpu_s"]), busy(wg)))
    for name, g in r["gumbo"].items():
        if "error" in g:
            add("| gumbo alone (%s's pages) | %d | – | n/a | n/a (%s) | – | – | – | – | – | – |"
                % (name, g.get("pages_listed", 0), g["error"]))
            continue
        add("| gumbo parse alone, %d threads (%s's pages) | %d | – | %.2f | %.1f | – | – | – "
            "| – | – | %s |" % (g["threads"], name, g["pages"], g["gumbo_s"], g["gumbo_pages_per_s"],
                            "%.2f" % (g["gumbo_pages_per_s"] / best_wget) if best_wget else "n/a"))
        if "pipeline_pages_per_s" in g:
            add("| quark pipeline alone, %d threads (%s's pages) | %d | – | %.2f | %.1f | – | – "
                "| – | – | %.0f %% | – |" % (g["threads"], name, g["pages"], g["pipeline_s"],
                                        g["pipeline_pages_per_s"],
                                        100 * g["pipeline_pages_per_s"] / g["gumbo_pages_per_s"]))
    add("")
    add("### Targets")
    add("")
    add("| target | measured | met |")
    add("|---|---|---|")
    for t in r["targets"]:
        add("| %s | %s | %s |" % (t["target"], t["measured"], t["verdict"]))
    add("")
    add("### What each run fetched")
    add("")
    add("HTML pages answered 200, by kind (from the worker's fetch_log.jsonl; for wget2 from "
        "nginx's access log); then every request by status (nginx's access log).")
    add("")
    for w_ in r["workers"]:
        a = w_["access_log"]
        add("- worker %s: %s. Requests: %s; %d to unserved hosts; %d to /private/; "
            "deepest page %d clicks from a seed. Summary line: `%s`." % (
                w_["strategy"], kinds_text(w_["fetch_log"]["html_200_kinds"]),
                kinds_text(a["by_status"]), a["requests_to_unserved_hosts"],
                a["private_requests"], w_["fetch_log"]["max_depth"],
                json.dumps(w_["summary"], separators=(",", ":")) if w_["summary"]
                else "none"))
    for wg in r["wget2"]:
        a = wg["access_log"]
        add("- wget2 %d threads: %s (%d distinct URLs). Requests: %s; %d to unserved hosts; "
            "%d to /private/." % (wg["threads"], kinds_text(a["html_200_kinds"]),
                                  a["html_200_distinct"], kinds_text(a["by_status"]),
                                  a["requests_to_unserved_hosts"], a["private_requests"]))
    if r["notes"]:
        add("")
        add("### Problems")
        add("")
        for n in r["notes"]:
            add("- " + n)
    add("")
    add("### Method")
    add("")
    for para in r["method"]:
        add("- " + para)
    add(END)
    return "\n".join(lines) + "\n"


def wget2_host_check(r):
    """What nginx's access log says about the hosts wget2's requests named."""
    runs = [x for x in r["wget2"] if x["access_log"]["requests"]]
    if not runs:
        return "no wget2 request reached nginx"
    a = runs[0]["access_log"]
    served = len(SERVED_HOSTS)
    text = ("checked in the access log: wget2's requests named %d of the %d served hosts "
            "and got %d HTML pages from them"
            % (a["served_hosts_requested"], served, a["html_200"]))
    if a["requests_to_unserved_hosts"]:
        text += ("; %d requests named hosts nginx does not serve (%s), answered 404 by the "
                 "default server" % (a["requests_to_unserved_hosts"],
                                     ", ".join(a["unserved_hosts"])))
    return text


def method_notes(r, args):
    seeds_n = len(r["seeds"])
    return [
        "One nginx (`tests/testweb/nginx.sh`, 2 worker processes, one virtual host per site, "
        "loopback) serves the web for all runs; the files are in the page cache (just "
        "generated or read). nginx runs on the same %d cores as the crawler, so (a) and (b) "
        "share the cores with the server while (c) has them alone." % r["machine"]["nproc"],
        "(a) fcrawl worker: `worker crawl --config FILE` (the configs are in "
        "`bench/out/crawl/worker-<strategy>/config.textproto`): seeds = the %d hosts' home "
        "pages; strategy bfs (and ssaps), both with the topic %s (the first %d words of that "
        "synthetic topic), so pages are segmented and scored; budget max_pages = %d (%s), "
        "max_pages_per_host the same; `politeness { "
        "per_host_delay_ms: 0 per_ip_delay_ms: 0 obey_robots: true max_crawl_delay_ms: 0 }` "
        "(the Crawl-delay: 1 of some hosts' robots.txt capped to 0); `fetch { max_in_flight: "
        "%d }`; scope = the served hosts plus the unserved ad host; one `resolve` entry per "
        "host pointing at nginx; `allow_private_addresses: true`; parse threads: the "
        "worker's default (one per core). The crawl writes its RocksDB, WARC files, "
        "fetch_log.jsonl and pages.jsonl into `bench/out/crawl/worker-<strategy>/crawl/`. "
        "The worker fetches at most one URL of a host at a time (its politeness rule even "
        "with the delays at 0), so its concurrency is at most the number of hosts with "
        "queued URLs; it removes session-id query parameters, so the session-id trap "
        "collapses to one URL per page." % (
            seeds_n, TOPIC, TOPIC_KEYWORDS, r["budget"],
            "given with --budget" if args.budget else
            "twice the web's files, more than there is to fetch, so that the crawl ends when "
            "its frontier is empty, as wget2's does; the stop reason is in the summary lines "
            "above", args.in_flight),
        "(b) wget2: `%s http://HOST/ ...` with the same seeds. wget2 1.99 cannot map host "
        "names to an address, so it is pointed at nginx as an HTTP proxy: it sends "
        "`GET http://host/path HTTP/1.1` to 127.0.0.1:PORT and nginx picks the virtual host "
        "from that absolute URL (%s). wget2 obeys robots.txt (not Crawl-delay), "
        "waits nothing, follows links to every `.test` host, skips the endless session-id "
        "URLs (`--filter-urls --reject-regex`; without them it never finishes) and the "
        "tracking pixel's `<img>`; it fetches the media files, which the pages link to. "
        "It saves every file under a temporary folder (deleted afterwards). It does not "
        "parse a DOM: it scans the HTML for links." % (" ".join(r["wget2_command_example"]),
                                                      wget2_host_check(r)),
        "(c) gumbo alone: the HTML pages the worker fetched (every fetch_log.jsonl line with "
        "status 200 and a text/html content type, its URL mapped to the file nginx serves: "
        "`sites/<host>/<path>`, `index.html` for folders; a URL fetched twice counts twice) "
        "are read into memory and decoded to UTF-8 first, then `bench/gumbo_parse_bench "
        "--threads %d --repeat %d` times `gumbo_parse_with_options` + `gumbo_destroy_output` "
        "over all of them on %d threads (each takes the next page), best of %d; the same for "
        "quark's whole pipeline (`AnalyzePage`: decode, gumbo, tree conversion, "
        "segmentation, classification). This is the bound that HTML parsing alone puts on "
        "a crawler that builds a DOM on this machine." % (
            args.threads, args.repeat, args.threads, args.repeat),
        "pages/s = HTML pages answered 200 / wall time of the process (start to exit, "
        "measured by the script; the worker's start-up, RocksDB open and close included). "
        "own pages/s = the worker's summary line: its pages_fetched (every fetch but "
        "robots.txt, so 404s and media count too) / its seconds (the crawl loop only). "
        "Peak MB = maximum "
        "resident set size (GNU time `%M`); CPU s = user + system time of the process; "
        "cores busy = CPU s / wall s (nginx's CPU not included). "
        "÷ gumbo alone = worker pages/s ÷ gumbo-alone pages/s on that worker run's pages; "
        "÷ wget2 = ÷ the fastest wget2 run's pages/s.",
        "Raw results: `bench/out/crawl/results.json`; the worker's outputs and logs: "
        "`bench/out/crawl/worker-<strategy>/` (not committed).",
    ]


def targets(r):
    out = []
    best = r["best_wget2_pages_per_s"]
    for w in r["workers"]:
        g = r["gumbo"].get(w["strategy"], {})
        gp = g.get("gumbo_pages_per_s")
        if not w["ok"] or not gp:
            out.append({"target": "worker ≥ %.0f %% of gumbo alone (%s)"
                        % (100 * TARGET_GUMBO_SHARE, w["strategy"]),
                        "measured": "n/a", "met": False,
                        "verdict": "not measured (%s)" % ("worker failed" if not w["ok"]
                                                          else g.get("error", "no gumbo run"))})
            continue
        share = w["pages_per_s"] / gp
        met = share >= TARGET_GUMBO_SHARE
        out.append({
            "target": "worker ≥ %.0f %% of gumbo alone (%s)"
                      % (100 * TARGET_GUMBO_SHARE, w["strategy"]),
            "measured": "%.0f %% (%.1f vs %.1f pages/s, %d threads)"
                        % (100 * share, w["pages_per_s"], gp, g["threads"]),
            "met": met,
            "verdict": "yes" if met else "no: %.0f %% short" % (100 * (TARGET_GUMBO_SHARE - share))})
        if g.get("pipeline_pages_per_s"):
            out.append({
                "target": "for reference: quark's pipeline alone (%s's pages)" % w["strategy"],
                "measured": "%.0f %% of gumbo alone (%.1f vs %.1f pages/s, %d threads): the "
                            "most a crawler that segments every page with quark can reach"
                            % (100 * g["pipeline_pages_per_s"] / gp, g["pipeline_pages_per_s"],
                               gp, g["threads"]),
                "met": None, "verdict": "–"})
        if best:
            out.append({
                "target": "ratio to wget2 (reported, %s)" % w["strategy"],
                "measured": "%.2f× (%.1f vs %.1f pages/s)" % (w["pages_per_s"] / best,
                                                              w["pages_per_s"], best),
                "met": None, "verdict": "–"})
    return out


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--out-dir", required=True, help="bench/out/crawl")
    ap.add_argument("--worker", required=True)
    ap.add_argument("--gumbo-bench", required=True)
    ap.add_argument("--command", default="bench/crawl.sh")
    ap.add_argument("--docs", default="", help="markdown file to update ('' = none)")
    ap.add_argument("--t0", type=float, default=None)
    ap.add_argument("--quick", action="store_true",
                    help="a small web (3000 pages, 20 hosts) unless --pages/--hosts are given")
    ap.add_argument("--pages", type=int, default=None, help="article pages (default 20000)")
    ap.add_argument("--hosts", type=int, default=None, help="hosts (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calendar-months", type=int, default=0,
                    help="months of the calendar trap on every 10th host (default 0: none)")
    ap.add_argument("--web-dir", default="", help="where the web goes (default under --out-dir)")
    ap.add_argument("--strategies", default="bfs,ssaps")
    ap.add_argument("--in-flight", type=int, default=64, help="the worker's max_in_flight")
    ap.add_argument("--wget2-threads", default="",
                    help="comma-separated wget2 --max-threads values (default: 16 and "
                         "the worker's max_in_flight)")
    ap.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)),
                    help="threads for gumbo alone (default: the cores this process may use)")
    ap.add_argument("--repeat", type=int, default=3, help="gumbo runs, the best is kept")
    ap.add_argument("--budget", type=int, default=0,
                    help="the worker's max_pages (default: twice the web's number of files, "
                         "more than is reachable)")
    ap.add_argument("--timeout", type=int, default=0,
                    help="seconds per crawl (default 120 + budget / 10)")
    args = ap.parse_args()
    if args.pages is None:
        args.pages = 3000 if args.quick else 20000
    if args.hosts is None:
        args.hosts = 20 if args.quick else 60
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    wget_threads = sorted({int(x) for x in args.wget2_threads.split(",") if x.strip()}
                          or {16, args.in_flight})
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    args.out_dir = os.path.abspath(args.out_dir)
    os.makedirs(args.out_dir, exist_ok=True)
    generate_py = os.path.join(args.root, "tests", "testweb", "generate.py")
    nginx_sh = os.path.join(args.root, "tests", "testweb", "nginx.sh")
    for tool in (args.worker, args.gumbo_bench):
        if not os.access(tool, os.X_OK):
            raise SystemExit("crawl_bench: %s is missing" % tool)

    r = {
        "command": args.command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": extraction.machine_info(),
        "revision": git_revision(args.root, ["worker", "protocol", "storage", "core", "quark",
                                             "proto"]),
        "worker": args.worker,
        "worker_rel": os.path.relpath(args.worker, args.root),
        "worker_build": build_info(args.worker),
        "gumbo_bench": args.gumbo_bench,
        "gumbo_bench_rel": os.path.relpath(args.gumbo_bench, args.root),
        "gumbo_bench_build": build_info(args.gumbo_bench),
        "wget2_version": wget2_version(),
        "nginx_version": subprocess.run(["/usr/sbin/nginx", "-v"], capture_output=True,
                                        text=True).stderr.strip().split("/")[-1],
        "gumbo_version": subprocess.run(["pkg-config", "--modversion", "gumbo"],
                                        capture_output=True, text=True).stdout.strip() or "?",
        "options": {k: v for k, v in vars(args).items() if k not in ("t0",)},
        "workers": [], "wget2": [], "gumbo": {}, "notes": [],
    }
    if r["worker_build"].get("FCRAWL_SANITIZE") == "ON" or \
            r["worker_build"].get("FCRAWL_FUZZ") == "ON":
        r["notes"].append("the worker was built with sanitizers: its figures are not "
                          "representative")

    web, manifest, gen_s = ensure_web(args, generate_py)
    sites = read_sites(web)
    SERVED_HOSTS.update(sites)
    html_files = count_html_files(sites)
    r["web"] = dict(manifest, dir=web, html_files=html_files, generate_s=gen_s,
                    reused=gen_s == 0.0)
    seeds = ["http://%s/" % h for h in sorted(sites) if h != AD_HOST]
    r["seeds"] = seeds
    # Enough to fetch everything reachable: the web has more URLs than files
    # (ads.test's pages under one ?ref= per site, links to the unserved ad
    # host, media), so the crawl ends with an empty frontier, as wget2's does.
    budget = args.budget or 2 * int(manifest.get("files", html_files))
    r["budget"] = budget
    if not args.timeout:
        args.timeout = 120 + budget // 10
    keywords = topic_keywords(generate_py)
    r["topic_keywords"] = keywords
    hosts = sorted(sites) + [UNSERVED_HOSTS[0]]

    nginx = Nginx(nginx_sh, web, os.path.join(args.out_dir, "serving"))
    try:
        port = nginx.start()
        log("nginx serves %s on port %d" % (web, port))
        # (a)
        for strategy in strategies:
            r["workers"].append(run_worker(args, nginx, strategy, seeds, keywords, budget,
                                           hosts))
        # (b)
        for t in wget_threads:
            r["wget2"].append(run_wget2(args, nginx, t, seeds))
        r["wget2_command_example"] = wget2_command(port, wget_threads[-1], "TMPDIR", [])
    finally:
        nginx.stop()
        log("nginx stopped")
    r["wget2_command_example"] = [
        "--http-proxy=http://127.0.0.1:PORT" if a.startswith("--http-proxy=") else
        "--max-threads=N" if a.startswith("--max-threads=") else a
        for a in r["wget2_command_example"]]

    # (c) on each worker run's pages, without the server running.
    for w in r["workers"]:
        urls = w.pop("html_urls")
        if not urls:
            r["gumbo"][w["strategy"]] = {"error": "the worker fetched no HTML page",
                                         "pages_listed": 0}
            continue
        r["gumbo"][w["strategy"]] = run_gumbo(args, urls, sites, w["strategy"])

    ok_wget = [x["pages_per_s"] for x in r["wget2"] if x["ok"]]
    r["best_wget2_pages_per_s"] = max(ok_wget) if ok_wget else None
    for w in r["workers"]:
        if not w["ok"]:
            r["notes"].append("worker %s: exit status %s%s; the last lines of its stderr are "
                              "in bench/out/crawl/results.json" % (
                                  w["strategy"], w["rc"], ", killed after the time limit"
                                  if w["timed_out"] else ""))
        if w["summary"] is None:
            r["notes"].append("worker %s: no JSON summary line on stdout" % w["strategy"])
        logged, served = w["fetch_log"]["html_200"], w["access_log"]["html_200"]
        if abs(logged - served) > max(2, 0.01 * served):
            r["notes"].append("worker %s: fetch_log.jsonl has %d HTML pages with status 200, "
                              "nginx's access log %d GETs of HTML paths answered 200"
                              % (w["strategy"], logged, served))
        if w["fetch_log"].get("bad_lines"):
            r["notes"].append("worker %s: %d lines of fetch_log.jsonl are not JSON"
                              % (w["strategy"], w["fetch_log"]["bad_lines"]))
    for x in r["wget2"]:
        if not x["ok"]:
            r["notes"].append("wget2 %d threads: exit status %s" % (x["threads"], x["rc"]))
    for name, g in r["gumbo"].items():
        if g.get("urls_without_file"):
            r["notes"].append("gumbo (%s's pages): %d fetched URLs map to no file on disk, "
                              "left out" % (name, g["urls_without_file"]))
    r["targets"] = targets(r)
    r["method"] = method_notes(r, args)
    try:
        with open("/proc/loadavg") as f:
            r["loadavg_at_end"] = " ".join(f.read().split()[:3])
    except OSError:
        r["loadavg_at_end"] = "unknown"
    r["elapsed_s"] = (time.time() - args.t0 if args.t0 is not None
                      else time.perf_counter() - started)
    with open(os.path.join(args.out_dir, "results.json"), "w") as f:
        json.dump(r, f, indent=1)
    section = render(r)
    if args.docs:
        if all(w["ok"] for w in r["workers"]) and r["workers"]:
            extraction.write_section(args.docs, BEGIN, END, section,
                                     extraction.DOC_HEADER)
            log("wrote %s" % os.path.relpath(args.docs, args.root))
        else:
            log("a worker run failed: %s left as it was" % os.path.relpath(args.docs, args.root))
    print(section)
    return 0 if all(w["ok"] for w in r["workers"]) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (Interrupted, KeyboardInterrupt) as e:
        log("interrupted (%s)" % (e or "Ctrl-C"))
        sys.exit(130)
