"""Endpoint URLs lose the credentials written into them before they are stored or shown."""

from __future__ import annotations

import pytest

from annotator.domain.endpoint_url import safe_url, safe_urls_in, url_secrets


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("http://user:secret@host/v1", "http://host/v1"),
        ("https://only-user@api.example.com:8443/v1/", "https://api.example.com:8443/v1/"),
        (
            "https://h.example.com/v1?api_key=sk-1&api-version=2024-06&apiKey=x&access_token=t",
            "https://h.example.com/v1?api-version=2024-06",
        ),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
        ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
        ("http://u:p@host/v1#sig=abc", "http://host/v1"),
        ("user:pw@not-a-url", "not-a-url"),
    ],
)
def test_credentials_are_left_out(given: str, shown: str) -> None:
    assert safe_url(given) == shown


def test_the_secrets_of_a_url_are_named_for_blanking_out() -> None:
    assert set(url_secrets("http://alice:pa55word@host/v1?key=k-123&x=1")) == {"alice", "pa55word", "k-123"}
    assert url_secrets("http://host/v1") == []


def test_urls_inside_a_message_lose_their_credentials() -> None:
    message = 'HTTP Request: POST http://alice:pa55word@10.0.0.5:8000/v1/chat/completions?key=k-1 "HTTP/1.1 200 OK"'
    assert safe_urls_in(message) == 'HTTP Request: POST http://10.0.0.5:8000/v1/chat/completions "HTTP/1.1 200 OK"'
