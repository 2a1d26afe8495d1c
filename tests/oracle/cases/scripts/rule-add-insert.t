# rules: add appends, insert prepends; handles keep growing
nft add table ip t
nft add chain ip t c
nft add rule ip t c meta mark 1 counter
nft add rule ip t c meta mark 2 counter
nft insert rule ip t c meta mark 3 counter
nft insert rule ip t c meta mark 4 counter
nft add rule ip t c meta mark 5 counter
nft -a list chain ip t c
nft -a list ruleset
