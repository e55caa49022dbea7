#!/usr/bin/python3
"""relua repl --inspect, in a real browser: the REPL on a pseudo-terminal (stdlib pty), its page in
headless Chromium driven by Selenium (Debian's chromium, chromium-driver and python3-selenium:
run it with /usr/bin/python3, whose packages those are).

Usage: /usr/bin/python3 Tests/inspector/test_inspector_browser.py PATH_TO_RELUA [NAME_PART]
Screenshots go to $RELUA_INSPECTOR_SCREENSHOTS (default: a new temporary directory, printed).
Prints one line per test and `N passed, N failed`; the exit code is the number of failures.
"""
import http.server
import os
import re
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

RELUA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "relua"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ADDRESS = r"Inspector: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))\n"
SCREENSHOTS = os.environ.get("RELUA_INSPECTOR_SCREENSHOTS") or tempfile.mkdtemp(prefix="relua-inspector-")

# The REPL on a pseudo-terminal, as its own tests drive it (same arguments: relua's path first).
sys.path.insert(0, os.path.join(ROOT, "Tests", "repl"))
from test_repl import repl, shared_notes_directory  # noqa: E402

# Chromium, waiting and the runner: shared with relua app's browser tests.
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
from browser_support import By, Select, browser, http_status, opened, run_tests, wait  # noqa: E402


def inspected(feature="Scripts/Features/GuessingGame.lua", *more, cwd=ROOT):
    """The REPL with --inspect, and its page's address (url, port, token)."""
    terminal = repl(feature, "--inspect", *more, cwd=cwd)
    match = terminal.expect(ADDRESS)
    terminal.expect(r"> ")
    return terminal, match.group(1), int(match.group(2)), match.group(3)


def listening_ports(pid):
    """The TCP ports process `pid` listens on (its sockets in /proc/net/tcp{,6} in state LISTEN)."""
    inodes = set()
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            target = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[3] == "0A" and fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def entry_names(driver):
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#log .entry .name")]


def leaf(driver, path):
    """The state tree's line at `path` ("/counter/count"), or None (shown or in a closed node)."""
    found = driver.find_elements(By.CSS_SELECTOR, '#state .leaf[data-path="%s"]' % path)
    return found[0].get_attribute("textContent") if found else None


def entry_head(driver, index):
    return driver.find_element(By.CSS_SELECTOR, '#log .entry[data-index="%d"] .entry-head' % index)


def last_entry(driver):
    """The log's last entry as (name, payload, sender), or None."""
    items = driver.find_elements(By.CSS_SELECTOR, "#log .entry")
    if not items:
        return None
    texts = [[e.text for e in items[-1].find_elements(By.CSS_SELECTOR, selector)] for selector in (".name", ".payload", ".sender")]
    return tuple(text[0] if text else "" for text in texts)


def send_from_page(driver, action_suffix, payload=None, submit=True):
    """Chooses the action whose path ends with `action_suffix` in the Send form, types the payload
    (if any) in the field the page made for it, and sends (unless not `submit`); returns its path."""
    choice = Select(driver.find_element(By.ID, "send-action"))
    paths = [option.get_attribute("value") for option in choice.options]
    matching = [path for path in paths if path == action_suffix or path.endswith("." + action_suffix)]
    assert matching, "no action %r in the form: %s" % (action_suffix, paths)
    choice.select_by_value(matching[0])
    if payload is not None:
        field = driver.find_element(By.ID, "send-payload")
        if field.tag_name == "select":
            Select(field).select_by_value(payload)
        else:
            field.clear()
            field.send_keys(payload)
    if submit:
        driver.find_element(By.ID, "send-button").click()
    return matching[0]


def screens(driver):
    """The screens pane's cards, root first: (name, place, badge, text, has close, is top); an alert
    drawn over its presenter is not a card of its own."""
    cards = []
    for card in driver.find_elements(By.CSS_SELECTOR, "#screens > .screen"):
        badge = card.find_elements(By.CSS_SELECTOR, ":scope > .screen-bar .badge")
        place = card.find_elements(By.CSS_SELECTOR, ":scope > .screen-place")
        cards.append((card.find_element(By.CSS_SELECTOR, ":scope > .screen-bar .screen-name").text,
                      place[0].text if place else "",
                      badge[0].text if badge else "",
                      card.find_element(By.CSS_SELECTOR, ":scope > .screen-body > .screen-text").text,
                      bool(card.find_elements(By.CSS_SELECTOR, ":scope > .screen-bar .close")),
                      "top" in card.get_attribute("class").split()))
    return cards


def screenshot(driver, name):
    path = os.path.join(SCREENSHOTS, name)
    driver.save_screenshot(path)
    assert os.path.getsize(path) > 10000, "the screenshot is empty"
    print("   screenshot: %s" % path)


# MARK: Tests


def test_an_action_typed_in_the_repl_appears_in_the_page_with_its_diff_and_state():
    terminal, url, port, _ = inspected()
    driver = None
    try:
        assert port in listening_ports(terminal.pid), "relua does not listen on %d" % port
        terminal.line(":increment")  # before the page opens: it comes with the history
        terminal.expect(r"count = 1")
        driver = browser()
        driver.get(url)
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", "the live status")
        wait(driver, lambda d: entry_names(d) == ["counter.increment"], "the history's counter.increment")
        assert driver.find_element(By.ID, "feature").text.startswith("Game"), driver.find_element(By.ID, "feature").text

        started = time.time()
        terminal.line(":setCount 42")
        terminal.expect(r"count = 42")
        wait(driver, lambda d: entry_names(d) == ["counter.increment", "counter.setCount"], "the live counter.setCount")
        latency = time.time() - started
        entry = driver.find_elements(By.CSS_SELECTOR, "#log .entry")[-1]
        assert entry.find_element(By.CSS_SELECTOR, ".payload").text == "42"
        assert entry.find_element(By.CSS_SELECTOR, ".sender").text == "typed"
        assert re.fullmatch(r"\d\d:\d\d:\d\d\.\d\d\d", entry.find_element(By.CSS_SELECTOR, ".time").text)
        diff = entry.find_element(By.CSS_SELECTOR, ".diff")
        assert not diff.is_displayed()
        entry.find_element(By.CSS_SELECTOR, ".entry-head").click()
        wait(driver, lambda d: diff.is_displayed(), "the diff after a click")
        added = [e.text.split() for e in diff.find_elements(By.CSS_SELECTOR, ".added")]
        removed = [e.text.split() for e in diff.find_elements(By.CSS_SELECTOR, ".removed")]
        assert added == [["+", "count", "=", "42,"]] and removed == [["−", "count", "=", "1,"]], diff.text
        # The state tree, at the new count (the state after the entry clicked, the latest).
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 42", "the state after counter.setCount")
        # Back to now: the state follows the REPL again.
        driver.find_element(By.ID, "back-to-now").click()
        wait(driver, lambda d: not diff.is_displayed() and not d.find_element(By.ID, "travel").is_displayed(),
             "the diff closed and the state at now")

        # :undo shows as a replaced state, and the tree follows it.
        terminal.line(":undo")
        terminal.expect(r"count = 1")
        wait(driver, lambda d: entry_names(d)[-1:] == [":undo"], "the :undo entry")
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 1", "the state after :undo")
        path = os.path.join(SCREENSHOTS, "inspector.png")
        driver.save_screenshot(path)
        assert os.path.getsize(path) > 10000, "the screenshot is empty"
        print("   screenshot: %s; an action reached the page %.0f ms after it was typed" % (path, latency * 1000))
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_clicking_an_entry_shows_the_state_after_it_and_jump_here_takes_the_repl_there():
    terminal, url, _, _ = inspected()
    driver = None
    # (under Scripts/, where its test can require the feature: :record refuses any other place)
    record = tempfile.mkdtemp(prefix="relua-inspector-record-", dir=os.path.join(ROOT, "Scripts"))
    try:
        for line, shown in ((":increment", "count = 1"), (":increment", "count = 2"), (":setCount 42", "count = 42")):
            terminal.line(line)
            terminal.expect(shown)
        driver = opened(url)
        wait(driver, lambda d: len(entry_names(d)) == 3, "the three entries")
        # The past: the state after #1, an older count, asked for and marked as the past.
        entry_head(driver, 1).click()
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 1", "the state after #1")
        title = driver.find_element(By.ID, "travel-title").text
        assert title == "State after #1 counter.increment — viewing the past", title
        assert driver.find_element(By.CSS_SELECTOR, '#log .entry[data-index="1"] .diff').is_displayed()
        # Another entry, then back to #1: the answer is cached (no second stateAt).
        entry_head(driver, 2).click()
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 2", "the state after #2")
        asked = driver.execute_script("return nextRequest")
        entry_head(driver, 1).click()
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 1", "the state after #1 again")
        assert driver.execute_script("return nextRequest") == asked, "the state after #1 was asked for twice"
        screenshot(driver, "inspector-past.png")

        # Jump here: the REPL goes there (and says so), the log gets a jump entry, the page shows now.
        jump = driver.find_element(By.ID, "jump")
        assert jump.is_enabled(), jump.get_attribute("title")
        jump.click()
        terminal.expect(r"−\s+count = 42,")
        terminal.expect(r"\+\s+count = 1,")
        wait(driver, lambda d: entry_names(d)[-1:] == [":jump → #1"], "the jump entry")
        wait(driver, lambda d: not d.find_element(By.ID, "travel").is_displayed(), "the state at now after the jump")
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 1", "the state now, after the jump")
        assert not driver.find_element(By.ID, "travel-error").is_displayed()
        terminal.line(":state")
        terminal.expect(r"count = 1,")

        # While the REPL records a test, jumping is off, and the button says why.
        terminal.line(":record %s" % os.path.join(record, "Jump_test.lua"))
        terminal.expect(r"recording to")
        # (the page learns it with the next entry's LIVE: :record itself sends none)
        terminal.line(":increment")
        terminal.expect(r"count = 2")
        wait(driver, lambda d: len(entry_names(d)) == 5, "the entry after :record")
        entry_head(driver, 2).click()
        wait(driver, lambda d: not d.find_element(By.ID, "jump").is_enabled(), "Jump here disabled while recording")
        assert ":stop" in driver.find_element(By.ID, "jump").get_attribute("title")
    finally:
        if driver:
            driver.quit()
        terminal.close()
        shutil.rmtree(record, ignore_errors=True)


def test_an_action_sent_from_the_page_changes_the_repls_state_and_is_marked_as_sent_by_the_page():
    terminal, url, _, _ = inspected()
    driver = None
    try:
        driver = opened(url)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#send-action option"), "the form's actions")
        send_from_page(driver, "setCount", submit=False)
        # (an integer: a number field, stepping by one)
        field = driver.find_element(By.ID, "send-payload")
        assert (field.get_attribute("type"), field.get_attribute("step")) == ("number", "1"), field.get_attribute("outerHTML")
        path = send_from_page(driver, "setCount", "7")
        terminal.expect(r"\(inspector\) :counter\.setCount 7")
        terminal.expect(r"\+\s+count = 7,")
        wait(driver, lambda d: last_entry(d) == (path, "7", "page"), "the page's %s 7" % path)
        assert not driver.find_element(By.ID, "send-error").is_displayed()
        # No payload: no field.
        path = send_from_page(driver, "increment")
        assert not driver.find_elements(By.ID, "send-payload")
        terminal.expect(r"\+\s+count = 8,")
        wait(driver, lambda d: last_entry(d) == (path, "", "page"), "the page's %s" % path)
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 8", "the state after the page's actions")
        terminal.line(":state")
        terminal.expect(r"count = 8,")
        screenshot(driver, "inspector-sent.png")
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_a_payload_of_the_wrong_type_from_the_page_shows_the_repls_error_and_changes_nothing():
    terminal, url, _, _ = inspected()
    driver = None
    try:
        terminal.line(":setCount 1.5")
        error = terminal.expect(r"(action 'counter\.setCount'[^\r\n]*)").group(1)
        driver = opened(url)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#send-action option"), "the form's actions")
        send_from_page(driver, "setCount", "1.5")
        wait(driver, lambda d: d.find_element(By.ID, "send-error").text == error, "the REPL's error: %s" % error)
        # The REPL shows what the page sent, and the same error.
        terminal.expect(r"\(inspector\) :counter\.setCount 1\.5")
        terminal.expect(re.escape(error))
        assert entry_names(driver) == [], entry_names(driver)
        assert leaf(driver, "/counter/count") == "count = 0", leaf(driver, "/counter/count")
        # A good one next clears the error.
        send_from_page(driver, "setCount", "3")
        wait(driver, lambda d: not d.find_element(By.ID, "send-error").is_displayed(), "the error cleared")
        wait(driver, lambda d: leaf(d, "/counter/count") == "count = 3", "count = 3")

        # A payload that is not JSON (a table's field) is refused by the page: nothing is sent.
        terminal.line(":showResults")
        terminal.expect(r"No results yet\.")
        wait(driver, lambda d: any(p.endswith("remove") for p in
                                   [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#send-action option")]),
             "the results list's remove in the form")
        before = len(entry_names(driver))
        asked = driver.execute_script("return nextRequest")
        send_from_page(driver, "remove", "[1,")
        wait(driver, lambda d: d.find_element(By.ID, "send-error").text.startswith("the payload is not JSON"), "the JSON error")
        assert driver.execute_script("return nextRequest") == asked, "a payload that is not JSON was sent"
        assert len(entry_names(driver)) == before
        # JSON of the wrong type: the REPL's error again, as for the same payload typed in Lua.
        terminal.line(':destination.results.remove {"a"}')
        error = terminal.expect(r"(action 'destination\.results\.remove'[^\r\n]*)").group(1)
        send_from_page(driver, "remove", '["a"]')
        wait(driver, lambda d: d.find_element(By.ID, "send-error").text == error, "the REPL's error: %s" % error)
        assert len(entry_names(driver)) == before
        screenshot(driver, "inspector-send-error.png")
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_the_screens_pane_shows_a_presented_screen_and_its_close_button_dismisses_it():
    terminal, url, _, _ = inspected()
    driver = None
    try:
        driver = opened(url)
        wait(driver, lambda d: [c[0] for c in screens(d)] == ["Game"], "the root screen")
        root = screens(driver)[0]
        assert root[2] == "" and "Guess: 0" in root[3] and root[5], root
        terminal.line(":showResults")
        terminal.expect(r"No results yet\.")
        wait(driver, lambda d: len(screens(d)) == 2, "the presented results list")
        game, results = screens(driver)
        assert not game[5], game
        assert results == ("ResultList", "destination.results", "presented", "No results yet.", True, True), results
        screenshot(driver, "inspector-screens.png")
        driver.find_element(By.CSS_SELECTOR, "#screens .screen.top .close").click()
        terminal.expect(r"−\s+destination = ")
        wait(driver, lambda d: [c[0] for c in screens(d)] == ["Game"], "the results list dismissed")
        assert last_entry(driver)[0].endswith("dismiss") and last_entry(driver)[2] == "page", last_entry(driver)
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_pushed_screens_and_alerts_are_drawn_as_such():
    terminal, url, _, _ = inspected("Scripts/Features/CaseStudies/Stack.lua")
    driver = None
    try:
        driver = opened(url)
        terminal.line(":pushDetail")
        terminal.expect(r"Level 1")
        wait(driver, lambda d: len(screens(d)) == 2, "the pushed detail")
        detail = screens(driver)[1]
        assert detail[0] == "Detail" and detail[2] == "pushed" and "Level 1" in detail[3] and detail[5], detail
        assert "path" in detail[1] and detail[4], detail
        driver.find_element(By.CSS_SELECTOR, "#screens .screen.top .close").click()
        terminal.expect(r"Root   \[Push detail › :pushDetail\]")
        wait(driver, lambda d: [c[0] for c in screens(d)] == ["Stack"], "the detail popped")
        assert last_entry(driver)[:2] == ("path.popFrom", "0"), last_entry(driver)
    finally:
        if driver:
            driver.quit()
        terminal.close()
    terminal, url, _, _ = inspected("Scripts/Features/CaseStudies/AlertsAndConfirmationDialogs.lua")
    driver = None
    try:
        driver = opened(url)
        terminal.line(":alertButtonTapped")
        terminal.expect(r"This is an alert")
        # Over its presenter, not a card of its own.
        dialog = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#screens .screen.has-dialog .screen.dialog"),
                      "the alert over its presenter")[0]
        assert len(screens(driver)) == 1, screens(driver)
        assert dialog.find_element(By.CSS_SELECTOR, ".badge").text == "alert", dialog.get_attribute("outerHTML")
        assert "This is an alert" in dialog.find_element(By.CSS_SELECTOR, ".screen-text").text, dialog.text
        assert "top" in dialog.get_attribute("class").split(), dialog.get_attribute("class")
        screenshot(driver, "inspector-alert.png")
        dialog.find_element(By.CSS_SELECTOR, ".close").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "#screens .screen.dialog"), "the alert dismissed")
        assert last_entry(driver)[:1] == ("alert.dismiss",), last_entry(driver)
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_a_running_effect_is_listed_with_its_cancel_id_and_cancel_stops_it():
    terminal, url, _, _ = inspected("Scripts/Features/CaseStudies/Timers.lua")
    driver = None
    try:
        driver = opened(url)
        wait(driver, lambda d: d.find_element(By.ID, "effects").text == "(no effect is running)", "no effect")
        terminal.line(":toggleTimerButtonTapped")
        effect = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#effects .effect"), "the timer's effect")[0]
        label = effect.find_element(By.CSS_SELECTOR, ".effect-label").text
        # (cancel ids as Lua literals, as :cancel lists them)
        assert re.fullmatch(r'#\d+ effect — cancellable as "timer"', label), label
        wait(driver, lambda d: "timerTicked" in entry_names(d), "a tick")
        screenshot(driver, "inspector-effects.png")
        driver.find_element(By.CSS_SELECTOR, "#effects .effect .cancel").click()
        wait(driver, lambda d: d.find_element(By.ID, "effects").text == "(no effect is running)", "the effect cancelled")
        assert not driver.find_element(By.ID, "effects-error").is_displayed()
        terminal.line(":cancel")
        terminal.expect(r"\(no effect is running\)")
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_a_named_effect_is_listed_with_its_name_and_line():
    terminal, url, _, _ = inspected("Scripts/Features/CaseStudies/ConcurrentEffects.lua")
    driver = None
    try:
        driver = opened(url)
        wait(driver, lambda d: d.find_element(By.ID, "effects").text == "(no effect is running)", "no effect")
        terminal.line(":onTask")
        effect = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#effects .effect"), "the recording effect")[0]
        label = effect.find_element(By.CSS_SELECTOR, ".effect-label").text
        assert re.fullmatch(r'#\d+ effect "recording" \(Scripts/Features/CaseStudies/ConcurrentEffects\.lua:24\) — cancellable as "recording"', label), label
        driver.find_element(By.CSS_SELECTOR, "#effects .effect .cancel").click()
        wait(driver, lambda d: d.find_element(By.ID, "effects").text == "(no effect is running)", "the effect cancelled")
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_export_downloads_a_test_of_the_session_that_relua_test_passes():
    # A copy of the scripts: the test is written beside the feature, as the page says.
    copy = tempfile.mkdtemp(prefix="relua-inspector-export-")
    shutil.copytree(os.path.join(ROOT, "Scripts"), os.path.join(copy, "Scripts"))
    downloads = os.path.join(copy, "downloads")
    os.mkdir(downloads)
    terminal, url, _, _ = inspected(cwd=copy)
    driver = None
    try:
        driver = opened(url, downloads=downloads)
        wait(driver, lambda d: d.find_element(By.ID, "export-summary").text == "0 actions since open", "nothing to export yet")
        terminal.line(":increment")
        terminal.expect(r"count = 1")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#send-action option"), "the form's actions")
        send_from_page(driver, "setCount", "5")
        terminal.expect(r"\+\s+count = 5,")
        send_from_page(driver, "decrement")
        terminal.expect(r"\+\s+count = 4,")
        wait(driver, lambda d: d.find_element(By.ID, "export-summary").text == "3 actions since open", "three actions to export")
        driver.find_element(By.ID, "export-button").click()
        text = wait(driver, lambda d: d.execute_script("return document.getElementById('export-text').textContent"),
                    "the exported text")
        assert not driver.find_element(By.ID, "export-error").is_displayed(), driver.find_element(By.ID, "export-error").text
        for part in ("relua.TestStore", '"counter.increment"', '"counter.setCount", 5', '"counter.decrement"'):
            assert part in text, (part, text)
        note = driver.find_element(By.ID, "export-note").text
        match = re.match(r"(\w+_test\.lua): 3 actions since open — save it beside the feature script", note)
        assert match, note
        file_name = match.group(1)
        # The download: the same text, under that name.
        downloaded = os.path.join(downloads, file_name)
        wait(driver, lambda d: os.path.exists(downloaded) and open(downloaded).read() == text, "the download of %s" % file_name)
        screenshot(driver, "inspector-export.png")
        # And it passes.
        shutil.copy(downloaded, os.path.join(copy, "Scripts", "Features", file_name))
        run = subprocess.run([RELUA, "test", os.path.join("Scripts", "Features", file_name)], cwd=copy,
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == 0 and "1 passed, 0 failed" in run.stdout, run.stdout + run.stderr
    finally:
        if driver:
            driver.quit()
        terminal.close()
        shutil.rmtree(copy, ignore_errors=True)


def test_a_programs_store_shows_its_sends_as_program_and_the_pages_as_page():
    # relua-todo (Examples/relua-todo): a Swift program's store with StoreInspector, built beside relua.
    todo = os.path.join(os.path.dirname(RELUA), "relua-todo")
    if not os.path.exists(todo):
        print("   skipped: no relua-todo beside %s (swift build builds it)" % RELUA)
        return
    directory = tempfile.mkdtemp(prefix="relua-inspector-todo-")
    program = subprocess.Popen([todo, "--file", os.path.join(directory, "todo.json"), "--inspect"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    driver = None
    try:
        match = re.fullmatch(ADDRESS, program.stdout.readline())
        assert match, "relua-todo printed no inspector address"
        driver = opened(match.group(1))
        program.stdin.write("add tea\n")
        program.stdin.flush()
        wait(driver, lambda d: last_entry(d) == ("add", '"tea"', "program"), "the program's add")
        send_from_page(driver, "add", "milk")  # a string: a text field, sent as a JSON string
        wait(driver, lambda d: last_entry(d) == ("add", '"milk"', "page"), "the page's add")
        wait(driver, lambda d: leaf(d, "/items/[2]/title") == 'title = "milk"', "milk in the state")
        # Each sender its own colour.
        colours = driver.execute_script("""
            return [...document.querySelectorAll('#log .sender')].map(e => [e.textContent, getComputedStyle(e).color]);""")
        by_sender = dict(colours)
        assert len(set(by_sender.values())) == len(by_sender) == 2, colours
        screenshot(driver, "inspector-program.png")
    finally:
        if driver:
            driver.quit()
        program.kill()
        program.wait()
        shutil.rmtree(directory, ignore_errors=True)


def test_actions_an_effect_sends_are_marked_as_sent_by_an_effect():
    terminal, url, _, _ = inspected("Scripts/Features/CaseStudies/Timers.lua")
    driver = browser()
    try:
        driver.get(url)
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", "the live status")
        terminal.line(":toggleTimerButtonTapped")
        wait(driver, lambda d: "timerTicked" in entry_names(d), "a timer tick", timeout=5)
        terminal.line(":toggleTimerButtonTapped")
        senders = {e.find_element(By.CSS_SELECTOR, ".name").text: e.find_element(By.CSS_SELECTOR, ".sender").text
                   for e in driver.find_elements(By.CSS_SELECTOR, "#log .entry")}
        assert senders["toggleTimerButtonTapped"] == "typed" and senders["timerTicked"] == "effect", senders
    finally:
        driver.quit()
        terminal.close()


SCREEN_TASKS_FEATURE = """
local relua = require "relua"
local Detail = relua.feature "Detail" {
  state = { loads = 0 },
  actions = { onTask = {} },
  task = "onTask",
  reduce = relua.on { onTask = function(s) s.loads = s.loads + 1 end },
}
return relua.feature "Meetings" {
  state = { loads = 0, path = {} },
  actions = { onTask = {}, open = {} },
  task = "onTask",
  compose = { relua.stack("path", { detail = Detail }) },
  reduce = relua.on {
    onTask = function(s) s.loads = s.loads + 1 end,
    open = function(s) relua.push(s.path, { detail = { loads = 0 } }) end,
  },
}
"""


def test_a_screens_task_is_logged_as_sent_by_task_and_shown_on_its_screen():
    # Issue #34, gap 7: the REPL sends a screen's task as it appears; the page says so.
    directory = tempfile.mkdtemp(prefix="relua_inspector_")
    with open(os.path.join(directory, "Meetings.lua"), "w") as f:
        f.write(SCREEN_TASKS_FEATURE)
    terminal, url, _, _ = inspected("Meetings.lua", cwd=directory)
    driver = None
    try:
        driver = opened(url)
        terminal.line(":open")
        terminal.expect(r"\(task\) :path\[id=0\]\.detail\.onTask")
        wait(driver, lambda d: len(screens(d)) == 2, "the pushed screen")
        senders = [(e.find_element(By.CSS_SELECTOR, ".name").text, e.find_element(By.CSS_SELECTOR, ".sender").text)
                   for e in driver.find_elements(By.CSS_SELECTOR, "#log .entry")]
        assert senders == [("onTask", "task"), ("open", "typed"), ("path[id=0].detail.onTask", "task")], senders
        tasks = [card.find_element(By.CSS_SELECTOR, ":scope > .screen-tasks").text
                 for card in driver.find_elements(By.CSS_SELECTOR, "#screens > .screen")]
        assert tasks == ["task: onTask", "task: path[id=0].detail.onTask"], tasks
    finally:
        if driver:
            driver.quit()
        terminal.close()


def test_a_page_that_reconnects_gets_the_history_again_without_duplicates():
    terminal, url, _, _ = inspected()
    driver = browser()
    try:
        driver.get(url)
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", "the live status")
        terminal.line(":increment")
        terminal.line(":increment")
        wait(driver, lambda d: len(entry_names(d)) == 2, "two entries")
        driver.execute_script("socket.close()")
        wait(driver, lambda d: d.find_element(By.ID, "status").text != "live", "the dropped connection", timeout=5)
        wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", "the reconnection")
        terminal.line(":decrement")
        wait(driver, lambda d: entry_names(d) == ["counter.increment", "counter.increment", "counter.decrement"],
             "the history once and the new action")
    finally:
        driver.quit()
        terminal.close()


def test_requests_without_the_token_and_foreign_websockets_are_refused():
    terminal, url, port, token = inspected()
    driver = browser()
    other = None
    try:
        base = "http://127.0.0.1:%d" % port
        assert http_status(url)[0] == 200
        for refused in (base + "/", base + "/?token=" + "0" * 32, base + "/app.js", base + "/ws",
                        base + "/nothing-here"):
            code, body = http_status(refused)
            assert code == 403 and "token" in body, (refused, code, body)
        code, body = http_status(url, {"Host": "evil.example:%d" % port})
        assert code == 403, (code, body)
        # Without the token the browser gets 403 too.
        driver.get(base + "/")
        assert "403 Forbidden" in driver.find_element(By.TAG_NAME, "body").text
        # A page of another origin (another loopback port) opening the WebSocket, token and all.
        other = AnotherOrigin(("127.0.0.1", 0), QuietPage)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        driver.get("http://127.0.0.1:%d/" % other.server_address[1])
        outcome = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const socket = new WebSocket(arguments[0]);
            socket.onopen = () => done("opened");
            socket.onmessage = (e) => done("got: " + e.data.slice(0, 60));
            socket.onerror = () => done("refused");
        """, "ws://127.0.0.1:%d/ws?token=%s" % (port, token))
        assert outcome == "refused", outcome
        # The page's own origin may (the same script, from the inspector's page).
        driver.get(url)
        outcome = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const socket = new WebSocket(arguments[0]);
            socket.onmessage = (e) => done(JSON.parse(e.data).type);
            socket.onerror = () => done("refused");
        """, "ws://127.0.0.1:%d/ws?token=%s" % (port, token))
        assert outcome == "history", outcome
    finally:
        if other:
            other.shutdown()
            other.server_close()
        driver.quit()
        terminal.close()



def test_shared_values_are_marked_with_their_keys_in_the_state_tree():
    directory = shared_notes_directory()
    terminal, url, _, _ = inspected("Notes.lua", cwd=directory)
    driver = None
    try:
        terminal.line(':add "milk"')
        terminal.expect(r"Notes: 1\. milk")
        terminal.line(":open 1")
        terminal.expect(r"Note: milk")
        driver = opened(url)

        def marks(d):
            found = {}
            for mark in d.find_elements(By.CSS_SELECTOR, "#state .shared-mark"):
                holder = mark.find_element(By.XPATH, "./ancestor::*[@data-path][1]")
                found[holder.get_attribute("data-path")] = mark.get_attribute("textContent")
            return found

        wait(driver, lambda d: marks(d) == {
            "/notes": 'shared: fileStorage("notes.json")',
            "/path/[1]/detail/note": 'shared: fileStorage("notes.json"):element()',
        }, "the shared places marked")
        # An edit through the detail shows in the list's copy too.
        terminal.line(':edit "oat milk"')
        terminal.expect(r"Note: oat milk")
        driver.execute_script("document.querySelectorAll('#state details').forEach(d => d.open = true)")
        wait(driver, lambda d: leaf(d, "/notes/[1]/text") == 'text = "oat milk"', "the list's copy edited")
        screenshot(driver, "inspector-shared.png")
    finally:
        if driver:
            driver.quit()
        terminal.close()
        shutil.rmtree(directory)

def test_the_repl_without_inspect_serves_nothing():
    terminal = repl("Scripts/Features/GuessingGame.lua")
    try:
        terminal.expect(r"> ")
        terminal.line(":increment")
        terminal.expect(r"count = 1")
        assert "Inspector" not in terminal.buffer, terminal.buffer
        assert listening_ports(terminal.pid) == set(), listening_ports(terminal.pid)
    finally:
        terminal.close()


class AnotherOrigin(socketserver.ThreadingTCPServer):
    """A thread per connection: Chromium opens spare connections it may never use, and a
    one-connection-at-a-time server would wait on one of them (for minutes) before the real request."""

    daemon_threads = True


class QuietPage(http.server.BaseHTTPRequestHandler):
    """An empty page on another origin."""

    def do_GET(self):
        body = b"<!doctype html><title>another origin</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def main():
    run_tests(globals(), sys.argv[2] if len(sys.argv) > 2 else "")


if __name__ == "__main__":
    main()
