"""An OpenAI-compatible chat server on loopback that answers as the scripted agent (model `scripted`).

Enough of the API for the openai client: `GET /v1/models`, `POST /v1/chat/completions` (plain and
`stream: true`), errors in OpenAI's JSON shape. Any API key is accepted; nothing leaves the machine.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the agent and its phone load when an endpoint is made: the app names MODEL at start
    from annotator.demo.phone.scripted_agent import ScriptedAgent

MODEL = "scripted"
MAX_BODY = 64 * 1024 * 1024  # screenshots travel inline as base64


def _error(status: HTTPStatus, message: str, kind: str = "invalid_request_error") -> tuple[HTTPStatus, dict]:
    return status, {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _usage(body: dict[str, Any], reply: str) -> dict[str, int]:
    """Rough token counts (about 4 characters a token, an image about 1,000), so callers can record usage."""
    prompt_chars, images = 0, 0
    for message in body.get("messages", []):
        content = message.get("content")
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        for part in parts:
            images += part.get("type") == "image_url"
            prompt_chars += len(part.get("text", "")) if part.get("type") == "text" else 0
    prompt, completion = prompt_chars // 4 + 1000 * images, max(1, len(reply) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion(body: dict[str, Any], agent: ScriptedAgent) -> tuple[HTTPStatus, dict]:
    """The chat.completion object for a request body, or an OpenAI-style error."""
    from annotator.demo.phone.chat_request import RequestError

    messages = body.get("messages")
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        return _error(HTTPStatus.BAD_REQUEST, "'messages' must be a list of message objects")
    if body.get("model", MODEL) != MODEL:
        return _error(
            HTTPStatus.NOT_FOUND,
            f"model {body.get('model')!r} does not exist; this endpoint serves 'scripted'",
            "not_found_error",
        )
    try:
        reply = agent.reply(messages)
    except RequestError as error:
        return _error(HTTPStatus.BAD_REQUEST, str(error))
    choice = {"index": 0, "message": {"role": "assistant", "content": reply}, "finish_reason": "stop", "logprobs": None}
    return HTTPStatus.OK, {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [choice],
        "usage": _usage(body, reply),
    }


def _chunks(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The same reply as server-sent chat.completion.chunk events: role, content, then stop with usage."""
    base = {key: result[key] for key in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    content = result["choices"][0]["message"]["content"]
    deltas = [{"role": "assistant", "content": ""}, {"content": content}]
    chunks = [base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]} for delta in deltas]
    chunks.append(base | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": result["usage"]})
    return chunks


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are separate writes; Nagle would hold the body ~40 ms

    def log_message(self, format: str, *args: Any) -> None:
        self.server.log(f"{self.address_string()} {format % args}")

    def _send_json(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_stream(self, result: dict[str, Any]) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for chunk in _chunks(result):
            self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.close_connection = True

    def do_GET(self) -> None:
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            model = {"id": MODEL, "object": "model", "created": 0, "owned_by": "annotator"}
            self._send_json(HTTPStatus.OK, {"object": "list", "data": [model]})
        else:
            self._send_json(*_error(HTTPStatus.NOT_FOUND, f"no route {self.path}; try /v1/chat/completions"))

    def do_POST(self) -> None:
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._send_json(*_error(HTTPStatus.NOT_FOUND, f"no route {self.path}; try /v1/chat/completions"))
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self._send_json(*_error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"request body over {MAX_BODY} bytes"))
            return
        try:
            body = json.loads(self.rfile.read(length) or b"null")
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            self._send_json(*_error(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {error}"))
            return
        if not isinstance(body, dict):
            self._send_json(*_error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object"))
            return
        status, result = completion(body, self.server.agent)
        if status == HTTPStatus.OK and body.get("stream"):
            self._send_stream(result)
        else:
            self._send_json(status, result)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], agent: ScriptedAgent, verbose: bool) -> None:
        super().__init__(address, _Handler)
        self.agent, self.verbose = agent, verbose

    def log(self, line: str) -> None:
        if self.verbose:
            print(line, flush=True)


class ScriptedEndpoint:
    """The server: `start()` in a background thread or `serve_forever()` in the foreground."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        seed: int = 0,
        verbose: bool = False,
        mistakes: dict[str, float] | None = None,
    ) -> None:
        """`mistakes` overrides how often the agent errs (`{}`: never), see scripted_agent.MISTAKES."""
        from annotator.demo.phone.scripted_agent import ScriptedAgent

        self._server = _Server((host, port), ScriptedAgent(seed=seed, mistakes=mistakes), verbose)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        host = self._server.server_address[0]  # typed str | bytes: bytes only for a Unix socket, not this TCP one
        return f"http://{host if isinstance(host, str) else host.decode()}:{self.port}/v1"

    def start(self) -> ScriptedEndpoint:
        self._thread = threading.Thread(target=self._server.serve_forever, name="scripted-endpoint", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def close(self) -> None:
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()

    def __enter__(self) -> ScriptedEndpoint:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
