#!/usr/bin/env python3
"""click_button.py URL BUTTON_ID [TIMEOUT] — opens URL in headless Chromium and clicks the button
with id BUTTON_ID as a user would: waits until it is shown, then presses and releases the mouse at
its centre (Input.dispatchMouseEvent over the DevTools protocol, on --remote-debugging-pipe: no
websocket library needed). Prints 'clicked X Y' and the page's text after the click; exits 1 if the
button never showed within TIMEOUT seconds (default 20)."""
import json
import os
import subprocess
import sys
import tempfile
import time

url, button = sys.argv[1], sys.argv[2]
timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0

# Chromium reads protocol messages from fd 3 and writes them to fd 4, each ending with a NUL byte.
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
profile = tempfile.mkdtemp(prefix="hfr-chromium-")


def child_fds():
    # dup2 onto 3 and 4 (inheritable); a pipe end already at 3 or 4 would keep its close-on-exec flag.
    read_end, write_end = os.dup(to_chrome_r), os.dup(from_chrome_w)
    os.dup2(read_end, 3)
    os.dup2(write_end, 4)


chrome = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
     f"--user-data-dir={profile}", "--window-size=1000,560", "about:blank"],
    close_fds=False, preexec_fn=child_fds,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chrome_r)
os.close(from_chrome_w)
buffer = b""
next_id = 0


def send(method, params=None, session=None):
    global next_id, buffer
    next_id += 1
    message = {"id": next_id, "method": method, "params": params or {}}
    if session:
        message["sessionId"] = session
    os.write(to_chrome_w, json.dumps(message).encode() + b"\0")
    while True:
        while b"\0" not in buffer:
            chunk = os.read(from_chrome_r, 65536)
            if not chunk:
                raise SystemExit("chromium closed the pipe")
            buffer += chunk
        raw, buffer = buffer.split(b"\0", 1)
        reply = json.loads(raw)
        if reply.get("id") == next_id:
            if "error" in reply:
                raise SystemExit(f"{method}: {reply['error']}")
            return reply.get("result", {})


def evaluate(session, expression):
    result = send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    return result.get("result", {}).get("value")


try:
    target = send("Target.createTarget", {"url": url})["targetId"]
    session = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    deadline = time.time() + timeout
    # The page lays itself out as its /events feed fills the title and the info lines, which moves
    # the button after it is first shown: click once the feed has arrived and the button has stood
    # at one place for two readings.
    box = None
    previous = None
    while time.time() < deadline:
        box = evaluate(session, f"""(() => {{
            const b = document.getElementById({json.dumps(button)});
            if (!b || b.hidden) return null;
            const r = b.getBoundingClientRect();
            return r.width > 0 ? [r.left + r.width / 2, r.top + r.height / 2] : null; }})()""")
        fed = "Frames captured" in (evaluate(session, "document.getElementById('info').innerText") or "")
        if box and box == previous and fed:
            break
        previous = box
        box = None
        time.sleep(0.2)
    if not box:
        print(f"button #{button} was not shown within {timeout} s")
        sys.exit(1)
    x, y = box
    for kind in ("mousePressed", "mouseReleased"):
        send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, session)
    # What the page shows once its feed has said what fired (or after 5 s).
    shown = ""
    until = time.time() + 5
    while time.time() < until:
        shown = evaluate(session, "document.getElementById('info').innerText") or ""
        if "Triggers\t" in shown and "Triggers\t0" not in shown:
            break
        time.sleep(0.2)
    print(f"clicked {x:.0f} {y:.0f}")
    print(shown)
finally:
    chrome.kill()
    chrome.wait()
    subprocess.run(["rm", "-rf", profile])
