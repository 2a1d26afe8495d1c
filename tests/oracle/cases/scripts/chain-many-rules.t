# a chain with rules added, deleted from the middle and reinserted
nft add table ip t
nft add chain ip t c
nft "add rule ip t c meta mark 1; add rule ip t c meta mark 2; add rule ip t c meta mark 3; add rule ip t c meta mark 4; add rule ip t c meta mark 5; add rule ip t c meta mark 6"
nft delete rule ip t c handle 4
nft delete rule ip t c handle 2
nft add rule ip t c position 5 meta mark 55
nft insert rule ip t c position 3 meta mark 33
nft delete rule ip t c handle 7
nft -a list chain ip t c
