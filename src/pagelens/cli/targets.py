"""What a command is pointed at: a local page (a path or a file: URL), served on 127.0.0.1
with its folder, or an address the browser may load; and the hosts its pages may reach.
Both are checked before any browser work."""

from __future__ import annotations

import codecs
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pagelens.actions.navigation import check_url
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError

__all__ = ["reachable_hosts", "resolve_target"]

_SNIFF_BYTES = 8192  # what git reads to tell a binary file: a NUL byte among them
_WIDE_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)  # UTF-16 and UTF-32 text is full of NULs


def resolve_target(target: str) -> Path | str:
    """The local page `target` names, or the address to load. Refuses a missing file, a
    folder, a binary file, a malformed URL and an address the browser may not load (the
    navigate action's rule: chrome:, view-source:, ftp:, ...)."""
    if not target.strip():  # Path("") is the current folder: a puzzling error
        raise InvalidRequestError("no page given: name a URL or a local file")
    try:
        parts = urlsplit(target)
    except ValueError as exc:  # an unclosed [IPv6] host, a bad port
        raise InvalidRequestError(f"{target} is not a valid URL: {exc}") from None
    if not parts.scheme:
        return _page_file(Path(target))
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise InvalidRequestError(f"{target} names a file on the host {parts.netloc!r}; write file:///path")
        return _page_file(Path(unquote(parts.path)))
    return check_url(target, allow_file_urls=False)


def _page_file(path: Path) -> Path:
    try:
        if path.is_dir():
            raise InvalidRequestError(f"{path} is a folder, not a page (give a file in it)")
        if not path.is_file():
            raise PagelensError(
                f"no such file: {path} (give a URL with its scheme, e.g. https://…)", code=ErrorCode.FILE_NOT_FOUND
            )
        with path.open("rb") as file:
            head = file.read(_SNIFF_BYTES)
    except OSError as exc:  # unreadable, a name too long
        raise InvalidRequestError(f"cannot read {path}: {exc.strerror}") from None
    # HTML, XHTML, SVG and plain text are text; an image, a PDF or an archive would be
    # served as the page its name claims and read as mojibake.
    if b"\0" in head and not head.startswith(_WIDE_BOMS):
        raise InvalidRequestError(f"{path} is not an HTML file (binary)")
    return path.resolve()


def reachable_hosts(value: str | None, *, local: bool) -> list[str] | None:
    """The hosts pages may reach: `value`, comma-separated; without it every host, or
    loopback only for a local page. A local page's own server is on loopback: always
    allowed, whatever `value` adds."""
    if value is None:
        return list(LOOPBACK_HOSTS) if local else None
    hosts = [host.strip() for host in value.split(",") if host.strip()]
    if not hosts:
        raise InvalidRequestError("--allowed-hosts names no host (leave it out for the default)")
    return [*LOOPBACK_HOSTS, *hosts] if local else hosts
