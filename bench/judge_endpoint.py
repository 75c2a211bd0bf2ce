"""The loopback OpenAI-compatible endpoint of bench/judge.py: answers every chat request after a fixed delay.

Runs in a child process of the bench (`python bench/judge_endpoint.py --delay S`: prints its port, serves until
its stdin closes), so that its work does not share the measured process's GIL.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

REPLY = json.dumps({"reason": "ok", "reward": 3})


class _Handler(BaseHTTPRequestHandler):
    server: DelayedEndpoint
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes; Nagle would hold the body ~40 ms

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path == "/stats":
            self._send(200, self.server.take_stats())
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found_error"}})

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))  # all of it, as a server would
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found_error"}})
            return
        self.server.enter(len(body))
        try:
            time.sleep(self.server.delay)
        finally:
            self.server.leave()
        self._send(
            200,
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": "bench-judge",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 5000, "completion_tokens": 12, "total_tokens": 5012},
            },
        )


class DelayedEndpoint(ThreadingHTTPServer):
    """POST /v1/chat/completions: the whole body read, then the same reply after `delay` seconds.
    GET /stats: requests, bytes and the most requests held at once since the last /stats."""

    daemon_threads = True
    request_queue_size = 128  # 32 clients connecting at once must not be refused

    def __init__(self, delay: float) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.delay = delay
        self.lock = threading.Lock()
        self.requests = self.body_bytes = self.in_flight = self.max_in_flight = 0

    def enter(self, size: int) -> None:
        with self.lock:
            self.requests += 1
            self.body_bytes += size
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def take_stats(self) -> dict[str, int]:
        with self.lock:
            stats = {"requests": self.requests, "body_bytes": self.body_bytes, "max_in_flight": self.max_in_flight}
            self.requests = self.body_bytes = self.max_in_flight = 0
            return stats


def serve(delay: float) -> None:
    """The endpoint in this (child) process: prints its port, serves until stdin closes."""
    server = DelayedEndpoint(delay)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


@contextlib.contextmanager
def endpoint_process(delay: float):  # type: ignore[no-untyped-def]
    command = [sys.executable, __file__, "--delay", str(delay)]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        yield f"http://127.0.0.1:{port}"
    finally:
        assert child.stdin is not None
        child.stdin.close()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def endpoint_stats(root: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{root}/stats", timeout=10) as response:
        return json.loads(response.read())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--delay", type=float, required=True, help="seconds each reply is held")
    serve(parser.parse_args().delay)
