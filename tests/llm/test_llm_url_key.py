"""The documented `?api_key=` form of a base URL: the key goes in the Bearer header, never in a request's URL."""

from __future__ import annotations

import pytest

from annotator.llm.client import LLMClient, LLMConfig, LLMRejected
from tests.chat_server import ChatServer, Reply, chat_completion, error_body

KEY = "sk-from-the-url-42"
HELLO = [{"role": "user", "content": "你好"}]


@pytest.fixture(autouse=True)
def other_key_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANNOTATOR_TEST_URL_KEY", "sk-environment")


def test_the_urls_key_is_sent_as_bearer_and_the_path_is_the_api_path() -> None:
    with ChatServer([Reply(body=chat_completion("好"))]) as server:
        config = LLMConfig(f"{server.base_url}?api_key={KEY}", "m", "ANNOTATOR_TEST_URL_KEY", max_retries=0)
        with LLMClient(config) as client:
            assert client.complete(HELLO).text == "好"
            assert client.key_source == "the one in the URL's api_key parameter"
    (request,) = server.seen
    assert request.path == "/v1/chat/completions"  # was /v1/?api_key=...chat/completions, a 404
    assert request.headers["authorization"] == f"Bearer {KEY}"  # the URL's key, over the environment's


def test_other_query_parameters_go_with_every_request_and_the_key_with_none() -> None:
    replies = [Reply(body={"object": "list", "data": [{"id": "m", "object": "model"}]})]
    with ChatServer(replies) as server:
        url = f"{server.base_url}?api-version=2024-06&apiKey={KEY}"
        with LLMClient(LLMConfig(url, "m", "ANNOTATOR_TEST_URL_KEY", max_retries=0)) as client:
            assert client.list_models() == ["m"]
    (request,) = server.seen
    assert request.path == "/v1/models?api-version=2024-06"
    assert KEY not in request.path and request.headers["authorization"] == f"Bearer {KEY}"


def test_a_refused_url_key_is_named_by_where_it_came_from_and_never_shown() -> None:
    with ChatServer([Reply(status=401, body=error_body(f"bad key {KEY}"))]) as server:
        config = LLMConfig(f"{server.base_url}?api_key={KEY}", "m", "ANNOTATOR_TEST_URL_KEY", max_retries=0)
        with LLMClient(config) as client, pytest.raises(LLMRejected) as raised:
            client.complete(HELLO)
    assert "the one in the URL's api_key parameter" in raised.value.message
    assert KEY not in raised.value.message and "api_key=" not in raised.value.message
