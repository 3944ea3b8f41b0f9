#!/usr/bin/env python3
"""Writes test/fixtures/catalog/python-schemas.jsonl with CPython's own hashes.

A typed-event catalog whose schemas hold floats (1.0, 1e16, 1e-05), non-ASCII
text and astral / U+FF01 names, hashed the way Python harnesses do:
sha256(json.dumps(obj, sort_keys=True, separators=(",", ":"))). Deterministic.

    python3 scripts/gen-catalog-fixtures.py > test/fixtures/catalog/python-schemas.jsonl
"""
import hashlib
import json
import sys


def canonical_sha256(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


SCHEMAS = {
    "set_ratio": {
        "type": "object",
        "properties": {
            "ratio": {"type": "number", "minimum": 0.0, "maximum": 1.0, "description": "ratio \u00e0 appliquer"},
            "scale": {"type": "number", "maximum": 1e16, "minimum": 1e-05},
        },
        "required": ["ratio"],
        "additionalProperties": False,
    },
    "\U0001F600echo": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 1}},
        "required": ["text"],
    },
    "\uff01bang": {"type": "object", "properties": {"\uffff": {"type": "integer"}, "\U0001F600": {"type": "integer"}}},
}


def main() -> None:
    names = sorted(SCHEMAS)
    run = "py-schemas-1"
    catalog_sha = canonical_sha256(names)
    rows = [
        {
            "type": "catalog",
            "run_id": run,
            "catalog_names": names,
            "catalog_sha256": catalog_sha,
            "schema_sha256": {name: canonical_sha256(schema) for name, schema in SCHEMAS.items()},
            "schemas": SCHEMAS,
        }
    ]
    for i, (name, args) in enumerate([("set_ratio", {"ratio": 0.5}), ("\U0001F600echo", {"text": "hi"}), ("\uff01bang", {})], start=1):
        rows.append({"type": "tool_call", "run_id": run, "catalog_sha256": catalog_sha, "tool_call_id": f"c{i}", "name": name, "arguments": args})
        rows.append({"type": "tool_result", "run_id": run, "tool_call_id": f"c{i}", "name": name, "exit_code": 0})
    for row in rows:
        sys.stdout.write(json.dumps(row, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
