# Sourced by the GPU run scripts: `run NAME COMMAND...` runs a step, logs it
# to $out/NAME.log and sets status=1 when it fails.
status=0
run() {
  local name=$1; shift
  echo "== $name"
  "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  echo "== $name: exit $rc"
  [[ $rc == 0 ]] || status=1
}
