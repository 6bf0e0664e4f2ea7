"""Opens files in the real speedscope, in headless Chromium, from Python.

A thin wrapper around speedscope.mjs (Node, playwright-core and the
speedscope npm package, installed in this folder by
build-aux/install-deps.sh with `npm ci`): load(paths) returns, per file,
the dict speedscope.mjs's load() describes: what speedscope imported it
as, any error, the title, the toolbar, each view's exceptions and, per
profile, its name, unit, total weight and each frame's self and total
weight (and with timeline=True the stacks in time order).
"""

import json
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


class HarnessError(Exception):
    pass


def node():
    exe = shutil.which("node") or shutil.which("nodejs")
    if exe is None:
        raise HarnessError("node is not installed: run `sudo bash build-aux/install-deps.sh`")
    return exe


def check_installed():
    """Raises HarnessError, saying what to do, when the clients are missing."""
    node()
    for package in ("speedscope", "playwright-core"):
        if not os.path.isfile(os.path.join(HERE, "node_modules", package, "package.json")):
            raise HarnessError("tests/clients/node_modules/%s is missing: run "
                               "`sudo bash build-aux/install-deps.sh` (npm ci in tests/clients)"
                               % package)


def load(paths, timeline=False, screenshots=None, timeout=900):
    """The results for PATHS, in order, from one browser."""
    check_installed()
    args = [node(), os.path.join(HERE, "speedscope.mjs")]
    if timeline:
        args.append("--timeline")
    if screenshots:
        args += ["--screenshots", screenshots]
    args += [os.path.abspath(p) for p in paths]
    env = dict(os.environ)
    # playwright-core must never fetch a browser of its own.
    env["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       timeout=timeout)
    if p.returncode != 0:
        raise HarnessError("speedscope.mjs failed (%d): %s"
                           % (p.returncode, p.stderr.decode("utf-8", "replace")[-3000:]))
    # One object a line; not splitlines(), which also splits at the U+2028
    # that JSON.stringify() leaves in names.
    results = [json.loads(line) for line in p.stdout.decode("utf-8").split("\n") if line]
    if len(results) != len(paths):
        raise HarnessError("speedscope.mjs gave %d results for %d files"
                           % (len(results), len(paths)))
    return results
