# meta expressions (match)
nft -c -f @FILE
nft -f @FILE
