#!/usr/bin/env python3
"""Golden vectors for the Python canonical JSON form.

Writes test/fixtures/canonical/python-vectors.jsonl: one line per vector with
the JSON text given to json.loads ("input"), CPython's
json.dumps(obj, sort_keys=True, separators=(",", ":")) of it ("python") and the
SHA-256 of its UTF-8 bytes ("sha256"). Deterministic: a fixed seed, no clock.

    python3 scripts/gen-python-canonical-vectors.py > test/fixtures/canonical/python-vectors.jsonl
"""
from __future__ import annotations

import hashlib
import json
import math
import random
import struct
import sys

SEED = 8785
COUNT = 1200

KEY_TRAPS = [
    "", "a", "A", "b", "aa", "ab", "B", "_", "1", "10", "2", "é", "e\u0301",
    "\ue000", "\uffff", "\ufb01", "\uff01", "\U0001F600", "\U00010000", "\U0010FFFF",
    "__proto__", "constructor", "toString", "hasOwnProperty", "type", "properties",
    "required", "\u0000", "\x7f", "tab\there", "quote\"d", "back\\slash", "line\u2028sep",
]
STRINGS = [
    "", "plain", "with space", "quote\"", "back\\slash", "slash/ok", "\b\f\n\r\t",
    "\x00\x01\x1f", "\x7f", "é", "naïve café", "中文", "日本語のテキスト", "\u2028\u2029",
    "\ufeff", "\ue000", "\uffff", "😀", "𝄞", "\U0010FFFF", "mixed 😀 and é\n",
    "\ud800", "\udfff", "a\udc00b", "Ω≈ç√∫", "\u0085", "\u00a0",
]
SPECIAL_FLOATS = [
    0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1.5, 100.0, 1e15, 1e16, 1e17, 9999999999999998.0,
    1234567890123456.7, 0.0001, 0.00001, 0.00012345, 1e-05, 1e-07, 5e-324, 2.2250738585072014e-308,
    1.7976931348623157e308, 123456789.0, 1e21, 1e22, 1e-6, 3.141592653589793, 2.5e-5,
    4.35, 0.000123, 1e100, 1.0000000000000002, 9007199254740993.0, 1e+300, 12345678901234567890.0,
]


def rand_float(rng: random.Random) -> float:
    pick = rng.random()
    if pick < 0.25:
        return rng.choice(SPECIAL_FLOATS) * rng.choice([1, -1])
    if pick < 0.5:
        while True:
            x = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
            if math.isfinite(x):
                return x
    if pick < 0.75:
        return round(rng.uniform(-1000, 1000), rng.randint(0, 6))
    return rng.uniform(0.1, 9.9) * 10.0 ** rng.randint(-30, 30) * rng.choice([1, -1])


def rand_int(rng: random.Random) -> int:
    pick = rng.random()
    if pick < 0.5:
        return rng.randint(-1000, 1000)
    if pick < 0.8:
        return rng.randint(-(2**53), 2**53)
    return rng.choice([1, -1]) * rng.randint(2**53, 10**rng.randint(17, 45))


def rand_string(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(STRINGS)
    parts = [rng.choice(STRINGS) for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        parts.append(chr(rng.randint(0x80, 0x10FFFF)).encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass"))
    return "".join(parts)


def rand_key(rng: random.Random) -> str:
    return rng.choice(KEY_TRAPS) if rng.random() < 0.7 else rand_string(rng)


def rand_value(rng: random.Random, depth: int):
    kinds = ["float", "int", "str", "bool", "null"]
    if depth < 4:
        kinds += ["list", "dict", "list", "dict"]
    kind = rng.choice(kinds)
    if kind == "float":
        return rand_float(rng)
    if kind == "int":
        return rand_int(rng)
    if kind == "str":
        return rand_string(rng)
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [rand_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rand_key(rng): rand_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def tool_schema(rng: random.Random) -> dict:
    props = {}
    for name in rng.sample(["path", "pattern", "args", "limit", "offset", "query", "é", "😀", "\uff01"], rng.randint(0, 4)):
        prop = {"type": rng.choice(["string", "integer", "number", "array", "boolean"])}
        if prop["type"] == "number":
            prop["minimum"] = rand_float(rng)
            prop["maximum"] = rng.choice([1.0, 1e16, 100.5, 2.0])
        if prop["type"] == "array":
            prop["items"] = {"type": "string"}
        if rng.random() < 0.4:
            prop["description"] = rand_string(rng)
        props[name] = prop
    schema = {"type": "object", "properties": props, "required": sorted(props)[: rng.randint(0, len(props))]}
    if rng.random() < 0.3:
        schema["$schema"] = rng.choice(["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema"])
    return schema


def catalog_names(rng: random.Random) -> list:
    pool = ["pytest", "read_file", "grep", "run_tests", "write_file", "search", "\u00e9dit", "😀tool", "\uff01bang", "Z", "a"]
    return sorted(rng.sample(pool, rng.randint(0, 6)))


def float_lexeme(rng: random.Random, x: float) -> str:
    """A text json.loads reads back as exactly this float, written in one of several styles."""
    style = rng.randint(0, 4)
    if style == 0:
        text = repr(x)
    elif style == 1:
        text = repr(x).upper()
    elif style == 2:
        text = "%.17e" % x
    elif style == 3:
        text = "%.17g" % x
    else:
        text = "%.25g" % x
    if not any(c in text for c in ".eE"):
        text += rng.choice([".0", ".000", "e0", "E+0"])
    assert float(text) == x and math.copysign(1, float(text)) == math.copysign(1, x), (text, x)
    return text


def write(rng: random.Random, value, ws: bool) -> str:
    sp = (lambda: rng.choice(["", " ", "\n", "\t ", "\r\n"])) if ws else (lambda: "")
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        return float_lexeme(rng, value)
    if isinstance(value, int):
        return "-0" if value == 0 and rng.random() < 0.2 else str(value)
    if isinstance(value, str):
        ascii_only = rng.random() < 0.5 or any(0xD800 <= ord(c) <= 0xDFFF for c in value)
        text = json.dumps(value, ensure_ascii=ascii_only)
        return text.replace("/", "\\/") if rng.random() < 0.2 else text
    if isinstance(value, list):
        return "[" + sp() + ("," + sp()).join(write(rng, v, ws) for v in value) + sp() + "]"
    items = list(value.items())
    rng.shuffle(items)
    body = ("," + sp()).join(write(rng, k, ws) + sp() + ":" + sp() + write(rng, v, ws) for k, v in items)
    return "{" + sp() + body + sp() + "}"


def main() -> None:
    rng = random.Random(SEED)
    fixed = ["[]", "{}", "0", "-0", "-0.0", "1.0", "1E+16", "1e-5", "1e-4", "12345678901234567890123", '"\\u00E9"', '"\\ud83d\\ude00"']
    texts = list(fixed)
    while len(texts) < COUNT:
        pick = rng.random()
        if pick < 0.15:
            value = catalog_names(rng)
        elif pick < 0.35:
            value = tool_schema(rng)
        elif pick < 0.45:
            value = {rand_key(rng): rand_value(rng, 3) for _ in range(rng.randint(2, 8))}
        else:
            value = rand_value(rng, 0)
        texts.append(write(rng, value, rng.random() < 0.3))
    out = sys.stdout
    for text in texts:
        canonical = json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        out.write(json.dumps({"input": text, "python": canonical, "sha256": digest}, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
