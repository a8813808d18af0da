"""``playbench serve-human`` and ``playbench proxy``: outside harnesses played through
PlayBench (docs/external.md).

``serve-human`` is an OpenAI-compatible endpoint whose replies come from a person; without the
app, the person answers on this terminal. ``proxy`` forwards each request to a real endpoint and
records the exchange. Both record one episode per harness task, in the database of ``--db``.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playbench.app.cli.common import UsageError, add_db_option, open_store

if TYPE_CHECKING:
    from playbench.app.harness.queue import PendingRequest, RequestQueue
    from playbench.app.harness.server import ServerOptions


def _common(s: argparse.ArgumentParser, port: int) -> None:
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; any other needs --token)")
    s.add_argument("--port", type=int, default=port, help=f"TCP port (default {port}; 0 = any)")
    s.add_argument("--token", default=None,
                   help="the API key harnesses must send (Bearer); required off 127.0.0.1")
    s.add_argument("--idle", type=float, default=300.0, metavar="SECONDS",
                   help="end an episode after this long without a request (default 300)")
    s.add_argument("--answer-timeout", type=float, default=None, metavar="SECONDS",
                   help="abandon a request not answered within this time (default: as long as "
                        "the harness waits)")
    s.add_argument("--max-body", type=float, default=16.0, metavar="MIB",
                   help="largest request body taken, in MiB (default 16; larger get HTTP 413)")
    s.add_argument("--task-from", choices=("first-user", "system"), default="first-user",
                   help="task id when the harness sends no X-PlayBench-Task header: a hash of "
                        "the first user message (default) or of the system prompt")
    add_db_option(s)


def add_parsers(sub) -> None:
    s = sub.add_parser(
        "serve-human", help="an OpenAI-compatible endpoint whose replies come from a person",
        description="Point a harness's base URL at this endpoint; each of its model calls is "
                    "shown here and your reply goes back to it. Every call is recorded as a "
                    "step of an episode of the harness's task. Type a reply, or "
                    "'/tool NAME {json}' for a tool call, '/skip' to leave a request "
                    "unanswered, '/end' to end its episode.")
    _common(s, 8766)
    s.add_argument("--annotator", default=None,
                   help="your name in the records (default: the login name)")
    s.set_defaults(handler=cmd_serve_human)

    p = sub.add_parser(
        "proxy", help="forward a harness's model calls to a real endpoint and record them",
        description="Point a harness's base URL at this proxy: each request goes to --upstream "
                    "as it is and the answer comes back unchanged (errors included), and the "
                    "exchange is recorded as a step with the upstream model as participant. "
                    "The key comes from --profile and is never stored or logged.")
    p.add_argument("--upstream", default=None, metavar="URL",
                   help="base URL of the real endpoint (default: the profile's)")
    p.add_argument("--profile", default=None, metavar="NAME",
                   help="model profile giving the key, the model and extra headers")
    _common(p, 8767)
    p.set_defaults(handler=cmd_proxy)


def _options(args: argparse.Namespace) -> ServerOptions:
    from playbench.app.harness.server import ServerOptions

    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be 0-65535, got {args.port}")
    if not 0 < args.max_body <= 4096:
        raise UsageError(f"--max-body must be more than 0 and at most 4096 MiB, got "
                         f"{args.max_body:g}")
    options = ServerOptions(host=args.host, port=args.port, token=args.token,
                            answer_timeout=args.answer_timeout, task_from=args.task_from,
                            max_body=int(args.max_body * 1024 * 1024))
    try:
        options.check()
    except ValueError as err:
        raise UsageError(str(err)) from None
    return options


def answer_on_terminal(queue: RequestQueue, stop: threading.Event,
                       read: Callable[[str], str] = input,
                       write: Callable[[str], None] = print) -> None:
    """Show the oldest waiting request and read the person's reply, until ``stop`` is set.
    Everything of the harness's is shown through ``safe_text``: its control characters are
    spelled out, never sent to the terminal."""
    from playbench.app.harness.shown import safe_text

    def show(text: str) -> None:
        write(safe_text(text))

    while not stop.is_set():
        request = queue.take(0.5)
        if request is None:
            continue
        try:
            _show_request(request, len(queue) - 1, show)
        except Exception as err:  # noqa: BLE001 - one unshowable request must not stop the rest
            show(f"(request {request.id} cannot be shown: {type(err).__name__}: {err}; "
                 "it is skipped)")
            request.abandon("it could not be shown to the person")
            continue
        try:
            line = read("reply> ")
        except EOFError:
            stop.set()
            return
        except UnicodeDecodeError:
            show("not sent: the line is not UTF-8 text")
            continue
        _answer(queue, request, line, show)


def _show_request(request: PendingRequest, others: int, show: Callable[[str], None]) -> None:
    request.mark_shown()
    show(f"\n=== {request.harness} / {request.task_id} (request {request.id}"
         f"{f', {others} more waiting' if others > 0 else ''}) ===")
    show(request.text())
    for tool in request.tools:
        show(f"  tool {tool.name}: {tool.description} {dict(tool.parameters)}")


def _answer(queue: RequestQueue, request: PendingRequest, line: str,
            show: Callable[[str], None]) -> None:
    from playbench.app.harness.hub import human_reply

    if request.done:
        show("(the harness stopped waiting for that request)")
    elif line.strip() == "/skip":
        request.abandon("the person skipped it")
    elif line.strip() == "/end":
        queue.end_episode(request.harness, request.task_id)
    else:
        try:
            request.answer(human_reply(line))
        except ValueError as err:
            show(f"not sent: {err}")


async def _serve(args: argparse.Namespace, make_hub: Callable[..., Any]) -> None:
    import asyncio

    from playbench.app.harness.server import ExternalServer

    options = _options(args)
    loop = asyncio.get_running_loop()
    store = open_store(args)
    run = make_hub(loop, store)
    server = ExternalServer(run.hub, options).start()
    stop = threading.Event()
    # SIGTERM (a service manager, `kill`) stops like Ctrl-C: running episodes are ended and
    # recorded, not left `running` for a later command to mark interrupted.
    with contextlib.suppress(NotImplementedError, RuntimeError):  # (Windows: no such hook)
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    print(f"{args.command} listening on {server.url} - set the harness's OpenAI base URL to "
          f"it{' and its API key to the token' if options.token else ''}", flush=True)
    try:
        await run.serve(stop)
    finally:
        stop.set()
        server.stop()
        await run.hub.aclose()


class _HumanRun:
    def __init__(self, hub, queue) -> None:
        self.hub, self.queue = hub, queue

    async def serve(self, stop: threading.Event) -> None:
        import asyncio
        answerer = threading.Thread(target=answer_on_terminal, args=(self.queue, stop),
                                    daemon=True, name="terminal-answerer")
        answerer.start()
        while not stop.is_set():
            await asyncio.sleep(0.5)


class _ProxyRun:
    def __init__(self, hub) -> None:
        self.hub = hub

    async def serve(self, stop: threading.Event) -> None:
        import asyncio
        while not stop.is_set():
            await asyncio.sleep(0.5)


def cmd_serve_human(args: argparse.Namespace) -> int:
    from playbench.app.harness.hub import ExternalHub, QueuePlayer
    from playbench.app.harness.queue import RequestQueue

    annotator = args.annotator or getpass.getuser()
    queue = RequestQueue()

    def make(loop, store):
        hub = ExternalHub(loop, store, lambda _ex: QueuePlayer(queue, annotator),
                          via="serve-human", queue=queue, idle_seconds=args.idle)
        return _HumanRun(hub, queue)

    import asyncio
    try:
        asyncio.run(_serve(args, make))
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    return 0


def cmd_proxy(args: argparse.Namespace) -> int:
    from playbench.app.agents.keys import KeyProblem, resolve_key
    from playbench.app.agents.profiles import ProfileError, ProfileStore
    from playbench.app.harness.hub import ExternalHub, ProxyPlayer

    profile = None
    if args.profile:
        try:
            profile = ProfileStore().get(args.profile)
        except (ProfileError, KeyError) as err:
            raise UsageError(str(err)) from None
    upstream = args.upstream or (profile.base_url if profile else None)
    if not upstream or not upstream.startswith(("http://", "https://")):
        raise UsageError("give --upstream URL (http:// or https://) or a --profile with one")
    key = None
    if profile is not None and profile.api_key is not None:
        try:
            key = resolve_key(profile)
        except KeyProblem as err:
            raise UsageError(str(err)) from None

    def player(exchange):
        model = profile.model if profile else (exchange.request.model or "upstream")
        return ProxyPlayer(upstream, model, key=key, override_model=profile is not None,
                           headers=dict(profile.extra_headers) if profile else None,
                           timeout=profile.timeout if profile else 600.0)

    def make(loop, store):
        models = [profile.model] if profile else ["upstream"]
        return _ProxyRun(ExternalHub(loop, store, player, via="proxy", models=models,
                                     idle_seconds=args.idle))

    import asyncio
    try:
        asyncio.run(_serve(args, make))
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    return 0
