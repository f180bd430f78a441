"""`fanshot serve`: the web page and HTTP API on one local port."""

from __future__ import annotations

import argparse
import json
import os
import signal
import threading
import time
from pathlib import Path

# Worker processes build their own app (uvicorn imports the factory in each), so the settings reach them through
# the environment.
DATA_DIR_VARIABLE = "FANSHOT_DATA_DIR"
ALLOWED_HOSTS_VARIABLE = "FANSHOT_ALLOWED_HOSTS"
TOKEN_VARIABLE = "FANSHOT_TOKEN"
SUPERVISOR_VARIABLE = "FANSHOT_SUPERVISOR_PID"
PARENT_CHECK_S = 0.5


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    # `fanshot` restores SIGPIPE's default action for quiet `| head`; a server must instead survive every client
    # that hangs up before reading its answers (Python's own default: ignore, and see EPIPE on that socket).
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    os.environ[DATA_DIR_VARIABLE] = str(Path(args.data_dir).resolve())
    os.environ[SUPERVISOR_VARIABLE] = str(os.getpid())
    os.environ[ALLOWED_HOSTS_VARIABLE] = json.dumps(args.allowed_host or [])
    if args.token:
        os.environ[TOKEN_VARIABLE] = args.token
    uvicorn.run("api.cli:app_from_environment", factory=True, host=args.host, port=args.port,
                workers=args.workers, access_log=args.access_log)
    return 0


def follow_the_supervisor() -> None:
    """In a worker process (--workers 2 and more): stop when the process that started it is gone, even killed
    with SIGKILL, which it cannot pass on; orphaned workers would go on serving and hold the port."""
    supervisor = int(os.environ.get(SUPERVISOR_VARIABLE, os.getpid()))
    if supervisor == os.getpid():  # one process: it is the server itself
        return

    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(PARENT_CHECK_S)
        os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's own graceful shutdown

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()


def app_from_environment():  # -> FastAPI; untyped here so that `fanshot --help` does not import FastAPI
    from api.app import create_app
    from api.security import Security

    follow_the_supervisor()
    security = Security.with_hosts(json.loads(os.environ.get(ALLOWED_HOSTS_VARIABLE, "[]")),
                                   os.environ.get(TOKEN_VARIABLE))
    return create_app(Path(os.environ[DATA_DIR_VARIABLE]), security=security)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the web page and the HTTP API")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every network, e.g. for phones at home)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default="fanshot-data",
                        help="where photos and confirmations are stored (default ./fanshot-data)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (one per core for throughput)")
    parser.add_argument("--access-log", action="store_true", help="log every request")
    parser.add_argument("--allowed-host", action="append", metavar="NAME",
                        help="a name the server answers to besides localhost and this machine's addresses "
                             "(e.g. the name a reverse proxy serves it under); repeatable")
    parser.add_argument("--token", default=os.environ.get(TOKEN_VARIABLE),
                        help=f"access token every request must carry (default ${TOKEN_VARIABLE}; unset: none): "
                             "`Authorization: Bearer TOKEN`, or open the page once as /?token=TOKEN")
    parser.set_defaults(run=serve)
