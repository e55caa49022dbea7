#!/usr/bin/env python3
"""luassert's own spec suite (spec/, vendored unchanged from lunarmodules/luassert 1.9.0) run with
`relua test --trusted` against relua's built-in luassert, each spec reported as it went.

A spec that fails is expected only when differences.txt names it (its file, a tab, its full name,
a tab, why relua differs: docs/DSL.md, "luassert's assertions"); any other failure, a listed spec
that passes (the list is stale) or a listed one that no longer exists fails the run.
A pending spec (busted's pending(), here the one needing the term.colors module) is skipped.
Ends with `N passed, N failed, N skipped` (an expected difference counts as passed).

Usage: test_luassert_specs.py RELUA_BINARY
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_differences():
    differences = {}
    with open(os.path.join(HERE, "differences.txt"), encoding="utf-8") as listing:
        for number, line in enumerate(listing, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3 or not parts[2].strip():
                sys.exit(f"differences.txt:{number}: expected FILE<TAB>NAME<TAB>REASON")
            differences[(parts[0], parts[1])] = parts[2]
    return differences


def run_specs(relua):
    # From the suite's root, as busted runs it (its .busted names spec/helper.lua, which does
    # nothing outside LuaJIT).
    result = subprocess.run(
        [relua, "test", "--trusted", "-o", "json", "spec"],
        cwd=HERE, capture_output=True, text=True, check=False)
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit("relua test wrote no JSON document")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    differences = read_differences()
    document = run_specs(os.path.abspath(sys.argv[1]))
    outcomes = []
    for kind in ("successes", "failures", "errors", "pendings"):
        for entry in document[kind]:
            name = entry.get("name") or "(the file)"
            outcomes.append((entry["file"], name, kind, entry.get("message", "")))
    passed = failed = skipped = 0
    seen = set()
    for file, name, kind, message in sorted(outcomes, key=lambda o: (o[0], o[1])):
        key = (file, name)
        seen.add(key)
        reason = differences.get(key)
        if kind == "pendings":
            skipped += 1
            print(f"SKIP {file}: {name}")
        elif kind == "successes" and reason is None:
            passed += 1
            print(f"PASS {file}: {name}")
        elif kind == "successes":
            failed += 1
            print(f"FAIL {file}: {name}\n  passes, but differences.txt expects it to fail: remove it there")
        elif reason is not None:
            passed += 1
            print(f"DIFF {file}: {name}\n  a documented difference: {reason}")
        else:
            failed += 1
            print(f"FAIL {file}: {name}\n  " + message.replace("\n", "\n  "))
    for key in sorted(set(differences) - seen):
        failed += 1
        print(f"FAIL {key[0]}: {key[1]}\n  named in differences.txt, but no such spec ran")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
