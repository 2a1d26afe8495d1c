# EOPNOTSUPP: jumping or going to a base chain
nft add table ip t
nft add chain ip t base { type filter hook input priority 0 ; }
nft add chain ip t other { type filter hook output priority 0 ; }
nft add chain ip t u
nft add rule ip t u jump base
nft add rule ip t other goto base
nft add rule ip t u tcp dport vmap { 1 : jump base }
nft list ruleset
