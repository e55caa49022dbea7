# Scripts/test's stages: each runs with its output shown and kept, its passed and failed tests
# counted from what its runner printed, and the run ends with one line over all of them,
# `N passed, N failed`, so CI reads the whole run, not the last runner. Sourced, not run.
#
# A stage's count is its runner's own closing line: the last `N passed, N failed` (relua test,
# the Python tests, stress, sanitize, fuzz replay), else XCTest's last `Executed N tests, with M
# failures`; a stage with neither counts as one check, passed or failed by its exit code. A stage
# that exits non-zero is failed even if its count says otherwise.

relua_stages_passed=0
relua_stages_failed=0
relua_stages_failing=()

# relua_stage TITLE COMMAND…: runs COMMAND, counts it, and goes on whatever its outcome.
relua_stage() {
  local title="$1"
  shift
  echo "== $title"
  local log status counts
  log=$(mktemp)
  set +e
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  set -e
  counts=$(awk '
    match($0, /(^|: )[0-9]+ passed, [0-9]+ failed/) {
      line = substr($0, RSTART, RLENGTH); sub(/^: /, "", line)
      split(line, w, /[ ,]+/); p = w[1]; f = w[3]; plain = 1
    }
    !plain && match($0, /Executed [0-9]+ tests?, with [0-9]+ failures?/) {
      split(substr($0, RSTART, RLENGTH), w, / /); xp = w[2] - w[5]; xf = w[5]; xc = 1
    }
    END {
      if (plain) print p, f
      else if (xc) print xp, xf
      else print "none"
    }' "$log")
  rm -f "$log"
  local passed failed
  if [[ "$counts" == none ]]; then
    if ((status == 0)); then passed=1; failed=0; else passed=0; failed=1; fi
  else
    read -r passed failed <<<"$counts"
    ((status == 0 || failed > 0)) || failed=1
  fi
  relua_stages_passed=$((relua_stages_passed + passed))
  relua_stages_failed=$((relua_stages_failed + failed))
  if ((status != 0 || failed > 0)); then
    relua_stages_failing+=("$title")
    echo "== FAILED: $title (exit $status)"
  fi
  return 0
}

# relua_stage_required TITLE COMMAND…: a stage the rest needs (a build): when it fails, the run
# ends here, with its summary.
relua_stage_required() {
  local before=$relua_stages_failed
  relua_stage "$@"
  if ((relua_stages_failed > before)); then
    relua_stages_summary
  fi
}

# The closing line over every stage; exits 1 when any failed.
relua_stages_summary() {
  echo
  if ((${#relua_stages_failing[@]} > 0)); then
    echo "Failed stages:"
    printf '  %s\n' "${relua_stages_failing[@]}"
  fi
  echo "$relua_stages_passed passed, $relua_stages_failed failed"
  ((relua_stages_failed == 0 && ${#relua_stages_failing[@]} == 0)) || exit 1
  exit 0
}
