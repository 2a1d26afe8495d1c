# an existing base chain cannot change type, hook, priority or become a user chain
nft add table ip t
nft add chain ip t c { type filter hook input priority 0 ; }
nft add chain ip t c { type filter hook input priority 1 ; }
nft add chain ip t c { type filter hook output priority 0 ; }
nft add chain ip t c { type nat hook input priority 0 ; }
nft add chain ip t c { type route hook output priority 0 ; }
nft add table netdev n
nft add chain netdev n c { type filter hook ingress device veth0 priority 0 ; }
nft add chain netdev n c { type filter hook egress device veth0 priority 0 ; }
nft list ruleset
