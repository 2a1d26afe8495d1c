# meta set pkttype where nft_meta_set_validate() refuses it (EOPNOTSUPP):
# only netdev ingress, bridge prerouting and ip/ip6/inet prerouting; the
# netdev ingress and bridge prerouting rules commit (tc programs)
nft add table netdev t
nft add chain netdev t in { type filter hook ingress device veth0 priority 0 ; }
nft add chain netdev t eg { type filter hook egress device veth0 priority 0 ; }
nft add chain netdev t reg
nft add rule netdev t in meta pkttype set other
nft add rule netdev t eg meta pkttype set host
nft add rule netdev t reg meta pkttype set broadcast
nft add rule netdev t in jump reg
nft add rule netdev t eg jump reg
nft add table bridge b
nft add chain bridge b pre { type filter hook prerouting priority 0 ; }
nft add chain bridge b fw { type filter hook forward priority 0 ; }
nft add rule bridge b pre meta pkttype set host
nft add rule bridge b fw meta pkttype set host
nft add table arp a
nft add chain arp a in { type filter hook input priority 0 ; }
nft add rule arp a in meta pkttype set host
nft add table ip i
nft add chain ip i in { type filter hook input priority 0 ; }
nft add rule ip i in meta pkttype set host
nft add table inet n
nft add chain inet n ing { type filter hook ingress device veth0 priority 0 ; }
nft add rule inet n ing meta pkttype set host
nft list ruleset
