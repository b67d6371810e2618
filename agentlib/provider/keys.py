"""Keeping an API key out of every text a person or a file may see: errors, URLs, settings.

A provider's error may quote the key (a 401 from OpenAI shows its first and last characters),
a key may be pasted into the wrong setting, a URL may carry one. `redact` and `shown_url` hide
every word that could be part of it; `looks_like_key` spots one in the wrong place.
"""

import base64
import ipaddress
import re
from urllib.parse import urlsplit


def shown_url(base_url, key=""):
    """The endpoint without user:password, query or fragment, and without any part of `key`.

    Example: shown_url("https://u:p@h/v1?key=sk-1#x") -> "https://h/v1"
    What is no web address shows its first 5 characters only: it may be a key pasted into the wrong field.
    """
    parts = urlsplit(base_url)
    if not parts.netloc:
        return base_url[:5] + "…" if len(base_url) > 5 else base_url
    try:
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        host += f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is no number
        host = parts.hostname or ""
    # A path part of 20 characters or more, mixing letters and digits, is hidden whatever joins them: URL paths
    # hold short words ("v1", "openai"), and a key is better hidden once too often than shown once.
    segments = parts.path.split("/")
    mixed = [len(s) >= 20 and any(c.isdigit() for c in s) and any(c.isalpha() for c in s) for s in segments]
    path = "/".join("[hidden]" if looks_like_key(s) or m else s for s, m in zip(segments, mixed))
    return redact(parts._replace(netloc=host, path=path, query="", fragment="").geturl(), key, limit=10_000)


KEY_PREFIXES = ("sk-", "sk_", "key-", "gsk_", "xai-", "hf_", "pplx-", "nvapi-", "aiza")  # keys that say what they are


def looks_like_key(word):
    """True for a word that holds "sk-...", "key-..." or a long run of mixed letters and digits.

    Names (models, hosts, paths) are words of ordinary length joined by - . / : _, so a run of
    20 or more letters and digits with both kinds in it is a key, or a hash, in the wrong place;
    so are 32 hex digits split by dashes, the shape of a UUID, which some providers issue as keys.
    Example: looks_like_key("v1") -> False; looks_like_key('{"k":"sk-proj-4f9a"}') -> True;
             looks_like_key("SmolLM2-135M-Instruct") -> False
    """
    tokens = re.split(r"[^\w-]+", word)
    return (
        any(token.lower().startswith(KEY_PREFIXES) for token in tokens)
        or any(len(run) >= 20 and not run.isalpha() and not run.isdigit() for run in re.split(r"[^A-Za-z0-9]+", word))
        or any(
            re.fullmatch(r"[0-9a-f]{32,}", token.lower().replace("-", "")) and not token.replace("-", "").isdigit()
            for token in tokens
        )
    )


def on_this_machine(base_url):
    """True for localhost and loopback addresses. Example: on_this_machine("http://127.0.0.1:8080/v1") -> True

    All of 127.0.0.0/8, ::1, ::ffff:127.x.x.x, "localhost" and its subdomains (RFC 6761), a trailing dot too.
    """
    try:
        host = (urlsplit(base_url).hostname or "").rstrip(".")
    except ValueError:  # "http://[::1": no address at all
        return False
    try:
        address = ipaddress.ip_address(host.partition("%")[0])  # fe80::1%eth0: the zone is no part of the address
    except ValueError:
        return host == "localhost" or host.endswith(".localhost")
    return address.is_loopback or bool(getattr(address, "ipv4_mapped", None) and address.ipv4_mapped.is_loopback)


def redact(text, key, limit=200):
    """`text` cut to `limit` characters, with every word that could hold part of `key` hidden.

    Example: redact("Incorrect API key provided: sk-ab***yz.", "sk-abcdefyz") -> "Incorrect API key provided: [hidden]"
    A word is hidden when it looks like a key ("sk-...", "***") or holds 6 characters of `key` in a row (all of
    a shorter key), raw, base64, hex or \\u-escaped, across words too: servers echo keys masked, split, in chunks
    joined by "-" or "|", or in "Basic"/"Bearer" headers. Only letters and digits are compared.
    """
    words = text.split()
    masked = [i for i, word in enumerate(words) if "*" in word or word.lower().startswith("bearer")]
    hidden = set(masked) | {i for i, word in enumerate(words) if looks_like_key(word)}
    joined, owner = [], []  # the letters and digits of all words, and which word each one came from
    for i, word in enumerate(words):
        for character in word:
            if character.isascii() and character.isalnum():
                joined.append(character)
                owner.append(i)
    joined = "".join(joined)
    for fragment in key_fragments(key):
        start = joined.find(fragment)
        while start != -1:
            hidden |= set(owner[start : start + len(fragment)])
            start = joined.find(fragment, start + 1)
    shown = " ".join("[hidden]" if i in hidden else word for i, word in enumerate(words))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def key_fragments(key, size=6):
    """Every run of `size` characters of `key`, as its letters and digits, raw and in four encodings.

    Example: key_fragments("abcdefg") -> {"abcdef", "bcdefg", "YWJjZG", "616263646566", ...}
    base64 standard and URL-safe in the three alignments of a 3-byte group, hex in either case, \\u-escapes.
    """
    if not key:
        return set()
    raw = key.encode("utf-8", "replace")
    encoded = [(key, size)]
    for offset in range(3):  # where the key starts within a 3-byte group decides its base64 letters
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * offset + raw).decode().rstrip("=")
            encoded.append((text[4 if offset else 0 : len(text) - 3], size))  # the letters that depend on the key alone
    for hexed in (raw.hex(), raw.hex().upper()):
        encoded.append((hexed, 2 * size))
        encoded.append(("".join(f"u{ord(c):04{'x' if hexed.islower() else 'X'}}" for c in key), 5 * size))
    letters = ["".join(c for c in text if c.isascii() and c.isalnum()) for text, _ in encoded]
    short = {letters[0]} if 0 < len(letters[0]) < size else set()  # a short key is hidden whole
    runs = {text[i : i + width] for text, (_, width) in zip(letters, encoded) for i in range(len(text) - width + 1)}
    return short | runs
