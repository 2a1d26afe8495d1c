# dormant table (flags dormant) with base chains that are therefore not registered
nft -c -f @FILE
nft -f @FILE
