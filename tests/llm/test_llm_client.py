"""LLMClient against real HTTP servers on loopback: replies, retries, errors, and where the key goes."""

from __future__ import annotations

import logging
import socket

import keyring
import pytest
from keyring.backend import KeyringBackend

from annotator.llm.client import (
    MAX_TOKENS_CEILING,
    PLACEHOLDER_KEY,
    Completion,
    LLMBadReply,
    LLMClient,
    LLMConfig,
    LLMError,
    LLMRejected,
    LLMUnavailable,
    resolve_api_key,
)
from tests.chat_server import ChatServer, Reply, chat_completion, error_body

KEY_ENV = "ANNOTATOR_TEST_LLM_KEY"
SECRET = "sk-test-0123456789abcdef"
HELLO = [{"role": "user", "content": "你好"}]


def config(server: ChatServer, **overrides: object) -> LLMConfig:
    values: dict = {"base_url": server.base_url, "model": "test-model", "api_key_env": KEY_ENV, "max_retries": 2}
    return LLMConfig(**(values | overrides))


def attempt(replies: list[Reply], **overrides: object) -> tuple[ChatServer, Completion | LLMError]:
    """One completion against a server that sends ``replies``: the server (what it saw) and the outcome."""
    with ChatServer(replies) as server, LLMClient(config(server, **overrides)) as client:
        try:
            return server, client.complete(HELLO)
        except LLMError as error:
            return server, error


@pytest.fixture(autouse=True)
def secret_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)


def test_a_completion_carries_text_usage_model_and_request_id() -> None:
    reply = Reply(body=chat_completion("<think>好</think>", model="served-name"), headers={"x-request-id": "req-42"})
    with ChatServer([reply]) as server, LLMClient(config(server, temperature=0.3, max_tokens=77)) as client:
        completion = client.complete(HELLO)
    assert completion.text == "<think>好</think>"
    assert completion.usage == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert completion.model == "served-name" and completion.request_id == "req-42"
    assert completion.latency_ms > 0
    (request,) = server.seen
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    assert request.body["model"] == "test-model" and request.body["messages"] == HELLO
    assert request.body["temperature"] == 0.3 and request.body["max_tokens"] == 77


def test_no_request_asks_for_more_tokens_than_the_ceiling() -> None:
    with ChatServer([Reply(body=chat_completion("好"))]) as server, LLMClient(config(server)) as client:
        client.complete(HELLO, max_tokens=10**6)  # a caller's runaway sum
    assert server.seen[0].body["max_tokens"] == MAX_TOKENS_CEILING
    with pytest.raises(ValueError, match="max_tokens from 1 to 16,384"):
        LLMConfig("http://127.0.0.1:1/v1", "m", max_tokens=10**6)


def test_without_usage_or_request_id_the_fields_say_so() -> None:
    with ChatServer([Reply(body=chat_completion("好", usage=False))]) as server, LLMClient(config(server)) as client:
        completion = client.complete(HELLO)
    assert completion.usage == {"prompt_tokens": None, "completion_tokens": None, "total_tokens": None}
    assert completion.request_id == "chatcmpl-test"  # no x-request-id header: the completion's own id


def test_429_with_retry_after_zero_is_retried_and_succeeds() -> None:
    replies = [
        Reply(429, error_body("slow down", "rate_limit_error"), headers={"retry-after": "0"}),
        Reply(body=chat_completion("第二次成功")),
    ]
    with ChatServer(replies) as server, LLMClient(config(server)) as client:
        assert client.complete(HELLO).text == "第二次成功"
    assert len(server.seen) == 2
    assert server.seen[1].headers.get("x-stainless-retry-count") == "1"


def test_retry_after_ms_is_honoured_too() -> None:
    replies = [Reply(503, error_body("busy"), headers={"retry-after-ms": "10"}), Reply(body=chat_completion("好"))]
    with ChatServer(replies) as server, LLMClient(config(server)) as client:
        assert client.complete(HELLO).text == "好"
    assert len(server.seen) == 2


@pytest.mark.slow
def test_500_until_the_retries_run_out_is_unavailable() -> None:
    server, error = attempt([Reply(500, error_body("backend exploded", "server_error"))], max_retries=2)
    assert isinstance(error, LLMUnavailable) and error.status_code == 500
    assert len(server.seen) == 3  # one try and two retries
    message = str(error)
    assert "500" in message and "after 3 tries" in message and "backend exploded" in message
    assert server.base_url in message


def test_429_until_the_retries_run_out_says_rate_limited() -> None:
    server, error = attempt([Reply(429, error_body("quota"), headers={"retry-after": "0"})], max_retries=1)
    assert isinstance(error, LLMUnavailable) and "rate-limiting requests (429) after 2 tries: quota" in str(error)
    assert len(server.seen) == 2


def test_401_is_rejected_and_names_where_the_key_came_from_but_never_the_key() -> None:
    # A server that echoes the key back, as some proxies do.
    reply = Reply(401, error_body(f"Incorrect API key provided: {SECRET}", "invalid_api_key"))
    server, error = attempt([reply])
    assert isinstance(error, LLMRejected)
    assert len(server.seen) == 1  # a bad key is not retried
    message = str(error)
    assert "refused the API key (401)" in message and KEY_ENV in message
    assert SECRET not in message and "***" in message
    assert error.__cause__ is None and error.__suppress_context__  # the openai error (with the body) is not chained


def test_an_unknown_model_is_rejected_naming_the_model() -> None:
    reply = Reply(404, error_body("The model `qwen-9000` does not exist", "not_found_error"))
    _, error = attempt([reply], model="qwen-9000")
    assert isinstance(error, LLMRejected) and error.status_code == 404
    assert "404 for model 'qwen-9000'" in str(error) and "/v1" in str(error)


def test_a_bad_request_is_rejected_with_the_servers_reason() -> None:
    _, error = attempt([Reply(400, error_body("messages: too many images"))])
    assert isinstance(error, LLMRejected) and "(400): messages: too many images" in str(error)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (Reply(body=b"<html>proxy error</html>", content_type="text/html"), "no choices"),
        (Reply(body=b"{not json", content_type="application/json"), "not a chat completion"),
        (Reply(body={"id": "x", "object": "chat.completion", "choices": []}), "no choices"),
        (Reply(body=chat_completion(None)), "without text"),
        (Reply(body=chat_completion("   ")), "without text"),
    ],
    ids=["html", "broken-json", "no-choices", "null-content", "blank-content"],
)
def test_junk_replies_are_bad_replies(reply: Reply, expected: str) -> None:
    _, error = attempt([reply])
    assert isinstance(error, LLMBadReply) and expected in str(error)


@pytest.mark.slow
def test_a_server_that_does_not_answer_in_time_is_unavailable() -> None:
    server, error = attempt([Reply(body=chat_completion("太晚了"), delay_s=30)], timeout_s=0.3, max_retries=1)
    assert isinstance(error, LLMUnavailable) and "did not answer within 0.3 s, after 2 tries" in str(error)
    assert len(server.seen) == 2


@pytest.mark.slow
def test_a_server_that_trickles_its_reply_is_cut_off_at_the_deadline_of_each_try() -> None:
    # a byte every 0.2 s never trips a per-read timeout of 0.5 s; the body takes some 60 s to send in full
    trickled = Reply(body=chat_completion("慢慢来" * 40), trickle_s=0.2)
    server, error = attempt([trickled], timeout_s=0.5, max_retries=1)
    assert isinstance(error, LLMUnavailable) and "did not answer within 0.5 s, after 2 tries" in str(error)
    assert len(server.seen) == 2 and server.bytes_sent < 30  # both tries given up long before the body ended


def test_the_http_log_shows_the_url_without_its_credentials(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="httpx2"), ChatServer([Reply(body=chat_completion("好"))]) as server:
        url = server.base_url.replace("http://", "http://alice:pa55word@")
        with LLMClient(LLMConfig(url, "m", api_key_env=KEY_ENV)) as client:
            client.complete(HELLO)
    assert f"POST {server.base_url}/chat/completions" in caplog.text and "pa55word" not in caplog.text


def test_nothing_listening_is_unavailable() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    url = f"http://127.0.0.1:{port}/v1"
    client = LLMClient(LLMConfig(f"http://alice:pa55word@127.0.0.1:{port}/v1", "m", api_key_env=KEY_ENV, max_retries=0))
    with client, pytest.raises(LLMUnavailable, match="cannot connect") as raised:
        client.complete(HELLO)
    assert url in str(raised.value) and "retries are off" in str(raised.value)
    assert "pa55word" not in str(raised.value) + repr(client)  # the URL's credentials are never shown


def test_list_models() -> None:
    body = {"object": "list", "data": [{"id": "b", "object": "model"}, {"id": "a", "object": "model"}]}
    with ChatServer([Reply(body=body)]) as server, LLMClient(config(server)) as client:
        assert client.list_models() == ["a", "b"]
    assert server.seen[0].method == "GET" and server.seen[0].path == "/v1/models"


def test_the_key_is_not_in_the_config_or_the_clients_repr() -> None:
    with ChatServer([Reply(body=chat_completion("好"))]) as server, LLMClient(config(server)) as client:
        shown = [repr(client.config), str(client.config), repr(client), client.key_source]
    assert all(SECRET not in text for text in shown)
    assert KEY_ENV in shown[0] and KEY_ENV in shown[3]


class MemoryKeyring(KeyringBackend):
    """A keyring backend (the keyring package's plug-in interface) that holds passwords in a dict."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.passwords.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> MemoryKeyring:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_the_key_comes_from_the_keyring_when_the_variable_is_unset(
    monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring
) -> None:
    monkeypatch.delenv(KEY_ENV)
    with ChatServer([Reply(body=chat_completion("好"))]) as server:
        keyring.set_password("mobile-annotator", server.base_url, "sk-from-keyring")
        with LLMClient(config(server)) as client:
            client.complete(HELLO)
            assert "keyring" in client.key_source and "sk-from-keyring" not in client.key_source
    assert server.seen[0].headers["authorization"] == "Bearer sk-from-keyring"


def test_no_key_anywhere_sends_the_placeholder(monkeypatch: pytest.MonkeyPatch, memory_keyring: MemoryKeyring) -> None:
    monkeypatch.delenv(KEY_ENV)
    with ChatServer([Reply(body=chat_completion("好"))]) as server, LLMClient(config(server)) as client:
        client.complete(HELLO)
    assert server.seen[0].headers["authorization"] == f"Bearer {PLACEHOLDER_KEY}"


def test_a_broken_keyring_means_no_key_there(monkeypatch: pytest.MonkeyPatch) -> None:
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # what a machine without a keyring service has
    try:
        monkeypatch.delenv(KEY_ENV)
        key, source = resolve_api_key(LLMConfig("http://127.0.0.1:1/v1", "m", api_key_env=KEY_ENV))
    finally:
        keyring.set_keyring(previous)
    assert key == PLACEHOLDER_KEY and KEY_ENV in source


def test_bad_settings_are_refused_early() -> None:
    with pytest.raises(ValueError, match="base_url"):
        LLMConfig(" ", "m")
    with pytest.raises(ValueError, match="model"):
        LLMConfig("http://127.0.0.1:1/v1", "")
