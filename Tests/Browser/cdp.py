"""A minimal Chrome DevTools Protocol client over `--remote-debugging-pipe`.

Chromium reads commands from its file descriptor 3 and writes replies and
events to descriptor 4, each message one JSON text followed by a NUL byte;
no WebSocket and no port. Commands to a page go through a flat session
(Target.attachToTarget with flatten: true) and carry its `sessionId`.
"""
import json
import os
import select
import subprocess
import time


class ProtocolError(Exception):
    pass


class Browser:
    def __init__(self, executable, profile, extra_flags=()):
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()

        def place_pipes():
            # The child's descriptors 3 and 4, as --remote-debugging-pipe expects.
            # (through fresh copies first: a pipe may already be 3 or 4, and dup2 onto itself keeps close-on-exec)
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3)
            os.dup2(writing, 4)

        flags = ["--headless=new", "--remote-debugging-pipe", f"--user-data-dir={profile}",
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                 "--force-color-profile=srgb", "--hide-scrollbars", "--no-first-run", "--no-default-browser-check",
                 "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
                 "--disable-features=Translate,MediaRouter,OptimizationHints", "--font-render-hinting=none"]
        if os.geteuid() == 0:
            flags.append("--no-sandbox")  # Chromium refuses to start as root with its sandbox
        # Chromium's own messages go to a file: a pipe nobody reads would block it once full.
        os.makedirs(profile, exist_ok=True)
        self.log_path = os.path.join(profile, "chromium.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen([executable, *flags, *extra_flags, "about:blank"], preexec_fn=place_pipes,
                                        stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=self._log,
                                        close_fds=False)  # the descriptors 3 and 4 made in place_pipes stay open
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._next_id = 0
        self._buffer = b""
        self.events = []

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()
        for descriptor in (self._to_browser, self._from_browser):
            try:
                os.close(descriptor)
            except OSError:
                pass

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProtocolError("timed out waiting for Chromium")
            ready, _, _ = select.select([self._from_browser], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                with open(self.log_path, "rb") as log:
                    last = log.read().decode(errors="replace").strip().splitlines()[-1:]
                raise ProtocolError("Chromium closed the DevTools pipe" + (f" (last line of {self.log_path}: {last[0]})" if last else ""))
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=60):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            written = os.write(self._to_browser, data)
            data = data[written:]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise ProtocolError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, method, session=None, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == method and (session is None or event.get("sessionId") == session):
                    return self.events.pop(index)
            reply = self._read_message(deadline)
            if "method" in reply:
                self.events.append(reply)

    def new_page(self):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session)


class Page:
    def __init__(self, browser, target, session):
        self.browser, self.target, self.session = browser, target, session
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method, params=None, timeout=60):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def navigate(self, url, timeout=60):
        self.browser.events = [e for e in self.browser.events if e.get("sessionId") != self.session]
        self.send("Page.navigate", {"url": url})
        self.browser.wait_for_event("Page.loadEventFired", session=self.session, timeout=timeout)

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (a promise is awaited); a thrown error raises ProtocolError."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                           timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ProtocolError(f"page script: {text}")
        return result["result"].get("value")

    def close(self):
        self.browser.send("Target.closeTarget", {"targetId": self.target})
