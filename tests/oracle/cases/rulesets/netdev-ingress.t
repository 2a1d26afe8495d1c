# netdev ingress chains on one and several devices
nft -c -f @FILE
nft -f @FILE
