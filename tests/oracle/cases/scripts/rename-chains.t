# renames: user chains, chains referenced by jumps, base chains, conflicts
nft add table ip t
nft add chain ip t base { type filter hook input priority 0 ; }
nft add chain ip t a
nft add rule ip t base jump a
nft rename chain ip t a b
nft list table ip t
nft rename chain ip t base base2
nft rename chain ip t b base2
nft add chain ip t a
nft rename chain ip t a a
nft "rename chain ip t a x; rename chain ip t x y"
nft -a list table ip t
