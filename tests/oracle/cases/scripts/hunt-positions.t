nft add table ip t
nft add chain ip t c
nft add rule ip t c meta mark 1
nft add rule ip t c meta mark 2
nft add rule ip t c meta mark 3
nft delete rule ip t c handle 3
nft add rule ip t c position 3 meta mark 4
nft insert rule ip t c position 3 meta mark 5
nft add rule ip t c index 2 meta mark 6
nft add rule ip t c index 3 meta mark 7
nft insert rule ip t c index 5 meta mark 8
nft add rule ip t c index 4 meta mark 9
nft insert rule ip t c index 4 meta mark 10
nft add rule ip t c index -1 meta mark 11
nft -a list chain ip t c
nft replace rule ip t c handle 4 meta mark 40
nft insert rule ip t c position 4 meta mark 41
nft add rule ip t c position 4 meta mark 42
nft -a list chain ip t c
nft replace rule ip t c handle 3 meta mark 50
nft replace rule ip t c position 4 meta mark 51
nft -a list chain ip t c
