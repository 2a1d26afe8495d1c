# IPv6 extension headers and TCP options
nft -c -f @FILE
nft -f @FILE
