# inet ingress hook bound to a device
nft -c -f @FILE
nft -f @FILE
