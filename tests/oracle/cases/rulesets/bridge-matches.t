# bridge family: ether, vlan, ip/ip6/arp payload, meta
nft -c -f @FILE
nft -f @FILE
