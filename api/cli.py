"""`fanshot serve`: the web page and HTTP API on one local port. `fanshot db upgrade`: migrate a database."""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

# Worker processes build their own app (uvicorn imports the factory in each), so the settings reach them through
# the environment.
DATA_DIR_VARIABLE = "FANSHOT_DATA_DIR"
ALLOWED_HOSTS_VARIABLE = "FANSHOT_ALLOWED_HOSTS"
TOKEN_VARIABLE = "FANSHOT_TOKEN"
STREAMS_VARIABLE = "FANSHOT_STREAMS"  # "MOST PER_CLIENT": --max-streams, --streams-per-client
ADAPT_VARIABLE = "FANSHOT_ADAPT"  # `--adapt`, handed to the worker processes
SUPERVISOR_VARIABLE = "FANSHOT_SUPERVISOR_PID"
PARENT_CHECK_S = 0.5
# Where the records and photos are, when not under the data directory. The options default to these variables,
# and `serve` hands them on to its worker processes the same way.
STORAGE_VARIABLES = {"database_url": "FANSHOT_DATABASE_URL", "images_url": "FANSHOT_IMAGES_URL",
                     "s3_endpoint_url": "FANSHOT_S3_ENDPOINT_URL"}


def serve(args: argparse.Namespace) -> int:
    if args.workers > 1:  # the workers share their metrics through files here (api/metrics.py)
        metrics_dir = tempfile.mkdtemp(prefix="fanshot-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir  # before prometheus_client is imported (api/metrics.py)
        try:
            return serve_workers(args)
        finally:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return serve_workers(args)


def serve_workers(args: argparse.Namespace) -> int:
    import uvicorn

    from fanshot.api.observability import log_config

    # `fanshot` restores SIGPIPE's default action for quiet `| head`; a server must instead survive every client
    # that hangs up before reading its answers (Python's own default: ignore, and see EPIPE on that socket).
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    os.environ[DATA_DIR_VARIABLE] = str(Path(args.data_dir).resolve())
    os.environ[SUPERVISOR_VARIABLE] = str(os.getpid())
    try:  # before the Host check is set: the server answers to the certificate's addresses too
        https = https_settings(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    os.environ[ALLOWED_HOSTS_VARIABLE] = json.dumps([*(args.allowed_host or []), *(https.hosts if https else ())])
    os.environ[STREAMS_VARIABLE] = f"{args.max_streams} {args.streams_per_client}"
    if args.token:
        os.environ[TOKEN_VARIABLE] = args.token
    os.environ[ADAPT_VARIABLE] = args.adapt
    for option, variable in STORAGE_VARIABLES.items():
        if getattr(args, option):
            os.environ[variable] = getattr(args, option)
    try:  # fails here, with one clear line, if the storage cannot be written; the workers build their own app
        store = app_from_environment().state.store
        store.check_database()
        store.check_images()
        store.engine.dispose()
    except Exception as error:  # noqa: BLE001 - any storage failure: say what, exit 2
        print(f"error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    from fanshot.api.connections import BODY_SECONDS_VARIABLE, HEADERS_SECONDS_VARIABLE, PromptClientsProtocol

    os.environ[HEADERS_SECONDS_VARIABLE] = str(args.headers_timeout)
    os.environ[BODY_SECONDS_VARIABLE] = str(args.body_timeout)
    if https:
        announce(https)
    uvicorn.run("fanshot.api.cli:app_from_environment", factory=True, host=args.host, port=args.port,
                **({"ssl_certfile": str(https.certfile), "ssl_keyfile": str(https.keyfile)} if https else {}),
                workers=args.workers, access_log=False, log_config=log_config(args.log_format, args.access_log),
                timeout_graceful_shutdown=args.shutdown_timeout, http=PromptClientsProtocol,
                forwarded_allow_ips=args.forwarded_allow_ips,
                # asyncio's loop, not uvloop: saturated at 200 connections, uvloop left some of them unanswered
                # for seconds (p99 0.85 s, 60-90 wrk timeouts in 10 s, against a p50 of 60 ms); asyncio's serves
                # them in turn (p99 82 ms, none) for about 5 % fewer requests a second (BENCHMARKS.md)
                loop="asyncio")
    return 0


def https_settings(args: argparse.Namespace):  # -> HttpsSettings | None; untyped: --help imports no cryptography
    """With --https (or --cert and --key): the certificate to serve and the addresses to open."""
    if not (args.https or args.cert or args.key):
        return None
    if bool(args.cert) != bool(args.key):
        raise ValueError("--cert and --key go together: a certificate and its private key (PEM files)")
    missing = [str(path) for path in (args.cert, args.key) if path and not path.is_file()]
    if missing:
        raise ValueError(f"--cert/--key: no such file: {', '.join(missing)}")
    from fanshot.api.security import machine_addresses
    from fanshot.api.tls import https_settings as settings

    return settings(Path(args.data_dir).resolve(), args.port, args.allowed_host or [], args.cert, args.key,
                    preferred=machine_addresses())


def announce(https) -> None:
    """Where to open the page, and a QR code of the first address for a phone's camera (segno, in the terminal)."""
    import segno

    print("Open Fanshot at:", *(f"  {url}" for url in https.urls), sep="\n")
    segno.make(https.urls[0], error="m").terminal(compact=True)
    trust = f"{https.urls[0]}trust"
    if https.new_ca:
        print(f"A new certificate authority was made: each phone trusts it once, as {trust} says.")
    else:
        print(f"A phone that has not trusted this server yet: see {trust}.")
    sys.stdout.flush()


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
    from fanshot.api.app import create_app
    from fanshot.api.security import Security
    from fanshot.api.storage.game_events import MAX_STREAMS, MAX_STREAMS_PER_CLIENT, Followers
    from fanshot.scoring import warm

    follow_the_supervisor()
    # A server process: the scorer's tables are built before the first request (which would otherwise pay for
    # them), then everything made so far, the app included, is kept out of the collector's full passes (it lives
    # as long as the process), which otherwise walk it every few thousand requests: under wrk, 8 ms a pass with
    # the app left in, 2 ms with it frozen (issue 36)
    warm()
    security = Security.with_hosts(json.loads(os.environ.get(ALLOWED_HOSTS_VARIABLE, "[]")),
                                   os.environ.get(TOKEN_VARIABLE))
    most, per_client = map(int, os.environ.get(STREAMS_VARIABLE, f"{MAX_STREAMS} {MAX_STREAMS_PER_CLIENT}").split())
    app = create_app(Path(os.environ[DATA_DIR_VARIABLE]), security=security, followers=Followers(most, per_client),
                     adapt_auto=os.environ.get(ADAPT_VARIABLE) == "auto",
                     **{option: os.environ.get(variable) for option, variable in STORAGE_VARIABLES.items()})
    gc.freeze()
    return app


def db_upgrade(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from fanshot.api.storage.access import upgrade_records
    from fanshot.api.storage.database import UnsupportedDatabase
    from fanshot.api.storage.extras import MissingExtra

    try:
        before, after = upgrade_records(Path(args.data_dir), args.database_url)
    except (UnsupportedDatabase, MissingExtra, SQLAlchemyError) as error:
        print(f"error: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    print(f"database at revision {after}" + (f" (was {before or 'empty'})" if before != after else
                                             " (already up to date)"))
    return 0


def add_storage_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", default="fanshot-data",
                        help="where photos and records are stored by default (default ./fanshot-data)")
    parser.add_argument("--database-url", default=os.environ.get(STORAGE_VARIABLES["database_url"]),
                        help="postgresql://USER@HOST:PORT/DB (or sqlite:///PATH) instead of DATA_DIR/fanshot.sqlite3 "
                             "[$FANSHOT_DATABASE_URL]")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the web page and the HTTP API")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every network, e.g. for phones at home)")
    parser.add_argument("--port", type=int, default=8000)
    add_storage_options(parser)
    parser.add_argument("--images-url", default=os.environ.get(STORAGE_VARIABLES["images_url"]),
                        help="s3://BUCKET/PREFIX (or a folder) instead of DATA_DIR/images [$FANSHOT_IMAGES_URL]")
    parser.add_argument("--s3-endpoint-url", default=os.environ.get(STORAGE_VARIABLES["s3_endpoint_url"]),
                        help="an S3-compatible server such as MinIO (default: AWS) [$FANSHOT_S3_ENDPOINT_URL]")
    parser.add_argument("--workers", type=int, default=1, help="server processes (one per core for throughput)")
    parser.add_argument("--access-log", action="store_true", help="log every request (with its X-Request-ID)")
    parser.add_argument("--log-format", choices=("text", "json"), default="text",
                        help="log lines as text or as one JSON object each (for log collectors)")
    parser.add_argument("--shutdown-timeout", type=float, default=30, metavar="SECONDS",
                        help="on SIGTERM, how long requests in flight may take to finish (default 30)")
    parser.add_argument("--headers-timeout", type=float, default=10, metavar="SECONDS",
                        help="close a connection whose request's headers have not arrived within this (default 10)")
    parser.add_argument("--body-timeout", type=float, default=60, metavar="SECONDS",
                        help="close a connection whose request's body has not all arrived within this after its "
                        "headers (default 60: a 20 MB photo at 3 Mbit/s)")
    parser.add_argument("--max-streams", type=int, default=1000, metavar="N",
                        help="event streams (live games) a server process keeps open in all (default 1000)")
    parser.add_argument("--streams-per-client", type=int, default=16, metavar="N",
                        help="event streams one client address may hold open (default 16); behind a reverse "
                        "proxy, see README for --forwarded-allow-ips")
    parser.add_argument("--forwarded-allow-ips", metavar="ADDRESSES",
                        help="the reverse proxies whose X-Forwarded-For names the client, comma-separated (default: "
                        "127.0.0.1, or $FORWARDED_ALLOW_IPS); then each user, not the proxy, has a client's share "
                        "of event streams")
    parser.add_argument("--allowed-host", action="append", metavar="NAME",
                        help="a name the server answers to besides localhost and this machine's addresses "
                             "(e.g. the name a reverse proxy serves it under); repeatable")
    parser.add_argument("--https", action="store_true",
                        help="serve https with a certificate from this server's own CA (kept in DATA_DIR/tls), so "
                             "phones at home get the camera and offline use; a phone trusts the CA once (/trust)")
    parser.add_argument("--cert", type=Path, metavar="FILE",
                        help="serve https with this certificate (PEM, its chain after it) instead; needs --key")
    parser.add_argument("--key", type=Path, metavar="FILE", help="the private key of --cert (PEM)")
    parser.add_argument("--token", default=os.environ.get(TOKEN_VARIABLE),
                        help=f"access token every request must carry (default ${TOKEN_VARIABLE}; unset: none): "
                             "`Authorization: Bearer TOKEN`, or open the page once as /?token=TOKEN")
    parser.add_argument("--adapt", choices=("manual", "auto"), default="manual",
                        help="auto: teach the recogniser by itself once 10 confirmed photos are new to the version "
                             "in use, starting from that version; manual (default): only when asked (the page "
                             "offers it)")
    parser.set_defaults(run=serve)

    db = subparsers.add_parser("db", help="the records' database").add_subparsers(dest="db_command", required=True)
    upgrade = db.add_parser("upgrade", help="apply the schema migrations this release needs (the embedded database "
                                            "also does this itself when the server starts)")
    add_storage_options(upgrade)
    upgrade.set_defaults(run=db_upgrade)
