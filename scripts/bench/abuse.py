#!/usr/bin/env python3
"""Connection abuse from one address while a visitor on another is timed (docs/hardening.md).

Opens COUNT connections from 127.0.0.1 to the server: in `trickle` mode each sends a request line,
then one header line every INTERVAL seconds and never ends its headers (slowloris); in `idle` mode
each sends nothing. Meanwhile a visitor on 127.0.0.2 asks for each of PATHS once a second, each on a
fresh connection, and counts answers that arrive complete within 2 s. Prints one JSON line of
figures; asserts nothing. Standard library only.
"""
import argparse
import asyncio
import json
import resource
import time


async def attacker(port, mode, interval, duration, stats, stop):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.1", 0))
    except OSError:
        stats["connect_failed"] += 1
        return
    stats["connected"] += 1
    opened = time.monotonic()
    try:
        if mode == "trickle":
            writer.write(b"GET /pets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            await writer.drain()
        line = 0
        while not stop.is_set():
            try:
                data = await asyncio.wait_for(reader.read(1024), timeout=interval)
                if not data:  # the server closed it
                    lived = time.monotonic() - opened
                    stats["closed_by_server"] += 1
                    stats["closed_within_1s"] += 1 if lived < 1 else 0
                    stats["lifetimes"].append(lived)
                    return
            except asyncio.TimeoutError:
                pass
            if mode == "trickle":
                line += 1
                writer.write(b"X-Trickle-%d: x\r\n" % line)
                await writer.drain()
    except (ConnectionError, OSError):
        stats["closed_by_server"] += 1
        stats["lifetimes"].append(time.monotonic() - opened)
    finally:
        writer.close()


async def visit(port, path):
    started = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0)), timeout=2)
        writer.write(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n" % path.encode())
        await writer.drain()
        reply = await asyncio.wait_for(reader.read(), timeout=max(0.01, 2 - (time.monotonic() - started)))
        writer.close()
        status = int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/") else 0
        return status, time.monotonic() - started
    except (asyncio.TimeoutError, OSError, ValueError, IndexError):
        return 0, time.monotonic() - started


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=["trickle", "idle"], required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--paths", default="/healthz,/pets")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    stats = {"connected": 0, "connect_failed": 0, "closed_by_server": 0, "closed_within_1s": 0, "lifetimes": []}
    stop = asyncio.Event()
    attackers = []
    for _ in range(args.count):
        attackers.append(asyncio.create_task(attacker(args.port, args.mode, args.interval, args.duration, stats, stop)))
        if len(attackers) % 100 == 0:
            await asyncio.sleep(0.01)
    await asyncio.sleep(1)  # the flood is in place
    visits = {path: [] for path in args.paths.split(",")}
    end = time.monotonic() + args.duration
    while time.monotonic() < end:
        tick = time.monotonic()
        for path, results in visits.items():
            results.append(await visit(args.port, path))
        await asyncio.sleep(max(0, 1 - (time.monotonic() - tick)))
    still_open = stats["connected"] - stats["closed_by_server"]
    stop.set()
    await asyncio.gather(*attackers, return_exceptions=True)
    summary = {
        "mode": args.mode, "attempted": args.count, "connected": stats["connected"],
        "connect_failed": stats["connect_failed"], "closed_by_server": stats["closed_by_server"],
        "closed_within_1s": stats["closed_within_1s"], "still_open_at_end": still_open,
        "longest_lived_closed_s": round(max(stats["lifetimes"]), 1) if stats["lifetimes"] else None,
    }
    for path, results in visits.items():
        ok = [seconds for status, seconds in results if status == 200 and seconds <= 2]
        summary[path] = {"asked": len(results), "answered_200_within_2s": len(ok),
                         "max_s": round(max(s for _, s in results), 3) if results else None}
    print(json.dumps(summary))


asyncio.run(main())
