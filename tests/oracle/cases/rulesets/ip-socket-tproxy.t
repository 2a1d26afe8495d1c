# socket, tproxy, osf, ipsec, dup expressions
nft -c -f @FILE
nft -f @FILE
