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
import socketserver
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

RELUA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "relua"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 20.0
ADDRESS = r"Inspector: (http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))\n"
SCREENSHOTS = os.environ.get("RELUA_INSPECTOR_SCREENSHOTS") or tempfile.mkdtemp(prefix="relua-inspector-")

# The REPL on a pseudo-terminal, as its own tests drive it (same arguments: relua's path first).
sys.path.insert(0, os.path.join(ROOT, "Tests", "repl"))
from test_repl import repl  # noqa: E402

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    print("selenium is missing: sudo apt-get install -y chromium chromium-driver python3-selenium "
          "(and run this with /usr/bin/python3)")
    sys.exit(1)


def inspected(feature="Scripts/Features/GuessingGame.lua", *more):
    """The REPL with --inspect, and its page's address (url, port, token)."""
    terminal = repl(feature, "--inspect", *more)
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


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def status_code(url, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait(driver, condition, what, timeout=TIMEOUT):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d))
    except Exception:
        raise AssertionError("the page never showed %s; it shows:\n%s" % (what, driver.find_element(By.TAG_NAME, "body").text[-2000:]))


def entry_names(driver):
    return [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#log .entry .name")]


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
        # The state tree, at the new count.
        leaf = driver.find_element(By.CSS_SELECTOR, '#state .leaf[data-path="/counter/count"]')
        assert leaf.text == "count = 42", leaf.text

        # :undo shows as a replaced state, and the tree follows it.
        terminal.line(":undo")
        terminal.expect(r"count = 1")
        wait(driver, lambda d: entry_names(d)[-1:] == [":undo"], "the :undo entry")
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#state .leaf[data-path="/counter/count"]').text == "count = 1",
             "the state after :undo")
        path = os.path.join(SCREENSHOTS, "inspector.png")
        driver.save_screenshot(path)
        assert os.path.getsize(path) > 10000, "the screenshot is empty"
        print("   screenshot: %s; an action reached the page %.0f ms after it was typed" % (path, latency * 1000))
    finally:
        if driver:
            driver.quit()
        terminal.close()


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
        assert status_code(url)[0] == 200
        for refused in (base + "/", base + "/?token=" + "0" * 32, base + "/app.js", base + "/ws",
                        base + "/nothing-here"):
            code, body = status_code(refused)
            assert code == 403 and "token" in body, (refused, code, body)
        code, body = status_code(url, {"Host": "evil.example:%d" % port})
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
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    tests = [(name, value) for name, value in sorted(globals().items()) if name.startswith("test_") and only in name]
    passed = failed = 0
    started = time.time()
    for name, test in tests:
        began = time.time()
        try:
            test()
            passed += 1
            print("PASS %s (%.1f s)" % (name[5:].replace("_", " "), time.time() - began))
        except Exception as error:  # noqa: BLE001 - every failure is reported
            failed += 1
            print("FAIL " + name[5:].replace("_", " "))
            print("   " + str(error).replace("\n", "\n   "))
        sys.stdout.flush()
    print("(%.1f s)" % (time.time() - started))
    print("\n%d passed, %d failed" % (passed, failed))
    sys.exit(min(failed, 125))


if __name__ == "__main__":
    main()
