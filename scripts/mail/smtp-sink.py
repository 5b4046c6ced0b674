#!/usr/bin/env python3
"""A real SMTP server on loopback for tests: aiosmtpd, with fault modes (docs/mail.md "Tests").

Run it with the mail venv's Python (scripts/mail/venv.sh prints the venv's path):

    python smtp-sink.py --port 0 --maildir DIR [--tls-cert CERT --tls-key KEY [--require-tls]]
                        [--auth USER:PASS] [--mode-file PATH]

  --port N          listen on 127.0.0.1:N; 0 picks a free port. When it listens, the one line
                    `READY <port>` is printed on stdout (flushed); nothing else goes to stdout.
  --maildir DIR     each message received is written as a Maildir file DIR/new/<unique> (through
                    DIR/tmp/), with exactly the bytes of the DATA phase, dot-unstuffed, nothing added.
                    Its envelope goes to DIR/envelopes/<unique>.json, beside the Maildir and not in
                    new/ (a Maildir reader would take it for a message): {"mail_from": str,
                    "rcpt_tos": [str], "connection": int (1, 2, ... in accept order: two messages with
                    the same number came on one connection), "tls": bool, "auth_login": str or null}.
                    DIR/connections holds the number of connections accepted so far.
  --tls-cert/--tls-key PEM files: offer STARTTLS with that certificate.
  --require-tls     refuse MAIL before STARTTLS ("530 Must issue a STARTTLS command first").
  --auth USER:PASS  AUTH PLAIN and LOGIN required before MAIL, accepted only for USER and PASS.
  --mode-file PATH  read at every RCPT: `ok` (or a missing or empty file) accepts; `451` answers
                    "451 4.3.0 try later"; `550` answers "550 5.1.1 no such user"; `hang` sleeps 120 s
                    before answering, for the client's timeout.

It stops on SIGTERM or SIGINT, and by itself when the process that started it goes away.
"""

import argparse
import asyncio
import json
import os
import signal
import ssl
import sys
import threading
import time

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    """The aiosmtpd handler: fault modes at RCPT, messages into the Maildir at DATA."""

    def __init__(self, maildir, mode_file):
        self.maildir = maildir
        self.mode_file = mode_file
        self.connections = 0
        self.delivered = 0
        for sub in ("tmp", "new", "cur", "envelopes"):
            os.makedirs(os.path.join(maildir, sub), exist_ok=True)
        self._write_connections()

    def _write_connections(self):
        with open(os.path.join(self.maildir, "connections"), "w") as f:
            f.write(f"{self.connections}\n")

    def connection_opened(self):
        self.connections += 1
        self._write_connections()
        return self.connections

    def mode(self):
        if not self.mode_file:
            return "ok"
        try:
            with open(self.mode_file) as f:
                return f.read().strip() or "ok"
        except FileNotFoundError:
            return "ok"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        mode = self.mode()
        if mode == "451":
            return "451 4.3.0 try later"
        if mode == "550":
            return "550 5.1.1 no such user"
        if mode == "hang":
            await asyncio.sleep(120)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.delivered += 1
        unique = f"{time.time_ns()}.{os.getpid()}_{self.delivered}.smtp-sink"
        temporary = os.path.join(self.maildir, "tmp", unique)
        with open(temporary, "wb") as f:
            f.write(envelope.original_content)
        os.rename(temporary, os.path.join(self.maildir, "new", unique))
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "connection": getattr(session, "sink_connection", 0),
            "tls": session.ssl is not None,
            "auth_login": login,
        }
        with open(os.path.join(self.maildir, "envelopes", unique + ".json"), "w") as f:
            json.dump(record, f)
        return "250 OK"


class CountingSMTP(SMTP):
    """aiosmtpd's server, numbering its connections so tests can see connection reuse."""

    def connection_made(self, transport):
        super().connection_made(transport)
        self.session.sink_connection = self.event_handler.connection_opened()


def authenticator_for(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return authenticate


def watch_parent():
    # Why: a test process that crashes must not leave the sink running.
    parent = os.getppid()
    while True:
        time.sleep(1)
        if os.getppid() != parent:
            os._exit(0)


def main():
    parser = argparse.ArgumentParser(description="aiosmtpd on loopback with fault modes, for tests")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--require-tls", action="store_true")
    parser.add_argument("--auth")
    parser.add_argument("--mode-file")
    args = parser.parse_args()

    kwargs = {"decode_data": False, "enable_SMTPUTF8": False}
    if args.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        kwargs["tls_context"] = context
        kwargs["require_starttls"] = args.require_tls
    if args.auth:
        user, _, password = args.auth.partition(":")
        kwargs["authenticator"] = authenticator_for(user, password)
        kwargs["auth_required"] = True
        # Why: without TLS offered, AUTH over plain text is the only way to test it.
        kwargs["auth_require_tls"] = bool(args.tls_cert)

    sink = Sink(args.maildir, args.mode_file)
    # Why not aiosmtpd's Controller: it cannot listen on port 0, and its readiness probe would be
    # counted as a connection.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(loop.create_server(lambda: CountingSMTP(sink, **kwargs), "127.0.0.1", args.port))
    port = server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)

    threading.Thread(target=watch_parent, daemon=True).start()
    # Why: a child inherits its parent thread's signal mask, and a Swift test spawns from dispatch threads that
    # block SIGTERM; without this the sink would never see its stop signal.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    loop.add_signal_handler(signal.SIGTERM, loop.stop)
    loop.add_signal_handler(signal.SIGINT, loop.stop)
    loop.run_forever()
    # Why no orderly shutdown: a session sleeping in `hang` mode would hold it for two minutes.
    sys.stdout.flush()
    os._exit(0)

if __name__ == "__main__":
    main()
