# netdev sets, concatenations and interval maps
nft -c -f @FILE
nft -f @FILE
