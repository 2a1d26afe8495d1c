# ip6 nat: snat/dnat/masquerade/redirect
nft -c -f @FILE
nft -f @FILE
