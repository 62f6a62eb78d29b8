# The oracle's driver, run by bash inside the sandbox: bash driver.sh WORKSPACE LINES TIMEOUT NPROC
#
# Reads NUL-separated pairs (a shell, then a line) and runs each line in a fresh `SHELL -c` with a hard timeout,
# in the workspace, with stdin closed and its output in files; then kills whatever the line left running
# (`kill -9 -1` in the pid namespace), lists every writable place and, when the listing differs from the first
# one, keeps the listing for the host to compare and restores the world from the template. Lines never see each other's effects, so a
# finding replays alone.
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
ulimit -f 8192
ulimit -u "$4" 2> /dev/null
mapfile -d '' -t LIST < "$R/find-args"
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
  /usr/bin/timeout -s KILL "$3" "$sh" -c "$line" < /dev/null > "$OUT/$i.out" 2> "$OUT/$i.err"
  rc=$?
  kill -9 -1 2> /dev/null
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
