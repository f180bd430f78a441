"""`fanshot serve`: the web page and HTTP API on one local port."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path

DATA_DIR_VARIABLE = "FANSHOT_DATA_DIR"


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    # `fanshot` restores SIGPIPE's default action for quiet `| head`; a server must instead survive every client
    # that hangs up before reading its answers (Python's own default: ignore, and see EPIPE on that socket).
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    # Worker processes build their own app (uvicorn imports the factory in each), so the data directory
    # reaches them through the environment.
    os.environ[DATA_DIR_VARIABLE] = str(Path(args.data_dir).resolve())
    uvicorn.run("api.cli:app_from_environment", factory=True, host=args.host, port=args.port,
                workers=args.workers, access_log=args.access_log)
    return 0


def app_from_environment():  # -> FastAPI; untyped here so that `fanshot --help` does not import FastAPI
    from api.app import create_app

    return create_app(Path(os.environ[DATA_DIR_VARIABLE]))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the web page and the HTTP API")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default="fanshot-data",
                        help="where photos and confirmations are stored (default ./fanshot-data)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (one per core for throughput)")
    parser.add_argument("--access-log", action="store_true", help="log every request")
    parser.set_defaults(run=serve)
