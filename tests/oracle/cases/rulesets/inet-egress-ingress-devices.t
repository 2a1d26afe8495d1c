# inet ingress on several devices and netdev egress on the same devices
nft -c -f @FILE
nft -f @FILE
