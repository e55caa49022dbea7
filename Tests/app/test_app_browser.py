#!/usr/bin/python3
"""relua app in a real browser: the server as a subprocess, its page in headless Chromium driven by
Selenium (Debian's chromium, chromium-driver and python3-selenium: run it with /usr/bin/python3).

Usage: /usr/bin/python3 Tests/app/test_app_browser.py PATH_TO_RELUA [NAME_PART]
Screenshots go to $RELUA_APP_SCREENSHOTS (default: a new temporary directory, printed);
RELUA_APP_README_SCREENSHOT=PATH also writes the guessing game at 1000×700 there (docs/images/app.png).
Prints one line per test and `N passed, N failed`; the exit code is the number of failures.
"""
import base64
import os
import re
import socket
import subprocess
import sys
import tempfile

RELUA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "relua"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
ADDRESS = re.compile(r"App: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))")
SCREENSHOTS = os.environ.get("RELUA_APP_SCREENSHOTS") or tempfile.mkdtemp(prefix="relua-app-")

# Chromium, waiting and the runner: shared with the inspector's browser tests.
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
from browser_support import (  # noqa: E402
    By, Keys, NoSuchElementException, Select, http_status, run_tests, wait)
from browser_support import opened as opened_url  # noqa: E402


class App:
    """`relua app FEATURE` running, and its address."""

    def __init__(self, feature, *more, env=None):
        self.process = subprocess.Popen(
            [RELUA, "app", feature, *more], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, **(env or {})})
        line = self.process.stdout.readline()
        match = ADDRESS.search(line)
        if not match:
            self.close()
            raise AssertionError("relua app printed no address: %r %s" % (line, self.process.stderr.read()))
        self.url, self.port, self.token = match.group(1), int(match.group(2)), match.group(3)

    def close(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


def opened(app, **size):
    return opened_url(app.url, **size)


def button(scope, label):
    """The visible <button> whose text is `label` in `scope` (the driver or an element)."""
    for element in scope.find_elements(By.TAG_NAME, "button"):
        if element.text.strip() == label and element.is_displayed():
            # (Centred, so that the sticky navigation bar does not cover it.)
            element.parent.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            return element
    raise NoSuchElementException("no button %r" % label)


def text_containing(driver, part):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#main .text, #main pre, dialog .text, dialog pre") if part in e.text]


def control_path(driver, kind, label, place=""):
    """The path (child indices from the root, list rows by position) of the first node of `kind`
    labelled `label` in the tree the page last received for the screen at `place`, found by
    walking the tree, as what the page sends names a control: a test does not depend on layout."""
    path = driver.execute_script("""
        const [kind, label, place] = arguments;
        const screen = window.reluaApp.screens.find((s) => s.place === place);
        const below = (node) => node.kind === "list" ? node.rows.map((row) => row.content) : (node.children || []);
        const find = (node, path) => {
          if (node.kind === kind && node.label === label) return path;
          const children = below(node);
          for (let i = 0; i < children.length; i++) {
            const found = find(children[i], path.concat(i));
            if (found) return found;
          }
          return null;
        };
        return screen ? find(screen.tree, []) : null;""", kind, label, place)
    assert path is not None, "no %s labelled %r on the screen %r" % (kind, label, place)
    return path


def screenshot(driver, name):
    path = os.path.join(SCREENSHOTS, name)
    driver.save_screenshot(path)
    return path


def websocket_handshake(port, path, origin):
    """The status line and body of a raw WebSocket handshake."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        key = base64.b64encode(os.urandom(16)).decode()
        head = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%sUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n") % (
                    path, port, "Origin: %s\r\n" % origin if origin else "", key)
        connection.sendall(head.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
        try:
            connection.settimeout(1)
            answer += connection.recv(4096)
        except OSError:
            pass
        return answer.decode(errors="replace")


# MARK: Tests

def guess_text(driver):
    found = text_containing(driver, "Guess:")
    return found[0] if found else ""


def test_the_guessing_game_played_by_clicking():
    app = App("Scripts/Features/GuessingGame.lua")
    driver = None
    try:
        driver = opened(app)
        wait(driver, lambda d: "Guess: 0" in guess_text(d), "the guess")
        assert [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#crumbs li")] == ["Game"]
        for _ in range(220):
            shown = guess_text(driver)
            if "correct" in shown:
                break
            before = shown
            button(driver, "+" if "higher" in shown else "-").click()
            wait(driver, lambda d: guess_text(d) != before, "the guess changed")
        assert "correct" in guess_text(driver), guess_text(driver)
        secret = int(re.search(r"Guess: (-?\d+)", guess_text(driver)).group(1))
        button(driver, "Next").click()
        wait(driver, lambda d: text_containing(d, "Games played: 1"), "one game played")
        button(driver, "Results").click()
        dialog = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.sheet[open]"), "the results sheet")
        rows = dialog.find_elements(By.CSS_SELECTOR, "ul.list > li")
        assert len(rows) == 1 and "Secret: %d" % secret in rows[0].text and "✓" in rows[0].text, [r.text for r in rows]
        screenshot(driver, "app-results.png")
        if os.environ.get("RELUA_APP_README_SCREENSHOT"):
            readme_screenshot(app, os.environ["RELUA_APP_README_SCREENSHOT"])
        button(rows[0], "Delete").click()
        wait(driver, lambda d: "No results yet." in d.find_element(By.CSS_SELECTOR, "dialog.sheet[open]").text, "the row deleted")
        button(dialog, "Close").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the sheet closed")
        wait(driver, lambda d: text_containing(d, "Games played: 0"), "the deletion kept")
    finally:
        if driver:
            driver.quit()
        app.close()


def readme_screenshot(app, path):
    """The guessing game's results sheet at 1000×700, in a second page of the same app (the same state)."""
    driver = opened(app, width=1000, height=700)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": False})
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.sheet[open] ul.list > li"), "the results")
        driver.save_screenshot(path)
    finally:
        driver.quit()


def test_an_alerts_button():
    app = App("Scripts/Features/CaseStudies/AlertsAndConfirmationDialogs.lua")
    driver = None
    try:
        driver = opened(app)
        wait(driver, lambda d: button(d, "Alert"), "the Alert button")
        button(driver, "Alert").click()
        dialog = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert[open]"), "the alert")
        assert "Alert!" in dialog.text and "This is an alert" in dialog.text, dialog.text
        screenshot(driver, "app-alert.png")
        button(dialog, "Increment").click()
        # The button's action ran (count 1) and a new alert says so.
        wait(driver, lambda d: "Incremented!" in d.find_element(By.CSS_SELECTOR, "dialog.alert[open]").text, "the result's alert")
        wait(driver, lambda d: text_containing(d, "Count: 1"), "count 1")
        button(driver.find_element(By.CSS_SELECTOR, "dialog.alert[open]"), "OK").click()
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the alert dismissed")
        button(driver, "Confirmation dialog").click()
        dialog = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert[open]"), "the dialog")
        button(dialog, "Decrement").click()
        wait(driver, lambda d: text_containing(d, "Count: 0"), "count 0")
        dialog = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert[open]"), "the result's alert")
        assert "Decremented!" in dialog.text, dialog.text
        # Escape dismisses it through the store (its close action), as the keyboard would.
        dialog.send_keys(Keys.ESCAPE)
        wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog[open]"), "the alert dismissed by Escape")
    finally:
        if driver:
            driver.quit()
        app.close()


def form_summary(driver):
    return text_containing(driver, "minutes")


def test_a_bad_input_is_refused_with_the_error_and_state_unchanged():
    app = App("Tests/app/Features/Form.lua")
    driver = None
    try:
        driver = opened(app)
        wait(driver, lambda d: form_summary(d) == ["Retro, not done, 5 minutes, light"], "the form")
        # The page's own controls: a label names each field, the stepper's + and the toggle work.
        title = driver.find_element(By.XPATH, "//label[span='Title']/input")
        title.send_keys(" notes")
        driver.find_element(By.XPATH, "//label[span='Done']/input[@type='checkbox']").click()
        button(driver, "+").click()
        Select(driver.find_element(By.XPATH, "//label[span='Theme']/select")).select_by_visible_text("dark")
        wait(driver, lambda d: form_summary(d) == ["Retro notes, done, 6 minutes, dark"], "the form edited")
        stepper = driver.find_element(By.CSS_SELECTOR, ".stepper input[type=number]")
        label = driver.find_element(By.CSS_SELECTOR, ".stepper label")
        assert label.get_attribute("for") == stepper.get_attribute("id")
        # Text for the integer stepper, as a page could send it: refused next to the stepper.
        stepper_at = control_path(driver, "stepper", "Minutes")
        driver.execute_script("window.reluaApp.send({screen: '', at: arguments[0], input: 'six'})", stepper_at)
        error = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".stepper + .control-error"), "the stepper's error")
        assert error.text, "an empty error"
        screenshot(driver, "app-bad-input.png")
        # A node that is not there (one past the root's children), and a message of bad shape:
        # refused, the connection open.
        driver.execute_script("const root = window.reluaApp.screens[0].tree;"
                              "window.reluaApp.send({screen: '', at: [root.children.length]})")
        wait(driver, lambda d: "no node at" in d.find_element(By.ID, "problem").text, "the missing node's error")
        driver.execute_script("window.reluaApp.send({nonsense: true})")
        wait(driver, lambda d: "unknown message" in d.find_element(By.ID, "problem").text, "the bad message's error")
        assert form_summary(driver) == ["Retro notes, done, 6 minutes, dark"], form_summary(driver)
        button(driver, "−").click()
        wait(driver, lambda d: form_summary(d) == ["Retro notes, done, 5 minutes, dark"], "still working")
        assert driver.find_element(By.ID, "status").text == "live"
    finally:
        if driver:
            driver.quit()
        app.close()


def test_a_request_without_the_token_or_from_another_origin_is_refused():
    app = App("Scripts/Features/GuessingGame.lua")
    try:
        base = "http://127.0.0.1:%d" % app.port
        status, body = http_status(base + "/")
        assert status == 403 and "token" in body, (status, body)
        status, body = http_status(base + "/app.js?token=" + "0" * 32)
        assert status == 403, (status, body)
        status, _ = http_status(app.url)
        assert status == 200
        status, body = http_status(app.url, {"Host": "evil.example:%d" % app.port})
        assert status == 403 and "127.0.0.1" in body, (status, body)
        origin = "http://127.0.0.1:%d" % app.port
        answer = websocket_handshake(app.port, "/ws", origin)
        assert answer.startswith("HTTP/1.1 403") and "token" in answer, answer
        answer = websocket_handshake(app.port, "/ws?token=" + app.token, "http://evil.example")
        assert answer.startswith("HTTP/1.1 403") and "Origin" in answer, answer
        answer = websocket_handshake(app.port, "/ws?token=" + app.token, None)
        assert answer.startswith("HTTP/1.1 403"), answer
        answer = websocket_handshake(app.port, "/ws?token=" + app.token, origin)
        assert answer.startswith("HTTP/1.1 101"), answer
    finally:
        app.close()


def test_an_update_is_a_small_patch_not_the_page():
    app = App("Tests/app/Features/ManyRows.lua")
    driver = None
    try:
        driver = opened(app)
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "ul.list > li")) == 300, "300 rows")
        row = driver.find_elements(By.CSS_SELECTOR, "ul.list > li")[150]  # Row 151
        button(row, "+1").click()
        wait(driver, lambda d: "Row 151: 1" in d.find_elements(By.CSS_SELECTOR, "ul.list > li")[150].text, "the row bumped")
        messages = driver.execute_script("return window.reluaApp.messages.map(m => [m.type, m.bytes])")
        whole = [bytes for kind, bytes in messages if kind == "screens"][0]
        patch = [bytes for kind, bytes in messages if kind == "patch"][-1]
        print("   the page: %d bytes; the update after one click: %d bytes" % (whole, patch))
        assert patch * 20 < whole, "the update (%d bytes) is not small beside the page (%d bytes)" % (patch, whole)
        # Rows removed and added are a `rows` patch; the other rows' elements are kept, not redrawn.
        driver.execute_script("document.querySelectorAll('ul.list > li').forEach(li => li.kept = true)")
        button(driver.find_elements(By.CSS_SELECTOR, "ul.list > li")[10], "Remove").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "ul.list > li")) == 299, "a row removed")
        button(driver, "Add").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.list > li")[0].text.startswith("New: 0"), "a row added first")
        texts = driver.execute_script("return [...document.querySelectorAll('ul.list > li')].map(li => li.firstChild.firstChild.textContent)")
        assert len(texts) == 300 and texts[1] == "Row 1: 0" and texts[11] == "Row 12: 0" and texts[150] == "Row 151: 1", texts[:13]
        kept = driver.execute_script("return [...document.querySelectorAll('ul.list > li')].filter(li => li.kept).length")
        assert kept == 299, kept
        kinds = driver.execute_script("return window.reluaApp.messages.filter(m => m.type == 'patch').map(m => JSON.parse(m.text).patches.map(p => p.op).join())")
        assert "rows" in ",".join(kinds), kinds
    finally:
        if driver:
            driver.quit()
        app.close()


def test_search_against_the_fake_github():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([RELUA, "fake-github", "--port", str(port), "--total-count", "15"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    app = driver = None
    try:
        server.stdout.readline()
        app = App("Scripts/Features/RepositorySearch.lua", env={"RELUA_GITHUB_API": "http://127.0.0.1:%d" % port})
        driver = opened(app)
        field = wait(driver, lambda d: d.find_element(By.XPATH, "//label[span]/input[@type='text']"), "the query field")
        field.send_keys("swift")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#main ul.list > li")) == 10, "the first page")
        screenshot(driver, "app-search.png")
        button(driver, "Load more").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#main ul.list > li")) == 15, "the second page")
        first = driver.find_elements(By.CSS_SELECTOR, "#main ul.list > li")[0]
        first.find_elements(By.CSS_SELECTOR, "button.link")[0].click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#crumbs li")) == 2, "the detail pushed")
        screenshot(driver, "app-search-detail.png")
        driver.find_element(By.ID, "back").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#crumbs li")) == 1, "back to the search")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#main ul.list > li")) == 15
        assert driver.find_element(By.XPATH, "//label[span]/input[@type='text']").get_attribute("value") == "swift"
    finally:
        if driver:
            driver.quit()
        if app:
            app.close()
        server.terminate()
        server.wait()
        server.stdout.close()


def test_a_hint_for_the_repl_is_not_on_the_page():
    # LongLivingEffects' view says what to type in the REPL (relua.ui.replHint): the page leaves it out.
    app = App("Scripts/Features/CaseStudies/LongLivingEffects.lua")
    driver = None
    try:
        driver = opened(app)
        wait(driver, lambda d: text_containing(d, "has been taken 0 times"), "the screenshot count")
        shown = driver.find_element(By.ID, "main").text
        assert "store:post" not in shown, shown
    finally:
        if driver:
            driver.quit()
        app.close()


def test_inspect_opens_the_inspector_on_the_same_store():
    app = App("Scripts/Features/GuessingGame.lua", "--inspect")
    try:
        line = app.process.stdout.readline()
        match = re.search(r"Inspector: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32})", line)
        assert match, line
        status, body = http_status(match.group(1))
        assert status == 200 and "inspector" in body, status
    finally:
        app.close()


def test_sigterm_ends_it_cleanly():
    app = App("Scripts/Features/GuessingGame.lua")
    app.process.terminate()
    code = app.process.wait(timeout=10)
    app.close()
    assert code == 0, code


def main():
    print("screenshots in " + SCREENSHOTS)
    run_tests(globals(), sys.argv[2] if len(sys.argv) > 2 else "")


if __name__ == "__main__":
    main()
