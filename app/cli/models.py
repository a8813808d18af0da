"""``playbench models``: add, list, show, test and remove model profiles."""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playbench.app.agents.profiles import ModelProfile, ProfileStore

from playbench.app.cli.common import UsageError, parse_key_values, printable, table

_NUMBERS = {"temperature": float, "top_p": float, "max_tokens": int, "frequency_penalty": float,
            "timeout": float, "max_retries": int, "backoff": float, "max_concurrency": int,
            "requests_per_minute": float, "tokens_per_minute": float, "input_price": float,
            "output_price": float, "image_size": int, "action_memory": int,
            "observation_memory": int}


def add_parsers(sub) -> None:
    m = sub.add_parser("models", help="model profiles: add, list, show, test, remove")
    msub = m.add_subparsers(dest="models_command", metavar="ACTION")
    m.set_defaults(handler=lambda args: (m.print_help(), 0)[1])

    a = msub.add_parser("add", help="add (or with --replace, change) a model profile")
    a.add_argument("name")
    a.add_argument("--base-url", required=True, metavar="URL",
                   help="OpenAI-compatible base URL, e.g. https://api.openai.com/v1 or "
                        "http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama)")
    a.add_argument("--model", required=True, metavar="ID", help="model id (Azure: deployment)")
    key = a.add_mutually_exclusive_group()
    key.add_argument("--api-key-env", metavar="VAR",
                     help="environment variable holding the API key (the key is never stored)")
    key.add_argument("--keyring", action="store_true",
                     help="keep the key in the OS keyring (asked for, or read with --key-stdin)")
    a.add_argument("--key-stdin", action="store_true", help="with --keyring: read the key from "
                   "standard input instead of asking")
    a.add_argument("--provider", choices=["openai", "azure"], default="openai",
                   help="azure: Azure OpenAI style endpoint (needs --api-version)")
    a.add_argument("--api-version", help="Azure API version, e.g. 2024-10-21")
    for name, kind in _NUMBERS.items():
        flag = "--" + name.replace("_", "-")
        if name == "requests_per_minute":
            flag = "--rpm"
        elif name == "tokens_per_minute":
            flag = "--tpm"
        a.add_argument(flag, dest=name, type=kind, metavar="N")
    a.add_argument("--image-detail", choices=["auto", "low", "high"])
    a.add_argument("--image-format", choices=["png", "jpeg"])
    a.add_argument("--tool-choice", help="tool_choice sent in tools:* settings (default auto; "
                   "'none-sent' to omit it)")
    a.add_argument("--state-hints", action="store_true",
                   help="send PlayBench state hints (only for serve-model endpoints)")
    a.add_argument("--prompt-dir", metavar="DIR", help="your own prompt templates")
    a.add_argument("--label", help="a note shown in listings")
    a.add_argument("--header", action="append", metavar="NAME=VALUE",
                   help="extra HTTP header sent with every request")
    a.add_argument("--replace", action="store_true", help="overwrite an existing profile")
    a.set_defaults(handler=cmd_add)

    ls = msub.add_parser("list", help="list model profiles")
    ls.set_defaults(handler=cmd_list)

    sh = msub.add_parser("show", help="print one profile as JSON (no key)")
    sh.add_argument("name")
    sh.set_defaults(handler=cmd_show)

    t = msub.add_parser("test", help="send one tiny request; print the latency or the error")
    t.add_argument("name")
    t.set_defaults(handler=cmd_test)

    rm = msub.add_parser("remove", help="delete a stored profile")
    rm.add_argument("name")
    rm.set_defaults(handler=cmd_remove)


def _store() -> ProfileStore:
    from playbench.app.agents.profiles import ProfileStore
    return ProfileStore()


def _load(store: ProfileStore) -> dict[str, ModelProfile] | None:
    from playbench.app.agents.profiles import ProfileError
    try:
        return store.load()
    except ProfileError as err:
        print(f"playbench models: {err}", file=sys.stderr)
        return None


def cmd_add(args: argparse.Namespace) -> int:
    from playbench.app.agents.keys import KeyProblem, store_key
    from playbench.app.agents.profiles import ModelProfile, ProfileError, public_url
    store = _store()
    existing = _load(store)
    if existing is None:
        return 1
    if args.name in existing and not args.replace:
        raise UsageError(f"a profile {args.name!r} exists; add --replace to change it")
    if args.key_stdin and not args.keyring:
        raise UsageError("--key-stdin goes with --keyring")
    fields = {n: getattr(args, n) for n in _NUMBERS if getattr(args, n) is not None}
    for name in ("image_detail", "image_format", "prompt_dir", "label", "api_version"):
        if getattr(args, name) is not None:
            fields[name] = getattr(args, name)
    if args.tool_choice is not None:
        fields["tool_choice"] = None if args.tool_choice == "none-sent" else args.tool_choice
    api_key = f"env:{args.api_key_env}" if args.api_key_env else (
        "keyring" if args.keyring else None)
    try:
        profile = ModelProfile(name=args.name, base_url=args.base_url, model=args.model,
                               api_key=api_key, provider=args.provider,
                               state_hints=args.state_hints,
                               extra_headers=parse_key_values(args.header, "--header"),
                               **fields)
    except ProfileError as err:
        raise UsageError(str(err)) from None
    if args.keyring:
        key = sys.stdin.readline().strip() if args.key_stdin else getpass.getpass(
            f"API key for {args.name}: ")
        if not key:
            raise UsageError("no key given")
        try:
            store_key(args.name, key)
        except KeyProblem as err:
            print(f"playbench models: {err}", file=sys.stderr)
            return 1
    store.save(profile)
    print(f"saved profile {profile.name} ({profile.model} at {public_url(profile.base_url)}, "
          f"key: {profile.key_source}) in {store.path}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from playbench.app.agents.profiles import public_url
    profiles = _load(_store())
    if profiles is None:
        return 1
    rows = []
    for p in profiles.values():
        price = (f"${p.input_price:g}/${p.output_price:g}"
                 if p.input_price or p.output_price else "-")
        rows.append([p.name, p.model, "serve-model (in-process)" if p.is_local
                     else public_url(p.base_url), p.key_source, price, p.max_concurrency,
                     p.label or ""])
    table(["name", "model", "endpoint", "key", "price in/out per 1M", "concurrency", "note"],
          rows)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    profiles = _load(_store())
    if profiles is None:
        return 1
    if args.name not in profiles:
        raise UsageError(f"no model profile {args.name!r} (known: {', '.join(profiles)})")
    print(json.dumps(profiles[args.name].details(), indent=2, sort_keys=True))
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from playbench.app.agents.profiles import ProfileError
    store = _store()
    try:
        removed = store.remove(args.name)
    except ProfileError as err:
        print(f"playbench models: {err}", file=sys.stderr)
        return 1
    if not removed:
        raise UsageError(f"no stored profile {args.name!r}")
    print(f"removed profile {args.name}")
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from playbench.app.agents.keys import KeyProblem, resolve_key
    profiles = _load(_store())
    if profiles is None:
        return 1
    if args.name not in profiles:
        raise UsageError(f"no model profile {args.name!r} (known: {', '.join(profiles)})")
    profile = dataclasses.replace(profiles[args.name], max_retries=0)
    try:
        resolve_key(profile)
    except KeyProblem as err:
        print(f"{profile.name}: {err}", file=sys.stderr)
        return 1
    import asyncio
    return asyncio.run(_ping(profile))


async def _ping(profile: ModelProfile) -> int:
    # Imported here: the openai SDK is only needed when a request is sent.
    from playbench.app.agents.errors import ModelCallError
    from playbench.app.agents.probe import ping
    t0 = time.perf_counter()
    try:
        result = await ping(profile)
    except ModelCallError as err:
        print(f"{profile.name}: FAILED after {(time.perf_counter() - t0) * 1000:.0f} ms: "
              f"{printable(str(err))}",
              file=sys.stderr)
        return 1
    u = result.usage
    text = " ".join(result.reply.raw.split())[:60]
    print(f"{profile.name}: ok in {u.latency_ms:.0f} ms (model {result.model or profile.model}, "
          f"{u.prompt_tokens}+{u.completion_tokens} tokens, ${u.cost:.6f}): {text!r}")
    return 0
