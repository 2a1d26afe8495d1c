# reserved words (fwd) as table/chain names are parse errors in nft 1.0.6, quoted or not
nft -f @FILE
nft add table ip fwd
nft add table ip t
nft add chain ip t fwd
nft add chain ip t '"fwd"'
nft list chains
