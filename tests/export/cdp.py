"""A small Chrome DevTools Protocol client over --remote-debugging-pipe.

Standard library only: Chromium reads commands from file descriptor 3 and
writes replies and events to descriptor 4, one JSON object per message,
each ended by a NUL byte.  That is enough to load a page, click, type,
evaluate JavaScript, catch dialogs and console errors, list network
requests and take screenshots, with nothing from npm.
"""

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--disable-extensions", "--disable-default-apps", "--no-default-browser-check",
    "--mute-audio", "--disable-features=Translate,MediaRouter,OptimizationHints",
    "--hide-scrollbars", "--font-render-hinting=none",
]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


MISSING = "chromium is not installed (build-aux/install-deps.sh installs it)"


def needs(exe):
    """A decorator for a test case that needs Chromium EXE: where there is
    none, the case is not run and fails with MISSING."""
    def wrap(fn):
        def case():
            return [MISSING] if exe is None else fn()
        return case
    return wrap


class CDPError(Exception):
    pass


class Browser:
    """One headless Chromium with one page."""

    def __init__(self, exe, width=1200, height=800, timeout=30):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="tv-chromium-")
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # Above 4, so that the dup2() onto 3 and 4 in the child cannot
        # overwrite one of them.
        fds = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
               for fd in (to_child_r, to_child_w, from_child_r, from_child_w)]
        for fd in (to_child_r, to_child_w, from_child_r, from_child_w):
            os.close(fd)
        child_in, self.write_fd, self.read_fd, child_out = fds

        def setup_child():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [exe] + CHROMIUM_FLAGS + ["--remote-debugging-pipe",
                                      "--user-data-dir=" + self.profile,
                                      "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=setup_child, close_fds=False)
        os.close(child_in)
        os.close(child_out)

        self.next_id = 0
        self.replies = {}
        self.events = []
        self.lock = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.dialogs = []
        self.requests = []
        self.exceptions = []
        self.console = []

        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.page_call(domain + ".enable")
        self.page_call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                       deviceScaleFactor=1, mobile=False)

    # -- plumbing --------------------------------------------------------

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self.read_fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self.lock:
                    self.replies[None] = "closed"
                    self.lock.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw.decode("utf-8"))
                with self.lock:
                    if "id" in msg:
                        self.replies[msg["id"]] = msg
                    else:
                        self._event(msg)
                    self.lock.notify_all()

    def _event(self, msg):
        method = msg.get("method")
        params = msg.get("params", {})
        self.events.append(msg)
        if method == "Page.javascriptDialogOpening":
            self.dialogs.append(params)
            # Answered from a thread of its own: the reader must not block.
            threading.Thread(target=lambda: self._send(
                "Page.handleJavaScriptDialog", {"accept": False}, self.session),
                daemon=True).start()
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Runtime.exceptionThrown":
            self.exceptions.append(params["exceptionDetails"])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.console.append(params)
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.console.append(params["entry"])

    def _send(self, method, params, session=None):
        with self.lock:
            self.next_id += 1
            msg_id = self.next_id
        msg = {"id": msg_id, "method": method, "params": params}
        if session:
            msg["sessionId"] = session
        os.write(self.write_fd, json.dumps(msg).encode("utf-8") + b"\0")
        return msg_id

    def call(self, method, session=None, **params):
        msg_id = self._send(method, params, session)
        deadline = time.monotonic() + self.timeout
        with self.lock:
            while msg_id not in self.replies:
                if None in self.replies:
                    raise CDPError("Chromium went away during %s: %s" % (method, self.output()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError("no reply to %s within %d s" % (method, self.timeout))
                self.lock.wait(left)
            reply = self.replies.pop(msg_id)
        if "error" in reply:
            raise CDPError("%s: %s" % (method, reply["error"]))
        return reply.get("result", {})

    def page_call(self, method, **params):
        return self.call(method, session=self.session, **params)

    def output(self):
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")[-3000:]

    # -- the page ----------------------------------------------------------

    def wait_event(self, method, since=0, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        with self.lock:
            while True:
                for msg in self.events[since:]:
                    if msg.get("method") == method:
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError("no %s within the time limit" % method)
                self.lock.wait(left)

    def navigate(self, url):
        with self.lock:
            mark = len(self.events)
        self.page_call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", since=mark)

    def evaluate(self, expression):
        result = self.page_call("Runtime.evaluate", expression=expression, returnByValue=True,
                                awaitPromise=True)
        if "exceptionDetails" in result:
            raise CDPError("evaluating %s: %s" % (expression[:80], result["exceptionDetails"]))
        return result["result"].get("value")

    def mouse(self, kind, x, y, button="none", clicks=0):
        self.page_call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button=button,
                       clickCount=clicks)

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y, "left", 1)
        self.mouse("mouseReleased", x, y, "left", 1)

    def scroll_into_view(self, x, y):
        """Scrolls the page so that the page point (X, Y) is in the
        viewport; returns that point in viewport coordinates."""
        sx, sy = self.evaluate("(() => { window.scrollTo(0, Math.max(0, %r - innerHeight / 2));"
                               " return [scrollX, scrollY]; })()" % float(y))
        return x - sx, y - sy

    def type_text(self, text):
        self.page_call("Input.insertText", text=text)

    def key(self, key, code=None, keycode=0):
        for kind in ("keyDown", "keyUp"):
            self.page_call("Input.dispatchKeyEvent", type=kind, key=key, code=code or key,
                           windowsVirtualKeyCode=keycode)

    def color_scheme(self, scheme):
        self.page_call("Emulation.setEmulatedMedia",
                       features=[{"name": "prefers-color-scheme", "value": scheme}])

    def screenshot(self, path, full_page=False):
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.evaluate("[document.documentElement.scrollWidth,"
                                 " document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
        data = self.page_call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))

    def open(self, url, blank_first=False):
        """Navigates to URL having forgotten the dialogs, exceptions,
        console messages and requests seen so far (through about:blank
        first when BLANK_FIRST)."""
        if blank_first:
            self.navigate("about:blank")
        for log in (self.dialogs, self.exceptions, self.console, self.requests):
            log.clear()
        self.navigate(url)
        return self

    def close(self):
        try:
            self._send("Browser.close", {})
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.write_fd, self.read_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LazyBrowser:
    """The one Browser of a group of cases, started by the first case that
    needs it, so that a group run without a browser case starts none."""

    def __init__(self, exe, width=1200, height=800):
        self.exe = exe
        self.size = (width, height)
        self.browser = None

    def get(self):
        if self.browser is None:
            self.browser = Browser(self.exe, *self.size)
        return self.browser

    def open(self, url, blank_first=False):
        return self.get().open(url, blank_first)

    def close(self):
        """Closes the browser if it was started; no problems, for a case."""
        if self.browser is not None:
            self.browser.close()
            self.browser = None
        return []
