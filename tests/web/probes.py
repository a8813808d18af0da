"""Hostile pages' tools for the sandbox tests: a UDP listener on 127.0.0.1 that counts every
datagram (any count above zero is WebRTC getting out), the script a page runs to try STUN and
TURN towards it, and a runaway allocation."""

from __future__ import annotations

import socket
import threading
from pathlib import Path


class UdpListener:
    """A UDP socket on 127.0.0.1 keeping every datagram it receives (``received``)."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                data, _ = self.sock.recvfrom(65536)
            except OSError:  # closed
                return
            self.received.append(data)

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> UdpListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def webrtc_script(port: int) -> str:
    """JavaScript that tries a STUN binding and a TURN allocation (with a username the page
    chose) to ``port``, from the page, a fresh iframe and the prefixed constructor, gathering
    candidates as a page leaking over WebRTC would; ``window.__rtc`` collects what happened
    and ``window.__rtcDone`` resolves when every try has ended."""
    return """
window.__rtc = [];
window.__rtcDone = (async () => {
  const servers = {iceServers: [{urls: 'stun:127.0.0.1:__PORT__'},
    {urls: ['turn:127.0.0.1:__PORT__?transport=udp'], username: 'PAGE-CHOSEN-DATA',
     credential: 'x'}]};
  const frame = document.createElement('iframe');
  document.documentElement.appendChild(frame);
  const makers = [['page', () => window.RTCPeerConnection],
                  ['webkit', () => window.webkitRTCPeerConnection],
                  ['iframe', () => frame.contentWindow.RTCPeerConnection]];
  for (const [name, get] of makers) {
    try {
      const pc = new (get())(servers);
      pc.createDataChannel('leak');
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((done) => { pc.onicegatheringstatechange = () => {
        if (pc.iceGatheringState === 'complete') done(); }; setTimeout(done, 1500); });
      window.__rtc.push(name + ': gathered');
    } catch (e) {
      window.__rtc.push(name + ': ' + e.name);
    }
  }
  return window.__rtc;
})();
""".replace("__PORT__", str(port))


def rss_kb(pid: int) -> int:
    """Resident memory of one process in KiB (Linux /proc; 0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def runaway_script(limit_mb: int, kind: str = "buffers") -> str:
    """JavaScript defining ``window.grow()``, which allocates and touches memory 32 MiB at a
    time up to ``limit_mb`` in one go (a bound for the test's sake: without the sandbox's cap
    the page holds all of it) and returns how many chunks it kept: array buffers (outside V8's
    heap) or JS arrays of numbers (inside it)."""
    return """
window.__kept = [];
window.grow = () => {
  for (let i = 0; i < __CHUNKS__; i++) {
    if ('__KIND__' === 'buffers') {
      const a = new Uint8Array(32 * 1024 * 1024); a.fill(7); window.__kept.push(a);
    } else {
      const a = new Array(4 * 1024 * 1024); for (let j = 0; j < a.length; j++) a[j] = j + 0.5;
      window.__kept.push(a);
    }
  }
  return window.__kept.length;
};
""".replace("__CHUNKS__", str(limit_mb // 32)).replace("__KIND__", kind)


__all__ = ["UdpListener", "rss_kb", "runaway_script", "webrtc_script"]
