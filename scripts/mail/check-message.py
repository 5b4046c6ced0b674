#!/usr/bin/env python3
"""Reads a rendered mail with Python's email package under policy.strict and prints what it decoded, as JSON.

    python check-message.py MESSAGE_FILE

The oracle of Tests/MailDeliveryTests (docs/mail.md "Tests"): any defect the parser finds raises, so the exit
status is non-zero and the error goes to stderr. Decoded text parts have CRLF line ends turned into LF (CRLF is
MIME's canonical line break for text, what a renderer writes for every line break it is given).
"""

import email
import email.policy
import json
import sys


def main():
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    message = email.message_from_bytes(raw, policy=email.policy.strict)
    headers = [[name, str(value)] for name, value in message.items()]

    def mailbox(name):
        address = message[name].addresses[0]
        return {"display_name": address.display_name, "addr_spec": address.addr_spec}

    def part(subtype):
        body = message.get_body((subtype,))
        return {
            "content_type": body.get_content_type(),
            "charset": body.get_content_charset(),
            "transfer_encoding": body["Content-Transfer-Encoding"],
            "content": body.get_content().replace("\r\n", "\n"),
        }

    result = {
        "headers": headers,
        "subject": str(message["Subject"]),
        "from": mailbox("From"),
        "to": mailbox("To"),
        "date": message["Date"].datetime.isoformat(),
        "message_id": str(message["Message-ID"]),
        "content_type": message.get_content_type(),
        "is_multipart": message.is_multipart(),
        "parts": [p.get_content_type() for p in message.iter_parts()],
        "text": part("plain"),
        "html": part("html"),
        "defects": [repr(d) for d in message.defects],
    }
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
