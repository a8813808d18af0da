"""A small stand-in for the pages and REST endpoints VWA's evaluation helpers read, served on
127.0.0.1 by a real HTTP server: a Magento product page and order page, Magento's admin REST
API (token, orders, reviews, product), a Postmill post page with a comment tree, a GitLab
members page, and a form with a text field and a file input. Markup is our own, shaped only
where the helpers look (ids, classes, nesting)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

ADMIN = ("shop-admin", "s3cret-for-tests")
TOKEN = "token-for-tests"

PRODUCT = """<html><body><div id="maincontent"><div class="columns"><div>
<div class="product-info-main"><h1>Trail kite</h1><div class="product-info-price">
<div class="price-box price-final_price"><span><span>$24.50</span></span></div></div></div>
</div></div></div>
<div id="tab-label-reviews-title">Reviews 12</div>
<div class="rating-result" title="80%"></div>
<table id="productDetails_detailBullets_sections1"><tbody>
<tr><th>Color</th><td>Red</td></tr><tr><th>Size</th><td>Large</td></tr>
<tr><th>Item Weight</th><td>1 pound</td></tr></tbody></table></body></html>"""

ORDER = """<html><body><div class="order-details-items ordered">
<table id="my-orders-table"><tbody><tr>
<td class="col name">Trail kite<dl><dt>Size</dt><dd>Large</dd></dl></td>
<td class="col sku">B0983XCYK6</td><td class="col price">$24.50</td>
<td class="col qty">Ordered2</td><td class="col subtotal">$49.00</td></tr></tbody>
<tbody><tr><td class="col name">Kite string</td><td class="col sku">B07ZD2PB9F</td>
<td class="col price">$3.00</td><td class="col qty">Ordered1</td>
<td class="col subtotal">$3.00</td></tr></tbody></table></div></body></html>"""


def _comment(level: int, user: str, score: int, text: str, when: str, inner: str = "") -> str:
    return (f'<div class="comment" data-level="{level}"><div class="comment__main"><header>'
            f'<h1><a class="fg-inherit">{user}</a><span><time datetime="{when}">{when}</time>'
            f'</span></h1></header><span class="vote__net-score">{score}</span>'
            f'<div class="comment__content">{text}</div></div>{inner}</div>')


POST = ("<html><body><div id=\"main\"><h2 class=\"submission__title\">Has anyone bought "
        "this product?</h2>"
        + _comment(1, "kiteflyer", 5, "Looks sturdy.", "2023-01-02T10:00:00+00:00",
                   _comment(2, "MarvelsGrantMan136", 1, "first reply", "2023-01-02T11:00:00+00:00")
                   + _comment(2, "MarvelsGrantMan136", 3, "newest reply",
                              "2023-01-03T09:00:00+00:00"))
        + _comment(1, "MarvelsGrantMan136", 0, "older top comment", "2023-01-01T08:00:00+00:00")
        + "</div></body></html>")

MEMBERS = """<html><body><table><tr><td data-label="Account">
<span class="gl-avatar-labeled-sublabel">@byteblaze</span></td>
<td class="col-max-role"><span>Owner</span></td></tr>
<tr><td data-label="Account"><span class="gl-avatar-labeled-sublabel">@kitelover</span></td>
<td class="col-max-role"><span>Developer</span></td></tr></table></body></html>"""

FORM = """<html><body><input id="q" value="old search words" style="width:300px">
<input type="file" id="f"><div id="picked">none</div>
<script>document.getElementById('f').addEventListener('change',
  (e) => { document.getElementById('picked').textContent = e.target.files[0].name; });
</script></body></html>"""

REVIEWS = [{"nickname": "Old Reviewer", "title": "Meh", "detail": "It broke.",
            "ratings": [{"rating_name": "Rating", "percent": 20}]},
           {"nickname": "Emma Lopez", "title": "Great kite", "detail": "Flies in any wind",
            "ratings": [{"rating_name": "Rating", "percent": 80}]}]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: str, kind: str = "text/html") -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json(self, value: Any, status: int = 200) -> None:
        self._send(status, json.dumps(value), "application/json")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if urlparse(self.path).path == "/rest/default/V1/integration/admin/token":
            sent = json.loads(body or b"{}")
            if (sent.get("username"), sent.get("password")) == ADMIN:
                return self._json(TOKEN)
            return self._json({"message": "wrong account"}, 401)
        self._send(404, "not found")

    def do_GET(self) -> None:
        url = urlparse(self.path)
        path = url.path
        if path.startswith("/rest/"):
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self._json({"message": "no token"}, 401)
            query = parse_qs(url.query)
            if path == "/rest/V1/orders":
                ok = query.get("searchCriteria[sortOrders][0][direction]") == ["DESC"]
                return self._json({"items": [{"increment_id": "000000123" if ok else "1"}]})
            if path == "/rest/V1/products/B0983XCYK6/reviews":
                return self._json(REVIEWS)
            if path == "/rest/V1/products/B0983XCYK6":
                return self._json({"custom_attributes": [
                    {"attribute_code": "url_key", "value": "trail-kite"}]})
            return self._json({"message": "no such thing"}, 404)
        pages = {"/trail-kite.html": PRODUCT, "/sales/order/view/order_id/123/": ORDER,
                 "/f/gadgets/12345/has-anyone": POST, "/f/gadgets/12345/": POST,
                 "/project/members": MEMBERS, "/form.html": FORM}
        if path in pages:
            return self._send(200, pages[path])
        self._send(404, "<html><body>not found</body></html>")


class FakeVwaSite:
    """The stand-in site on a free port of 127.0.0.1 (``with FakeVwaSite() as base:``)."""

    def __enter__(self) -> str:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
