nft add table ip t
nft add chain ip t c { type filter hook input priority 0\; }
nft add rule ip t c ip saddr { 1.1.1.1, 2.2.2.2 } accept
nft list hooks
nft list hooks ip
nft list set ip t __set0
nft list sets ip
nft delete set ip t __set0
nft flush set ip t __set0
nft add element ip t __set0 { 3.3.3.3 }
nft delete set ip t handle 1
nft -a list ruleset
nft add chain ip t c { type filter hook input priority 10\; }
nft add chain ip t c { type filter hook output priority 0\; }
nft add chain ip t c { type filter hook input priority 0\; policy drop\; }
nft add chain ip t c { type filter hook input priority 0\; policy accept\; comment '"x"'\; }
nft add chain ip t c { policy accept\; }
nft list chain ip t c
nft -j -f @FILE
nft -a list ruleset
nft -c add rule ip t c drop
nft -c add table ip zz
nft -c delete table ip t
nft -c add rule ip t nochain drop
nft list tables
nft list chain ip t c
nft list chains ip
nft list table ip nonexist
nft list chain ip t nonexist
nft list counters table ip t
nft list sets table ip t
nft list maps table ip t
nft list quotas table ip t
