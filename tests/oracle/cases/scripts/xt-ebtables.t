# ebtables-nft sequences on the filter and nat tables
ebtables-nft -A INPUT -s 00:11:22:33:44:55 -j DROP
ebtables-nft -A FORWARD -p IPv4 --ip-src 10.0.0.1 -j ACCEPT
ebtables-nft -A FORWARD -p ARP --arp-op Request -j ACCEPT
ebtables-nft -A FORWARD -p 802_1Q --vlan-id 10 -j DROP
ebtables-nft -I INPUT -i veth0 -j ACCEPT
ebtables-nft -N USER
ebtables-nft -A USER -j RETURN
ebtables-nft -A FORWARD -j USER
ebtables-nft -P FORWARD DROP
ebtables-nft -t nat -A PREROUTING -d 00:11:22:33:44:55 -j dnat --to-dst 66:77:88:99:aa:bb
ebtables-nft -L
ebtables-nft -L --Ln --Lc
ebtables-nft -D INPUT -s 00:11:22:33:44:55 -j DROP
ebtables-nft -D FORWARD 1
ebtables-nft -E USER USER2
ebtables-nft -L
ebtables-nft-save
nft list ruleset
