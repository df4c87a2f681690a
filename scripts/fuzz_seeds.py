#!/usr/bin/env python3
"""fuzz_seeds.py CORPUS OUTDIR: writes the seed inputs of one fuzz corpus.

Seeds come from our own tests only (tests/lit, and the hand-written seeds in
tests/fuzz/corpus/CORPUS when that directory exists), never from the
reference's tests. Each corpus gets what its fuzz target reads:

  attr        `B`..`L` + an attribute body (see attr_parser_fuzzer.cc)
  mesh        `0` + a mesh body `<[...]>`, `1` + a `#stablehlo.mesh<...>`
  rule        `0`/`1` + a seed byte + an op sharding rule body
  module      one `// -----` chunk of a lit test (CHECK lines dropped)
  mpmd        the chunks that use the mpmd dialect
  propagation the chunks that define a mesh
  cli         `0` + a RUN line's shardkit-opt arguments, split by NUL bytes
  verify      a lit test with `expected-...` annotations
Seeds larger than 4096 bytes (the fuzzers' -max_len) are skipped.
"""
import hashlib
import os
import re
import shlex
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LEN = 4096


def lit_files():
    for root, dirs, files in os.walk(os.path.join(ROOT, "tests", "lit")):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".mlir"):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    yield path, f.read()


def chunks():
    """Every `// -----` chunk of every lit test, without check lines."""
    for _, text in lit_files():
        for chunk in re.split(r"^// -----\s*$", text, flags=re.M):
            lines = [l for l in chunk.splitlines()
                     if not re.match(r"\s*//\s*[A-Z][A-Z0-9_-]*:", l)]
            body = "\n".join(lines).strip() + "\n"
            if body.strip():
                yield body


def bracket_body(text, start):
    """The `<...>` starting at `start`, brackets and strings balanced."""
    depth, i, quote = 0, start, False
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        elif c in "<[({":
            depth += 1
        elif c in ">])}":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    return None


def attribute_bodies(prefix):
    for _, text in lit_files():
        for m in re.finditer(re.escape(prefix) + "<", text):
            body = bracket_body(text, m.end() - 1)
            if body:
                yield body


def seeds(corpus):
    if corpus in ("module", "mpmd", "propagation"):
        for chunk in chunks():
            if corpus == "mpmd" and "mpmd." not in chunk:
                continue
            if corpus == "propagation" and "sdy.mesh" not in chunk:
                continue
            yield chunk
    elif corpus == "attr":
        kinds = {"#sdy.sharding": "F", "#sdy.sharding_per_value": "G",
                 "#sdy.op_sharding_rule": "H"}
        for prefix, letter in kinds.items():
            for body in attribute_bodies(prefix):
                yield letter + body
        for body in attribute_bodies("= "):
            if body.startswith("<["):
                yield "B" + body
    elif corpus == "mesh":
        for _, text in lit_files():
            for m in re.finditer(r"sdy\.mesh @[\w.$]+ = <", text):
                body = bracket_body(text, m.end() - 1)
                if body:
                    yield "0" + body
        for body in attribute_bodies("#stablehlo.mesh"):
            yield "1#stablehlo.mesh" + body
    elif corpus == "rule":
        for i, body in enumerate(attribute_bodies("#sdy.op_sharding_rule")):
            yield "0" + chr(ord("a") + i % 26) + body
            yield "1" + chr(ord("a") + i % 26) + body
    elif corpus == "cli":
        for _, text in lit_files():
            for m in re.finditer(r"//\s*RUN:.*?shardkit-opt (.*)$", text, re.M):
                words = []
                try:
                    split = shlex.split(m.group(1).split("|")[0], posix=True)
                except ValueError:  # a quote closed on a continuation line
                    continue
                for word in split:
                    if word in ("2>&1", ">", "<") or word.startswith(("2>", ">")):
                        break
                    words.append("in.mlir" if word == "%s" else word)
                yield "0" + "\0".join(words)
    elif corpus == "verify":
        for _, text in lit_files():
            if "expected-" in text:
                yield text


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: fuzz_seeds.py CORPUS OUTDIR")
    corpus, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    count = 0
    for seed in seeds(corpus):
        data = seed.encode("utf-8", errors="replace")
        if len(data) > MAX_LEN:
            continue
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        count += 1
    # The mpmd corpus shares the module target's hand-written seeds.
    hand_written = os.path.join(ROOT, "tests", "fuzz", "corpus",
                                "module" if corpus == "mpmd" else corpus)
    if os.path.isdir(hand_written):
        for name in sorted(os.listdir(hand_written)):
            with open(os.path.join(hand_written, name), "rb") as f:
                data = f.read()
            with open(os.path.join(out, "hand-" + name), "wb") as f:
                f.write(data)
            count += 1
    print(f"fuzz_seeds: {count} seeds for {corpus} in {out}")


if __name__ == "__main__":
    main()
