"""Invitations: ``HOST:PORT/SEAT-TOKEN`` (``tls://`` first for TLS), the one secret that
opens a person's seat at a shared table (``hearts host`` prints them, ``hearts join``
reads one)."""

from __future__ import annotations

import secrets


def new_token(seat: int) -> str:
    """The secret of an invitation: the seat number, a dash, 128 random bits (``secrets``)."""
    return f"{seat}-{secrets.token_urlsafe(16)}"


def invitation(host: str, port: int, token: str, tls: bool = False) -> str:
    where = f"[{host}]" if ":" in host else host
    return f"{'tls://' if tls else ''}{where}:{port}/{token}"


def parse_invitation(text: str) -> tuple[str, int, str, bool] | None:
    """``HOST:PORT/TOKEN`` (``tls://`` first for TLS): host, port, token, tls; None when it is not one."""
    text = text.strip()
    tls = False
    for prefix in ("hearts://", "tls://"):
        if text.lower().startswith(prefix):
            tls = prefix == "tls://"
            text = text[len(prefix):]
    where, slash, token = text.partition("/")
    if not slash or not token or len(token) > 100 or "/" in token:
        return None
    if where.startswith("["):
        host, _, rest = where[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = where.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        return None
    return host, int(port_text), token, tls
