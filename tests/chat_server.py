"""A small OpenAI-style HTTP server on loopback whose replies a test lays out in advance.

A real peer for the real openai client: the client goes through its whole HTTP path (headers, retries,
timeouts, JSON decoding). Each request takes the next reply; the last one repeats.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # a dict is sent as JSON, bytes as they are
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # hold the reply this long (to provoke client timeouts)
    content_type: str = "application/json"
    trickle_s: float = 0.0  # send the body one byte at a time, this long apart (a per-read timeout never trips)
    hang_up: bool = False  # close the connection without answering


def chat_completion(
    text: str | None, *, model: str = "test-model", usage: bool = True, first_token: dict[str, float] | None = None
) -> dict[str, Any]:
    """A chat completion; `first_token`: the first token's top alternatives {token: logprob}, as OpenAI sends them
    when asked for logprobs."""
    body: dict[str, Any] = {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }
    if first_token:
        top = [{"token": token, "logprob": value, "bytes": None} for token, value in first_token.items()]
        chosen = max(top, key=lambda item: item["logprob"])
        body["choices"][0]["logprobs"] = {"content": [chosen | {"top_logprobs": top}], "refusal": None}
    if usage:
        body["usage"] = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    return body


def error_body(message: str, kind: str = "invalid_request_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case
    body: Any


class _Handler(BaseHTTPRequestHandler):
    server: ChatServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _answer(self, body: Any) -> None:
        headers = {name.lower(): value for name, value in self.headers.items()}
        reply = self.server.take(Seen(self.command, self.path, headers, body))
        if reply.delay_s:
            self.server.release.wait(reply.delay_s)
        if reply.hang_up:
            self.close_connection = True
            return
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body, ensure_ascii=False).encode()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self._send_body(data, reply.trickle_s)
        except OSError:
            pass  # the client gave up (a timeout test)

    def _send_body(self, data: bytes, trickle_s: float) -> None:
        if not trickle_s:
            self.wfile.write(data)
            return
        for sent in range(len(data)):
            self.wfile.write(data[sent : sent + 1])
            self.wfile.flush()
            self.server.bytes_sent += 1
            if self.server.release.wait(trickle_s):
                return

    def do_GET(self) -> None:
        self._answer(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        self._answer(json.loads(raw) if raw else None)


class ChatServer(ThreadingHTTPServer):
    """``with ChatServer([Reply(...), ...]) as server: ... server.base_url ... server.seen``.

    With `respond`, each request's reply is worked out from the request itself (for concurrent clients,
    whose requests arrive in no fixed order); `replies` is then unused."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, replies: list[Reply], respond: Callable[[Seen], Reply] | None = None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.replies = list(replies)
        self.respond = respond
        self.seen: list[Seen] = []
        self.bytes_sent = 0  # of trickled bodies
        self.release = threading.Event()  # set on close, so a held reply does not outlive the test
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def take(self, seen: Seen) -> Reply:
        with self._lock:
            self.seen.append(seen)
            if self.respond is not None:
                return self.respond(seen)
            return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()
        self._thread.join()
