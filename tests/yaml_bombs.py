"""YAML inputs that cost far more than their bytes, for the tests of every YAML reader."""

from __future__ import annotations


def alias_bomb(key: str, levels: int = 9) -> str:
    """"Billion laughs": ``key`` names ten aliases of ten aliases ... of ten strings, 10^levels
    strings in all, in a few hundred bytes."""
    lines = ["b0: &b0 [" + ", ".join(['"lol"'] * 10) + "]"]
    for i in range(1, levels):
        lines.append(f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 10) + "]")
    lines.append(f"{key}: *b{levels - 1}")
    return "\n".join(lines) + "\n"


def block_nesting(depth: int) -> str:
    """``depth`` mappings, each the value of the one before, one per line (mapping k starts on
    line k)."""
    return "".join("  " * i + "a:\n" for i in range(depth - 1)) + "  " * (depth - 1) + "a: 1\n"


def flow_nesting(depth: int) -> str:
    """A list in a list ... ``depth`` deep, on one line."""
    return "[" * depth + "]" * depth + "\n"
