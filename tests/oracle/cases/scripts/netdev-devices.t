# netdev chains: devices, missing device, adding a device to a chain
nft add table netdev t
nft add chain netdev t a { type filter hook ingress device veth0 priority 0 ; }
nft add chain netdev t b { type filter hook ingress device nosuchdev priority 0 ; }
nft add chain netdev t c { type filter hook ingress devices = { veth0, veth1 } priority 10 ; }
nft add chain netdev t a { type filter hook ingress devices = { veth0, veth1 } priority 0 ; }
nft add chain netdev t e { type filter hook egress device veth1 priority 0 ; }
nft list ruleset
nft delete chain netdev t c
nft list ruleset
