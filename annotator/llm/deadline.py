"""A total deadline for each HTTP try, not only for each read.

httpx's timeouts (and so the openai client's) bound every single socket read; a server that sends one byte
every two seconds never trips a 5 s read timeout and holds a request for as long as it likes. Here every try
gets a deadline when it starts (:class:`DeadlineTransport` sets it for the calling thread), and the network
backend under the connection pool gives each connect, read and write only the time left until it, raising
httpcore's own timeout errors once it has passed. httpx turns those into ``ReadTimeout`` and the like, and the
openai client into ``APITimeoutError`` with its usual retries: each retry is a new try with a deadline of
its own, so a call takes at most about (retries + 1) x timeout plus the backoff between tries.

The deadline is kept per thread because the sync client sends a request and reads its body in the thread
that called it (the judge runs several such threads at once, each with its own request).
"""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterable
from typing import Any

import httpcore2
import httpx2

_current = threading.local()  # .deadline: time.monotonic() by which the thread's current try must be done


def _time_left(timeout: float | None, error: type[Exception]) -> float | None:
    """`timeout` cut down to what is left of the current try's deadline; `error` once nothing is left."""
    deadline: float | None = getattr(_current, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise error("the request's total time limit has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore2.NetworkStream):
    """A connection whose every read and write ends by the current try's deadline."""

    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _time_left(timeout, httpcore2.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _time_left(timeout, httpcore2.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
        left = _time_left(timeout, httpcore2.ConnectTimeout)
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, left))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _DeadlineBackend(httpcore2.NetworkBackend):
    """httpcore's own socket backend, with connections made and used within the current try's deadline."""

    def __init__(self) -> None:
        self._inner = httpcore2.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        left = _time_left(timeout, httpcore2.ConnectTimeout)
        return _DeadlineStream(self._inner.connect_tcp(host, port, left, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.NetworkStream:
        left = _time_left(timeout, httpcore2.ConnectTimeout)
        return _DeadlineStream(self._inner.connect_unix_socket(path, left, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def _environment_proxy(base_url: str) -> str | None:
    """The proxy the environment names for this URL (HTTP(S)_PROXY, NO_PROXY), as httpx would pick it: a
    client given its own transport no longer reads them itself."""
    url = httpx2.URL(base_url)
    proxies = urllib.request.getproxies_environment()
    if urllib.request.proxy_bypass(url.host):
        return None
    return proxies.get(url.scheme) or proxies.get("all")


class DeadlineTransport(httpx2.HTTPTransport):
    """httpx's HTTP transport where each request (each try of the openai client) has `seconds` in all."""

    def __init__(self, seconds: float, base_url: str) -> None:
        super().__init__(proxy=_environment_proxy(base_url))
        self._seconds = seconds
        # The pool makes its connections through this backend; httpx offers no argument for it.
        if not hasattr(self._pool, "_network_backend"):  # a newer httpcore: fail loudly, not without a deadline
            raise RuntimeError("httpcore's connection pool has no _network_backend; the request deadline needs one")
        self._pool._network_backend = _DeadlineBackend()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        # The body is read after this returns, in this thread, still under this try's deadline.
        _current.deadline = time.monotonic() + self._seconds
        return super().handle_request(request)
