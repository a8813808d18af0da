"""Reading a pickled gym-sokoban environment (MageBench's ``Sokoban/<n>-Sokoban-<tier>.pkl``)
without running anything it names.

A pickle is a little program: its ``GLOBAL`` instructions name any importable callable and its
``REDUCE`` instructions call them, so ``pickle.load`` on a stranger's file can run
``os.system``. This reader lets a pickle name only what a gym-sokoban environment pickle holds
(docs/security.md, "MageBench Sokoban pickles"):

- gym's wrappers, spaces and ``EnvSpec``, gym-sokoban's environment classes and NumPy's random
  generators become *inert stand-ins*: plain objects that keep the arguments and state the
  pickle gives them as data. Their real classes are never imported, so no ``__setstate__``,
  ``__init__`` or ``__reduce__`` of theirs runs;
- NumPy arrays are rebuilt through small wrappers that check the array's size first (an array
  header can ask for terabytes) and accept only ``numpy.ndarray`` itself; ``copyreg``'s
  instance maker (pickle protocols 0 and 1) makes stand-ins only, and ``_codecs.encode`` (how
  protocols 0-2 write bytes) encodes latin1 text only (``bytes()`` makes only ``b""``);
- every other global - ``os.system``, ``builtins.eval``, ``subprocess.Popen``, a subclass of an
  environment class defined elsewhere - is refused before anything is called, with a
  :class:`~playbench.games.base.LevelError` naming the file and the global.

:func:`read_room` then finds the environment inside the wrappers and returns its room.
"""

from __future__ import annotations

import _compat_pickle
import io
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from playbench.games.base import LevelError

MAX_PICKLE_BYTES = 8 * 1024 * 1024
"""The largest environment pickle read (MageBench's biggest, a 13x13 room, is about 0.5 MB;
most of it is the observation space's bounds)."""
MAX_ARRAY_BYTES = 32 * 1024 * 1024
"""The most memory one array in the pickle may ask for before it is made."""
MAX_ROOM_SIDE = 100
"""The most rows or columns of a room (PlayBench's board limit, games/packs.py)."""

_GYM_CLASSES = frozenset({
    "gym.core.Env", "gym.core.Wrapper",
    "gym.wrappers.order_enforcing.OrderEnforcing",
    "gym.wrappers.env_checker.PassiveEnvChecker",
    "gym.wrappers.time_limit.TimeLimit",
    "gym.wrappers.step_api_compatibility.StepAPICompatibility",
    "gym.spaces.discrete.Discrete", "gym.spaces.box.Box", "gym.spaces.space.Space",
    "gym.envs.registration.EnvSpec",
    "gym_sokoban.envs.sokoban_env.SokobanEnv",
    *(f"gym_sokoban.envs.sokoban_env_variations.{name}" for name in (
        "SokobanEnv1", "SokobanEnv2", "SokobanEnv_Small0", "SokobanEnv_Small1",
        "SokobanEnv_Large0", "SokobanEnv_Large1", "SokobanEnv_Huge0")),
    *(f"gym_sokoban.envs.{name}" for name in (
        "SokobanEnv", "SokobanEnv1", "SokobanEnv2", "SokobanEnv_Small0", "SokobanEnv_Small1",
        "SokobanEnv_Large0", "SokobanEnv_Large1", "SokobanEnv_Huge0")),
    "numpy.random.mtrand.RandomState", "numpy.random._generator.Generator",
    "numpy.random._pcg64.PCG64", "numpy.random._mt19937.MT19937",
    "numpy.random._pickle.__randomstate_ctor", "numpy.random._pickle.__generator_ctor",
    "numpy.random._pickle.__bit_generator_ctor",
})
"""Globals read as inert stand-ins: what gym 0.2x and gym-sokoban 0.0.6 put in an environment
pickle (the wrappers ``gym.make`` adds, the spaces, the registry's spec, the environment
classes, and the random generator older gym versions kept on the environment)."""

_NUMPY_PREFIXES = ("numpy.core.multiarray.", "numpy._core.multiarray.")
"""Where NumPy 1 and NumPy 2 keep ``_reconstruct`` and ``scalar``."""


class Inert:
    """A stand-in for a gym or gym-sokoban object: it keeps what the pickle gave it (its
    constructor arguments in ``args``, its state in ``state``) and has no behaviour. Each
    admitted global gets its own subclass, whose ``global_name`` says what it stands for."""

    global_name = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> Inert:
        obj = super().__new__(cls)
        obj.__dict__["args"] = args
        obj.__dict__["state"] = None
        return obj

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to do: ``__new__`` kept the arguments."""

    def __setstate__(self, state: Any) -> None:
        self.__dict__["state"] = state

    def attrs(self) -> dict[str, Any]:
        """The object's attributes as the pickle stored them (``{}`` when it stored none)."""
        state = self.__dict__["state"]
        if isinstance(state, tuple) and len(state) == 2:  # (dict, slots) from __getstate__
            merged: dict[str, Any] = {}
            for part in state:
                if isinstance(part, dict):
                    merged.update(part)
            return merged
        return dict(state) if isinstance(state, dict) else {}


_NDARRAY = object()
"""What the global ``numpy.ndarray`` resolves to: a token only :func:`_reconstruct` accepts,
so the pickle cannot call ``ndarray(shape)`` to allocate memory directly."""


def _check_bytes(shape: Any, dtype: Any) -> np.dtype[Any]:
    try:
        kind: np.dtype[Any] = np.dtype(dtype)
        dims = tuple(int(n) for n in (shape if isinstance(shape, tuple) else (shape,)))
    except (TypeError, ValueError, OverflowError) as err:
        raise pickle.UnpicklingError(f"bad array header ({err})") from None
    count = 1
    for n in dims:
        if n < 0:
            raise pickle.UnpicklingError("bad array header (negative size)")
        count *= n
    if count * max(kind.itemsize, 1) > MAX_ARRAY_BYTES:
        raise pickle.UnpicklingError(f"an array of {count * kind.itemsize} bytes is larger "
                                     f"than {MAX_ARRAY_BYTES} bytes")
    return kind


def _reconstruct(subtype: Any, shape: Any, dtype: Any) -> np.ndarray[Any, Any]:
    """NumPy's array reconstruction, for plain arrays of a bounded size only."""
    if subtype is not _NDARRAY:
        raise pickle.UnpicklingError("only numpy.ndarray arrays can be rebuilt")
    return np.ndarray.__new__(np.ndarray, shape, _check_bytes(shape, dtype))


def _scalar(dtype: Any, data: Any = None) -> Any:
    """NumPy's scalar reconstruction (``np.int64(3)`` in a pickle), for plain number types."""
    if not isinstance(dtype, np.dtype) or dtype.kind not in "biufc" or not isinstance(data, bytes):
        raise pickle.UnpicklingError("only plain numeric NumPy scalars can be rebuilt")
    _check_bytes((), dtype)
    if len(data) != dtype.itemsize:
        raise pickle.UnpicklingError("a NumPy scalar's bytes do not match its type")
    return np.frombuffer(data, dtype=dtype)[0]


def _frombuffer(buffer: Any, dtype: Any, shape: Any, order: Any) -> np.ndarray[Any, Any]:
    """NumPy's array reconstruction for pickle protocol 5 (``numpy._core.numeric._frombuffer``),
    from bytes held in the pickle, for plain types of a bounded size."""
    if not isinstance(buffer, (bytes, bytearray)) or not isinstance(dtype, np.dtype) \
            or dtype.hasobject or order not in ("C", "F"):
        raise pickle.UnpicklingError("only plain NumPy arrays held in the pickle can be rebuilt")
    kind = _check_bytes(shape, dtype)
    try:
        flat = np.frombuffer(buffer, dtype=kind)
        return flat.reshape(shape, order=order).copy()
    except (TypeError, ValueError) as err:
        raise pickle.UnpicklingError(f"bad array data ({err})") from None


def _dtype(spec: Any, align: Any = False, copy: Any = False) -> np.dtype[Any]:
    """``numpy.dtype`` for the plain type codes a pickle names (``'i8'``, ``'u1'``, ``'f4'``),
    always a fresh copy: the pickle's next step sets its byte order, which on NumPy's shared
    built-in type object would change it for the whole process."""
    if not isinstance(spec, str) or len(spec) > 8 or not spec.isalnum():
        raise pickle.UnpicklingError(f"a NumPy type {str(spec)[:40]!r} is not a plain type code")
    try:
        return np.dtype(spec, copy=True)  # a copy: the pickle's BUILD then sets its state
    except TypeError as err:
        raise pickle.UnpicklingError(f"unknown NumPy type {spec!r}") from err


_OBJECT = object()
"""What the global ``builtins.object`` resolves to: only :func:`_reconstructor` accepts it."""


def _reconstructor(cls: Any, base: Any, state: Any) -> Inert:
    """``copyreg._reconstructor``, which pickle protocols 0 and 1 use to make an instance of a
    class: here only of a stand-in, from ``object``, with no state of its own."""
    if not (isinstance(cls, type) and issubclass(cls, Inert)) or base is not _OBJECT \
            or state is not None:
        raise pickle.UnpicklingError("copyreg._reconstructor makes only gym stand-ins here")
    return cls.__new__(cls)


def _latin1(text: Any, encoding: Any = "latin1") -> bytes:
    """``_codecs.encode(text, 'latin1')``: how pickle protocols 0-2 write a ``bytes`` value."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1"):
        raise pickle.UnpicklingError("_codecs.encode is admitted for latin1 bytes only")
    return text.encode("latin1")


def _bytes(*args: Any) -> bytes:
    """``builtins.bytes()``: how pickle protocols 0-2 write an empty ``bytes`` value."""
    if args:
        raise pickle.UnpicklingError("builtins.bytes is admitted for empty bytes only")
    return b""


class RefusedGlobal(pickle.UnpicklingError):
    """The pickle names a global this reader does not admit."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class _Unpickler(pickle.Unpickler):
    """``pickle.Unpickler`` whose only way to reach code, ``find_class``, answers from the
    lists above; every stand-in class is made fresh for this one load."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self._stand_ins: dict[str, type[Inert]] = {}

    def find_class(self, module: str, name: str) -> Any:
        # Python 2 spellings (protocols 0-2) under their Python 3 names, as pickle's own does
        module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
        module = _compat_pickle.IMPORT_MAPPING.get(module, module)
        full = f"{module}.{name}"
        if full in _GYM_CLASSES:
            if full not in self._stand_ins:
                self._stand_ins[full] = type(name, (Inert,), {"global_name": full})
            return self._stand_ins[full]
        if full == "numpy.ndarray":
            return _NDARRAY
        if full == "numpy.dtype":
            return _dtype
        if full == "copyreg._reconstructor":
            return _reconstructor
        if full == "builtins.object":
            return _OBJECT
        if full == "_codecs.encode":
            return _latin1
        if full == "builtins.bytes":
            return _bytes
        for prefix in _NUMPY_PREFIXES:
            if full == prefix + "_reconstruct":
                return _reconstruct
            if full == prefix + "scalar":
                return _scalar
        if full in ("numpy.core.numeric._frombuffer", "numpy._core.numeric._frombuffer"):
            return _frombuffer
        raise RefusedGlobal(full)

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("persistent references are not used by environment pickles")


@dataclass(frozen=True)
class Room:
    """A gym-sokoban room: ``fixed`` holds walls (0), floor (1) and targets (2); ``state`` adds
    boxes on (3) and off (4) a target and the worker (5). ``env_id`` is the registered id the
    environment was made with (``Sokoban-small-v0``), when the pickle kept it."""

    fixed: np.ndarray[Any, Any]
    state: np.ndarray[Any, Any]
    env_id: str | None


def unpickle(data: bytes, source: str) -> Any:
    """The object ``data`` pickles, with every admitted global replaced as described above.
    Raises :class:`LevelError` naming ``source`` and, for a refused global, its name."""
    try:
        return _Unpickler(data).load()
    except RefusedGlobal as err:
        raise LevelError(
            f"refused global {err.name!r}: a MageBench Sokoban pickle may hold only gym-sokoban "
            "environments, gym wrappers and spaces, and NumPy arrays; nothing in the file was "
            "run", source=source) from None
    except RecursionError:
        raise LevelError("not a gym-sokoban environment pickle (nested too deeply)",
                         source=source) from None
    except Exception as err:  # any malformed pickle: truncated, bad opcode, wrong argument
        reason = str(err)[:200] or type(err).__name__
        raise LevelError(f"not a gym-sokoban environment pickle ({reason})",
                         source=source) from None


def read_room(path: Path) -> Room:
    """The room of the gym-sokoban environment pickled in ``path`` (read as data, see the
    module docstring). Raises :class:`LevelError` naming the file."""
    source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_PICKLE_BYTES:
            raise LevelError(f"the file is {size / 1e6:.1f} MB; a gym-sokoban environment "
                             f"pickle is at most {MAX_PICKLE_BYTES // (1024 * 1024)} MiB here",
                             source=source)
        data = path.read_bytes()
    except OSError as err:
        raise LevelError(err.strerror or str(err), source=source) from None
    return room_of(unpickle(data, source), source)


def room_of(obj: Any, source: str) -> Room:
    """The room of an unpickled environment, looked for through its wrappers' ``env``."""
    env_id: str | None = None
    for _ in range(16):
        if not isinstance(obj, Inert):
            break
        attrs = obj.attrs()
        env_id = env_id or _spec_id(attrs.get("spec")) or _spec_id(attrs.get("_spec"))
        if "room_fixed" in attrs or "room_state" in attrs:
            fixed = _grid(attrs.get("room_fixed"), "room_fixed", source)
            state = _grid(attrs.get("room_state"), "room_state", source)
            if fixed.shape != state.shape:
                raise LevelError(f"room_fixed is {fixed.shape} but room_state is {state.shape}",
                                 source=source)
            return Room(fixed, state, env_id)
        obj = attrs.get("env")
    raise LevelError("the pickle holds no gym-sokoban environment (no room_fixed and "
                     "room_state found)", source=source)


def _spec_id(spec: Any) -> str | None:
    if isinstance(spec, Inert):
        value = spec.attrs().get("id")
        return value if isinstance(value, str) and len(value) <= 60 else None
    return None


def _grid(value: Any, field: str, source: str) -> np.ndarray[Any, Any]:
    if not isinstance(value, np.ndarray) or value.ndim != 2 or value.dtype.kind not in "iu":
        raise LevelError(f"{field} is not a 2-D integer array", source=source)
    rows, cols = value.shape
    if not (3 <= rows <= MAX_ROOM_SIDE and 3 <= cols <= MAX_ROOM_SIDE):
        raise LevelError(f"{field} is {rows}x{cols}; rooms of 3 to {MAX_ROOM_SIDE} rows and "
                         "columns are read", source=source)
    if value.size and (int(value.min()) < 0 or int(value.max()) > 6):
        raise LevelError(f"{field} holds a cell value outside gym-sokoban's 0..6",
                         source=source)
    return value
