#!/usr/bin/env python3
"""Verifies a mail's DKIM signature with dkimpy, the public key given instead of looked up in DNS.

    python dkim-verify.py MESSAGE_FILE 'v=DKIM1; k=rsa; p=...'

Prints `pass` or `fail` (exit 0 either way; another status means the check itself broke). Used by
Tests/MailDeliveryTests (docs/mail.md "DKIM").
"""

import sys

import dkim


def main():
    with open(sys.argv[1], "rb") as f:
        message = f.read()
    record = sys.argv[2].encode()

    def dnsfunc(name, timeout=5):
        return record

    print("pass" if dkim.verify(message, dnsfunc=dnsfunc) else "fail")


if __name__ == "__main__":
    main()
