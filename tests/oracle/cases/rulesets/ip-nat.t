# snat/dnat/masquerade/redirect with ports, ranges and flags
nft -c -f @FILE
nft -f @FILE
