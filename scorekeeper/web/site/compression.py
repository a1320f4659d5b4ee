"""Compressed responses (Flask-Compress: zstd, brotli, gzip or deflate, as the browser accepts),
with ETags that still answer 304.

Flask-Compress gives a compressed response's strong ETag the algorithm as a suffix (``"v7"``
becomes ``"v7:gzip"``), since the compressed bytes differ from the plain ones. A browser then
asks ``If-None-Match: "v7:gzip"``, which a view comparing with its own ``"v7"`` would never
match: it would build the whole answer again, only for Flask-Compress to turn it into a 304
at the end. So before the view runs, each such validator is also offered without its suffix,
and a 304 the view answers itself gets the suffix back: the browser keeps the ETag it has.
"""

from __future__ import annotations

import re

from flask import Flask, g, request
from flask.wrappers import Response
from flask_compress import Compress

ALGORITHMS = ("zstd", "br", "gzip", "deflate")
_SUFFIXED = re.compile(r'"([^"]*):(' + "|".join(ALGORITHMS) + r')"')


def offer_plain_validators() -> None:
    """Add each ``"tag:algorithm"`` of ``If-None-Match`` as plain ``"tag"`` for the view."""
    header = request.environ.get("HTTP_IF_NONE_MATCH", "")
    found = dict(_SUFFIXED.findall(header))
    if not found:
        return
    extra = ", ".join(f'"{tag}"' for tag in found)
    request.environ["HTTP_IF_NONE_MATCH"] = f"{header}, {extra}"
    request.__dict__.pop("if_none_match", None)  # parsed again from the new header
    g.compressed_validators = found


def keep_compressed_validator(response: Response) -> Response:
    """A 304 answered to ``"tag:algorithm"`` names that same ETag, not the plain one."""
    found: dict[str, str] = g.get("compressed_validators", {})
    if response.status_code != 304 or not found:
        return response
    tag, weak = response.get_etag()
    if tag is not None and not weak and tag in found:
        response.set_etag(f"{tag}:{found[tag]}")
    return response


def init_app(app: Flask) -> None:
    """Compress text responses the client accepts compressed; keep conditional requests working."""
    app.config.setdefault("COMPRESS_ALGORITHM", list(ALGORITHMS))
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "deflate"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.before_request(offer_plain_validators)
    app.after_request(keep_compressed_validator)
    Compress(app)
