nft add table netdev n
nft add chain netdev n ing { type filter hook ingress device lo priority 0\; }
nft add chain netdev n ing2 { type filter hook ingress devices = { lo, veth0 } priority 0\; }
nft add chain netdev n ing2 { type filter hook ingress devices = { veth1 } priority 0\; }
nft delete chain netdev n ing2 { type filter hook ingress devices = { veth0 } priority 0\; }
nft -a list ruleset
nft add table inet t
nft add chain inet t c { type filter hook input priority 0\; policy drop\; }
nft add chain inet t c { type filter hook input priority 0\; policy accept\; }
nft add chain inet t pr { type filter hook prerouting priority raw\; }
nft add chain inet t pr2 { type filter hook prerouting priority mangle - 5\; }
nft add chain inet t pr3 { type filter hook postrouting priority srcnat\; }
nft add chain inet t pr4 { type filter hook forward priority security + 1\; }
nft add chain inet t pr5 { type filter hook prerouting priority dstnat\; }
nft add chain inet t ing { type filter hook ingress device lo priority 0\; }
nft add chain inet t out { type filter hook output priority 100\; policy drop\; }
nft -a list ruleset
nft -n list ruleset
nft list chain inet t pr2
nft delete chain inet t pr2
nft delete chain inet t handle 3
nft -a list chains
nft add chain ip t2 c { type filter hook input priority 0\; }
nft add table ip t2
nft add chain ip t2 c { type filter hook input priority 0\; }
nft add chain ip t2 c { type filter hook input priority 0\; }
nft create chain ip t2 c { type filter hook input priority 0\; }
nft add chain ip t2 c2 { type filter hook input priority 0\; policy queue\; }
nft add chain ip t2 c3 { type filter hook input priority 0\; policy drop\; }
nft add table ip t2 { flags dormant\; }
nft -a list table ip t2
nft add table ip t2
nft add table ip t2 { flags dormant\; }
nft -a list table ip t2
