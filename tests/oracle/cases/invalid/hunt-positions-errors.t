nft add table ip t
nft add chain ip t a
nft add chain ip t b
nft add rule ip t a meta mark 1
nft add rule ip t b meta mark 2
nft add rule ip t b position 2 meta mark 3
nft insert rule ip t a handle 3 meta mark 4
nft replace rule ip t b handle 2 meta mark 5
nft delete rule ip t b handle 2
nft delete rule ip t a handle 1
nft add rule ip t a position 0 meta mark 6
nft add rule ip t a index 0 meta mark 7
nft insert rule ip t b index 1 meta mark 8
nft add rule ip t b index 1 meta mark 9
nft -f @FILE
nft -a list ruleset
nft -f @FILE.b
nft -a list ruleset
