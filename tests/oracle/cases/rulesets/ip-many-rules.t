# 500 rules of a few shapes in one chain (generated, static)
nft -c -f @FILE
nft -f @FILE
