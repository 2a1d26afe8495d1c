# netdev chains: missing device keyword, hooks the family lacks, too many devices
nft add table netdev t
nft add chain netdev t a { type filter hook ingress priority 0 ; }
nft add chain netdev t b { type filter hook prerouting device veth0 priority 0 ; }
nft add chain netdev t c { type filter hook ingress device veth0 priority 0 ; }
nft add chain netdev t d { type filter hook ingress device veth0 priority 0 ; }
nft add chain netdev t c { type filter hook ingress device veth1 priority 0 ; }
nft add table inet i
nft add chain inet i e { type filter hook ingress priority 0 ; }
nft add chain inet i f { type filter hook egress device veth0 priority 0 ; }
nft add chain inet i g { type nat hook ingress device veth0 priority 0 ; }
nft list ruleset
