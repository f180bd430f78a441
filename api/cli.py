"""`fanshot serve`: the web page and HTTP API on one local port."""

from __future__ import annotations

import argparse
from pathlib import Path


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app

    uvicorn.run(create_app(Path(args.data_dir)), host=args.host, port=args.port)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the web page and the HTTP API")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--data-dir", default="fanshot-data",
                        help="where photos and confirmations are stored (default ./fanshot-data)")
    parser.set_defaults(run=serve)
