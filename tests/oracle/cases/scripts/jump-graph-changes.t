# jumps added and removed; loops refused only when reachable from a base chain
nft add table ip t
nft add chain ip t a
nft add chain ip t b
nft add rule ip t a jump b
nft add rule ip t b jump a
nft list table ip t
nft add chain ip t base { type filter hook input priority 0 ; }
nft add rule ip t base jump a
nft delete rule ip t b handle 4
nft add rule ip t base jump a
nft add rule ip t b goto a
nft add rule ip t b jump base
nft -a list table ip t
