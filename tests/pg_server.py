"""A throwaway PostgreSQL server for the tests and benchmarks: a fresh cluster in a temporary directory.

It listens on a unix socket in that directory only (no TCP port, so nothing else can reach it and two of
them never collide), trusts local connections, and skips fsync: its data is thrown away afterwards.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` system user (or
``nobody``).

``python -m tests.pg_server start DIR`` prints the server's URL (or why there is none, on stderr, exit 3);
``python -m tests.pg_server stop DIR`` stops it. :func:`start` / :func:`stop` do the same from Python.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

DATABASE = "postgres"  # made by initdb: no createdb step (and binary) needed
USER = "roundhouse"
PORT = 5432  # only names the socket file (.s.PGSQL.5432) inside the private directory
#: initdb and pg_ctl are bounded: a stuck server must not hang the test run.
TIMEOUT = 60


class Unavailable(RuntimeError):
    """No PostgreSQL server can be started here (the reason is the message)."""


def binaries() -> Path | None:
    """The directory with initdb, pg_ctl and postgres (the newest installed version), if any."""
    def version(path: str) -> int:
        name = Path(path).parent.name
        return int(name) if name.isdigit() else 0

    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if (Path(candidate) / "pg_ctl").is_file() and (Path(candidate) / "initdb").is_file():
            return Path(candidate)
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    return None


def _runner() -> list[str]:
    if os.geteuid() != 0:
        return []
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"]
    raise Unavailable("running as root and there is no unprivileged user (postgres, nobody) to run PostgreSQL as")


def url(directory: str | os.PathLike[str]) -> str:
    return f"postgresql://{USER}@/{DATABASE}?host={os.fspath(directory)}&port={PORT}"


def start(directory: str | os.PathLike[str], *, durable: bool = False) -> str:
    """Create and start a cluster in ``directory`` (created if needed); returns its URL. Raises Unavailable.

    ``durable``: fsync every commit as a production server does (benchmarks compare it with SQLite's FULL);
    tests leave it off, since their data is thrown away.
    """
    bin_dir = binaries()
    if bin_dir is None:
        raise Unavailable("PostgreSQL is not installed (no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin)")
    run_as = _runner()
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    data = root / "data"
    if run_as:
        user = run_as[2]
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        # The unprivileged user must reach the directory through its parents (e.g. pytest's tmp dirs are 0700).
        parent = root.parent
        while parent != parent.parent:
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
            parent = parent.parent
    try:
        subprocess.run(
            [*run_as, str(bin_dir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
             "--no-sync", "--locale=C"],
            check=True, capture_output=True, timeout=TIMEOUT,
        )  # fmt: skip
        options = f"-c listen_addresses='' -k {root} -p {PORT} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        subprocess.run(
            [*run_as, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-o", options,
             "-w", "-t", str(TIMEOUT), "start"],
            check=True, capture_output=True, timeout=TIMEOUT + 10,
        )  # fmt: skip
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        log = root / "server.log"
        tail = log.read_text(errors="replace")[-800:] if log.is_file() else ""
        stop(root)
        raise Unavailable(f"PostgreSQL did not start: {exc} {detail.decode(errors='replace')[-800:]} {tail}") from exc
    return url(root)


def stop(directory: str | os.PathLike[str]) -> None:
    """Stop the server started in ``directory`` (if it runs) and delete its data."""
    root = Path(directory)
    data = root / "data"
    bin_dir = binaries()
    if bin_dir is not None and (data / "postmaster.pid").is_file():
        with contextlib.suppress(subprocess.TimeoutExpired, Unavailable, OSError):
            subprocess.run(
                [*_runner(), str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "-t", "20", "stop"],
                capture_output=True, timeout=30,
            )  # fmt: skip
    shutil.rmtree(data, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python -m tests.pg_server start|stop DIR", file=sys.stderr)
        return 2
    if argv[0] == "stop":
        stop(argv[1])
        return 0
    try:
        print(start(argv[1]))
    except Unavailable as exc:
        print(exc, file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
