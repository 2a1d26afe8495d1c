# dormant netdev table with device-bound chains
nft -c -f @FILE
nft -f @FILE
