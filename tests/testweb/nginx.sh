#!/bin/bash
# Serve a generated test web with nginx on loopback, one virtual host per site.
#
#   nginx.sh start DIR [PORT]   prints the port (only the port) and exits 0
#   nginx.sh stop DIR           stops the nginx started for DIR (no-op if none)
#   nginx.sh status DIR         prints the port if running, exits 1 if not
#
# DIR is the output folder of generate.py (it holds sites.tsv). Everything
# nginx writes goes to DIR/.nginx: nginx.conf, nginx.pid, port, access.log
# (one JSON object a line), error.log and the temp folders. The server listens
# on 127.0.0.1 only; a free port is picked when none is given. A host that is
# not in sites.tsv gets 404 from a default server.
set -euo pipefail

NGINX=${NGINX:-/usr/sbin/nginx}
PYTHON=${PYTHON:-/usr/bin/python3}

die() { echo "nginx.sh: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: nginx.sh start DIR [PORT] | stop DIR | status DIR"
cmd=$1
[ -d "$2" ] || die "no such folder: $2"
dir=$(cd "$2" && pwd -P)
state="$dir/.nginx"
conf="$state/nginx.conf"
pidfile="$state/nginx.pid"
portfile="$state/port"

# Prints the master's pid if an nginx started with our config is running:
# the one in the pid file, else (pid file lost or overwritten) a master
# process whose command line names our config.
running_pid() {
  local pid p
  if [ -f "$pidfile" ]; then
    pid=$(tr -dc '0-9' < "$pidfile")
    if [ -n "$pid" ] && is_ours "$pid"; then echo "$pid"; return 0; fi
  fi
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    if is_ours "$pid"; then echo "$pid"; return 0; fi
  done
  return 1
}

# Whether a process exists and is not a zombie (an init that does not reap
# would leave the quit master as one).
alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local st
  st=$(sed -n 's/^[0-9]* (.*) \([A-Z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
  [ -n "$st" ] && [ "$st" != Z ]
}

# A recycled pid must not be taken for ours: check the command line.
is_ours() {
  alive "$1" || return 1
  tr '\0' ' ' < "/proc/$1/cmdline" 2>/dev/null | grep -qF -- "nginx: master process $NGINX -p $state/ -c $conf " || return 1
}

# The port in our config.
conf_port() {
  sed -n 's/^ *listen 127\.0\.0\.1:\([0-9]*\) default_server;/\1/p' "$conf" 2>/dev/null | head -n1
}

free_port() {
  "$PYTHON" -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

# Waits until the server answers an HTTP request (any status) on $1.
wait_ready() {
  "$PYTHON" - "$1" <<'EOF'
import http.client, sys, time
port = int(sys.argv[1])
deadline = time.time() + 15
while time.time() < deadline:
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/robots.txt", headers={"Host": "ready.check.invalid"})
        c.getresponse().read()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
EOF
}

write_conf() {   # $1 = port, $2 = output file
  local port=$1 out=$2 user_line=""
  if [ "$(id -u)" = 0 ]; then
    # As root the master drops the workers to nobody when nobody can read the
    # sites; otherwise (e.g. a 0700 folder) the workers stay root.
    local first_root
    first_root=$(head -n1 "$dir/sites.tsv" | cut -f2)
    if runuser -u nobody -- test -r "$first_root/robots.txt" 2>/dev/null; then
      user_line="user nobody nogroup;"
    else
      user_line="user root root;"
    fi
  fi
  {
    cat <<EOF
# Written by tests/testweb/nginx.sh for $dir
$user_line
daemon on;
worker_processes 2;
pid "$pidfile";
error_log "$state/error.log" warn;
events { worker_connections 1024; }
http {
  types {
    text/html html htm;
    text/plain txt;
    text/css css;
    image/gif gif;
    audio/mpeg mp3;
    video/mp4 mp4;
    application/x-shockwave-flash swf;
  }
  default_type application/octet-stream;
  charset utf-8;
  gzip off;
  sendfile on;
  server_tokens off;
  keepalive_timeout 30;
  server_names_hash_bucket_size 128;
  server_names_hash_max_size 16384;
  client_body_temp_path "$state/tmp/body";
  proxy_temp_path "$state/tmp/proxy";
  fastcgi_temp_path "$state/tmp/fastcgi";
  uwsgi_temp_path "$state/tmp/uwsgi";
  scgi_temp_path "$state/tmp/scgi";
  log_format testweb escape=json
    '{"msec":\$msec,"host":"\$host","request_uri":"\$request_uri","status":\$status,'
    '"bytes":\$body_bytes_sent,"method":"\$request_method","ua":"\$http_user_agent",'
    '"remote":"\$remote_addr","request_time":\$request_time}';
  access_log "$state/access.log" testweb;

EOF
    # A web kind's own http-level settings (the mdn web's maps).
    if [ -f "$dir/nginx/http.conf" ]; then
      echo "  include \"$dir/nginx/http.conf\";"
    fi
    cat <<EOF

  # Hosts not in sites.tsv.
  server {
    listen 127.0.0.1:$port default_server;
    server_name _;
    return 404;
  }
EOF
    local host root
    while IFS=$'\t' read -r host root; do
      [ -n "$host" ] || continue
      # A web kind that serves a host its own way (the mdn web: paths
      # matched case-insensitively, redirects) gives its locations in
      # DIR/nginx/server-HOST.conf instead of the static ones below.
      if [ -f "$dir/nginx/server-$host.conf" ]; then
        cat <<EOF
  server {
    listen 127.0.0.1:$port;
    server_name $host;
    root "$root";
    include "$dir/nginx/server-$host.conf";
  }
EOF
        continue
      fi
      cat <<EOF
  server {
    listen 127.0.0.1:$port;
    server_name $host;
    root "$root";
    location / { try_files \$uri \$uri/index.html =404; }
    # Session-id trap: every response carries links with a fresh session id.
    location = /item.html { ssi on; try_files \$uri =404; }
    # Robots directives in headers (crawl_pages_test RobotsDirectivesTest): files
    # under these folders are served with an X-Robots-Tag.
    location /x-robots-noindex/ {
      add_header X-Robots-Tag "noindex" always;
      try_files \$uri =404;
    }
    location /x-robots-otherbot/ {
      add_header X-Robots-Tag "otherbot: noindex, nofollow" always;
      try_files \$uri =404;
    }
    # A canonical URL in a Link header (crawl_pages_test CanonicalTest).
    location /link-canonical/ {
      add_header Link '</d.html>; rel="canonical"' always;
      try_files \$uri =404;
    }
    # A redirect to the URL in ?to= (cluster_test RedirectTest).
    location = /goto { return 302 \$arg_to; }
    # Pages that answer every request in full (crawl_revisit_test RevisitTest): no
    # ETag, and If-Modified-Since ignored.
    location /no-validators/ {
      etag off;
      if_modified_since off;
      try_files \$uri =404;
    }
  }
EOF
    done < "$dir/sites.tsv"
    echo "}"
  } > "$out"
}

do_stop() {
  local pid
  if pid=$(running_pid); then
    local workers
    workers=$(pgrep -P "$pid" || true)
    # SIGQUIT is what `nginx -s quit` sends, but to the pid checked above
    # (`-s` would trust a pid file that may be stale).
    kill -QUIT "$pid" 2>/dev/null || true
    for _ in $(seq 100); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 30); do alive "$pid" || break; sleep 0.1; done
    fi
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    # Workers of a killed master would linger: end them by their ids.
    local w
    for w in $workers; do
      if [ -r "/proc/$w/cmdline" ] && tr '\0' ' ' < "/proc/$w/cmdline" | grep -q 'nginx: worker'; then
        kill -KILL "$w" 2>/dev/null || true
      fi
    done
  fi
  rm -f "$pidfile" "$portfile"
}

do_start() {
  local want=${1:-} pid
  [ -f "$dir/sites.tsv" ] || die "$dir/sites.tsv not found (run generate.py first)"
  [ -z "$want" ] || [[ "$want" =~ ^[0-9]+$ ]] || die "bad port: $want"
  mkdir -p "$state/tmp"
  if pid=$(running_pid); then
    echo "$pid" > "$pidfile"
    local cur
    cur=$(cat "$portfile" 2>/dev/null || conf_port)
    if [ -n "$cur" ] && { [ -z "$want" ] || [ "$want" = "$cur" ]; }; then
      # Already serving DIR: reload if the sites changed, keep the port.
      write_conf "$cur" "$conf.new"
      if cmp -s "$conf.new" "$conf"; then
        rm -f "$conf.new"
      else
        mv "$conf.new" "$conf"
        "$NGINX" -p "$state/" -c "$conf" -e "$state/error.log" -t -q || die "bad config: $conf"
        kill -HUP "$pid"       # what `nginx -s reload` sends
        sleep 0.5
      fi
      wait_ready "$cur" || die "nginx does not answer on port $cur"
      echo "$cur"
      return 0
    fi
    do_stop
  fi
  rm -f "$pidfile" "$portfile"      # stale ones
  local attempt port
  for attempt in 1 2 3 4 5; do
    port=${want:-$(free_port)}
    write_conf "$port" "$conf"
    if "$NGINX" -p "$state/" -c "$conf" -e "$state/error.log" 2>"$state/start.err"; then
      for _ in $(seq 50); do [ -s "$pidfile" ] && break; sleep 0.05; done
      if wait_ready "$port"; then
        echo "$port" > "$portfile"
        echo "$port"
        return 0
      fi
      do_stop
      die "nginx started but does not answer on port $port (see $state/error.log)"
    fi
    # A port picked here may have been taken meanwhile: try another one.
    if [ -n "$want" ] || ! grep -q 'Address already in use' "$state/start.err"; then
      cat "$state/start.err" >&2
      die "nginx failed to start (see $state/error.log)"
    fi
  done
  die "no free port found"
}

case "$cmd" in
  start) do_start "${3:-}" ;;
  stop) do_stop ;;
  status)
    if running_pid > /dev/null; then cat "$portfile" 2>/dev/null || conf_port; else exit 1; fi ;;
  *) die "unknown command: $cmd" ;;
esac
