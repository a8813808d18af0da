"""A static file server on 127.0.0.1 for a catalog's game folders.

Games are plain HTML/JS (docs/reference/browser-games.md): they need an origin (``file://``
pages cannot load modules or fetch their assets), nothing else. Like the external harness's
server (:mod:`playbench.app.harness.server`) this is the standard library's threading HTTP
server bound to the loopback interface only, on a free port; it serves the regular files under
one directory read-only (through :func:`playbench.games.browser.static.open_inside`: no symbolic
links, no way out of the folder), never lists directories, and tells the browser not to cache
(a game edited between two episodes is loaded fresh).
"""

from __future__ import annotations

import email.utils
import logging
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from playbench.games.browser.static import FileRefused, IsDirectory, open_inside

log = logging.getLogger(__name__)

HOST = "127.0.0.1"


class _Handler(SimpleHTTPRequestHandler):
    """Regular files inside the folder only (no links, no listings), no caching, quiet."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript",
                      ".mjs": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("game server: " + format, *args)

    def list_directory(self, path: Any) -> None:
        self.send_error(404, "no listing")
        return None

    def send_head(self) -> BinaryIO | None:
        """Answer the head of a GET or HEAD: the file is found by :func:`open_inside` (the
        standard handler would follow links out of the folder)."""
        path = urlsplit(self.path).path
        try:
            handle, info, name = open_inside(Path(self.directory), path)
        except IsDirectory:
            self.send_response(301)
            self.send_header("Location", path + "/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        except FileRefused as err:
            log.info("game server refused %s: %s", self.path[:200], err)
            self.send_error(err.status, "not served" if err.status == 403 else "not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(name))
        self.send_header("Content-Length", str(info.st_size))
        self.send_header("Last-Modified", email.utils.formatdate(info.st_mtime, usegmt=True))
        self.end_headers()
        return handle

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class StaticServer:
    """Serves ``root`` at ``http://127.0.0.1:PORT/``. ``start()``/``stop()`` or a ``with``
    block; ``url(path)`` is the address of a file under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the game server is not running")
        return int(self._httpd.server_address[1])

    @property
    def host(self) -> str:
        """``host:port``, the unit a browser session's network rules allow."""
        return f"{HOST}:{self.port}"

    def url(self, path: str = "") -> str:
        return f"http://{self.host}/{path.lstrip('/')}"

    def start(self) -> StaticServer:
        if self._httpd is not None:
            return self
        handler = partial(_Handler, directory=str(self.root))
        self._httpd = ThreadingHTTPServer((HOST, 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        name=f"game-server-{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> StaticServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
