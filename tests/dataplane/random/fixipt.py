#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fixipt.py FILE...: drop rule lines iptables-nft-restore refuses (scratch netns)."""
import re, subprocess, sys
def batches(lines):
    cur = None; out = []
    for i, l in enumerate(lines):
        if l.startswith('# dpcheck: iptables') or l.startswith('# dpcheck: ip6tables'):
            cur = [l.split()[-1], []]; out.append(cur)
        elif cur is not None:
            cur[1].append(i)
    return out
for f in sys.argv[1:]:
    for _ in range(80):
        lines = open(f).read().split('\n')
        bad = None
        for tool, idx in batches(lines):
            text = '\n'.join(lines[i] for i in idx if not lines[i].startswith('# dpcheck')) + '\n'
            r = subprocess.run(['unshare', '-n', 'sh', '-c', 'ip link add a0 type veth peer name b0; ip link add a1 type veth peer name b1; %s-nft-restore' % tool], input=text, capture_output=True, text=True)
            if r.returncode:
                m = re.search(r'line:? (\d+)', r.stderr)
                if not m: print(f, 'unfixable', r.stderr[:300]); bad = -1; break
                body = [i for i in idx if not lines[i].startswith('# dpcheck')]
                bad = body[int(m.group(1)) - 1]; break
        if bad is None: break
        if bad == -1 or not lines[bad].startswith('-A'):
            print(f, 'structural', lines[bad] if bad >= 0 else ''); break
        del lines[bad]; open(f, 'w').write('\n'.join(lines))
