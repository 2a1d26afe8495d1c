# meta keys read through the socket and the devices
nft -c -f @FILE
nft -f @FILE
