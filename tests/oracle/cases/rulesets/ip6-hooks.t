# ip6 filter/nat/route base chains on every hook
nft -c -f @FILE
nft -f @FILE
