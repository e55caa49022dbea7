#!/usr/bin/env python3
"""relua repl, driven through a real pseudo-terminal (stdlib pty, no pexpect).

Usage: python3 Tests/repl/test_repl.py PATH_TO_RELUA [NAME_PART]
Prints one line per test and `N passed, N failed`; the exit code is the number of failures.
"""
import json
import os
import pty
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

RELUA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "relua"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 20.0
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r|[\x00-\x08\x0b-\x1f]")


class Terminal:
    """A process on a pseudo-terminal: send keys, wait for output matching a pattern."""

    def __init__(self, args, cwd=ROOT, env=None):
        environment = dict(os.environ, TERM="xterm", NO_COLOR="1")
        environment.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execve(RELUA, [RELUA] + args, environment)
        self.buffer = ""
        self.seen = 0  # the part of the buffer already matched

    def send(self, text):
        os.write(self.fd, text.encode())

    def line(self, text):
        self.send(text + "\r")

    def read_some(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.buffer += ANSI.sub("", data.decode("utf-8", "replace"))
        return True

    def expect(self, pattern, timeout=TIMEOUT):
        """Waits until `pattern` (a regex) appears after what was matched before; returns the match."""
        deadline = time.time() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.buffer, self.seen)
            if match:
                self.seen = match.end()
                return match
            remaining = deadline - time.time()
            if remaining <= 0 or not self.read_some(remaining):
                if time.time() >= deadline or not self.alive():
                    raise AssertionError("expected %r; got:\n%s" % (pattern, self.buffer[self.seen:][-2000:]))

    def alive(self):
        pid, _ = os.waitpid(self.pid, os.WNOHANG)
        return pid == 0

    def wait_exit(self, timeout=TIMEOUT):
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.read_some(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid != 0:
                return os.waitstatus_to_exitcode(status)
        raise AssertionError("the REPL did not exit")

    def close(self):
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def repl(*args, env=None, cwd=ROOT):
    history = tempfile.NamedTemporaryFile(prefix="relua_history_", delete=False).name
    terminal = Terminal(["repl", *args], cwd=cwd, env=dict({"RELUA_HISTORY": history}, **(env or {})))
    return terminal


def test_expression_is_returned_first():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("1+1")
        t.expect(r"\n2\r?\n")
        t.line("=3*4")
        t.expect(r"\n12\r?\n")
        t.line("'text', {1, 2, name = \"x\"}")
        t.expect(r"text\t\{ 1, 2, name = \"x\" \}")
    finally:
        t.close()


def test_unfinished_input_continues_on_a_second_prompt():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("for i = 1, 3 do")
        t.expect(r">> ")
        t.line("print(i * 10)")
        t.expect(r">> ")
        t.line("end")
        t.expect(r"10\s+20\s+30")
    finally:
        t.close()


def test_an_error_then_a_working_line():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("error('boom')")
        t.expect(r"stdin:1: boom")
        t.expect(r"stack traceback")
        t.line("=40 + 2")
        t.expect(r"\n42\r?\n")
    finally:
        t.close()


def test_ctrl_c_stops_a_running_chunk_and_the_repl_goes_on():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("while true do end")
        time.sleep(0.5)
        t.send("\x03")
        t.expect(r"interrupted")
        t.line("=1 + 1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()


def test_ctrl_c_at_the_first_prompt_gives_a_fresh_prompt():
    t = repl()
    try:
        t.expect(r"> ")
        time.sleep(0.3)  # see test_ctrl_d_exits
        t.send("\x03")
        t.expect(r"\^C\n> ")
        t.line("=1 + 1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()


def test_ctrl_c_drops_the_line_being_typed():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("x = 40")
        t.expect(r"\n> ")
        time.sleep(0.3)
        t.send("this is not Lua")
        t.expect(r"this is not Lua")
        t.send("\x03")
        t.expect(r"\^C\n> ")
        t.line("=x + 2")
        t.expect(r"\n42\r?\n")
    finally:
        t.close()


def test_effect_output_goes_above_the_line_being_typed():
    """A timer's tick arrives while a line is half typed: the tick's diff is written above the
    prompt, and the prompt comes back with what was typed, which the next keys complete."""
    t = repl("Scripts/Features/CaseStudies/Timers.lua")
    try:
        t.expect(r"\[Start :toggleTimerButtonTapped\]")
        t.expect(r"> ")
        t.line(":toggleTimerButtonTapped")
        t.expect(r"\[Stop :toggleTimerButtonTapped\]")
        t.expect(r"> ")
        time.sleep(0.2)
        t.send("=40 +")
        t.expect(r"=40 \+")
        # The tick (after at most a second) goes above: the line with the prompt and the typed
        # text is cleared first (no diff glued to "=40 +"), then drawn again below the diff.
        match = t.expect(r"secondsElapsed = 1,[^\n]*\n(?:[^\n]*\n)*?[^\n]*> =40 \+", timeout=5)
        assert "=40 +  " not in match.group(0) and "=40 +{" not in match.group(0), match.group(0)
        t.line(" 2")
        t.expect(r"\n42\r?\n")
        t.line(":toggleTimerButtonTapped")
        t.expect(r"\[Start :toggleTimerButtonTapped\]")
    finally:
        t.close()


def test_print_from_an_effect_goes_above_the_line_being_typed():
    """`print` in an effect writes above the prompt too, and the typed text stays."""
    directory = tempfile.mkdtemp(prefix="relua_print_")
    feature = os.path.join(directory, "Chatty.lua")
    with open(feature, "w") as file:
        file.write("""local relua = require "relua"
return relua.feature "Chatty" {
  state = {},
  actions = { later = {} },
  reduce = relua.on {
    later = function(_, _, deps)
      return relua.Effect.run(function() deps.clock.sleep(0.8) print("hello", "from the effect") end)
    end,
  },
  view = function() return "chatty" end,
}
""")
    t = repl(feature)
    try:
        t.expect(r"chatty")
        t.expect(r"> ")
        t.line(":later")
        t.expect(r"> ")
        t.send("=1 +")
        t.expect(r"=1 \+")
        match = t.expect(r"hello\tfrom the effect\r?\n[^\n]*> =1 \+", timeout=5)
        assert "=1 +hello" not in match.group(0), match.group(0)
        t.line(" 1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()
        shutil.rmtree(directory, ignore_errors=True)


def test_ctrl_c_abandons_an_unfinished_chunk():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("function f()")
        t.expect(r">> ")
        time.sleep(0.3)
        t.send("return 1")
        t.expect(r"return 1")
        t.send("\x03")
        t.expect(r"\^C\n> ")    # the primary prompt, not >>
        t.line("=f")
        t.expect(r"\nnil\r?\n")
    finally:
        t.close()


def test_ctrl_c_stops_a_script_that_loops_as_it_loads():
    script = tempfile.NamedTemporaryFile(prefix="relua_loop_", suffix=".lua", delete=False)
    script.write(b"print('looping') while true do end\n")
    script.close()
    t = repl(script.name)
    try:
        t.expect(r"looping")
        t.send("\x03")
        t.expect(r"interrupted!")
        assert t.wait_exit() == 1
    finally:
        t.close()


def test_ctrl_c_stops_a_reducer_that_never_returns_and_the_state_is_kept():
    directory = tempfile.mkdtemp(prefix="relua_spin_")
    feature = os.path.join(directory, "Spin.lua")
    with open(feature, "w") as file:
        file.write("""local relua = require "relua"
return relua.feature "Spin" {
  state = { count = 0 },
  actions = { increment = {}, spin = {} },
  reduce = relua.on {
    increment = function(s) s.count = s.count + 1 end,
    spin = function(s) s.count = 99; while true do end end,
  },
  view = function(s) return "Count: " .. s.count end,
}
""")
    t = repl(feature, cwd=directory)
    try:
        t.expect(r"Count: 0")
        t.line(":increment")
        t.expect(r"Count: 1")
        t.line(":spin")
        time.sleep(0.3)
        t.send("\x03")
        t.expect(r"interrupted!")
        t.line(":state count")
        t.expect(r"\n1\r?\n")  # the write of 99 was rolled back
        t.line(":increment")
        t.expect(r"Count: 2")
    finally:
        t.close()


LOOPING_TOSTRING = "setmetatable({}, {__tostring = function() while true do end end})"


def test_ctrl_c_stops_printing_a_result_whose_tostring_loops():
    t = repl()
    try:
        t.expect(r"> ")
        t.line(LOOPING_TOSTRING)
        time.sleep(0.5)
        t.send("\x03")
        t.expect(r"stdin:1: interrupted!")
        t.expect(r"\n> ")
        t.line("1+1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()


def test_a_result_whose_tostring_fails_prints_why():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("1, setmetatable({}, {__tostring = function() error('no words') end})")
        t.expect(r"\(cannot print a table: stdin:1: no words\)")
        t.line("1+1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()


def test_an_error_object_whose_tostring_loops_is_described_within_a_budget():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("error(%s)" % LOOPING_TOSTRING)
        t.expect(r"\(error object is a table; its __tostring failed: it ran past 1000000 instructions\)")
        t.line("1+1")
        t.expect(r"\n2\r?\n")
    finally:
        t.close()


def test_ctrl_c_stops_a_feature_view_that_loops():
    # The first screen is shown after the script has run (no chunk or command running then).
    directory = tempfile.mkdtemp(prefix="relua_view_")
    feature = os.path.join(directory, "Stuck.lua")
    with open(feature, "w") as file:
        file.write("""local relua = require "relua"
return relua.feature "Stuck" {
  state = { count = 0 },
  actions = { increment = {} },
  reduce = relua.on { increment = function(s) s.count = s.count + 1 end },
  view = function(s)
    if s.count == 0 then while true do end end
    return "Count: " .. s.count
  end,
}
""")
    t = repl(feature, cwd=directory)
    try:
        t.expect(r"── Stuck ──")
        time.sleep(0.5)
        t.send("\x03")
        t.expect(r"Stuck.lua:7: interrupted!")
        t.line("1+1")
        t.expect(r"\n2\r?\n")
        t.line(":increment")
        t.expect(r"Count: 1")
    finally:
        t.close()


def test_file_failures_are_plain_words():
    directory = copy_scripts()
    t = repl("Scripts/Features/GuessingGame.lua", cwd=directory)
    try:
        t.expect(r"Games played: 0")
        t.line(":save /nope/x.json")
        t.expect(r"cannot write /nope/x.json: no such directory")
        t.line(":load /nope/x.json")
        t.expect(r"cannot read /nope/x.json: no such file")
        t.line(":load %s" % directory)
        t.expect(r"cannot read %s: it is a directory" % re.escape(directory))
        t.line(":record /nope/x_test.lua")
        t.expect(r"cannot write /nope/x_test.lua: no such directory; nothing is recorded")
        t.line(":stop")
        t.expect(r"not recording")
        assert "Error Domain" not in t.buffer and "NSCocoaErrorDomain" not in t.buffer, t.buffer
    finally:
        t.close()


FAN_FEATURE = """
local relua = require "relua"
return relua.feature "Fan" {
  state = { n = 0 },
  actions = { fan = {} },
  reduce = relua.on {
    fan = function(s)
      s.n = s.n + 1
      return relua.Effect.merge(relua.Effect.run(function(send) send("fan") end), relua.Effect.run(function(send) send("fan") end))
    end,
  },
  view = function(s) return "n = " .. s.n end,
}
"""


def fan_directory():
    directory = tempfile.mkdtemp(prefix="relua_fan_")
    with open(os.path.join(directory, "Fan.lua"), "w") as f:
        f.write(FAN_FEATURE)
    return directory


def test_load_refuses_a_state_of_the_wrong_shape_and_keeps_the_state():
    directory = fan_directory()
    files = {
        "deep.json": "[" * 5000 + "]" * 5000,
        "list.json": "[1, 2, 3]",
        "kinds.json": '{"n": "many"}',
        "fine.json": '{"n": 5, "note": "kept"}',
    }
    for name, text in files.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
    t = repl("Fan.lua", cwd=directory)
    try:
        t.expect(r"Fan> ")
        t.line(":load deep.json")
        t.expect(r"cannot load deep.json: JSON: nested more than 200 objects and arrays deep at byte 200; the state is unchanged")
        t.line(":load list.json")
        t.expect(r"cannot load list.json: state: Fan's state must be a table with named fields, got a list; the state is unchanged")
        t.line(":load kinds.json")
        t.expect(r"cannot load kinds.json: state.n: the loaded state has a string where the state has a number; the state is unchanged")
        t.line(":state")
        t.expect(r"\{ n = 0 \}")
        t.line(":load fine.json")
        t.expect(r"n = 5")
        t.line(":undo")
        t.expect(r"n = 0")
    finally:
        t.close()


def test_ctrl_c_at_the_prompt_stops_effects_that_start_effects_without_end():
    t = repl("Fan.lua", cwd=fan_directory())
    try:
        t.expect(r"Fan> ")
        t.line(":fan")
        # The effects keep sending: the screen keeps changing (n passes 30; under load the REPL
        # draws several sends' changes at once, so it may never show 30 itself).
        t.expect(r"n = ([3-9]\d|\d{3,})\b")
        t.send("\x03")
        t.expect(r"stopped \d+ running effect\(s\)")
        t.expect(r"Fan> ")
        time.sleep(0.5)
        while t.read_some(0.3):
            pass
        assert "n = " not in t.buffer[t.seen:], "effects went on after Ctrl-C:\n" + t.buffer[t.seen:][-500:]
        t.line("=store:state().n >= 30")
        t.expect(r"\ntrue\r?\n")
    finally:
        t.close()


SPIN_FEATURE = """
local relua = require "relua"
return relua.feature "Spin" {
  state = { n = 0 },
  actions = { go = {}, spin = {} },
  reduce = relua.on {
    go = function(_, _, deps)
      return relua.Effect.run(function(send) deps.clock.sleep(0.3) send("spin") end)
    end,
    spin = function(s) s.n = 1 while true do end end,
  },
  view = function(s) return "n = " .. s.n end,
}
"""


def test_ctrl_c_stops_an_effects_reducer_that_never_returns():
    directory = tempfile.mkdtemp(prefix="relua_spin_")
    with open(os.path.join(directory, "Spin.lua"), "w") as f:
        f.write(SPIN_FEATURE)
    t = repl("Spin.lua", cwd=directory)
    try:
        t.expect(r"Spin> ")
        t.line(":go")
        time.sleep(1.0)  # the effect's action is reduced in the background, and never returns
        t.send("\x03")
        t.expect(r"interrupted!")
        t.line("=1 + 1")
        t.expect(r"\n2\r?\n")
        t.line(":state n")
        t.expect(r"\n0\r?\n")  # the send was undone
    finally:
        t.close()


def test_a_recording_that_cannot_be_written_is_kept_and_written_elsewhere():
    directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "kept_test.lua", r"Games played: 0")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        shutil.rmtree(os.path.dirname(recorded))   # the directory goes away during the session
        t.line(":stop")
        t.expect(r"cannot write %s: no such directory; the recording is kept" % re.escape(recorded))
        t.line(":increment")
        t.expect(r"Guess: 2")
        elsewhere = os.path.join(directory, "Scripts", "Features", "elsewhere_test.lua")
        t.line(":stop %s" % elsewhere)
        t.expect(r"wrote %s \(2 action" % re.escape(elsewhere))
    finally:
        t.close()
    result = subprocess.run([RELUA, "test", elsewhere], capture_output=True, text=True, cwd=directory, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ctrl_d_exits():
    t = repl()
    try:
        t.expect(r"> ")
        # The prompt is printed just before the line editor puts the terminal in raw mode; a ^D
        # typed in that instant would be taken by the cooked terminal instead (no output to wait on).
        time.sleep(0.3)
        t.send("\x04")
        assert t.wait_exit() == 0
    finally:
        t.close()


def test_tab_completes_a_table_field():
    t = repl()
    try:
        t.expect(r"> ")
        time.sleep(0.3)
        t.send("string.fo\t")
        t.expect(r"string\.format")
        t.line("('%d', 7)")          # the line now reads: string.format ('%d', 7)
        t.expect(r"\n7\r?\n")
    finally:
        t.close()


def test_history_is_kept_between_sessions():
    history = tempfile.NamedTemporaryFile(prefix="relua_history_", delete=False).name
    os.unlink(history)
    first = Terminal(["repl"], env={"RELUA_HISTORY": history})
    try:
        first.expect(r"> ")
        first.line("history_marker = 42")
        first.expect(r"> ")
        time.sleep(0.3)  # see test_ctrl_d_exits
        first.send("\x04")
        first.wait_exit()
    finally:
        first.close()
    second = Terminal(["repl"], env={"RELUA_HISTORY": history})
    try:
        second.expect(r"> ")
        time.sleep(0.3)  # keys that need the line editor in raw mode
        second.send("\x1b[A")  # up arrow: the last line of the first session
        second.expect(r"history_marker = 42")
        second.send("\r")
        second.line("=history_marker")
        second.expect(r"\n42\r?\n")
    finally:
        second.close()


def test_piped_input_has_no_prompts():
    result = subprocess.run(
        [RELUA, "repl"], input="1+1\n=2*3\nprint('hi')\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "2\n6\nhi\n", repr(result.stdout)


def test_ctrl_c_on_piped_input_stops_a_chunk_and_otherwise_ends_relua():
    process = subprocess.Popen(
        [RELUA, "repl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    watchdog = threading.Timer(TIMEOUT, process.kill)  # a hung REPL fails the test, not the run
    watchdog.start()
    try:
        process.stdin.write(b"=0\nwhile true do end\n")
        process.stdin.flush()
        assert process.stdout.readline() == b"0\n"   # running, so the loop starts at once
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)   # a running chunk stops; the REPL reads on
        process.stdin.write(b"=1 + 1\n")
        process.stdin.flush()
        assert process.stdout.readline() == b"2\n"
        process.send_signal(signal.SIGINT)   # waiting for input: no prompt to go back to
        status = process.wait(timeout=TIMEOUT)
        assert status == -signal.SIGINT, "exit status %r, not ended by SIGINT" % status
        errors = process.stderr.read()
        assert b"interrupted!" in errors, errors
    finally:
        watchdog.cancel()
        process.kill()
        process.wait()


def secret_of(t):
    t.line(":state counter.secret")
    return int(t.expect(r"\n(-?\d+)\r?\n").group(1))


def test_playing_the_guessing_game():
    t = repl("Scripts/Features/GuessingGame.lua")
    try:
        t.expect(r"Games played: 0")
        secret = secret_of(t)
        if secret == 0:
            # The count starts at 0: setting it to 0 changes nothing, so nothing is printed.
            t.line(":increment")
            t.expect(r"count")
        t.line(":setCount %d" % secret)
        t.expect(r"correct")
        t.line(":playNext")
        t.expect(r"Games played: 1")
        t.line(":showResults")
        t.expect(r"Game › ResultList")
        t.expect(r"Secret: %d\s+Answer: %d" % (secret, secret))
        t.line(":remove {1}")
        t.expect(r"No results yet\.")
        t.line(":back")
        t.expect(r"Games played: 0")   # the count dropped
        t.line(":undo")
        t.expect(r"Game › ResultList")
        t.line(":redo")
        t.expect(r"Games played: 0")
    finally:
        t.close()


def test_completion_of_an_action_name():
    t = repl("Scripts/Features/GuessingGame.lua")
    try:
        t.expect(r"Game> ")
        time.sleep(0.3)
        t.send(":showR\t")
        t.expect(r":showResults")
        t.send("\r")
        t.expect(r"Game › ResultList")
    finally:
        t.close()


def test_completion_of_a_state_path():
    t = repl("Scripts/Features/GuessingGame.lua")
    try:
        t.expect(r"Game> ")
        time.sleep(0.3)
        t.send(":state counter.sec\t")
        t.expect(r"counter\.secret")
        t.send("\r")
        t.expect(r"\n-?\d+\r?\n")
    finally:
        t.close()


def test_completion_of_a_nested_binding_and_a_group_action():
    """Tab completes `:binding.syncUp.title` (a field below a bindable record, as the state has it)
    and `:delegate.startMeeting` (an action of a group), issue #34."""
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    script = os.path.join(directory, "Form.lua")
    with open(script, "w") as f:
        f.write(
            'return relua.feature "Form" {\n'
            '  state = { syncUp = { title = "", theme = { name = "orange" } }, meetings = 0 },\n'
            '  bindable = { "syncUp" },\n'
            '  actions = { delegate = relua.group { startMeeting = {} } },\n'
            '  reduce = relua.on { ["delegate.startMeeting"] = function(s) s.meetings = s.meetings + 1 end },\n'
            '}\n')
    t = repl(script)
    try:
        t.expect(r"Form> ")
        time.sleep(0.3)
        t.send(":binding.syncUp.ti\t")
        t.expect(r":binding\.syncUp\.title")
        t.send(' "Retro"\r')
        t.expect(r'\+\s+title = "Retro"')
        t.send(":delegate.st\t")
        t.expect(r":delegate\.startMeeting")
        t.send("\r")
        t.expect(r"\+\s+meetings = 1")
    finally:
        t.close()
        shutil.rmtree(directory, ignore_errors=True)


def test_an_element_binding_is_completed_and_sent():
    """Tab completes `:binding.syncUp.attendees[id=1].name` (a field of a list's element, by its
    id) and the REPL sends it, a string id in quotes too; an id the list lacks is refused."""
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    script = os.path.join(directory, "Form.lua")
    with open(script, "w") as f:
        f.write(
            'return relua.feature "Form" {\n'
            '  state = { syncUp = { attendees = { { id = 1, name = "" }, { id = "a2", name = "" } } } },\n'
            '  bindable = { "syncUp" },\n'
            '}\n')
    t = repl(script)
    try:
        t.expect(r"Form> ")
        time.sleep(0.3)
        t.send(":binding.syncUp.attendees[id=1].na\t")
        t.expect(r":binding\.syncUp\.attendees\[id=1\]\.name")
        t.send(' "Blob"\r')
        t.expect(r'\+\s+name = "Blob"')
        t.send(':binding.syncUp.attendees[id="a2"].na\t')
        t.expect(r':binding\.syncUp\.attendees\[id="a2"\]\.name')
        t.send(' "Blob Jr"\r')
        t.expect(r'\+\s+name = "Blob Jr"')
        t.line(':binding.syncUp.attendees[id=9].name "x"')
        t.expect(r"state\.syncUp\.attendees has no element with id 9 \(its ids: 1, \"a2\"\)")
    finally:
        t.close()
        shutil.rmtree(directory, ignore_errors=True)


def test_a_view_tree_draws_its_commands_and_help_and_tab_take_them():
    """A view built with relua.ui (issue #35): each button shows its command, `:help` lists the
    commands on screen, Tab completes them (`:counter.incr` is only on the screen), a text field
    shows its value and its binding."""
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    script = os.path.join(directory, "Game.lua")
    with open(script, "w") as f:
        f.write(
            'local ui = relua.ui\n'
            'local Round = relua.feature "Round" {\n'
            '  state = { count = 0 }, actions = { increment = {}, decrement = {} },\n'
            '  reduce = relua.on {\n'
            '    increment = function(s) s.count = s.count + 1 end,\n'
            '    decrement = function(s) s.count = s.count - 1 end,\n'
            '  },\n'
            '  view = function(s)\n'
            '    return ui.vstack { ("Guess: %d"):format(s.count), ui.hstack { ui.button("+", "increment"), ui.button("-", "decrement") } }\n'
            '  end,\n'
            '}\n'
            'return relua.feature "Game" {\n'
            '  state = { counter = { count = 0 }, title = "Retro" }, bindable = { "title" },\n'
            '  actions = { showResults = {} }, compose = { relua.own, relua.scope("counter", Round) },\n'
            '  reduce = relua.on { showResults = function() end },\n'
            '  view = function(s)\n'
            '    return ui.vstack { ui.textField("Title", ui.binding.title), ui.scope("counter", Round.view(s.counter)),\n'
            '      ui.button("Results", "showResults") }\n'
            '  end,\n'
            '}\n')
    t = repl(script, cwd=directory)
    try:
        t.expect(r'Title: \[Retro\] \(:binding\.title "…"\)')
        t.expect(r"\[\+ :counter\.increment\] \[- :counter\.decrement\]")
        t.expect(r"\[Results :showResults\]")
        t.expect(r"Game> ")
        t.line(":help")
        t.expect(r"On screen: :binding\.title  :counter\.increment  :counter\.decrement  :showResults")
        time.sleep(0.3)
        t.send(":counter.incr\t")
        t.expect(r":counter\.increment")
        t.send("\r")
        t.expect(r"Guess: 1")
        t.line(':binding.title "Planning"')
        t.expect(r'Title: \[Planning\] \(:binding\.title "…"\)')
    finally:
        t.close()
        shutil.rmtree(directory, ignore_errors=True)


def copy_scripts():
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    shutil.copytree(os.path.join(ROOT, "Scripts", "Features"), os.path.join(directory, "Scripts", "Features"))
    return directory


def test_reload_keeps_the_state():
    directory = copy_scripts()
    t = repl("Scripts/Features/GuessingGame.lua", cwd=directory)
    try:
        t.expect(r"Games played: 0")
        t.line(":setCount 17")
        t.expect(r"Guess: 17")
        counter = os.path.join(directory, "Scripts", "Features", "Counter.lua")
        with open(counter) as f:
            source = f.read()
        with open(counter, "w") as f:
            f.write(source.replace('"Guess: %d', '"Your guess: %d'))
        t.line(":reload")
        t.expect(r"reloaded")
        t.expect(r"Your guess: 17")
        with open(counter, "w") as f:
            f.write(source + "\nthis is not Lua\n")
        t.line(":reload")
        t.expect(r"the old code keeps running")
        t.line(":increment")
        t.expect(r"Your guess: 18")
    finally:
        t.close()


def test_save_then_load_reopens_the_same_screens():
    directory = copy_scripts()
    saved = os.path.join(directory, "state.json")
    t = repl("Scripts/Features/GuessingGame.lua", cwd=directory)
    try:
        t.expect(r"Games played: 0")
        t.line(":playNext")
        t.expect(r"Games played: 1")
        t.line(":showResults")
        t.expect(r"Game › ResultList")
        t.line(":save %s" % saved)
        t.expect(r"saved to")
        t.line(":back")
        t.expect(r"── Game ──")
    finally:
        t.close()
    t = repl("Scripts/Features/GuessingGame.lua", cwd=directory)
    try:
        t.expect(r"Games played: 0")
        t.line(":load %s" % saved)
        t.expect(r"Game › ResultList")
        t.line(":screens")
        t.expect(r"ResultList\s+\(destination\.results\)")
    finally:
        t.close()


def test_records_app_keeps_its_records_across_launches():
    # The records app on a copy of Scripts/Features: records.json goes beside the copied script
    # (the first directory its scripts may use), never into the repository.
    directory = copy_scripts()
    saved = os.path.join(directory, "Scripts", "Features", "records.json")
    t = repl("Scripts/Features/Records.lua", cwd=directory)
    try:
        t.expect(r"No records yet\.")
        t.line(":add")
        t.expect(r"Records › RecordForm")
        t.line(':binding.title "Dune"')
        t.expect(r"Title: \[Dune\]")
        t.line(":done")
        t.expect(r"Records: 1 \(0 favourites\)\s+1  Dune")
        # At once: the save still waiting out its debounce runs before relua ends.
        t.line(":quit")
        assert t.wait_exit() == 0
    finally:
        t.close()
    with open(saved) as f:
        assert json.load(f) == [{"id": 1, "title": "Dune", "notes": "", "favourite": False}]
    t = repl("Scripts/Features/Records.lua", cwd=directory)
    try:
        t.expect(r"Records: 1 \(0 favourites\)\s+1  Dune")
        t.line(":open 1")
        t.expect(r"Records › RecordDetail")
        t.expect(r"Viewed for 0:01")  # the detail's reading clock, a live effect
        t.line(":back")
        t.expect(r"── Records ──")
    finally:
        t.close()


def test_syncups_records_a_meeting_and_shows_it_in_the_detail():
    # TCA's SyncUps on a copy of Scripts/Features (sync-ups.json goes there, never into the
    # repository): add a sync-up, open it, start a meeting — its screen's task starts the timer and
    # the speech recognizer, fed by a post — end it, and see the meeting in the detail.
    directory = copy_scripts()
    saved = os.path.join(directory, "Scripts", "Features", "sync-ups.json")
    t = repl("Scripts/Features/SyncUps.lua", cwd=directory)
    try:
        t.expect(r"Daily Sync-ups\s+\(none yet\)")
        t.line(":syncUpsList.addSyncUpButtonTapped")
        t.expect(r"SyncUps › SyncUpForm")
        t.line(':binding.syncUp.title "Retro"')
        t.expect(r"Title: \[Retro\]")
        t.line(":syncUpsList.confirmAddSyncUpButtonTapped")
        t.expect(r"1\. Retro — 1 attendee, 5:00, bubblegum")
        t.line(":syncUpTapped 1")
        t.expect(r"SyncUps › SyncUpDetail ──\s+Retro")
        t.line(":startMeetingButtonTapped")
        t.expect(r"SyncUps › SyncUpDetail › RecordMeeting ──")
        t.expect(r"\(task\) :path\[id=1\]\.record\.onTask")
        t.expect(r"0:01 elapsed, 4:59 remaining")  # the timer, a child of the task's effect
        t.line('=store:post("speech", "We shipped it")')
        t.expect(r"Transcript: We shipped it")
        t.line(":endMeetingButtonTapped")
        t.expect(r"End meeting\?")
        t.line(":confirmSave")
        # The recording saved the meeting into the shared sync-up and dismissed itself.
        t.expect(r"SyncUps › SyncUpDetail ──\s+Retro[^─]*Past meetings:\s+1\. \d{4}-\d\d-\d\d \d\d:\d\d  We shipped it")
        t.line(":quit")
        assert t.wait_exit() == 0
    finally:
        t.close()
    with open(saved) as f:
        syncUps = json.load(f)
    assert [m["transcript"] for m in syncUps[0]["meetings"]] == ["We shipped it"], syncUps
    shutil.rmtree(directory)


def start_recording(feature, test_file, first_screen, env=None):
    """A REPL on a copy of Scripts/Features opened on `feature`, recording to Scripts/Tests/`test_file`."""
    directory = copy_scripts()
    os.makedirs(os.path.join(directory, "Scripts", "Tests"))
    recorded = os.path.join(directory, "Scripts", "Tests", test_file)
    t = repl(feature, cwd=directory, env=env)
    try:
        t.expect(first_screen)
        t.line(":record %s" % recorded)
        t.expect(r"recording to")
    except BaseException:
        t.close()
        raise
    return directory, recorded, t


def test_record_writes_a_test_that_passes():
    directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "recorded_test.lua", r"Games played: 0")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        t.line(":playNext")
        t.expect(r"Games played: 1")
        t.line(":showResults")
        t.expect(r"ResultList")
        t.line(":remove {1}")
        t.expect(r"No results yet")
        t.line(":back")
        t.expect(r"Games played: 0")
        t.line(":stop")
        t.expect(r"wrote .*recorded_test\.lua \(5 action")
    finally:
        t.close()
    run_recorded_test(recorded, directory)


def test_record_after_stack_pushes_and_pops_replays_the_same_ids():
    # Stack ids never repeat in a store: after push, push, pop all, the next id is 2, and the
    # recorded test must start its stack ids there (deps.stackElementID).
    directory = copy_scripts()
    os.makedirs(os.path.join(directory, "Scripts", "Tests"))
    recorded = os.path.join(directory, "Scripts", "Tests", "stack_ids_test.lua")
    t = repl("Scripts/Features/CaseStudies/Stack.lua", cwd=directory)
    try:
        t.expect(r"Stack> ")
        t.line(":pushDetail")
        t.expect(r"Stack/Detail> ")
        t.line(":path[id=0].detail.goDeeper")
        t.expect(r"Level 2")
        t.line(":popToRoot")
        t.expect(r"\nStack> ")
        t.line(":record %s" % recorded)
        t.expect(r"recording to")
        t.line(":pushDetail")
        t.expect(r"Stack/Detail> ")
        t.line(":stop")
        t.expect(r"wrote .*stack_ids_test\.lua")
    finally:
        t.close()
    written = run_recorded_test(recorded, directory)
    assert "stackElementID = 2" in written, written


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.time() > deadline:
                raise AssertionError("the fake GitHub server did not start on port %d" % port)
            time.sleep(0.1)


def run_recorded_test(recorded, directory):
    result = subprocess.run([RELUA, "test", recorded], capture_output=True, text=True, cwd=directory, timeout=120)
    with open(recorded) as file:
        written = file.read()
    assert result.returncode == 0, result.stdout + result.stderr + "\n--- the recorded test:\n" + written[-4000:]
    assert "1 passed, 0 failed" in result.stdout, result.stdout
    return written


def test_record_replays_an_effect_and_its_received_action():
    # NavigateAndLoad: setNavigation(true) navigates, and an effect loads the counter 1 s later
    # (deps.clock.sleep); the recorded test replays it on a test clock.
    directory, recorded, t = start_recording(
        "Scripts/Features/CaseStudies/NavigateAndLoad.lua", "navigate_recorded_test.lua", r"Load optional counter")
    try:
        t.line(":setNavigation true")
        t.expect(r"loading")
        t.expect(r"\(effect\)")
        t.expect(r"0   \[- :optionalCounter\.decrement\] \[\+ :optionalCounter\.increment\]")
        t.line(":optionalCounter.increment")
        t.expect(r"1   \[- :optionalCounter\.decrement\] \[\+ :optionalCounter\.increment\]")
        t.line(":setNavigation false")
        t.expect(r"Load optional counter")
        t.line(":setNavigation true")  # left again before the load: the pending load is cancelled
        t.expect(r"loading")
        t.line(":setNavigation false")
        t.expect(r"Load optional counter")
        t.line(":stop")
        summary = t.expect(r"wrote .*navigate_recorded_test\.lua \((.*)\); run it").group(1)
    finally:
        t.close()
    written = run_recorded_test(recorded, directory)
    assert summary == "6 action(s): 5 sent, 1 received", summary
    assert 'store:receive("setNavigationIsActiveDelayCompleted"' in written, written
    assert 'clock = "test"' in written and "store:advance(1" in written, written
    assert "skipInFlightEffects" not in written, written


def test_record_then_cancel_all_then_stop_writes_a_test_that_passes():
    # Issue #31: the timer's ticks before the cancel are received in order, the cancel itself is
    # written (skipInFlightEffects for :cancel all, cancelEffect(n) for one), and nothing after it.
    directory, recorded, t = start_recording("Scripts/Features/CaseStudies/Timers.lua", "timer_cancel_test.lua", r"00:00")
    try:
        t.line(":toggleTimerButtonTapped")
        t.expect(r"00:02")
        t.line(":cancel all")
        t.expect(r"cancelled 1 effect")
        t.line(":toggleTimerButtonTapped")   # stops (isTimerActive false): no timer
        t.expect(r"Start")
        t.line(":toggleTimerButtonTapped")   # starts another
        t.expect(r"00:03")
        t.line(":cancel")
        number = t.expect(r"#(\d+)  an effect").group(1)
        t.line(":cancel %s" % number)
        t.expect(r"cancelled #%s" % number)
        time.sleep(1.3)                      # no tick after the cancel
        t.line(":stop")
        t.expect(r"wrote .*timer_cancel_test\.lua")
    finally:
        t.close()
    written = run_recorded_test(recorded, directory)
    assert "store:skipInFlightEffects()  -- :cancel all" in written, written
    # (The stopping toggle's effect, which returns at once, counts: the new timer is the 3rd.)
    assert "store:cancelEffect(3)  -- :cancel #%s" % number in written, written
    assert written.count('store:receive("timerTicked"') == 3, written


def test_record_refuses_up_front_a_place_its_test_could_not_require_the_feature_from():
    directory = copy_scripts()
    elsewhere = tempfile.mkdtemp(prefix="relua_elsewhere_")
    t = repl("Scripts/Features/Counter.lua", cwd=directory)
    try:
        t.expect(r"Guess: 0")
        t.line(":record %s" % os.path.join(elsewhere, "x_test.lua"))
        t.expect(r"cannot write .*x_test\.lua: its test could not require Scripts/Features/Counter\.lua .*; nothing is recorded")
        t.line(":record /nope/x_test.lua")
        t.expect(r"cannot write /nope/x_test\.lua: no such directory; nothing is recorded")
        t.line(":record x.lua")
        t.expect(r"cannot write x\.lua: a recorded test's name ends in _test\.lua; nothing is recorded")
        t.line(":stop")
        t.expect(r"not recording")
    finally:
        t.close()
    assert os.listdir(elsewhere) == [], os.listdir(elsewhere)


def test_ctrl_d_with_an_unsaved_recording_keeps_it_and_says_where():
    directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "unsaved_test.lua", r"Games played: 0")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        time.sleep(0.3)
        t.send("\x04")
        t.expect(r"quitting while recording \(no :stop\): the recording is written to %s" % re.escape(recorded))
        assert t.wait_exit() == 0
    finally:
        t.close()
    run_recorded_test(recorded, directory)


def test_quitting_with_a_recording_whose_place_went_away_writes_it_beside_the_feature():
    directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "gone_test.lua", r"Games played: 0")
    recovered = os.path.join(directory, "Scripts", "Features", "GuessingGame_recovered_test.lua")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        shutil.rmtree(os.path.dirname(recorded))
        t.line(":quit")
        t.expect(r"the recording is written to %s \(cannot write .*gone_test\.lua: no such directory\)" % re.escape(recovered))
        assert t.wait_exit() == 0
    finally:
        t.close()
    run_recorded_test(recovered, directory)


def test_sigterm_with_an_unsaved_recording_keeps_it():
    directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "term_test.lua", r"Games played: 0")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        os.kill(t.pid, signal.SIGTERM)
        t.expect(r"relua got SIGTERM while recording: the recording is written to %s" % re.escape(recorded))
        t.wait_exit()
    finally:
        t.close()
    run_recorded_test(recorded, directory)


def test_while_recording_commands_that_replace_the_state_or_the_code_are_refused():
    directory, recorded, t = start_recording("Scripts/Features/Counter.lua", "refused_test.lua", r"Guess: 0")
    try:
        t.line(":increment")
        t.expect(r"Guess: 1")
        for command in [":undo", ":redo", ":load x.json"]:
            t.line(command)
            t.expect(r"changes the state without an action, which a recorded test cannot replay; :stop the recording first")
        t.line(":reload")
        t.expect(r":reload runs other code.*:stop the recording first")
        t.line(":stop")
        t.expect(r"wrote .*refused_test\.lua \(1 action")
    finally:
        t.close()
    run_recorded_test(recorded, directory)


def test_record_outside_scripts_writes_a_test_that_runs_where_it_was_written():
    # A feature in a folder of its own (no Scripts/ around it): the recorded test requires it by
    # its name beside the test, and passes there; a test written where it could not require the
    # feature is refused, saying why, and the recording is kept.
    directory = tempfile.mkdtemp(prefix="relua_own_")
    shutil.copy(os.path.join(ROOT, "Scripts", "Features", "Counter.lua"), os.path.join(directory, "Counter.lua"))
    elsewhere = tempfile.mkdtemp(prefix="relua_elsewhere_")
    t = repl("Counter.lua", cwd=directory)
    try:
        t.expect(r"Guess: 0")
        t.line(":record counter_test.lua")
        t.expect(r"recording to")
        t.line(":increment")
        t.expect(r"Guess: 1")
        t.line(":stop %s" % os.path.join(elsewhere, "x_test.lua"))
        t.expect(r"cannot write .*x_test\.lua: its test could not require")
        t.line(":stop")
        t.expect(r"wrote counter_test\.lua")
    finally:
        t.close()
    result = subprocess.run([RELUA, "test", "counter_test.lua"], capture_output=True, text=True, cwd=directory, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed, 0 failed" in result.stdout, result.stdout


def test_record_replays_a_github_search_without_the_server():
    # Against the fake GitHub: a query typed in two steps within the debounce, its answer, the next
    # page; the recorded test's stub answers as the server did, so it passes with the server gone.
    port = free_port()
    server = subprocess.Popen([RELUA, "fake-github", "--port", str(port), "--total-count", "15"],
                              stdout=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        base = "http://127.0.0.1:%d" % port
        directory, recorded, t = start_recording(
            "Scripts/Features/RepositorySearch.lua", "search_recorded_test.lua", r"RepositorySearch",
            env={"RELUA_GITHUB_API": base})
        try:
            t.line(':binding.query "t"')
            t.expect(r"query = \"t\"")
            t.line(':binding.query "tca"')  # within the 0.3 s debounce: only "tca" is searched
            t.expect(r"query = \"tca\"")
            t.expect(r"\(effect\)")
            t.expect(r"currentPage = 1")
            t.line("=(function() local s = store:state() return s.items[#s.items].id end)()")
            last_id = t.expect(r"\n(\d+)\r?\n").group(1)
            t.line(":items[id=%s].onAppear" % last_id)
            t.expect(r"loadingState = \"loadingNext\"")
            t.expect(r"\(effect\)")
            t.line(":state currentPage")
            t.expect(r"\n2\r?\n")
            t.line(":stop")
            summary = t.expect(r"wrote .*search_recorded_test\.lua \((.*)\); run it").group(1)
        finally:
            t.close()
    finally:
        server.kill()
        server.wait()
    written = run_recorded_test(recorded, directory)  # the server is gone
    assert summary == "5 action(s): 3 sent, 2 received, 2 dependency call(s)", summary
    assert written.count("store:receive(\"searchResponse\"") == 2, written
    head = written[:written.index("test(")]  # the stub's answers, before the test
    assert '{ "github", "search", arguments = { n = 1, { page = 1, per_page = 10, q = "tca" } }' in head, head[:3000]
    assert '{ "github", "search", arguments = { n = 1, { page = 2, per_page = 10, q = "tca" } }' in head, head[:3000]
    assert 'q = "t" }' not in head, head[:3000]  # the debounce dropped "t"
    assert "github = recorded.github" in written, written[:3000]
    # Without the server, the stub answers; a replay making another call fails naming both.
    changed = written.replace('arguments = { n = 1, { page = 2, per_page = 10, q = "tca" } }',
                              'arguments = { n = 1, { page = 2, per_page = 10, q = "swift" } }')
    with open(recorded, "w") as file:
        file.write(changed)
    result = subprocess.run([RELUA, "test", recorded], capture_output=True, text=True, cwd=directory, timeout=120)
    assert result.returncode != 0, result.stdout
    assert ('call #2 to deps.github was deps.github.search({"page":2,"per_page":10,"q":"tca"}), '
            'the session made deps.github.search({"page":2,"per_page":10,"q":"swift"})' in result.stdout), result.stdout


ROWS_FEATURE = """
local relua = require "relua"
local size = %d
return relua.feature "Rows" {
  state = function()
    local rows = {}
    for i = 1, size do rows[i] = i end
    return { rows = rows, text = string.rep("abcdefghij", 10000), title = "rows" }
  end,
  actions = { touch = {} },
  reduce = relua.on {
    touch = function(s)
      local rows = {}
      for i = 1, #s.rows do rows[i] = s.rows[i] + 1 end
      s.rows = rows
    end,
  },
  view = function(s) return ("%%d rows"):format(#s.rows) end,
}
"""


def rows_directory(size):
    directory = tempfile.mkdtemp(prefix="relua_rows_")
    with open(os.path.join(directory, "Rows.lua"), "w") as f:
        f.write(ROWS_FEATURE % size)
    return directory


def output_until_prompt(t, prompt, timeout=TIMEOUT):
    """What the REPL printed up to its next prompt (matched from where the last match ended)."""
    start = t.seen
    t.expect(prompt, timeout=timeout)
    return t.buffer[start:t.seen]


def test_a_million_row_change_prints_a_screenful_quickly():
    # The diff of a change to every one of a million rows is cut to a screenful that says how
    # many changes it left out; it used to print 2,000,000 lines (30 MB) in 9 s and more.
    t = repl("Rows.lua", cwd=rows_directory(1000000))
    try:
        t.expect(r"1000000 rows", timeout=60)
        t.expect(r"Rows> ")
        started = time.time()
        t.line(":touch")
        printed = output_until_prompt(t, r"1000000 rows\s+Rows> ", timeout=60)
        elapsed = time.time() - started
        diff = printed[printed.index("{"):printed.index("── Rows")]
        assert "\u2212     1,\n+     2," in diff, printed
        assert "      … 999,983 more changes\n    }," in diff, printed
        assert "    … (2 unchanged)" in diff, printed
        assert len(diff.splitlines()) <= 40, printed
        assert len(printed.encode()) < 2000, len(printed.encode())
        # The send builds a million rows (seconds in a debug build); printing adds little.
        assert elapsed < 30, elapsed
        # The state: a screenful too, the string cut with its count.
        t.line(":state")
        printed = output_until_prompt(t, r"Rows> ")
        assert "    … 999,975 more\n  }," in printed, printed
        assert '…" (100,000 characters, 99,800 not shown),' in printed, printed
        assert len(printed.splitlines()) <= 40, printed
    finally:
        t.close()


def test_state_all_prints_everything_and_state_cuts_it():
    t = repl("Rows.lua", cwd=rows_directory(1000))
    try:
        t.expect(r"Rows> ")
        t.line(":state rows")
        printed = output_until_prompt(t, r"Rows> ")
        assert "  25,\n  … 975 more\n}" in printed, printed
        t.line(":state rows --all")
        printed = output_until_prompt(t, r"Rows> ")
        assert "  999,\n  1000,\n}" in printed and "more" not in printed, printed
        t.line(":state --all")
        printed = output_until_prompt(t, r"Rows> ")
        assert "    1000,\n  }," in printed and "not shown" not in printed, printed[-300:]
        assert len(printed) > 100000, len(printed)
        t.line(":help")
        t.expect(r":state \[PATH\] --all prints all of it")
    finally:
        t.close()


def test_long_results_and_errors_are_cut_and_dash_dash_all_shows_a_result_whole():
    t = repl()
    try:
        t.expect(r"> ")
        t.line("t = {} for i = 1, 1000 do t[i] = i * 2 end")
        t.expect(r"> ")
        t.line("=t")
        printed = output_until_prompt(t, r"\n> ")
        assert "  50,\n  … 975 more\n}" in printed, printed
        t.line("=t --all")
        printed = output_until_prompt(t, r"\n> ")
        assert "  2000,\n}" in printed and "more" not in printed, printed[-200:]
        t.line("t")  # a plain expression line too, and a string on its own
        t.expect(r"… 975 more")
        t.line("=string.rep('x', 100000)")
        t.expect(r"x… \(100,000 characters, 90,000 not shown\)")
        t.line("={ string.rep('y', 1000) }")
        t.expect(r'y…" \(1,000 characters, 800 not shown\),\s+\}')
        t.line("error(string.rep('e', 100000))")
        t.expect(r"e… \(100,009 characters, 90,009 not shown\)")
        t.expect(r"stack traceback")
        t.line(":help")
        t.expect(r"end a line with --all to see all of it")
    finally:
        t.close()


def test_websocket_case_study_echoes_through_a_real_server():
    # The WebSocket case study against `relua websocket-echo` on a free port: connect, send, the
    # echo on the screen, disconnect.
    port = free_port()
    server = subprocess.Popen([RELUA, "websocket-echo", "--port", str(port)], stdout=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        t = repl("Scripts/Features/CaseStudies/WebSocket.lua")
        try:
            t.expect(r"Status: disconnected")
            t.line(':urlChanged "ws://127.0.0.1:%d/"' % port)
            t.expect(r"ws://127\.0\.0\.1:%d/" % port)
            t.line(":connectButtonTapped")
            t.expect(r"Status: connected")
            t.line(':messageToSendChanged "Hello, echo server"')
            t.expect(r'message: "Hello, echo server"')
            t.line(":sendButtonTapped")
            t.expect(r"Received messages:\s+Hello, echo server")
            t.line(":connectButtonTapped")
            t.expect(r"Status: disconnected")
            t.line(":sendButtonTapped")
            t.expect(r"Could not send socket message")
        finally:
            t.close()
    finally:
        server.kill()
        server.wait()

SHARED_NOTES = """
local relua = require "relua"
local Notes = relua.fileStorage("notes.json")
local Detail = relua.feature "Detail" {
  state = { note = { id = 0, text = "" } },
  shared = { note = Notes:element() },
  actions = { edit = "string" },
  reduce = relua.on { edit = function(s, text) s.note.text = text end },
  view = function(s) return "Note: " .. s.note.text end,
}
return relua.feature "List" {
  state = { notes = relua.identified {}, path = {} },
  shared = { notes = Notes },
  actions = { add = "string", open = "integer" },
  compose = { relua.stack("path", { detail = Detail }) },
  reduce = relua.on {
    add = function(s, text) s.notes[#s.notes + 1] = { id = #s.notes + 1, text = text } end,
    open = function(s, id) relua.push(s.path, { detail = { note = copy(s.notes[id]) } }) end,
  },
  view = function(s)
    local lines = {}
    for _, n in ipairs(s.notes) do lines[#lines + 1] = n.id .. ". " .. n.text end
    return "Notes: " .. table.concat(lines, ", ")
  end,
}
"""


def shared_notes_directory():
    directory = tempfile.mkdtemp(prefix="relua_shared_")
    with open(os.path.join(directory, "Notes.lua"), "w") as f:
        f.write(SHARED_NOTES)
    return directory


def test_shared_state_is_saved_marked_undone_and_kept_across_sessions():
    directory = shared_notes_directory()
    try:
        t = repl("Notes.lua", cwd=directory)
        try:
            t.expect(r"List> ")
            t.line(':add "milk"')
            t.expect(r"Notes: 1\. milk")
            t.line(":open 1")
            t.expect(r"Note: milk")
            t.line(':edit "oat milk"')
            t.expect(r"Note: oat milk")
            t.line(":state")
            t.expect(r"shared: state\.notes <- fileStorage\(\"notes\.json\"\)".replace("<-", "\u2190"))
            t.expect(r"shared: state\.path\[id=0\]\.detail\.note <- fileStorage\(\"notes\.json\"\):element\(\)".replace("<-", "\u2190"))
            t.line(":undo")
            t.expect(r"Note: milk")
            t.line(":quit")
            assert t.wait_exit() == 0
        finally:
            t.close()
        with open(os.path.join(directory, "notes.json")) as f:
            assert json.load(f) == [{"id": 1, "text": "milk"}], "the undone edit is what was saved"
        # A SIGTERM right after a change (inside the 0.2 s the save waits for) loses nothing.
        t = repl("Notes.lua", cwd=directory)
        try:
            t.expect(r"Notes: 1\. milk")
            t.line(':add "eggs"')
            t.expect(r"Notes: 1\. milk, 2\. eggs")
            os.kill(t.pid, signal.SIGTERM)
            t.wait_exit()
        finally:
            t.close()
        with open(os.path.join(directory, "notes.json")) as f:
            assert [n["text"] for n in json.load(f)] == ["milk", "eggs"]
    finally:
        shutil.rmtree(directory)


def test_a_trusted_os_exit_runs_the_shared_saves_still_waiting():
    # os.exit ends the process without returning through Swift: a save waiting out its 0.2 s
    # runs first (the exit hook), or the change a script just made is lost.
    directory = tempfile.mkdtemp(prefix="relua-exit-")
    try:
        with open(os.path.join(directory, "exit.lua"), "w") as f:
            f.write(
                'local relua = require "relua"\n'
                'local Notes = relua.fileStorage("notes.json")\n'
                'local F = relua.feature "F" { state = { notes = "" }, shared = { notes = Notes },\n'
                '  actions = { set = "string" }, reduce = relua.on { set = function(s, text) s.notes = text end } }\n'
                'local store = relua.Store(F)\n'
                'store:send("set", "kept")\n'
                'os.exit(3)\n')
        for close in ["", ", true"]:
            with open(os.path.join(directory, "exit.lua")) as f:
                source = f.read()
            with open(os.path.join(directory, "exit.lua"), "w") as f:
                f.write(re.sub(r"os\.exit\(3.*\)", "os.exit(3%s)" % close, source))
            notes = os.path.join(directory, "notes.json")
            if os.path.exists(notes):
                os.remove(notes)
            result = subprocess.run([RELUA, "--trusted", "exit.lua"], cwd=directory, capture_output=True, timeout=TIMEOUT)
            assert result.returncode == 3, result
            with open(notes) as f:
                assert json.load(f) == "kept", "os.exit(3%s) kept the change" % close
    finally:
        shutil.rmtree(directory)


def test_a_recorded_session_sets_up_and_asserts_shared_state():
    directory = shared_notes_directory()
    try:
        with open(os.path.join(directory, "notes.json"), "w") as f:
            f.write('[{"id": 1, "text": "milk"}]')
        t = repl("Notes.lua", cwd=directory)
        try:
            t.expect(r"Notes: 1\. milk")
            t.line(":record notes_test.lua")
            t.expect(r"recording")
            t.line(":open 1")
            t.expect(r"Note: milk")
            t.line(':edit "oat milk"')
            t.expect(r"Note: oat milk")
            t.line(":stop")
            t.expect(r"wrote notes_test\.lua")
        finally:
            t.close()
        result = subprocess.run([RELUA, "test", "notes_test.lua"], capture_output=True, text=True, cwd=directory, timeout=120)
        assert result.returncode == 0 and "1 passed, 0 failed" in result.stdout, result.stdout + result.stderr
        # The recorded state holds the shared fields: the test's fresh shares start from them.
        with open(os.path.join(directory, "notes_test.lua")) as f:
            assert '"text":"milk"' in f.read()
    finally:
        shutil.rmtree(directory)


LATER_ALERT_FEATURE = """
local relua = require "relua"
local Effect = relua.Effect
return relua.feature "Later" {
  state = { count = 0 },
  actions = { alertLater = {}, showAlert = {}, closeLater = {}, closeAlert = {} },
  compose = { relua.presents("alert", relua.alert {}) },
  reduce = relua.on {
    alertLater = function(_, _, deps)
      return Effect.run(function(send) deps.clock.sleep(0.5) send("showAlert") end)
    end,
    showAlert = function(s) s.alert = { title = "Later!", buttons = { { label = "OK" } } } end,
    closeLater = function(_, _, deps)
      return Effect.run(function(send) deps.clock.sleep(0.5) send("closeAlert") end)
    end,
    closeAlert = function(s) s.alert = nil end,
  },
  view = function(s) return ("Count: %d"):format(s.count) end,
}
"""


def test_the_prompt_follows_at_once_a_screen_an_effect_opens_or_closes():
    # The alert comes from an effect while a line is being typed: the prompt names it with the
    # breadcrumb, before Enter, and what was typed stays.
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    with open(os.path.join(directory, "Later.lua"), "w") as f:
        f.write(LATER_ALERT_FEATURE)
    t = repl("Later.lua", cwd=directory)
    try:
        t.expect(r"Count: 0")
        t.expect(r"Later> ")
        t.line(":alertLater")
        t.expect(r"Later> ")
        t.send(":sta")
        t.expect(r"── Later › Alert ──")
        t.expect(r"Later/Alert> :sta")
        t.line("te count")
        t.expect(r"\n0\r?\n")
        # And closed by an effect: the prompt goes back with the breadcrumb.
        t.line(":closeLater")
        t.expect(r"Later/Alert> ")
        t.send(":scr")
        t.expect(r"── Later ──")
        t.expect(r"Later> :scr")
        t.line("eens")
        t.expect(r"\nLater\r?\n")
    finally:
        t.close()


SCREEN_TASK_FEATURE = """
local relua = require "relua"
local Effect = relua.Effect
local Record = relua.feature "Record" {
  state = { seconds = 0 },
  actions = { onTask = {}, tick = {} },
  task = "onTask",
  reduce = relua.on {
    onTask = function(_, _, deps)
      return Effect.run(function(send) for _ in deps.clock.timer(0.3) do send("tick") end end)
    end,
    tick = function(s) s.seconds = s.seconds + 1 end,
  },
  view = function(s) return ("Recording: %d s"):format(s.seconds) end,
}
return relua.feature "Meetings" {
  state = { path = {}, loads = 0 },
  actions = { onTask = {}, start = {} },
  task = "onTask",
  compose = { relua.stack("path", { record = Record }) },
  reduce = relua.on {
    onTask = function(s) s.loads = s.loads + 1 end,
    start = function(s) relua.push(s.path, { record = { seconds = 0 } }) end,
  },
  view = function(s) return ("Meetings (loaded %d times)"):format(s.loads) end,
}
"""


def test_a_screens_task_runs_while_it_is_shown_and_is_recorded_as_sent():
    # Issue #34, gap 7 (TCA's .task): the root's task at start, a pushed screen's when it shows;
    # popping it cancels its timer; a recording writes each task as a send, as a TCA test does.
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    with open(os.path.join(directory, "Meetings.lua"), "w") as f:
        f.write(SCREEN_TASK_FEATURE)
    recorded = os.path.join(directory, "meetings_test.lua")
    t = repl("Meetings.lua", cwd=directory)
    try:
        t.expect(r"\(task\) :onTask")
        t.expect(r"Meetings \(loaded 1 times\)")
        t.expect(r"Meetings> ")
        t.line(":record %s" % recorded)
        t.expect(r"recording to")
        t.line(":start")
        t.expect(r"\(task\) :path\[id=0\]\.record\.onTask")
        t.expect(r"\(no change yet: 1 effect\(s\) started\)")
        t.expect(r"\(effect\)")
        t.expect(r"Recording: 1 s")
        t.line(":back")
        t.expect(r"Meetings \(loaded 1 times\)")
        t.line(":cancel")
        t.expect(r"\(no effect is running\)")
        t.line(":stop")
        t.expect(r"wrote .*meetings_test\.lua")
    finally:
        t.close()
    written = run_recorded_test(recorded, directory)
    assert 'store:send("path[id=0].record.onTask")' in written, written
    assert 'store:receive("path[id=0].record.tick"' in written, written


def test_a_bare_word_payload_says_how_to_quote_it():
    t = repl("Scripts/Features/CaseStudies/SharedState.lua")
    try:
        t.expect(r"> ")
        t.line(":selectTab profile")
        t.expect(r"got nil — profile is a Lua name \(a variable, nil here\); write \"profile\" to send the text")
        t.line(':selectTab "profile"')
        t.expect(r"currentTab = \"profile\"")
    finally:
        t.close()


def test_tab_completes_store_methods_and_nested_fields():
    t = repl("Scripts/Features/GuessingGame.lua")
    try:
        t.expect(r"Game> ")
        time.sleep(0.3)
        t.send("store:sta\t")
        t.expect(r"store:state")
        t.send("()\r")
        t.expect(r"counter = \{")
        t.line("config = { window = { title = 'x' } }")
        t.expect(r"Game> ")
        time.sleep(0.3)
        t.send("=config.window.ti\t")
        t.expect(r"config\.window\.title")
        t.send("\r")
        t.expect(r"\nx\r?\n")
    finally:
        t.close()


def test_sigterm_right_after_a_command_under_load_is_never_lost():
    # SIGTERM as the prompt comes back, 4 busy loops loading the CPU: libedit's readline must not
    # have saved (and restored) an ignored SIGTERM (1 run in 30 did, before EndingSignal).
    load = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(4)]
    try:
        for run in range(5):
            directory, recorded, t = start_recording("Scripts/Features/GuessingGame.lua", "term_test.lua", r"Games played: 0")
            try:
                t.line(":increment")
                t.expect(r"Guess: 1")
                time.sleep(0.01 * run)
                os.kill(t.pid, signal.SIGTERM)
                t.wait_exit(timeout=10)
            finally:
                t.close()
            assert os.path.exists(recorded), "run %d: no recording" % (run + 1)
    finally:
        for process in load:
            process.kill()
            process.wait()


def test_a_page_of_search_results_reads_in_a_screenful():
    # Ten rows with 150-character avatar URLs: three shown on a line each, the rest summed up.
    port = free_port()
    server = subprocess.Popen([RELUA, "fake-github", "--port", str(port), "--total-count", "15"],
                              stdout=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        t = repl("Scripts/Features/RepositorySearch.lua", env={"RELUA_GITHUB_API": "http://127.0.0.1:%d" % port})
        try:
            t.expect(r"RepositorySearch> ")
            t.line(':binding.query "tca"')
            t.expect(r"\(effect\)")
            diff = t.expect(r"(?s)items = \{(.*?)\n\s*\},").group(1)
            rows = [line for line in diff.splitlines() if line.strip()]
            assert len(rows) == 4, diff
            assert re.match(r"\+\s+\{ id = \d+, liked = false, repository = \{ … 9 more \} \},", rows[0]), diff
            assert re.match(r"\+\s+… 7 more rows \[id=\d+…id=\d+\]", rows[3]), diff
            assert "avatar_url" not in diff, diff
        finally:
            t.close()
    finally:
        server.kill()
        server.wait()


NOTES_WITH_A_SAVE_SHEET = """
local relua = require "relua"
local feature, on = relua.feature, relua.on
local Editor = feature "Editor" {
  state = { text = "" },
  bindable = { "text" },
  actions = { save = {}, cancel = {} },
  view = function(s) return "Editing: " .. s.text end,
}
return feature "Notes" {
  state = { saved = "", sheet = nil },
  actions = { edit = {} },
  compose = { relua.presents("sheet", Editor) },
  reduce = on {
    edit = function(s) s.sheet = { text = s.saved } end,
    ["sheet.save"] = function(s) s.saved = s.sheet.text; s.sheet = nil end,
    ["sheet.cancel"] = function(s) s.sheet = nil end,
  },
  view = function(s) return "Saved: " .. s.saved end,
}
"""


def test_a_sheets_save_and_cancel_are_its_actions_and_double_colon_is_the_command():
    directory = tempfile.mkdtemp(prefix="relua_repl_")
    with open(os.path.join(directory, "Notes.lua"), "w") as f:
        f.write(NOTES_WITH_A_SAVE_SHEET)
    saved = os.path.join(directory, "state.json")
    t = repl("Notes.lua", cwd=directory)
    try:
        t.expect(r"Notes> ")
        t.line(":edit")
        t.expect(r"Editing: ")
        t.line(':binding.text "hello"')
        t.expect(r"Editing: hello")
        t.line(":save")
        t.expect(r"\(:save sends Editor's action save, on screen; the REPL's command is ::save FILE\)")
        t.expect(r"Saved: hello")
        t.line(":save")                              # no action save on the root: the command
        t.expect(r"usage: :save FILE")
        t.line(":edit")
        t.expect(r"Notes/Editor> ")
        t.line(":save %s" % saved)                   # the action takes no payload: the command
        t.expect(r"is the REPL's command: Editor's action save takes no payload")
        t.expect(r"saved to")
        t.line("::cancel")
        t.expect(r"\(no effect is running\)")
        t.line(":help")
        t.expect(r"\(the REPL's command here is ::cancel \[N \| all\]\)")
        t.line(":cancel")
        t.expect(r"\(:cancel sends Editor's action cancel, on screen; the REPL's command is ::cancel \[N \| all\]\)")
        t.expect(r"Saved: hello")
        t.line("::edit")
        t.expect(r"unknown command '::edit'")
    finally:
        t.close()
    with open(saved) as f:
        assert json.load(f)["sheet"] == {"text": "hello"}


def records_with_one_record():
    directory = copy_scripts()
    t = repl("Scripts/Features/Records.lua", cwd=directory)
    t.expect(r"No records yet\.")
    t.line(":add")
    t.expect(r"Records › RecordForm")
    t.line(':binding.title "Dune"')
    t.expect(r"Title: \[Dune\]")
    t.line(":done")
    t.expect(r"Records: 1 \(0 favourites\)")
    return directory, t


def test_a_parent_action_typed_on_a_sheet_is_explained_and_a_draft_it_replaces_is_said():
    directory, t = records_with_one_record()
    try:
        t.line(":open 1")
        t.expect(r"Records/RecordDetail> ")
        t.line(":edit")
        t.expect(r"Records/RecordDetail/RecordForm> ")
        t.line(':binding.title "Dune Messiah"')
        t.expect(r"Title: \[Dune Messiah\]")
        # The detail's edit, covered by its sheet: not sent, and where it is said.
        t.line(":edit")
        t.expect(r"RecordForm has no action 'edit'")
        t.expect(r"\(edit is not an action of RecordForm, the screen on top; it is RecordDetail's, beneath it "
                 r"\(covered, as a sheet covers its parent in TCA\): :path\[id=0\]\.detail\.edit sends it\)")
        t.line(":state path[id=0].detail.form.title")
        t.expect(r'"Dune Messiah"')
        # Sent by its path: the detail's reducer presents the sheet again, and that is said.
        t.line(":path[id=0].detail.edit")
        t.expect(r'−\s+title = "Dune Messiah",')
        t.expect(r"\(note: path\[id=0\]\.detail\.edit is not RecordForm's action, yet it changed RecordForm, the screen on top")
    finally:
        t.close()


def test_a_clocks_ticks_are_written_over_each_other_and_recorded_one_by_one():
    directory, t = records_with_one_record()
    os.makedirs(os.path.join(directory, "Scripts", "Tests"))
    recorded = os.path.join(directory, "Scripts", "Tests", "records_clock_test.lua")
    try:
        t.line(":record %s" % recorded)
        t.expect(r"recording to")
        t.line(":open 1")
        t.expect(r"\(effect\)")
        t.expect(r"Viewed for 0:01")
        # The next ticks, each written over the one before: the count, the diff since the first.
        t.expect(r"\(effect ×2: path\[id=0\]\.detail\.timerTicked\)\s+\{[\s\S]*?−\s+secondsViewed = 0,\s+\+\s+secondsViewed = 2,", timeout=5)
        t.expect(r"Viewed for 0:02")
        t.expect(r"\(effect ×3: path\[id=0\]\.detail\.timerTicked\)", timeout=5)
        # A line entered: the next tick starts a block of its own.
        t.line(":state path[id=0].detail.secondsViewed")
        t.expect(r"\n\d+\r?\n")
        t.expect(r"\(effect\)\s+\{", timeout=5)
        t.line(":back")
        t.expect(r"── Records ──")
        t.line(":stop")
        t.expect(r"wrote .*records_clock_test\.lua")
    finally:
        t.close()
    written = run_recorded_test(recorded, directory)
    assert written.count('store:receive("path[id=0].detail.timerTicked"') >= 4, written


def test_an_unknown_element_id_is_one_message_and_nothing_is_sent():
    directory, t = records_with_one_record()
    try:
        t.line(":path[id=999].detail.toggleFavourite")
        match = t.expect(r"cannot send path\[id=999\]\.detail\.toggleFavourite: path has no element with the id 999 "
                         r"\(it is empty\); nothing was sent\r?\n(.*?)Records> ")
        assert match.group(1).strip() == "", match.group(0)
        t.line(":open 1")
        t.expect(r"Records/RecordDetail> ")
        t.line(":path[id=7].detail.edit")
        t.expect(r"path has no element with the id 7 \(its ids: 0\); nothing was sent")
        assert "missing element" not in t.buffer, t.buffer
    finally:
        t.close()


def main():
    # An optional second argument runs only the tests whose name contains it.
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    tests = [(name, value) for name, value in sorted(globals().items()) if name.startswith("test_") and only in name]
    passed = failed = 0
    for name, test in tests:
        try:
            test()
            passed += 1
            print("PASS " + name[5:].replace("_", " "))
        except Exception as error:  # noqa: BLE001 - every failure is reported
            failed += 1
            print("FAIL " + name[5:].replace("_", " "))
            print("   " + str(error).replace("\n", "\n   "))
        sys.stdout.flush()
    print("\n%d passed, %d failed" % (passed, failed))
    sys.exit(min(failed, 125))


if __name__ == "__main__":
    main()
