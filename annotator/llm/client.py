"""One OpenAI-compatible chat client for the collecting agent, the judge and instruction generation.

It talks to OpenAI, vLLM, Ollama or the built-in scripted endpoint through the ``openai`` package and
turns every failure into one of three errors a person can act on: :class:`LLMUnavailable` (try again
later), :class:`LLMRejected` (fix the key, the model name or the request) and :class:`LLMBadReply` (the
server answered, but not with a usable chat completion).

Retries are the openai client's own (``max_retries``). In the installed openai 3.54 it retries
connection errors, timeouts, 408, 409, 429 and 5xx (``SyncAPIClient.request`` and ``_should_retry``
in ``openai/_base_client.py``), waits what ``retry-after-ms`` / ``retry-after`` ask for when that is
between 0 and 120 seconds (``_calculate_retry_timeout``), and otherwise backs off exponentially from
0.5 s up to 8 s with up to 25 % jitter. So nothing here sleeps or loops.

The API key is read when the client is made, from an ``api_key=`` parameter of the base URL, else the
environment variable named in the config, else the OS keyring (service ``mobile-annotator``, user = the base
URL), else the placeholder ``not-needed`` that local servers accept. A URL's key is taken out of the URL and
sent as the Bearer header: left in, the openai client would append the path after the query (a 404) and the
key would land in the server's access log. It lives only inside the openai client: the config holds the
variable's name, never the key, and error messages have the key blanked out.
"""

from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from annotator.domain.endpoint_url import safe_url, safe_urls_in, url_secrets

if TYPE_CHECKING:
    import openai

KEYRING_SERVICE = "mobile-annotator"
PLACEHOLDER_KEY = "not-needed"
_DETAIL_CHARS = 300
# The most tokens any request asks for (instruction generation's 100 tasks need the most, 15,000): a typo'd
# --max-tokens or a caller's runaway sum must not let one reply cost a fortune or fill the database.
MAX_TOKENS_CEILING = 16_384


class _UrlCredentialsFilter(logging.Filter):
    """Takes the credentials out of the URLs in httpx's log lines ("HTTP Request: POST http://user:secret@...")."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = safe_urls_in(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


def _hide_credentials_in_http_logs() -> None:
    logger = logging.getLogger("httpx2")  # logs every request's URL at INFO, which the app's log file keeps
    if not any(isinstance(existing, _UrlCredentialsFilter) for existing in logger.filters):
        logger.addFilter(_UrlCredentialsFilter())


class LLMError(Exception):
    """A failed call; the message says what happened and what to do, and never holds the API key."""

    def __init__(self, message: str, *, status_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code


class LLMUnavailable(LLMError):
    """The server could not be reached, timed out, rate-limited or failed (5xx) on every try."""


class LLMRejected(LLMError):
    """The server refused the request (4xx): a bad key, an unknown model, a malformed request."""


class LLMBadReply(LLMError):
    """The server answered, but not with a chat completion holding text."""


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to call a model. Holds the key's variable name, not the key, so it can be saved."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60
    max_retries: int = 3
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = None  # sent only when set: OpenAI and vLLM honour it, some servers reject unknown fields

    def __repr__(self) -> str:  # the URL without the credentials it may hold
        return f"LLMConfig(base_url={self.shown_url!r}, model={self.model!r}, api_key_env={self.api_key_env!r}, " + (
            f"timeout_s={self.timeout_s}, max_retries={self.max_retries}, max_tokens={self.max_tokens})"
        )

    @property
    def shown_url(self) -> str:
        """The base URL as it may be stored and shown: without user, password or key parameters."""
        return safe_url(self.base_url)

    def __post_init__(self) -> None:
        if not self.base_url.strip():
            raise ValueError("base_url: empty; give the server's URL, e.g. http://127.0.0.1:8000/v1")
        if not self.model.strip():
            raise ValueError("model: empty; give the model's name as the server knows it")
        if self.timeout_s <= 0 or self.max_retries < 0 or not 0 < self.max_tokens <= MAX_TOKENS_CEILING:
            raise ValueError(
                f"timeout_s must be above 0, max_tokens from 1 to {MAX_TOKENS_CEILING:,} and max_retries at least 0, "
                f"got {self}"
            )


@dataclass(frozen=True)
class Completion:
    """One reply: its text, token usage (None where the server did not say), time taken including retries."""

    text: str
    usage: dict[str, int | None]
    latency_ms: float
    model: str
    request_id: str | None = None
    finish_reason: str | None = field(default=None)
    # The first token's most likely alternatives and their log-probabilities, when asked for and given.
    first_token_logprobs: dict[str, float] | None = None


def _first_token_logprobs(choice: Any) -> dict[str, float] | None:
    """The first generated token's top alternatives ({token: logprob}), None when the choice carries none."""
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not isinstance(content, list) or not content:
        return None
    alternatives = getattr(content[0], "top_logprobs", None) or []
    found = {
        item.token: float(item.logprob)
        for item in alternatives
        if isinstance(getattr(item, "token", None), str) and isinstance(getattr(item, "logprob", None), (int, float))
    }
    return found or None


def _keyring_key(base_url: str) -> str | None:
    """The key stored for this URL in the OS keyring; None when there is none or no usable keyring."""
    try:
        import keyring

        return keyring.get_password(KEYRING_SERVICE, base_url) or None
    except Exception:  # no backend, a locked or broken one: all mean "no key there"
        return None


# The query parameters that carry the API key itself (api_key, api-key, apiKey, key), compared lower-cased
# without - and _: other parameters (api-version, ...) stay query parameters of every request.
_KEY_PARAMETERS = {"apikey", "key"}


def split_url_key(base_url: str) -> tuple[str, str | None, dict[str, str]]:
    """``(base URL without query or fragment, the key its query carries or None, its other query parameters)``:
    the openai client joins paths onto the base URL as text, so a query must be handed to it separately."""
    try:
        parts = urlsplit(base_url.strip())
    except ValueError:  # not a URL: the client's own error says so when it connects
        return base_url, None, {}
    key, rest = None, {}
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name.lower().replace("-", "").replace("_", "") in _KEY_PARAMETERS:
            key = value.strip() or key
        else:
            rest[name] = value
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", "")), key, rest


def resolve_api_key(config: LLMConfig) -> tuple[str, str]:
    """``(key, where it came from)``; the second part is safe to show, the first never is."""
    from_url = split_url_key(config.base_url)[1]
    if from_url:
        return from_url, "the one in the URL's api_key parameter"
    from_env = os.environ.get(config.api_key_env, "").strip()
    if from_env:
        return from_env, f"the one in the environment variable {config.api_key_env}"
    from_keyring = _keyring_key(config.shown_url)
    if from_keyring:
        return from_keyring, f"the one in the keyring entry {KEYRING_SERVICE!r} for {config.shown_url}"
    return PLACEHOLDER_KEY, (
        f"the placeholder {PLACEHOLDER_KEY!r} ({config.api_key_env} is not set and the keyring has no key "
        f"for {config.shown_url})"
    )


class LLMClient:
    """Chat completions against one endpoint and model; see the module docstring for errors and retries."""

    def __init__(self, config: LLMConfig, *, api_key: str | None = None) -> None:
        """`api_key`: a key the calling code holds, used instead of the configured sources. No command takes a key
        (a command line ends up in shell histories and process lists): they name the variable, or use the keyring."""
        import openai  # a second of imports: paid by what makes a client, not by every module that names one

        from annotator.llm.deadline import DeadlineTransport

        _hide_credentials_in_http_logs()

        self.config = config
        if api_key is not None and api_key.strip():
            key, self.key_source = api_key.strip(), "the one given with the request (--api-key)"
        else:
            key, self.key_source = resolve_api_key(config)
        secrets = [key if key != PLACEHOLDER_KEY else "", *url_secrets(config.base_url)]
        self._secrets = sorted((secret for secret in secrets if len(secret) >= 3), key=len, reverse=True)
        base_url, _, query = split_url_key(config.base_url)
        # httpx's timeout bounds each read; the transport bounds each try as a whole (a server that trickles)
        transport = DeadlineTransport(config.timeout_s, base_url)
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=key,
            default_query=query or None,
            timeout=config.timeout_s,
            max_retries=config.max_retries,
            http_client=openai.DefaultHttpxClient(transport=transport, timeout=config.timeout_s),
        )

    def __repr__(self) -> str:
        return f"LLMClient({self.config!r})"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def complete(
        self,
        messages: list[dict[str, Any]],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        top_logprobs: int | None = None,
    ) -> Completion:
        """The model's reply to ``messages`` (OpenAI chat format); an LLMError subclass on any failure.
        ``top_logprobs``: also ask for that many alternatives of each token (the first token's are read into
        ``Completion.first_token_logprobs``; an endpoint may not give them)."""
        import openai

        config = self.config
        started = time.perf_counter()
        try:
            result = self._client.chat.completions.create(
                model=config.model,
                messages=cast(Any, messages),  # plain dicts in the OpenAI chat format, as the API takes them
                temperature=config.temperature if temperature is None else temperature,
                max_tokens=config.max_tokens if max_tokens is None else min(max_tokens, MAX_TOKENS_CEILING),
                seed=config.seed if config.seed is not None else openai.omit,  # no seed: none sent, not null
                logprobs=True if top_logprobs else openai.omit,
                top_logprobs=top_logprobs if top_logprobs else openai.omit,
            )
        except (openai.OpenAIError, ValueError) as error:
            raise self._translate(error) from None
        latency_ms = (time.perf_counter() - started) * 1000
        return self._read_completion(result, latency_ms)

    def list_models(self) -> list[str]:
        """The model names the server offers (``GET /models``)."""
        import openai

        try:
            return sorted(model.id for model in self._client.models.list())
        except (openai.OpenAIError, ValueError, AttributeError, TypeError) as error:
            raise self._translate(error) from None

    def _read_completion(self, result: Any, latency_ms: float) -> Completion:
        where = f"{self.config.shown_url} (model {self.config.model!r})"
        choices = getattr(result, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise LLMBadReply(self._redact(f"{where} sent no choices, so there is no reply: {_show(result)}"))
        message = getattr(choices[0], "message", None)
        text = getattr(message, "content", None)
        if not isinstance(text, str) or not text.strip():
            raise LLMBadReply(self._redact(f"{where} sent a choice without text (content {_show(text)})"))
        usage = getattr(result, "usage", None)
        counts = {key: getattr(usage, key, None) for key in ("prompt_tokens", "completion_tokens", "total_tokens")}
        request_id = getattr(result, "_request_id", None) or getattr(result, "id", None)
        return Completion(
            text=text,
            usage=counts,
            latency_ms=latency_ms,
            model=getattr(result, "model", None) or self.config.model,
            request_id=request_id if isinstance(request_id, str) else None,
            finish_reason=getattr(choices[0], "finish_reason", None),
            first_token_logprobs=_first_token_logprobs(choices[0]),
        )

    def _translate(self, error: Exception) -> LLMError:
        """The openai (or decoding) error as one of ours, with the key blanked out of every detail."""
        import httpx2  # openai's HTTP library, already loaded with it
        import openai

        url, model, tries = self.config.shown_url, self.config.model, self.config.max_retries + 1
        after = f"after {tries} tries" if tries > 1 else "(retries are off)"
        if isinstance(error, openai.APITimeoutError):
            message = f"{url} did not answer within {self.config.timeout_s:g} s, {after}"
            return LLMUnavailable(self._redact(message))
        if isinstance(error, openai.APIConnectionError):
            cause = error.__cause__ or error.__context__
            reason = f": {cause}" if cause else ""
            if isinstance(cause, httpx2.RemoteProtocolError):  # reached, but it hung up or sent a broken answer
                return LLMUnavailable(
                    self._redact(f"{url} closed the connection without a complete answer {after}{reason}")
                )
            message = f"cannot connect to {url} {after}{reason}; is the server running and the URL right?"
            return LLMUnavailable(self._redact(message))
        if isinstance(error, openai.APIStatusError):
            return self._status_error(error, after)
        return LLMBadReply(self._redact(f"{url} (model {model!r}) sent a reply that is not a chat completion: {error}"))

    def _status_error(self, error: openai.APIStatusError, after: str) -> LLMError:
        url, model, status = self.config.shown_url, self.config.model, error.status_code
        detail = self._redact(_error_detail(error))
        if status == 429:
            text = f"{url} is rate-limiting requests (429) {after}: {detail}; wait and try again, or lower the rate"
            return LLMUnavailable(text, status_code=status)
        if status >= 500 or status in (408, 409):
            return LLMUnavailable(f"{url} failed with {status} {after}: {detail}", status_code=status)
        if status in (401, 403):
            text = (
                f"{url} refused the API key ({status}): {detail}. Key sent: {self.key_source}; "
                f"set {self.config.api_key_env} or store the key in the keyring for this URL"
            )
            return LLMRejected(self._redact(text), status_code=status)
        if status == 404:
            text = (
                f"{url} answered 404 for model {model!r}: {detail}. The model name is unknown there "
                "(see its /models list) or the base URL is wrong (OpenAI-compatible URLs usually end in /v1)"
            )
            return LLMRejected(text, status_code=status)
        return LLMRejected(f"{url} rejected the request for model {model!r} ({status}): {detail}", status_code=status)

    def _redact(self, text: str) -> str:
        """`text` without the key and the credentials of the URL (a library's message may quote either)."""
        text = safe_urls_in(text)  # the endpoint's URL, or a request's URL under it
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


def _error_detail(error: openai.APIStatusError) -> str:
    """The server's own error message (OpenAI's JSON shape or plain text), cut short."""
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        text = message if isinstance(message, str) else json.dumps(body, ensure_ascii=False)
    else:
        text = str(body) if body else error.message
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _DETAIL_CHARS else text[: _DETAIL_CHARS - 1] + "…"
