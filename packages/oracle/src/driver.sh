# The oracle's driver, run by bash inside the sandbox: bash driver.sh WORKSPACE LINES TIMEOUT NPROC PORT
#
# Reads NUL-separated pairs (a shell, then a line) and runs each line in a fresh `SHELL -c` with a hard timeout,
# in the workspace, with stdin closed and its output in files; then kills whatever the line left running
# (`kill -9 -1` in the pid namespace), lists every writable place and, when the listing differs from the first
# one, keeps the listing for the host to compare and restores the world from the template. Lines never see each other's effects, so a
# finding replays alone. Before each line a listener (the sink) starts on the sandbox's loopback at PORT and
# appends what every connection sends to out/net; after the line (which kills it) that becomes out/<i>.net.
#
# Layout under /run/oracle (read-only for lines, except out/): template/home (copied to /home), shims/ (first
# on PATH), find-args (the listing's find arguments, NUL-separated), the line files, and out/: base (the first
# listing), <i>.out, <i>.err, <i>.snap (a differing listing), status ("<i> <exit>" per line) and exec.log
# ("<i> <program>" for every program a shim saw start; current holds the running line's index).
set -u
shopt -s nullglob dotglob
R=/run/oracle
OUT=$R/out
W="$1"
PORT="$5"
ulimit -f 8192
ulimit -u "$4" 2> /dev/null
mapfile -d '' -t LIST < "$R/find-args"
# a descriptor that never has data: `read -t` on it waits without starting a program
exec 9<> <(:)
# the sink's socket as /proc/net/tcp shows it listening: 127.0.0.1:PORT in hex, state 0A
printf -v SOCKET '0100007F:%04X 00000000:0000 0A' "$PORT"
listen() {
  /usr/bin/socat -u -T 1 "TCP-LISTEN:$PORT,bind=127.0.0.1,reuseaddr,fork" "OPEN:$OUT/net,creat,append" 2> /dev/null &
  local n row
  for ((n = 0; n < 500; n++)); do
    while read -r row; do [[ $row == *": $SOCKET "* ]] && return 0; done < /proc/net/tcp
    read -r -t 0.01 -u 9
  done
  echo "the sink did not start listening" >&2
  exit 91
}
restore() {
  local f
  for f in /home/* /tmp/* /dev/shm/* /run/*; do
    [[ $f == "$R" ]] || /usr/bin/rm -rf -- "$f"
  done
  /usr/bin/cp -a "$R/template/home/." /home/
  cd "$W" || exit 90
}
restore
base=$(/usr/bin/find "${LIST[@]}")
printf '%s\n' "$base" > "$OUT/base"
i=0
while IFS= read -r -d '' sh && IFS= read -r -d '' line; do
  printf '%s\n' "$i" > "$OUT/current"
  listen
  /usr/bin/timeout -s KILL "$3" "$sh" -c "$line" < /dev/null > "$OUT/$i.out" 2> "$OUT/$i.err" 9<&-
  rc=$?
  kill -9 -1 2> /dev/null
  [[ -e $OUT/net ]] && /usr/bin/mv -f "$OUT/net" "$OUT/$i.net"
  now=$(/usr/bin/find "${LIST[@]}")
  if [[ $now != "$base" ]]; then
    printf '%s\n' "$now" > "$OUT/$i.snap"
    restore
  fi
  cd "$W" || exit 90
  printf '%s %s\n' "$i" "$rc" >> "$OUT/status"
  i=$((i + 1))
done < "$2"
printf 'done %s\n' "$i" >> "$OUT/status"
