# rule positions: add/insert position N (by handle) and index N (by ordinal)
nft add table ip t
nft add chain ip t c
nft add rule ip t c meta mark 1
nft add rule ip t c meta mark 2
nft add rule ip t c meta mark 3
nft add rule ip t c position 2 meta mark 10
nft insert rule ip t c position 2 meta mark 11
nft add rule ip t c position 4 meta mark 12
nft insert rule ip t c position 4 meta mark 13
nft -a list chain ip t c
nft add rule ip t c index 0 meta mark 20
nft insert rule ip t c index 0 meta mark 21
nft insert rule ip t c index 3 meta mark 22
nft add rule ip t c index 8 meta mark 23
nft add rule ip t c handle 3 meta mark 24
nft insert rule ip t c handle 4 meta mark 25
nft -a list chain ip t c
nft add rule ip t c position 1000 meta mark 99
nft add rule ip t c index 1000 meta mark 99
nft insert rule ip t c index 1000 meta mark 99
nft -a list chain ip t c
