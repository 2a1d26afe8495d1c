# route type chain on output (mangle priority), marking packets
nft -c -f @FILE
nft -f @FILE
