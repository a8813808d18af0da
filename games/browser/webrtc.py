"""WebRTC is off in every sandboxed page, and a page's attempt to use it is recorded.

WebRTC opens its own UDP sockets (STUN binding requests, TURN allocations carrying whatever
username the page chose) outside HTTP, so neither Playwright's routing nor the network fence
(:mod:`playbench.games.browser.fence`) ever sees them. Two layers keep them in:

1. **In the page** (:data:`NO_WEBRTC`, an init script every session adds to its context, so it
   runs first in every document of every frame, iframes and pop-ups included): the connection
   constructors (``RTCPeerConnection``, ``webkitRTCPeerConnection``) are replaced by stubs that
   report the attempt and throw ``NotAllowedError``; every other ``RTC*`` interface is removed,
   and the stubs can be neither deleted nor overwritten. Playwright runs the script in a
   frame's first ``about:blank`` document as well, so a fresh iframe's ``contentWindow`` (or
   ``window[i]``), a ``srcdoc`` frame and a ``window.open`` pop-up have no WebRTC either
   (checked in tests/web/test_webrtc.py). Workers have no ``RTCPeerConnection`` to begin with.
2. **In Chromium** (:data:`WEBRTC_LAUNCH_ARGS`): WebRTC may not use UDP that does not go through
   the proxy. Measured on Debian's Chromium 156 with a STUN/TURN listener on 127.0.0.1: the
   earlier ``--force-webrtc-ip-handling-policy`` flag let 8 datagrams through (a STUN binding
   request and a TURN Allocate with the page's username), ``--webrtc-ip-handling-policy=
   disable_non_proxied_udp`` none; WebRTC over TCP then goes to the fence, which refuses it.

Each report becomes one record of the session's blocked list (``type`` and ``via``
``webrtc``, ``url`` the ICE server the page named or ``webrtc:<API>``), so it lands on the
step like any other refusal (docs/security.md).
"""

from __future__ import annotations

from typing import Any

BINDING = "__playbenchWebRTC"
"""The function the init script calls to report an attempt (a Playwright binding)."""

WEBRTC_LAUNCH_ARGS = ("--webrtc-ip-handling-policy=disable_non_proxied_udp",
                      "--enforce-webrtc-ip-permission-check")

MAX_URLS = 8
"""ICE server URLs kept from one attempt (a page may list thousands)."""
MAX_URL_CHARS = 300
MAX_REPORTS = 64
"""Attempts recorded per session; more are refused all the same, but only counted."""

NO_WEBRTC = """
(() => {
  const binding = globalThis['__BINDING__'];
  const report = (api, urls) => {
    try { if (typeof binding === 'function') binding(api, urls); } catch (e) { /* gone */ }
  };
  const serverUrls = (config) => {
    const out = [];
    try {
      for (const server of (config && config.iceServers) || []) {
        const urls = server && (server.urls !== undefined ? server.urls : server.url);
        for (const u of (Array.isArray(urls) ? urls : [urls])) {
          if (out.length < __MAX_URLS__) out.push(String(u).slice(0, __MAX_CHARS__));
        }
      }
    } catch (e) { /* a hostile config: report the attempt without its servers */ }
    return out;
  };
  const blocked = (api) => function () {
    report(api, serverUrls(arguments[0]));
    throw new DOMException('WebRTC is turned off in PlayBench', 'NotAllowedError');
  };
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (!/^(webkit)?RTC/.test(name)) continue;
    const stub = /PeerConnection$/.test(name) ? blocked(name) : undefined;
    try {
      Object.defineProperty(globalThis, name, {value: stub, writable: false,
                                               configurable: false, enumerable: false});
    } catch (e) { try { delete globalThis[name]; } catch (e2) { /* left as it is */ } }
  }
})();
""".replace("__BINDING__", BINDING).replace("__MAX_URLS__", str(MAX_URLS)).replace(
    "__MAX_CHARS__", str(MAX_URL_CHARS))


def attempt_records(api: Any, urls: Any) -> list[tuple[str, str]]:
    """What one reported attempt becomes: ``(url, api)`` pairs, one per ICE server the page
    named (at most :data:`MAX_URLS`), or one ``webrtc:<api>`` when it named none. The page
    chose these values, so anything that is not text is dropped and every string is cut."""
    name = api if isinstance(api, str) and api else "RTCPeerConnection"
    name = name[:60]
    found = [u[:MAX_URL_CHARS] for u in (urls if isinstance(urls, list) else [])
             if isinstance(u, str) and u][:MAX_URLS]
    return [(u, name) for u in found] or [(f"webrtc:{name}", name)]


__all__ = ["BINDING", "MAX_REPORTS", "NO_WEBRTC", "WEBRTC_LAUNCH_ARGS", "attempt_records"]
