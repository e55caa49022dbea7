#!/usr/bin/env python3
"""Examples/relua-todo, driven as a user would: commands on standard input, the list on the
terminal, the saved file, a second run that loads it, and the feature's own tests (--test)."""
import json, os, subprocess, sys, tempfile

todo = sys.argv[1]
directory = tempfile.mkdtemp()
saved = os.path.join(directory, "todo.json")


def run(commands, *arguments):
    result = subprocess.run([todo, *arguments], input=commands, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


first = run("add milk\nadd eggs\ndone 1\ndone abc\nrm 9\nadd   \n", "--file", saved)
assert first.startswith("(nothing to do)\n"), first
assert "[x] #1 milk\n[ ] #2 eggs\n" in first, first
assert "error: action 'toggle' of Todo: expected integer, got string \"abc\"" in first, first
assert "! No to-do #9." in first, first
assert "! A to-do needs a title." in first, first
assert json.load(open(saved)) == [{"done": True, "id": 1, "title": "milk"}, {"done": False, "id": 2, "title": "eggs"}]

second = run("clear\nadd bread\n", "--file", saved)
assert second.startswith("[x] #1 milk\n[ ] #2 eggs\n"), second  # loaded from the file
assert second.endswith("[ ] #2 eggs\n[ ] #3 bread\n"), second
assert [item["title"] for item in json.load(open(saved))] == ["eggs", "bread"]

unwritable = run("add x\n", "--file", os.path.join(directory, "no", "such", "dir.json"))
assert "! Not saved: cannot write" in unwritable, unwritable

# --inspect: the store's inspector (StoreInspector) on loopback, its address printed first; the
# page answers with the token only. (What the page does is tested in Swift and, for the REPL's, in
# a browser: Tests/inspector.)
import re, urllib.request, urllib.error
inspected = subprocess.Popen([todo, "--file", saved, "--inspect"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
address = inspected.stdout.readline()
match = re.fullmatch(r"Inspector: (http://127\.0\.0\.1:(\d+)/\?token=[0-9a-f]{32})\n", address)
assert match, address
page = urllib.request.urlopen(match.group(1), timeout=10).read().decode()
assert "relua inspector" in page, page
try:
    urllib.request.urlopen("http://127.0.0.1:%s/" % match.group(2), timeout=10)
    assert False, "the page answered without its token"
except urllib.error.HTTPError as error:
    assert error.code == 403, error
rest, _ = inspected.communicate("add tea\nquit\n", timeout=60)
assert inspected.returncode == 0 and rest.endswith("[ ] #4 tea\n"), rest

tests = run("", "--test")
assert tests.endswith("3 passed, 0 failed\n"), tests
print("relua-todo: 5 runs as expected")
