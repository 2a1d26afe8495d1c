nft -f @FILE
nft -a list ruleset
nft -f @FILE.b
nft -a list ruleset
nft -f @FILE.c
nft -a list ruleset
nft -f @FILE.d
nft -a list ruleset
nft -f @FILE.e
nft -a list ruleset
