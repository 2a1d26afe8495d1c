# delete rules by handle, then again, and with wrong chain
nft add table ip t
nft add chain ip t a
nft add chain ip t b
nft add rule ip t a meta mark 1
nft add rule ip t a meta mark 2
nft add rule ip t b meta mark 3
nft -a list table ip t
nft delete rule ip t a handle 4
nft delete rule ip t a handle 4
nft delete rule ip t a handle 5
nft delete rule ip t b handle 5
nft delete rule ip t nope handle 5
nft -a list table ip t
nft add rule ip t a meta mark 4
nft -a list table ip t
