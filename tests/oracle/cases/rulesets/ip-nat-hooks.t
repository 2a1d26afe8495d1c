# nat base chains on prerouting/input/output/postrouting with named priorities
nft -c -f @FILE
nft -f @FILE
