# Shared by the benchmark scripts that serve a test web with nginx
# (crawl.sh, strategies.sh); sourced, not run.
#
# nginx is started by the Python driver, which stops it itself (also when it
# gets SIGTERM); should the driver die without doing so, the EXIT trap does
# (the driver writes the web folder it serves into $SERVING while nginx
# runs). On SIGINT or SIGTERM the script sends SIGTERM to the driver (whose
# pid is in $PY_PID) and waits for it.
#
# usage: SERVING=FILE; PY_PID=""; source bench/lib.sh; bench_traps
bench_cleanup() {
  if [[ -f "$SERVING" ]]; then
    bash "$ROOT/tests/testweb/nginx.sh" stop "$(cat "$SERVING")" || true
    rm -f "$SERVING"
  fi
}
bench_interrupted() {
  if [[ -n "$PY_PID" ]]; then
    kill -TERM "$PY_PID" 2>/dev/null || true
    wait "$PY_PID" 2>/dev/null || true
  fi
  exit "$1"
}
bench_traps() {
  rm -f "$SERVING"
  trap bench_cleanup EXIT
  trap 'bench_interrupted 130' INT
  trap 'bench_interrupted 143' TERM
}
