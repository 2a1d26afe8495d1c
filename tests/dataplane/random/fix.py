#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fix.py FILE...: delete lines nft -c rejects until each file loads (in a scratch netns)."""
import re, subprocess, sys
for f in sys.argv[1:]:
    for _ in range(60):
        r = subprocess.run(['unshare', '-n', 'sh', '-c', 'ip link add a0 type veth peer name b0; ip link add a1 type veth peer name b1; nft -c -f ' + f], capture_output=True, text=True)
        if r.returncode == 0:
            break
        m = re.search(re.escape(f) + r':(\d+):', r.stderr)
        if not m:
            print(f, 'unfixable:', r.stderr[:200]); break
        ln = int(m.group(1))
        lines = open(f).read().split('\n')
        if lines[ln - 1].strip().startswith(('chain', 'type', 'table', '}')):
            print(f, 'structural:', r.stderr[:200]); break
        del lines[ln - 1]
        open(f, 'w').write('\n'.join(lines))
