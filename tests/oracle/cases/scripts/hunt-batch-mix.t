nft add table ip t
nft add chain ip t c
nft add rule ip t c meta mark 1
nft add rule ip t c meta mark 2
nft -f @FILE
nft -a list ruleset
nft -f @FILE.b
nft -a list ruleset
nft -f @FILE.c
nft -a list ruleset
nft -f @FILE.d
nft -a list ruleset
