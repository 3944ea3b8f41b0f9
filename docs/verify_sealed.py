#!/usr/bin/env python3
"""Check a file sealed by agent-trace-audit (layout: docs/sealing.md), independently of it.
Usage: verify_sealed.py SEALED [CHECKPOINT]   Exit 0: intact; otherwise the message says what is wrong."""
import hashlib, json, re, sys

LINK = re.compile(rb'\{"prev":"([0-9a-f]{64})","digest":"([0-9a-f]{64})"(?:,(.+))?\}\n', re.S)
cp = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
expected = cp['records'] if cp else -1
prev, count, file_hash = '0' * 64, 0, hashlib.sha256()
at_mark = prev if expected == 0 else None  # the digest after the checkpoint's record count
for line in open(sys.argv[1], 'rb'):  # binary mode: lines end at b'\n' only
    file_hash.update(line)
    m = LINK.fullmatch(line)
    digest = m and hashlib.sha256(b'%s\n%d\n{%s}' % (prev.encode(), count, m[3] or b'')).hexdigest()
    if not m or m[1].decode() != prev or m[2].decode() != digest:
        sys.exit('chain: appended' if cp and count >= expected and at_mark == cp['final_digest'] else f'chain: broken\nfirst broken link: index {count}')
    prev, count = digest, count + 1
    at_mark = prev if count == expected else at_mark
if cp and (count, prev, file_hash.hexdigest()) != (expected, cp['final_digest'], cp['sealed_sha256']):
    sys.exit('chain: truncated' if count < expected else 'chain: appended' if count > expected and at_mark == cp['final_digest'] else 'chain: swapped')
print('chain: intact' + ('' if cp else ' (no checkpoint: lines cut from the end cannot be ruled out)'))
