"""The browser layer every kind that plays in a web page stands on (as BrowserGym's core sits
below its benchmarks): Chromium launched and relaunched through Playwright (``browser``), one
bounded page session with its network fence, WebRTC and memory limits (``session``, ``fence``,
``webrtc``, ``memory``), Set-of-Marks labels (``som`` with ``som.js``), the action grammar a
person and a model share (``actions``: ``click [12]``, ``type [5] [text]``, ...), executing
such an action on a page (``execute``), one observation of a page (``observe``), and the
read-only file rule of the local servers (``static``).

No task kind lives here and nothing here imports a kind: VisualWebArena (``games.web``), the
browser games, CSS repair and WebUI import this layer, never each other.
"""
