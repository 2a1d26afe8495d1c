# EOPNOTSUPP: chain type not available on that hook or family
nft add table ip t
nft add chain ip t a { type nat hook forward priority 0 ; }
nft add chain ip t b { type route hook input priority 0 ; }
nft add chain ip t c { type route hook prerouting priority 0 ; }
nft add table ip6 t
nft add chain ip6 t d { type route hook forward priority 0 ; }
nft add table inet t
nft add chain inet t e { type route hook input priority 0 ; }
nft add table bridge t
nft add chain bridge t f { type nat hook prerouting priority 0 ; }
nft add chain bridge t g { type route hook output priority 0 ; }
nft add table arp t
nft add chain arp t h { type filter hook forward priority 0 ; }
nft add chain arp t i { type nat hook input priority 0 ; }
nft add table netdev t
nft add chain netdev t j { type nat hook ingress device veth0 priority 0 ; }
nft add chain netdev t k { type filter hook input priority 0 ; }
nft add chain netdev t l { type filter hook ingress priority 0 ; }
nft add chain ip t m { type filter hook ingress device veth0 priority 0 ; }
nft list ruleset
