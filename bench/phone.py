"""The referee's phone, before and after issue 33, in one run on this machine.

    .venv/bin/python bench/phone.py [--before 04f8d71] [--runs 40]
        [--database-url postgres://postgres@127.0.0.1:5432/hanchan_phone]

Chromium at 390x844 (Playwright, /usr/bin/chromium) against gunicorn with production
settings on PostgreSQL, as production runs. The old commit is checked out in a temporary
worktree and served on another port, each tree on its own scratch database (migrated, static
files collected, a running tournament with one table seeded). The two are measured
alternately, hand after hand, so both see the same load on the machine:

- page load: the entry page opened afresh (navigation timing, start to the load event);
- tap -> preview: tapping "Draw" until the sticky preview line changes (measured in the page
  from the click to the mutation);
- Confirm -> saved: from the tap on "Confirm hand" (clicked in the page) to the first frame
  after "Hand saved." is in the document, measured in the page on the phone's own clock
  (performance.timeOrigin + now(): the old tree's answer is a new document), the same for
  both; "... (Playwright)" is the wall clock around Playwright's click and wait, which adds
  Playwright's own round trips and actionability checks (about 20-40 ms on a busy machine).

Each hand is a draw with the dealer tenpai (EMA 2025 3.4.5: the dealer keeps the deal), so
40 of them never end the game; Confirm is timed in the page on odd hands and by Playwright on
even ones. Prints the median and p95 for each, the ratio after/before, and the load average
(at the start and at the end) (wall times on a loaded machine are not comparable
with idle ones). Issue 33's targets: Confirm -> saved <= 100 ms median, tap -> preview
<= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "04f8d71"  # main just before issue 33's first commit (02f9840)
CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}

SEED = """
import json
from django.conf import settings
from django.test import Client
from tests.factories import (GameFactory, PlayerFactory, RegistrationFactory, SessionFactory,
    StaffRoleFactory, TableFactory, TournamentFactory)
from tournaments.models import Session, StaffRole, Tournament
t = TournamentFactory(name="Bench Open", slug="bench-open", status=Tournament.Status.RUNNING)
players = [PlayerFactory(first_name=n, last_name="Bench") for n in ("Anna", "Ben", "Cleo", "Dan")]
for p in players:
    RegistrationFactory(tournament=t, player=p)
session = SessionFactory(tournament=t, number=1, status=Session.Status.RUNNING)
referee = StaffRoleFactory(tournament=t, role=StaffRole.Role.REFEREE).user
game = GameFactory(table=TableFactory(session=session, number=1), players=players)
client = Client()
client.force_login(referee)
print(json.dumps({"game": game.pk, "cookie": settings.SESSION_COOKIE_NAME,
                  "value": client.cookies[settings.SESSION_COOKIE_NAME].value}))
"""

# In the page (outside its CSP, through DevTools): tap the chip, resolve when the preview line
# shows something else (htmx replaces the element itself: read it by id on every mutation).
TAP = """async (value) => {
  const text = () => (document.getElementById('preview-line') || {}).textContent || '';
  const before = text();
  const label = document.querySelector(`label.chip:has(input[name='outcome'][value='${value}'])`);
  return await new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (text() !== before) { observer.disconnect(); resolve(performance.now() - t0); }
    });
    observer.observe(document.body, {subtree: true, childList: true, characterData: true});
    const t0 = performance.now();
    label.click();
  });
}"""
# In every document, before it is parsed: when "Hand saved." first shows, the phone's clock at
# the next frame (the old tree shows it in a new page, the new one swaps it in).
SAVED_AT = """(() => {
  const saved = () => {
    if (window.__savedAt !== undefined) return false;
    if (!document.querySelector('.messages li.success')) return false;
    window.__savedAt = null;
    requestAnimationFrame(() => { window.__savedAt = performance.timeOrigin + performance.now(); });
    return true;
  };
  const watch = new MutationObserver(() => { if (saved()) watch.disconnect(); });
  watch.observe(document, {subtree: true, childList: true});
})()"""
CONFIRM = """() => { const t = performance.timeOrigin + performance.now();
  document.getElementById('confirm-hand').click(); return t; }"""
LOAD = """() => { const n = performance.getEntriesByType('navigation')[0];
  return n.loadEventEnd - n.startTime; }"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def admin_sql(database_url: str, statement: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=urllib.parse.unquote(parts.username or "postgres"),
        password=urllib.parse.unquote(parts.password or ""),
        dbname="postgres",
        autocommit=True,
    ) as connection:
        connection.execute(statement)


class Tree:
    """One checkout served by gunicorn on its own scratch database."""

    def __init__(self, name: str, path: Path, database_url: str, work: Path) -> None:
        self.name, self.path, self.work = name, path, work
        parts = urllib.parse.urlsplit(database_url)
        self.db = f"{parts.path.lstrip('/') or 'hanchan_phone'}_{name}"
        self.database_url = urllib.parse.urlunsplit(parts._replace(path=f"/{self.db}"))
        self.admin_url = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            "HANCHAN_ENV": "production",
            "SECRET_KEY": "bench-phone-not-secret",
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "DATABASE_URL": self.database_url,
            "SECURE_SSL_REDIRECT": "0",
            "SECURE_HSTS_SECONDS": "0",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(path),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        for key in ("DEBUG", "HANCHAN_TESTING", "CELERY_BROKER_URL", "CACHE_URL"):
            self.env.pop(key, None)

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=self.path,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise RuntimeError(f"{self.name}: manage.py {args[0]} failed:\n{done.stderr}")
        return done.stdout

    def prepare(self) -> dict[str, Any]:
        admin_sql(self.admin_url, f'DROP DATABASE IF EXISTS "{self.db}"')
        admin_sql(self.admin_url, f'CREATE DATABASE "{self.db}"')
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("collectstatic", "--noinput", "-v", "0")
        world = json.loads(self.manage("shell", "-c", SEED).strip().splitlines()[-1])
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "config.wsgi"),
                *("--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--log-level", "warning"),
            ],
            cwd=self.path,
            env=self.env,
            stdout=(self.work / f"{self.name}.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/health/", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name}: gunicorn did not start") from None
                time.sleep(0.2)
        return world

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=20)
        admin_sql(self.admin_url, f'DROP DATABASE IF EXISTS "{self.db}"')


def open_entry(browser: Any, tree: Tree, world: dict[str, Any]) -> tuple[Any, str]:
    context = browser.new_context(
        viewport=PHONE, locale="en-GB", bypass_csp=True
    )  # wait_for_function evaluates a string: script-src 'self' forbids that
    context.add_init_script(SAVED_AT)
    context.add_cookies(
        [{"name": world["cookie"], "value": world["value"], "url": tree.base, "secure": True}]
    )
    page = context.new_page()
    url = f"{tree.base}/games/{world['game']}/entry/"
    page.goto(url, wait_until="load")
    page.wait_for_selector("#hand-form")
    return page, url


def one_hand(page: Any, url: str, hand: int) -> dict[str, float]:
    page.goto(url, wait_until="load")
    page.wait_for_selector("#hand-form")
    loaded = float(page.evaluate(LOAD))
    tap = float(page.evaluate(TAP, "draw"))
    page.locator("label.chip:has(input[name='tenpai'][value='0'])").click()
    page.evaluate("document.querySelectorAll('#main > .messages').forEach(n => n.remove())")
    if hand % 2:  # in the page, on the phone's clock
        clicked = float(page.evaluate(CONFIRM))
        page.wait_for_selector(".messages li.success")
        page.wait_for_function("typeof window.__savedAt === 'number'")
        measured = {"Confirm -> saved": float(page.evaluate("window.__savedAt")) - clicked}
    else:  # Playwright's wall clock, as first measured
        started = time.perf_counter()
        page.locator("#confirm-hand").click()
        page.wait_for_selector(".messages li.success")
        measured = {"Confirm (Playwright)": (time.perf_counter() - started) * 1000}
    page.wait_for_selector(f"#hands tbody tr:nth-child({hand + 1})")
    return {"page load": loaded, "tap -> preview": tap, **measured}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help=f"the old commit ({BEFORE})")
    parser.add_argument(
        "--runs", type=int, default=40, help="hands per tree (40: half timed in the page)"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "PHONE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hanchan_phone"
        ),
        help="a PostgreSQL server on this machine; scratch databases <name>_before/_after",
    )
    options = parser.parse_args()
    if shutil.which(CHROMIUM) is None:
        sys.exit(
            f"Chromium is needed at {CHROMIUM}: apt-get install -y chromium"
            " (the tests use its headless shell; this bench, the browser a phone runs)"
        )
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="hanchan-phone-"))
    old = work / "before"
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--quiet", str(old), options.before],
        cwd=ROOT,
        check=True,
    )
    trees = [
        Tree("before", old, options.database_url, work),
        Tree("after", ROOT, options.database_url, work),
    ]
    results: dict[str, dict[str, list[float]]] = {t.name: {} for t in trees}
    load_at_start = os.getloadavg()[0]
    try:
        worlds = {}
        for tree in trees:
            log(f"{tree.name}: preparing {tree.path} on {tree.db}, port {tree.port}")
            worlds[tree.name] = tree.prepare()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            pages = {t.name: open_entry(browser, t, worlds[t.name]) for t in trees}
            for hand in range(options.runs + 1):
                for tree in trees if hand % 2 else reversed(trees):
                    page, url = pages[tree.name]
                    measured = one_hand(page, url, hand)
                    if hand == 0:
                        continue  # warm-up: the first hand of each tree is not counted
                    for key, value in measured.items():
                        results[tree.name].setdefault(key, []).append(value)
            browser.close()
    finally:
        for tree in trees:
            tree.stop()
        subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    print(f"bench/phone.py: {options.runs} hands each, before {options.before}, after the")
    print(
        f"working tree; load average {load_at_start:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)"
    )
    print(f"{'':18} {'before median':>14} {'p95':>8} {'after median':>13} {'p95':>8} {'ratio':>6}")
    for key in ("page load", "tap -> preview", "Confirm -> saved", "Confirm (Playwright)"):
        b, a = results["before"][key], results["after"][key]
        ratio = statistics.median(a) / statistics.median(b)
        print(
            f"{key:18} {statistics.median(b):11.1f} ms {p95(b):5.1f} ms "
            f"{statistics.median(a):10.1f} ms {p95(a):5.1f} ms {ratio:6.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
