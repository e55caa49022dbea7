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

tests = run("", "--test")
assert tests.endswith("3 passed, 0 failed\n"), tests
print("relua-todo: 4 runs as expected")
