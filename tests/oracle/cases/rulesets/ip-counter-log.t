# anonymous counters and every log flavour
nft -c -f @FILE
nft -f @FILE
