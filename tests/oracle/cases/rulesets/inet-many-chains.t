# 100 user chains in a jump tree (depth <= 16) and 50 base chains at distinct priorities (generated, static)
nft -c -f @FILE
nft -f @FILE
