"""Tests for the httpx documentation corpus in data/httpx-docs/.

Three groups:

* structure and what the lesson relies on (where the timeout kinds and the default
  are defined, what the docs never say, a keyword that overflows the grep cap);
* fact checks: concrete claims of the corpus held against the installed httpx;
* code samples: every ```python block is compiled, and executed unless it is
  skipped for a stated reason. Blocks run without network: most build their
  client on httpx.MockTransport, and for the rest the connection pool of the
  real transport is replaced by a fake server (see ``fake_network``), so the
  httpx client and transport code still runs for real.

This file reads the documents directly with pathlib; it does not use agentlib.
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import json
import logging
import os
import re
import ssl
import warnings
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import httpcore
import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "data" / "httpx-docs"
HTTPX_SRC = Path(httpx.__file__).resolve().parent
HTTPCORE_SRC = Path(httpcore.__file__).resolve().parent


def doc_paths() -> list[str]:
    """All .md paths below DOCS, relative and sorted, LICENSE.md left out (as list_docs does)."""
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md") if p.name != "LICENSE.md")


def lines_of(rel: str) -> list[str]:
    return (DOCS / rel).read_text(encoding="utf-8").splitlines()


def grep(keyword: str) -> list[tuple[str, int, str]]:
    """Every line containing keyword, case-insensitively (the uncapped grep_docs)."""
    hits = []
    for rel in doc_paths():
        for no, line in enumerate(lines_of(rel), start=1):
            if keyword.lower() in line.lower():
                hits.append((rel, no, line))
    return hits


def all_text() -> str:
    return "\n".join("\n".join(lines_of(rel)) for rel in doc_paths())


# --------------------------------------------------------------------------
# Structure
# --------------------------------------------------------------------------


@pytest.mark.parametrize("rel", doc_paths())
def test_every_document_is_real_markdown(rel):
    lines = lines_of(rel)
    assert lines[0].startswith("# "), "a document starts with its title"
    assert sum(1 for l in lines if l.startswith("## ")) >= 2, "at least two sections"
    fences = [l for l in lines if l.lstrip().startswith("```")]
    assert len(fences) % 2 == 0, "code fences are balanced"
    assert all(len(l) <= 200 for l in lines), "no runaway lines"


LINK = re.compile(r"\]\(([^)#\s]+\.md)(#[^)]*)?\)")


@pytest.mark.parametrize("rel", doc_paths())
def test_relative_links_resolve(rel):
    base = (DOCS / rel).parent
    for target, _anchor in LINK.findall((DOCS / rel).read_text(encoding="utf-8")):
        assert (base / target).resolve().is_file(), f"{rel} links to missing {target}"


def test_licence_file_states_the_facts():
    text = (DOCS / "LICENSE.md").read_text(encoding="utf-8")
    assert "original text" in text and "course" in text
    assert "CC BY 4.0" in text
    assert "BSD 3-clause" in text and "Encode OSS Ltd" in text
    # ...and those facts about httpx are true for the installed distribution.
    meta = metadata.metadata("httpx")
    assert meta["License"] == "BSD-3-Clause"
    licence_files = [f for f in metadata.files("httpx") if f.name.startswith("LICENSE")]
    assert any("Encode OSS Ltd" in f.read_text() for f in licence_files)


# --------------------------------------------------------------------------
# What the lesson relies on
# --------------------------------------------------------------------------

TIMEOUTS = "advanced/timeouts.md"
KINDS = {
    "connect": "ConnectTimeout",
    "read": "ReadTimeout",
    "write": "WriteTimeout",
    "pool": "PoolTimeout",
}


def timeout_kind_lines() -> dict[str, int]:
    """Line number (1-based) of the table row defining each kind in timeouts.md."""
    found = {}
    for no, line in enumerate(lines_of(TIMEOUTS), start=1):
        for kind, exc in KINDS.items():
            if line.startswith(f"| `{kind}`") and exc in line:
                found.setdefault(kind, no)
    return found


def test_four_kinds_defined_compactly_within_first_80_lines():
    found = timeout_kind_lines()
    assert set(found) == set(KINDS)
    assert max(found.values()) <= 80
    first, last = min(found.values()), max(found.values())
    assert last - first + 1 <= 15
    lines = lines_of(TIMEOUTS)
    # Each row also says what the kind bounds.
    bounds = {
        "connect": "connection",
        "read": "data from the server",
        "write": "request body",
        "pool": "connection pool",
    }
    for kind, word in bounds.items():
        assert word in lines[found[kind] - 1], kind


def test_default_timeout_stated_within_first_80_lines():
    head = lines_of(TIMEOUTS)[:80]
    assert any("5 seconds" in l and "every kind" in l for l in head)


@pytest.mark.parametrize("needle", ["HTTP/3", "http3"])
def test_corpus_is_silent_about_http3(needle):
    assert grep(needle) == []
    # also across line breaks, just in case
    assert needle.lower() not in all_text().lower().replace("\n", "")


def test_grep_timeout_overflows_the_cap_and_spans_files():
    hits = grep("timeout")
    assert len(hits) > 20
    files = {rel for rel, _, _ in hits}
    assert TIMEOUTS in files and len(files - {TIMEOUTS}) >= 5


# --------------------------------------------------------------------------
# Fact checks against the installed httpx
# --------------------------------------------------------------------------


def test_version_is_0_28():
    assert httpx.__version__.startswith("0.28.")
    assert "httpx 0.28" in (DOCS / "index.md").read_text()


def test_default_timeout_is_5_seconds_on_every_kind():
    client = httpx.Client()
    t = client.timeout
    client.close()
    assert (t.connect, t.read, t.write, t.pool) == (5.0, 5.0, 5.0, 5.0)
    assert httpx.AsyncClient().timeout == httpx.Timeout(5.0)
    assert inspect.signature(httpx.get).parameters["timeout"].default == httpx.Timeout(5.0)


def test_timeout_has_exactly_the_four_documented_fields():
    assert set(vars(httpx.Timeout(1.0))) == set(KINDS)
    assert set(httpx.Timeout(1.0).as_dict()) == set(KINDS)


@pytest.mark.parametrize("kind,exc", sorted(KINDS.items()))
def test_timeout_exceptions(kind, exc):
    cls = getattr(httpx, exc)
    assert issubclass(cls, httpx.TimeoutException)
    assert issubclass(cls, httpx.TransportError)


def test_write_limit_covers_request_headers_too():
    from httpcore._sync.http11 import HTTP11Connection

    for method in (HTTP11Connection._send_request_headers, HTTP11Connection._send_request_body):
        assert 'timeouts.get("write", None)' in inspect.getsource(method)
    assert "the request headers or the next chunk of the request body" in (DOCS / TIMEOUTS).read_text()


def test_timeout_examples_in_text():
    assert repr(httpx.Timeout(10.0)) == "Timeout(timeout=10.0)"
    t = httpx.Timeout(10.0, connect=3.0)
    assert (t.connect, t.read, t.write, t.pool) == (3.0, 10.0, 10.0, 10.0)
    with pytest.raises(ValueError):
        httpx.Timeout(connect=1.0)
    assert httpx.Timeout(None).read is None


def test_limits_defaults():
    source = (HTTPX_SRC / "_config.py").read_text()
    assert "DEFAULT_LIMITS = Limits(max_connections=100, max_keepalive_connections=20)" in source
    bare = httpx.Limits()
    assert (bare.max_connections, bare.max_keepalive_connections, bare.keepalive_expiry) == (None, None, 5.0)
    client = httpx.Client()
    pool = client._transport._pool  # what a client without limits= really gets
    assert (pool._max_connections, pool._max_keepalive_connections, pool._keepalive_expiry) == (100, 20, 5.0)
    client.close()
    text = (DOCS / "advanced/resource-limits.md").read_text()
    for row in (
        "| `max_connections`           | `100`",
        "| `max_keepalive_connections` | `20`",
        "| `keepalive_expiry`          | `5.0`",
    ):
        assert row in text
    assert "Limits(max_connections=None, max_keepalive_connections=None, keepalive_expiry=5.0)" in text
    assert repr(httpx.Limits()) in text


def exception_tree_from_doc() -> dict[str, str]:
    """Parse the tree in exceptions.md into {class name: parent name}."""
    lines = lines_of("exceptions.md")
    start = lines.index("```text") + 1
    end = lines.index("```", start)
    parents: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for line in lines[start:end]:
        m = re.match(r"^([│ ]*)(?:[├└]── )?(\w+)", line)
        depth = len(m.group(1)) // 4 + (1 if re.search(r"[├└]── ", line) else 0)
        name = m.group(2)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parents[name] = stack[-1][1] if stack else "Exception"
        stack.append((depth, name))
    return parents


def test_exception_hierarchy_matches_httpx():
    tree = exception_tree_from_doc()
    for name, parent in tree.items():
        cls = getattr(httpx, name)
        expected = (
            RuntimeError if name == "StreamError" else (Exception if parent == "Exception" else getattr(httpx, parent))
        )
        assert cls.__bases__ == (expected,), name
    # and the doc misses no public exception class
    public = {
        n for n in httpx.__all__ if isinstance(getattr(httpx, n), type) and issubclass(getattr(httpx, n), Exception)
    }
    assert public == set(tree)


def test_close_error_is_never_raised_by_httpx_itself():
    mapped = set(httpx._transports.default._load_httpcore_exceptions().values())
    assert httpx.ReadError in mapped and httpx.CloseError not in mapped
    sources = [p.read_text() for p in HTTPX_SRC.rglob("*.py") if p.name not in ("__init__.py", "_exceptions.py")]
    assert not any("CloseError" in text for text in sources)
    assert "httpx 0.28 never raises it itself" in (DOCS / "exceptions.md").read_text()


def test_exception_table_names_are_real():
    for line in lines_of("exceptions.md"):
        m = re.match(r"^\| `(\w+)`\s*\|", line)
        if m:
            assert issubclass(getattr(httpx, m.group(1)), Exception)


def doc_table(rel: str, header_start: str) -> list[list[str]]:
    """Rows (as stripped cells) of the first table whose header row starts with header_start."""
    lines = lines_of(rel)
    for i, line in enumerate(lines):
        if line.startswith(header_start):
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append([c.strip() for c in row.strip().strip("|").split("|")])
            return rows
    raise AssertionError(f"no table starting {header_start!r} in {rel}")


@pytest.mark.parametrize("cls", [httpx.Client, httpx.AsyncClient])
def test_client_parameter_table_matches_signature(cls):
    rows = doc_table("api.md", "| Parameter          | Default")
    documented = [r[0].strip("`") for r in rows]
    params = inspect.signature(cls.__init__).parameters
    real = [n for n in params if n != "self"]
    assert sorted(documented) == sorted(real)
    if cls is httpx.Client:  # AsyncClient lists trust_env later; the set is the same
        assert documented == real
    assert all(p.kind is p.KEYWORD_ONLY for n, p in params.items() if n != "self")
    literal_defaults = {"`True`": True, "`False`": False, "`None`": None, "`20`": 20, '`"utf-8"`': "utf-8", '`""`': ""}
    for name, default, *_ in rows:
        if default in literal_defaults:
            assert params[name.strip("`")].default == literal_defaults[default], name


@pytest.mark.parametrize(
    "option",
    [
        "follow_redirects",
        "trust_env",
        "http2",
        "default_encoding",
        "event_hooks",
        "transport",
        "proxy",
        "verify",
        "mounts",
        "limits",
    ],
)
def test_named_client_options_exist(option):
    assert option in inspect.signature(httpx.Client.__init__).parameters
    assert option in inspect.signature(httpx.AsyncClient.__init__).parameters


@pytest.mark.parametrize("removed", ["proxies", "app"])
def test_removed_arguments_are_gone(removed):
    assert removed not in inspect.signature(httpx.Client.__init__).parameters
    with pytest.raises(TypeError):
        httpx.Client(**{removed: None})


def test_follow_redirects_defaults_to_false():
    assert httpx.Client().follow_redirects is False
    for fn in (httpx.get, httpx.post, httpx.request, httpx.stream):
        assert inspect.signature(fn).parameters["follow_redirects"].default is False
    assert inspect.signature(httpx.Client.__init__).parameters["max_redirects"].default == 20


def test_top_level_functions_take_the_documented_connection_settings():
    for fn in (httpx.get, httpx.post, httpx.request, httpx.stream):
        params = inspect.signature(fn).parameters
        for name in ("auth", "proxy", "timeout", "follow_redirects", "verify", "trust_env"):
            assert name in params, (fn.__name__, name)
    for fn in (httpx.get, httpx.head, httpx.options, httpx.delete):
        params = inspect.signature(fn).parameters
        assert not {"content", "data", "json", "files"} & set(params), fn.__name__
    assert {"content", "data", "json", "files"} <= set(inspect.signature(httpx.post).parameters)


def test_top_level_functions_take_no_extensions_and_no_per_call_cookie_warning():
    for fn in (httpx.get, httpx.post, httpx.request, httpx.stream):
        assert "extensions" not in inspect.signature(fn).parameters, fn.__name__
    assert "except\n`extensions`" in (DOCS / "api.md").read_text()
    # cookies= on a top-level call configures the temporary client, so no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with httpx.Client(
            cookies={"a": "1"}, transport=httpx.MockTransport(lambda r: httpx.Response(200, text=r.headers["cookie"]))
        ) as client:
            assert client.get("https://a.example/").text == "a=1"
    assert "cookies=cookies" in inspect.getsource(httpx._api.request)


def test_transport_option_table_matches_signature():
    rows = doc_table("advanced/transports.md", "| Option           | Default")
    documented = [r[0].strip("`") for r in rows]
    for cls in (httpx.HTTPTransport, httpx.AsyncHTTPTransport):
        real = [n for n in inspect.signature(cls.__init__).parameters if n != "self"]
        assert documented == real
    assert inspect.signature(httpx.HTTPTransport.__init__).parameters["retries"].default == 0


def test_retries_only_cover_connecting():
    source = (HTTPCORE_SRC / "_sync" / "connection.py").read_text()
    assert "except (ConnectError, ConnectTimeout):" in source


def test_verify_accepts_an_ssl_context_unchanged():
    ctx = ssl.create_default_context()
    client = httpx.Client(verify=ctx)
    assert client._transport._pool._ssl_context is ctx
    client.close()
    insecure = httpx.Client(verify=False)
    assert insecure._transport._pool._ssl_context.verify_mode == ssl.CERT_NONE
    insecure.close()


def test_a_passed_ssl_context_gets_its_alpn_list_set():
    class Spy(ssl.SSLContext):
        calls: list[list[str]] = []

        def set_alpn_protocols(self, protocols):
            type(self).calls.append(list(protocols))
            super().set_alpn_protocols(protocols)

    ctx = Spy(ssl.PROTOCOL_TLS_CLIENT)
    transport = httpx.HTTPTransport(verify=ctx, http2=True)
    transport._pool._network_backend = httpcore.MockBackend(
        [b"HTTP/1.1 200 OK\r\n", b"Content-Length: 2\r\n\r\n", b"ok"]
    )
    with httpx.Client(transport=transport) as client:
        assert client.get("https://a.example/").text == "ok"
    assert Spy.calls == [["http/1.1", "h2"]]
    assert "httpx only sets its ALPN list" in (DOCS / "advanced/ssl.md").read_text()


def test_verify_string_and_cert_are_deprecated(tmp_path):
    import certifi

    with pytest.warns(DeprecationWarning, match="verify=<str>"):
        httpx.Client(verify=certifi.where()).close()
    with pytest.warns(DeprecationWarning, match="cert="):
        with pytest.raises(OSError):
            httpx.Client(cert=str(tmp_path / "missing.pem"))


def test_default_trust_store_is_certifi(monkeypatch):
    import certifi

    seen = {}
    real = ssl.create_default_context

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return real(*args, **kwargs)

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setattr(ssl, "create_default_context", spy)
    httpx.create_ssl_context()
    assert seen == {"cafile": certifi.where()}


def test_ssl_environment_variables(monkeypatch):
    import certifi

    seen = []
    real = ssl.create_default_context

    def spy(*args, **kwargs):
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", spy)
    monkeypatch.setenv("SSL_CERT_FILE", certifi.where())
    monkeypatch.setenv("SSL_CERT_DIR", os.path.dirname(certifi.where()))
    httpx.create_ssl_context()
    assert seen[-1] == {"cafile": certifi.where()}  # the file wins over the directory
    monkeypatch.delenv("SSL_CERT_FILE")
    httpx.create_ssl_context()
    assert seen[-1] == {"capath": os.path.dirname(certifi.where())}
    httpx.create_ssl_context(trust_env=False)
    assert seen[-1] == {"cafile": certifi.where()}


PROXY_VARS = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"]


@pytest.fixture
def clean_proxy_env(monkeypatch):
    for name in PROXY_VARS + ["REQUEST_METHOD"]:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    return monkeypatch


def test_documented_environment_variables_are_exactly_those_httpx_reads():
    rows = doc_table("environment_variables.md", "| Variable        | Effect")
    documented = {r[0].strip("`") for r in rows}
    assert documented == set(PROXY_VARS) | {"SSL_CERT_FILE", "SSL_CERT_DIR"}
    config = (HTTPX_SRC / "_config.py").read_text()
    assert 'os.environ.get("SSL_CERT_FILE")' in config and 'os.environ.get("SSL_CERT_DIR")' in config
    utils = (HTTPX_SRC / "_utils.py").read_text()
    assert "getproxies()" in utils


def test_proxy_lookup_goes_through_urllib_with_its_system_fallback():
    import urllib.request

    source = inspect.getsource(urllib.request)
    assert "return getproxies_environment() or getproxies_macosx_sysconf()" in source
    assert "return getproxies_environment() or getproxies_registry()" in source
    assert "from urllib.request import getproxies" in (HTTPX_SRC / "_utils.py").read_text()
    assert (
        "On macOS and Windows that\nfunction falls back to the system's proxy settings"
        in (DOCS / "environment_variables.md").read_text()
    )


@pytest.mark.parametrize(
    "var,key",
    [("HTTP_PROXY", "http://"), ("HTTPS_PROXY", "https://"), ("ALL_PROXY", "all://"), ("https_proxy", "https://")],
)
def test_proxy_variables_are_honoured(clean_proxy_env, var, key):
    clean_proxy_env.setenv(var, "proxy.internal:3128")
    client = httpx.Client()
    patterns = {p.pattern: t for p, t in client._mounts.items()}
    assert isinstance(patterns[key], httpx.HTTPTransport)
    proxy_url = patterns[key]._pool._proxy_url
    assert (proxy_url.scheme, proxy_url.host) == (b"http", b"proxy.internal")  # scheme added
    client.close()


def test_proxy_variables_are_ignored_when_told(clean_proxy_env):
    clean_proxy_env.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    for kwargs in (
        {"trust_env": False},
        {"proxy": "http://other:1"},
        {"transport": httpx.MockTransport(lambda r: httpx.Response(200))},
    ):
        client = httpx.Client(**kwargs)
        assert "https://" not in {p.pattern for p in client._mounts}, kwargs
        client.close()
    client = httpx.Client(mounts={"all://internal.example": None})
    assert {"https://", "all://internal.example"} <= {p.pattern for p in client._mounts}
    client.close()


@pytest.mark.parametrize(
    "entry,url,bypassed",
    [
        ("example.com", "https://example.com", True),
        ("example.com", "https://www.example.com", True),
        (".example.com", "https://www.example.com", True),
        (".example.com", "https://example.com", False),
        ("localhost", "http://localhost:8000", True),
        ("192.168.1.10", "http://192.168.1.10", True),
        ("::1", "http://[::1]:8000", True),
        ("*", "https://anything.example", True),
    ],
)
def test_no_proxy_matching_rules(clean_proxy_env, entry, url, bypassed):
    clean_proxy_env.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    clean_proxy_env.setenv("HTTP_PROXY", "http://proxy.internal:3128")
    clean_proxy_env.setenv("NO_PROXY", entry)
    client = httpx.Client()
    chosen = client._transport_for_url(httpx.URL(url))
    assert (chosen is client._transport) is bypassed
    client.close()


@pytest.mark.parametrize(
    "pattern,url,matches",
    [
        ("all://", "http://a.example", True),
        ("https://", "http://a.example", False),
        ("all://example.com", "https://www.example.com", False),
        ("all://*.example.com", "https://www.example.com", True),
        ("all://*.example.com", "https://example.com", False),
        ("all://*example.com", "https://example.com", True),
        ("https://example.com:8443", "https://example.com", False),
    ],
)
def test_mount_pattern_table(pattern, url, matches):
    from httpx._utils import URLPattern

    assert URLPattern(pattern).matches(httpx.URL(url)) is matches


def test_most_specific_mount_wins():
    from httpx._utils import URLPattern

    ordered = sorted(
        [
            URLPattern("all://"),
            URLPattern("https://"),
            URLPattern("all://example.com"),
            URLPattern("all://example.com:8443"),
        ]
    )
    assert [p.pattern for p in ordered] == ["all://example.com:8443", "all://example.com", "https://", "all://"]


def test_proxy_schemes():
    for scheme in ("http", "https", "socks5", "socks5h"):
        httpx.Proxy(f"{scheme}://proxy.internal:1080")
    with pytest.raises(ValueError):
        httpx.Proxy("ftp://proxy.internal:21")
    p = httpx.Proxy("http://me:s3cret@proxy.internal:3128")
    assert p.auth == ("me", "s3cret") and p.url == httpx.URL("http://proxy.internal:3128")
    assert list(inspect.signature(httpx.Proxy.__init__).parameters)[1:] == ["url", "ssl_context", "auth", "headers"]


def test_extras_named_in_the_docs_exist():
    meta = metadata.metadata("httpx")
    extras = set(meta.get_all("Provides-Extra"))
    assert {"http2", "socks", "brotli", "zstd", "cli"} <= extras
    requires = " ".join(meta.get_all("Requires-Dist"))
    assert "h2" in requires and "socksio" in requires
    for extra in ("http2", "socks", "brotli", "zstd", "cli"):
        assert f"pip install 'httpx[{extra}]'" in (DOCS / "index.md").read_text()


def test_http2_needs_h2():
    source = (HTTPX_SRC / "_client.py").read_text()
    assert "pip install httpx[http2]" in source
    if importlib.util.find_spec("h2") is None:
        with pytest.raises(ImportError, match="h2"):
            httpx.Client(http2=True)
    else:  # pragma: no cover - depends on the environment
        httpx.Client(http2=True).close()


def test_default_encoding_and_text_rules():
    assert inspect.signature(httpx.Client.__init__).parameters["default_encoding"].default == "utf-8"
    r = httpx.Response(200, content="é".encode("latin-1"), headers={"Content-Type": "text/plain"})
    assert r.charset_encoding is None and r.encoding == "utf-8" and "\ufffd" in r.text
    with pytest.raises(ValueError, match="Setting encoding after `text` has been accessed"):
        r.encoding = "latin-1"
    r2 = httpx.Response(
        200,
        content="é".encode("latin-1"),
        headers={"Content-Type": "text/plain; charset=latin-1"},
        default_encoding="ascii",
    )
    assert r2.text == "é"  # the header wins over the default


def test_encoding_detector_runs_only_on_a_loaded_body():
    calls = []

    def detect(content):
        calls.append(content)
        return "latin-1"

    body = "Ærø\n".encode("latin-1")
    handler = httpx.MockTransport(
        lambda r: httpx.Response(200, content=iter([body]), headers={"Content-Type": "text/plain"})
    )
    with httpx.Client(default_encoding=detect, transport=handler) as client:
        with client.stream("GET", "https://a.example/") as r:
            assert "".join(r.iter_text()) == body.decode("utf-8", "replace")
            assert r.encoding == "utf-8" and calls == []
        assert client.get("https://a.example/").text == "Ærø\n" and calls == [body]
    assert (
        "a streamed body that is not read yet is decoded as UTF-8" in (DOCS / "advanced/text-encodings.md").read_text()
    )


def test_response_json_reads_bytes_and_passes_kwargs():
    source = inspect.getsource(httpx.Response.json)
    assert "loads(self.content" in source


def test_json_request_bodies_are_compact_utf8():
    req = httpx.Request("POST", "https://a.example/", json={"city": "Zürich", "n": 1})
    assert req.content == '{"city":"Zürich","n":1}'.encode()
    with pytest.raises(ValueError):
        httpx.Request("POST", "https://a.example/", json={"x": float("nan")})


def test_bytes_as_data_and_per_request_cookies_are_deprecated():
    client = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200)))
    with pytest.warns(DeprecationWarning, match="content="):
        client.post("https://a.example/", data=b"raw")
    with pytest.warns(DeprecationWarning, match="per-request cookies"):
        client.get("https://a.example/", cookies={"a": "1"})
    client.close()


def test_raise_for_status_rules():
    def handler(request):
        return httpx.Response(int(request.url.path.strip("/")), headers={"Location": "/x"})

    with httpx.Client(transport=httpx.MockTransport(handler)) as client:
        ok = client.get("https://a.example/200")
        assert ok.raise_for_status() is ok
        for status in (101, 302, 404, 503):
            with pytest.raises(httpx.HTTPStatusError):
                client.get(f"https://a.example/{status}").raise_for_status()


def test_redirects_and_authorization_stripping():
    seen = []

    def handler(request):
        seen.append((request.url.host, request.method, request.headers.get("authorization")))
        if request.url.host == "a.example":
            return httpx.Response(302, headers={"Location": "https://b.example/"})
        return httpx.Response(200)

    with httpx.Client(transport=httpx.MockTransport(handler), follow_redirects=True) as client:
        r = client.post("https://a.example/", auth=("u", "p"))
    assert [s[0] for s in seen] == ["a.example", "b.example"]
    assert seen[0][2] is not None and seen[1][2] is None
    assert seen[1][1] == "GET"  # a 302 turns the POST into a GET
    assert len(r.history) == 1

    def loop(request):
        return httpx.Response(302, headers={"Location": "/again"})

    with httpx.Client(transport=httpx.MockTransport(loop), follow_redirects=True) as client:
        with pytest.raises(httpx.TooManyRedirects):
            client.get("https://a.example/")


@pytest.mark.parametrize(
    "start,target,kept",
    [
        ("https://a.example/", "https://b.example/", False),  # other host
        ("https://a.example/", "https://a.example:8443/", False),  # same host, other port
        ("https://a.example/", "http://a.example/", False),  # downgrade
        ("http://a.example/", "https://a.example/", True),  # the one upgrade allowed
        ("http://a.example:8080/", "https://a.example/", False),  # not from the default port
        ("https://a.example/x", "https://a.example/y", True),  # same origin
    ],
)
def test_authorization_survives_redirects_only_within_the_origin(start, target, kept):
    seen = []

    def handler(request):
        seen.append(request.headers.get("authorization"))
        if str(request.url) == start:
            return httpx.Response(302, headers={"Location": target})
        return httpx.Response(200)

    with httpx.Client(transport=httpx.MockTransport(handler), follow_redirects=True) as client:
        client.get(start, auth=("u", "p"))
    assert seen[0] is not None and (seen[1] is not None) is kept
    assert "leaves the origin (another scheme, host or port)" in (DOCS / "advanced/clients.md").read_text()


def test_stream_errors():
    with httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, content=b"x"))) as client:
        with client.stream("GET", "https://a.example/") as r:
            list(r.iter_bytes())
    # A body that is not in memory yet (as from the network) must be read first.
    chunks = httpx.MockTransport(lambda r: httpx.Response(200, content=iter([b"a", b"b"])))
    with httpx.Client(transport=chunks) as client:
        with client.stream("GET", "https://a.example/") as r:
            with pytest.raises(httpx.ResponseNotRead):
                r.content
            assert b"".join(r.iter_bytes()) == b"ab"
            with pytest.raises(httpx.StreamConsumed):
                list(r.iter_bytes())
        with pytest.raises(RuntimeError, match="elapsed"):
            httpx.Response(200).elapsed


def test_error_messages_quoted_in_troubleshooting():
    text = (DOCS / "troubleshooting.md").read_text()
    sources = (HTTPX_SRC / "_client.py").read_text() + (HTTPCORE_SRC / "_sync" / "connection_pool.py").read_text()
    for message in (
        "Cannot send a request, as the client has been closed.",
        "Attempted to send an async request with a sync Client instance.",
        "Attempted to send an sync request with an AsyncClient instance.",
        "Request URL is missing an 'http://' or 'https://' protocol.",
    ):
        assert message in text and message in sources


def test_settable_client_attributes():
    names = ["headers", "cookies", "params", "auth", "base_url", "timeout", "event_hooks", "follow_redirects"]
    for cls in (httpx.Client, httpx.AsyncClient):
        for name in names:
            prop = inspect.getattr_static(cls, name, None)
            if prop is None:  # a plain instance attribute, set in __init__
                assert f"self.{name} = {name}" in inspect.getsource(httpx._client.BaseClient.__init__), name
            else:
                assert isinstance(prop, property) and prop.fset is not None, name
    assert (
        "`headers`, `cookies`,\n`params`, `auth`, `base_url`, `timeout`, `event_hooks` and\n`follow_redirects`"
        in (DOCS / "advanced/clients.md").read_text()
    )


def test_event_hook_rules():
    order = []

    def on_request(request):
        order.append("request")

    def on_response(response):
        order.append(("response", hasattr(response, "_content")))

    def handler(request):
        if request.url.path == "/old":
            return httpx.Response(301, headers={"Location": "/new"})
        return httpx.Response(200, content=b"body")

    hooks = {"request": [on_request], "response": [on_response]}
    with httpx.Client(event_hooks=hooks, transport=httpx.MockTransport(handler), follow_redirects=True) as c:
        c.get("https://a.example/old")
        assert set(c.event_hooks) == {"request", "response"}
    # hooks run for each hop; MockTransport bodies are in memory, so check the
    # documented "not read yet" rule with the network transport's source instead
    assert order[0] == "request" and order.count("request") == 2
    source = inspect.getsource(httpx.Client._send_handling_redirects)
    assert source.index('_event_hooks["response"]') < source.index("response.read()")


def test_auth_classes_and_digest_algorithms():
    for name in ("BasicAuth", "DigestAuth", "NetRCAuth", "Auth"):
        assert hasattr(httpx, name)
    assert httpx.Auth.requires_request_body is False and httpx.Auth.requires_response_body is False
    algorithms = set(httpx.DigestAuth._ALGORITHM_TO_HASH_FUNCTION)
    assert algorithms == {"MD5", "MD5-SESS", "SHA", "SHA-SESS", "SHA-256", "SHA-256-SESS", "SHA-512", "SHA-512-SESS"}
    assert list(inspect.signature(httpx.NetRCAuth.__init__).parameters) == ["self", "file"]


def test_netrc_default_entry_covers_unlisted_hosts(tmp_path):
    netrc_file = tmp_path / "netrc"
    netrc_file.write_text("machine a.example login x password y\ndefault login d password e\n")
    echo = httpx.MockTransport(lambda r: httpx.Response(200, text=r.headers.get("authorization", "none")))
    with httpx.Client(auth=httpx.NetRCAuth(file=str(netrc_file)), transport=echo) as client:
        assert client.get("https://other.example/").text == "Basic ZDpl"  # d:e
    assert "get the file's `default` line" in (DOCS / "advanced/authentication.md").read_text()


def test_credentials_in_url_become_basic_auth():
    with httpx.Client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, text=r.headers.get("authorization", "")))
    ) as client:
        assert client.get("https://user:pass@a.example/").text.startswith("Basic ")


def test_loggers_and_log_line(caplog):
    assert 'logging.getLogger("httpx")' in (HTTPX_SRC / "_client.py").read_text()
    for name in ("connection", "http11", "http2", "proxy", "socks"):
        found = any(
            f'logging.getLogger("httpcore.{name}")' in p.read_text() for p in (HTTPCORE_SRC / "_sync").glob("*.py")
        )
        assert found, name
    with caplog.at_level(logging.INFO, logger="httpx"):
        with httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200))) as c:
            c.get("https://api.example/status")
    line = 'HTTP Request: GET https://api.example/status "HTTP/1.1 200 OK"'
    assert caplog.records[-1].getMessage() == line
    assert line in (DOCS / "logging.md").read_text()


def test_trace_event_names_exist_in_httpcore():
    sync = "".join(p.read_text() for p in (HTTPCORE_SRC / "_sync").glob("*.py"))
    for step in (
        "connect_tcp",
        "start_tls",
        "send_request_headers",
        "receive_response_headers",
        "receive_response_body",
    ):
        assert re.search(rf'Trace\(\s*"{step}"', sync), step
    assert 'f"{self.prefix}.{name}"' in (HTTPCORE_SRC / "_trace.py").read_text()


def test_request_extension_keys_used_by_httpcore():
    sync = "".join(p.read_text() for p in (HTTPCORE_SRC / "_sync").glob("*.py"))
    for key in ("timeout", "sni_hostname"):
        assert f'extensions.get("{key}"' in sync
    assert 'request.extensions.get("trace")' in (HTTPCORE_SRC / "_trace.py").read_text()
    r = httpx.Response(404)
    assert (r.http_version, r.reason_phrase) == ("HTTP/1.1", "Not Found")


def test_async_library_support():
    source = (HTTPCORE_SRC / "_synchronization.py").read_text()
    assert 'environment not in ("asyncio", "trio")' in source


def test_asgi_transport_is_async_only_and_wsgi_sync_only():
    assert issubclass(httpx.ASGITransport, httpx.AsyncBaseTransport)
    assert not issubclass(httpx.ASGITransport, httpx.BaseTransport)
    assert issubclass(httpx.WSGITransport, httpx.BaseTransport)
    assert not issubclass(httpx.WSGITransport, httpx.AsyncBaseTransport)
    assert issubclass(httpx.MockTransport, httpx.BaseTransport)
    assert issubclass(httpx.MockTransport, httpx.AsyncBaseTransport)
    wsgi = list(inspect.signature(httpx.WSGITransport.__init__).parameters)
    assert wsgi == ["self", "app", "raise_app_exceptions", "script_name", "remote_addr", "wsgi_errors"]


def test_requests_comparisons_hold(monkeypatch):
    requests = pytest.importorskip("requests")  # compatibility.md describes requests too
    for status in (101, 200, 204, 302, 399, 400, 404, 500, 599):
        theirs = requests.Response()
        theirs.status_code = status
        assert theirs.ok is (not httpx.Response(status).is_error), status
        assert httpx.Response(status).is_success is (200 <= status < 300)
    from requests.utils import get_encoding_from_headers

    assert get_encoding_from_headers({"content-type": "text/plain"}) == "ISO-8859-1"
    assert get_encoding_from_headers({"content-type": "image/png"}) is None  # left to guessing
    assert inspect.signature(requests.Session.request).parameters["allow_redirects"].default is True
    assert 'allow_redirects", False' in inspect.getsource(requests.head)
    text = (DOCS / "compatibility.md").read_text()
    assert "`not r.is_error` matches it" in text and "ISO-8859-1 for `text/*`" in text


def test_codes_examples():
    assert httpx.codes.OK == 200 and httpx.codes.NOT_FOUND == 404
    assert httpx.codes.get_reason_phrase(418) == "I'm a teapot"
    assert httpx.codes.is_error(503) is True


RESPONSE_NAME = re.compile(r"`(?:r|response|resp|r2|plain|declared|undeclared)\.([a-z_]+)")
REQUESTS_ONLY = {"ok", "iter_content", "raw"}  # named in compatibility.md as requests-only


def test_response_attributes_named_in_the_text_exist():
    names = set(RESPONSE_NAME.findall(all_text()))
    for rel in ("api.md", "quickstart.md"):
        for line in lines_of(rel):
            m = re.match(r"^\| `(?:r\.)?([a-z_]+)", line)
            if m and rel == "quickstart.md" and line.startswith("| `r."):
                names.add(m.group(1))
    rows = doc_table("api.md", "| Member ")
    for row in rows:
        names |= set(re.findall(r"`([a-z_]+)", row[0]))
    assert len(names) >= 30
    instance = vars(httpx.Response(200))  # attributes set in __init__, like headers
    for name in names - REQUESTS_ONLY:
        assert hasattr(httpx.Response, name) or name in instance, name
    for name in REQUESTS_ONLY:
        assert not hasattr(httpx.Response, name) and name not in instance, name


HTTPX_NAME = re.compile(r"\bhttpx\.([A-Za-z_][A-Za-z0-9_]*)")


def test_every_httpx_name_in_the_text_exists():
    names = set(HTTPX_NAME.findall(all_text()))
    assert len(names) >= 40
    for name in names:
        assert hasattr(httpx, name), f"httpx.{name} is named in the docs but does not exist"


# --------------------------------------------------------------------------
# Code samples
# --------------------------------------------------------------------------


@dataclass
class Block:
    rel: str
    line: int  # line of the opening fence
    code: str

    @property
    def id(self) -> str:
        return f"{self.rel}:{self.line}"


def code_blocks(lang: str = "python") -> list[Block]:
    blocks = []
    for rel in doc_paths():
        lines = lines_of(rel)
        i = 0
        while i < len(lines):
            if lines[i].strip() == f"```{lang}":
                j = i + 1
                while lines[j].strip() != "```":
                    j += 1
                blocks.append(Block(rel, i + 1, "\n".join(lines[i + 1 : j]) + "\n"))
                i = j
            i += 1
    return blocks


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


# Blocks that are compiled but not executed, each with its reason. The key is a
# (file, snippet) pair: the block in that file containing that snippet.
SKIPS: dict[tuple[str, str], tuple[bool, str]] = {
    ("async.md", "import trio"): (_missing("trio"), "needs the trio package, which is not installed"),
    ("advanced/ssl.md", "import truststore"): (
        _missing("truststore"),
        "needs the truststore package, which is not installed",
    ),
    ("http2.md", "httpx.Client(http2=True)"): (
        _missing("h2"),
        "needs the h2 package (httpx[http2]), which is not installed",
    ),
    ("http2.md", "httpx.Client(http1=False, http2=True)"): (
        _missing("h2"),
        "needs the h2 package (httpx[http2]), which is not installed",
    ),
    ("advanced/proxies.md", 'proxy="socks5://'): (
        _missing("socksio"),
        "needs the socksio package (httpx[socks]), which is not installed",
    ),
}


def skip_reason(block: Block) -> str | None:
    for (rel, snippet), (active, reason) in SKIPS.items():
        if block.rel == rel and snippet in block.code and active:
            return reason
    return None


def uses_network_transport(block: Block) -> bool:
    """True when a block sends a request without a transport of its own."""
    return "MockTransport" not in block.code and "Transport(app=" not in block.code


BLOCKS = code_blocks()


def test_skip_table_has_no_stale_entries():
    for rel, snippet in SKIPS:
        assert any(b.rel == rel and snippet in b.code for b in BLOCKS), (rel, snippet)


def test_only_python_and_known_languages_are_fenced():
    for rel in doc_paths():
        for line in lines_of(rel):
            s = line.strip()
            if s.startswith("```") and s != "```":
                assert s[3:] in {"python", "shell", "text"}, f"{rel}: {s}"


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.id)
def test_code_block_compiles(block):
    compile(block.code, block.id, "exec")


# --- a fake network under the real transport ------------------------------

FAKE_HITS: list[str] = []  # one entry per request that reached the fake network
NETWORK_BLOCKS: set[str] = set()  # blocks that sent at least one request to it


def _fake_server(method: bytes, url: httpcore.URL, headers, body: bytes) -> httpcore.Response:
    FAKE_HITS.append(url.host.decode())
    scheme = url.scheme.decode()
    if scheme == "":  # the same checks, and messages, as httpcore's own pool
        raise httpcore.UnsupportedProtocol("Request URL is missing an 'http://' or 'https://' protocol.")
    if scheme not in ("http", "https", "ws", "wss"):
        raise httpcore.UnsupportedProtocol(f"Request URL has an unsupported protocol '{scheme}://'.")
    host = url.host.decode()
    path = url.target.decode()
    if host.endswith("example.org"):
        content = b"<!doctype html><html><body><h1>Example</h1></body></html>"
        ctype = b"text/html; charset=utf-8"
    else:
        content = json.dumps(
            {"method": method.decode(), "url": f"{scheme}://{host}{path}", "body": body.decode("utf-8", "replace")}
        ).encode()
        ctype = b"application/json"
    return httpcore.Response(
        200,
        headers=[(b"Content-Type", ctype)],
        content=content,
        extensions={"http_version": b"HTTP/1.1", "reason_phrase": b"OK"},
    )


def _fake_handle_request(self, request: httpcore.Request) -> httpcore.Response:
    body = b"".join(request.stream)
    return _fake_server(request.method, request.url, request.headers, body)


async def _fake_handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
    body = b"".join([part async for part in request.stream])
    return _fake_server(request.method, request.url, request.headers, body)


@pytest.fixture
def fake_network(monkeypatch):
    """Replace the connection pools below httpx.HTTPTransport with a fake server.

    httpx's own client and transport code (URL handling, exception mapping,
    proxies from the environment, ...) still runs; only the socket work of
    httpcore is replaced. Proxy pools subclass ConnectionPool and are covered too.
    """
    monkeypatch.setattr(httpcore.ConnectionPool, "handle_request", _fake_handle_request)
    monkeypatch.setattr(httpcore.AsyncConnectionPool, "handle_async_request", _fake_handle_async_request)


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """Run a block in a temporary directory and undo what it does to env and logging."""
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ)
    root = logging.getLogger()
    root_handlers, root_level = list(root.handlers), root.level
    named = {n: logging.getLogger(n).level for n in ("httpx", "httpcore", "myapp.http")}
    yield
    os.environ.clear()
    os.environ.update(env)
    root.handlers[:] = root_handlers
    root.setLevel(root_level)
    for n, level in named.items():
        logging.getLogger(n).setLevel(level)


COMPANY_CA = "/etc/ssl/certs/company-ca.pem"  # a sample's path; the test reads a generated CA instead


def tls_files(folder: Path) -> None:
    """The files the TLS samples open, made with a throw-away CA (trustme): client.pem, client.key, company-ca.pem."""
    import trustme
    from cryptography.hazmat.primitives import serialization

    ca = trustme.CA()
    cert = ca.issue_cert("client.example")
    key = serialization.load_pem_private_key(cert.private_key_pem.bytes(), password=None)
    (folder / "client.key").write_bytes(
        key.private_bytes(  # the sample passes password="key-passphrase"
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"key-passphrase"),
        )
    )
    cert.cert_chain_pems[0].write_to_path(str(folder / "client.pem"))
    ca.cert_pem.write_to_path(str(folder / "company-ca.pem"))


def run_block(block: Block) -> dict[int, str]:
    """Run `block` in the sandbox's folder; what each line's print() calls wrote, by line number."""
    printed: dict[int, str] = {}

    def recording_print(*args, **kwargs):
        if "file" in kwargs:  # print(..., file=sys.stderr) is no claimed output
            return print(*args, **kwargs)
        text = io.StringIO()
        print(*args, **kwargs, file=text)
        line = inspect.currentframe().f_back.f_lineno
        printed[line] = printed.get(line, "") + text.getvalue()

    if "client.pem" in block.code or COMPANY_CA in block.code:
        tls_files(Path.cwd())
    namespace = {"__name__": "__main__", "print": recording_print}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # samples must not rely on deprecated behaviour
        exec(compile(block.code.replace(COMPANY_CA, "company-ca.pem"), block.id, "exec"), namespace)
    return printed


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.id)
def test_code_block_runs(block, fake_network, sandbox):
    reason = skip_reason(block)
    if reason:
        pytest.skip(reason)
    before = len(FAKE_HITS)
    run_block(block)
    if len(FAKE_HITS) > before:
        NETWORK_BLOCKS.add(block.id)


# Comments like `print(x)  # 200` claim an output. Check those claims where the
# comment is a literal value rather than prose.
PRINT_CLAIM = re.compile(r"^\s*print\(.*\)\s+#\s*(.+)$")
PROSE = re.compile(
    r"\b(the|would|if|else|same|every|only|come|as a|for this|in real|umlauts|credentials|\.\.\.)\b|\.\.\.$"
)


def printed_claims(block: Block) -> list[tuple[int, str]]:
    """(line number, claimed output) for each `print(...)  # value` line of `block`."""
    claims = []
    for number, line in enumerate(block.code.splitlines(), 1):
        m = PRINT_CLAIM.match(line)
        if m and not PROSE.search(m.group(1)):
            claims.append((number, m.group(1).strip()))
    return claims


CLAIM_BLOCKS = [b for b in BLOCKS if printed_claims(b)]


@pytest.mark.parametrize("block", CLAIM_BLOCKS, ids=lambda b: b.id)
def test_printed_values_match_comments(block, fake_network, sandbox):
    if skip_reason(block):
        pytest.skip(skip_reason(block))
    printed = run_block(block)
    for number, claim in printed_claims(block):  # each claim against what its own line printed
        assert printed.get(number, "").rstrip("\n") == claim.strip('"'), (
            f"{block.id}, line {number}: claimed {claim!r}, printed {printed.get(number)!r}"
        )


def test_block_statistics_are_reported(capsys):
    skipped = [b for b in BLOCKS if skip_reason(b)]
    executed = [b for b in BLOCKS if not skip_reason(b)]
    own = [b for b in executed if not uses_network_transport(b)]
    with capsys.disabled():
        print(
            f"\n[corpus] python blocks: {len(BLOCKS)} compiled, {len(executed)} executed, "
            f"{len(skipped)} skipped; of the executed: {len(own)} bring their own "
            f"mock/WSGI/ASGI transport, {len(NETWORK_BLOCKS)} sent requests to the fake network, "
            f"the rest send no request"
        )
    # requirements-dev.txt installs every optional package the samples use, and the TLS samples get
    # generated certificates: every block runs, and a new skip has to be argued here.
    assert [b.id for b in skipped] == [] and len(executed) == len(BLOCKS)
