# connmark save/restore pattern and conntrack zones in inet
nft -c -f @FILE
nft -f @FILE
