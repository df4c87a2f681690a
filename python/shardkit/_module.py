"""shardkit.Module: a StableHLO/sdy module and the passes that act on it."""

from __future__ import annotations

import json
from typing import Any, Dict, List, NamedTuple, Optional, Union

from . import _shardkit
from ._shardkit import Mesh, TensorSharding


class Value(NamedTuple):
    """A value of a module: its function, printed name (`%arg0`, `%3`),
    type (`tensor<8x16xf32>`) and sharding (None when it has none). A
    snapshot: passes renumber values, so read them again after one."""

    function: str
    name: str
    type: str
    sharding: Optional[TensorSharding]


class PassInfo(NamedTuple):
    """A registered pass: its name, description and options, each
    (name, kind, description, choices)."""

    name: str
    description: str
    options: tuple


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    text = str(value)
    if any(c in text for c in ' {}"'):
        return '"' + text.replace('"', '\\"') + '"'
    return text


def pass_text(name: str, **options: Any) -> str:
    """`name{key=value ...}` as the CLI and runPassPipeline take a pass:
    keyword names with `_` become `-` (keep_sharding_rules ->
    keep-sharding-rules), booleans true/false, lists comma-separated."""
    name = name.lstrip("-")
    if not options:
        return name
    body = " ".join(f"{k.replace('_', '-')}={_option_text(v)}" for k, v in options.items())
    return f"{name}{{{body}}}"


def passes() -> List[PassInfo]:
    """Every pass Module.run_pass accepts, with its options."""
    return [PassInfo(*p) for p in _shardkit.passes()]


class Module:
    """A parsed module. Methods that run passes change it in place and
    return it, so calls chain: `Module.parse(t).propagate().comm_report()`.

    Calls release the GIL; one module is used by one thread at a time (a
    second thread waits), distinct modules run in parallel."""

    def __init__(self, impl: "_shardkit.Module"):
        self._impl = impl

    # ---- Reading and printing ---------------------------------------------

    @classmethod
    def parse(cls, text: Union[str, bytes], filename: str = "<input>") -> "Module":
        """Reads and verifies MLIR text (what `jax.jit(f).lower(x).as_text()`
        prints, or any module shardkit-opt reads). Raises Error at the
        position of the first problem."""
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return cls(_shardkit.Module.parse(text, filename))

    @classmethod
    def load(cls, path: str) -> "Module":
        """Reads the module in file `path`."""
        with open(path, encoding="utf-8") as f:
            return cls.parse(f.read(), path)

    def print(self, *, debug_info: bool = False, generic: bool = False) -> str:
        """The module as MLIR text (`-mlir-print-debuginfo` with
        debug_info, MLIR's generic form with generic)."""
        return self._impl.print(debug_info, generic)

    def __str__(self) -> str:
        return self.print()

    def __repr__(self) -> str:
        return f"<shardkit.Module functions={self.functions()!r} meshes={list(self.meshes())!r}>"

    def copy(self) -> "Module":
        """An independent copy (printed and read back)."""
        return Module.parse(self.print(debug_info=True))

    def verify(self) -> None:
        """Raises Error unless the module verifies."""
        self._impl.verify()

    # ---- Passes -----------------------------------------------------------

    def run_pipeline(self, pipeline: str) -> "Module":
        """Runs a pipeline written as the CLI's --pass-pipeline takes it:
        `"sdy-add-data-flow-edges,sdy-basic-propagate{keep-sharding-rules=true}"`.
        Every name and option is checked before the first pass runs."""
        self._impl.run_pipeline(pipeline)
        return self

    def run_pass(self, name: str, **options: Any) -> "Module":
        """Runs one pass by name with options as keywords:
        `run_pass("sdy-aggressive-propagate", propagation_strategy="basic")`."""
        return self.run_pipeline(pass_text(name, **options))

    def propagate(self, *, strategy: str = "aggressive", **options: Any) -> "Module":
        """-sdy-propagation-pipeline (import, propagation, export) with
        `propagation-strategy=strategy` and the pipeline's other options as
        keywords (keep_sharding_rules, conservative_propagation,
        debug_sharding_origins, enable_insert_explicit_collectives, ...)."""
        return self.run_pass("sdy-propagation-pipeline", propagation_strategy=strategy, **options)

    def export(self, **options: Any) -> "Module":
        """-sdy-export-pipeline with its options as keywords."""
        return self.run_pass("sdy-export-pipeline", **options)

    def insert_collectives(self, *, full: bool = True) -> "Module":
        """Explicit reshards where an op's operands and results disagree,
        and all-reduces for sharded reduction factors
        (-sdy-insert-explicit-reshards, with enable-full-version=full), then
        every reshard lowered to sdy collectives
        (-sdy-reshard-to-collectives)."""
        return self.run_pipeline(
            pass_text("sdy-insert-explicit-reshards", enable_full_version=full)
            + ",sdy-reshard-to-collectives")

    def partition(self, **options: Any) -> "Module":
        """-sdy-convert-global-to-local: the program each device runs, with
        local types and StableHLO collectives (docs/partition.md)."""
        return self.run_pass("sdy-convert-global-to-local", **options)

    # ---- Looking at the result -------------------------------------------

    def explain(self, value: Union[str, Value], *, strategy: str = "aggressive",
                conservative: bool = False) -> str:
        """Why the op defining `value` (a Value, `%3`, or an op name such
        as `stablehlo.dot_general`) has its shardings: its factor table
        before and after one propagation step and, when propagation ran with
        debug_sharding_origins=True, where each axis came from
        (shardkit-opt --explain-op)."""
        selector = value.name if isinstance(value, Value) else value
        if strategy not in ("aggressive", "basic"):
            raise ValueError("strategy must be 'aggressive' or 'basic'")
        return self._impl.explain(selector, strategy == "basic", conservative)

    def comm_report(self) -> Dict[str, Any]:
        """The communication the module's sdy collectives cost
        (--comm-report): {"collectives": [{"op", "loc", "axes",
        "local_bytes_in", "bytes_received_per_device"}, ...],
        "total_bytes_received_per_device": N}."""
        return json.loads(self._impl.comm_report_json())

    def to_dot(self) -> str:
        """The sharded graph in Graphviz DOT (--dump-graph=dot)."""
        return self._impl.to_dot()

    def to_graph(self) -> Dict[str, Any]:
        """The sharded graph as data (--dump-graph=json, schema
        shardkit.graph/1)."""
        return json.loads(self._impl.to_json())

    def functions(self) -> List[str]:
        """The names of the module's functions."""
        return list(self._impl.functions())

    def meshes(self) -> Dict[str, Mesh]:
        """The module's meshes by name."""
        return dict(self._impl.meshes())

    def values(self, function: Optional[str] = None) -> List[Value]:
        """Every value (of `function`, or of all functions) with its
        sharding: arguments first, then op results in program order."""
        out = [Value(*v) for v in self._impl.values()]
        return [v for v in out if function is None or v.function == function]

    def value(self, name: str, function: str = "main") -> Value:
        """The value printed as `name` (`%3`, `%arg0`) in `function`."""
        for v in self.values(function):
            if v.name == name:
                return v
        raise KeyError(f"no value {name} in @{function}")

    def argument_shardings(self, function: str = "main") -> List[Optional[TensorSharding]]:
        """The shardings of `function`'s arguments (None for one without)."""
        return list(self._impl.argument_shardings(function))

    def result_shardings(self, function: str = "main") -> List[Optional[TensorSharding]]:
        """The shardings of `function`'s results (None for one without)."""
        return list(self._impl.result_shardings(function))
