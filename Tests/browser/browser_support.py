"""What the browser tests share (Tests/app/test_app_browser.py, Tests/inspector/test_inspector_browser.py):
headless Chromium driven by Selenium (Debian's chromium, chromium-driver and python3-selenium: run
the tests with /usr/bin/python3), waiting on a page, plain HTTP requests, and the test runner.

A test file imports it after putting this folder on its path:
    sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
    from browser_support import By, browser, opened, wait, http_status, run_tests
"""
import sys
import time
import urllib.error
import urllib.request

TIMEOUT = 20.0

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("selenium is missing: sudo apt-get install -y chromium chromium-driver python3-selenium "
          "(and run this with /usr/bin/python3)")
    sys.exit(1)

__all__ = ["TIMEOUT", "By", "Keys", "NoSuchElementException", "Select", "StaleElementReferenceException",
           "browser", "http_status", "opened", "run_tests", "wait"]


def browser(width=1280, height=800):
    """Headless Chromium at `width`×`height`, one CSS pixel a device pixel (screenshots of a known size)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=%d,%d" % (width, height), "--no-first-run", "--disable-extensions",
                     "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def wait(driver, condition, what, timeout=TIMEOUT):
    """`condition(driver)`'s first true value, tried every 50 ms; after `timeout` s an AssertionError
    naming `what` with the end of the page's text."""
    # (A part of the page redrawn while the condition reads it leaves it a stale element: try again.)
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05,
                             ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(lambda d: condition(d))
    except Exception:
        raise AssertionError("the page never showed %s; it shows:\n%s" % (what, driver.find_element(By.TAG_NAME, "body").text[-2000:]))


def opened(url, downloads=None, **size):
    """A browser on the page at `url`, once its status says live (downloads, if given, go to that
    directory; `size`: browser's width and height)."""
    driver = browser(**size)
    if downloads:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    driver.get(url)
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live", "the live status")
    return driver


def http_status(url, headers=None):
    """A GET's status and body (an HTTP error's too)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def run_tests(namespace, only=""):
    """Runs the `test_…` functions of `namespace` (a module's globals) whose name contains `only`,
    in name order: one line per test and `N passed, N failed`; exits with the number of failures."""
    tests = [(name, value) for name, value in sorted(namespace.items()) if name.startswith("test_") and only in name]
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
