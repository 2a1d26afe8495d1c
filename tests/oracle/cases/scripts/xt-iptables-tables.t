# iptables-nft: nat, mangle, raw and security tables
iptables-nft -t nat -A PREROUTING -p tcp --dport 80 -j DNAT --to-destination 10.0.0.1:8080
iptables-nft -t nat -A POSTROUTING -o veth0 -j MASQUERADE
iptables-nft -t nat -A POSTROUTING -s 10.1.0.0/16 -j SNAT --to-source 1.2.3.4
iptables-nft -t nat -A OUTPUT -p tcp --dport 25 -j REDIRECT --to-ports 2525
iptables-nft -t mangle -A PREROUTING -j MARK --set-mark 0x1
iptables-nft -t mangle -A FORWARD -p tcp --tcp-flags SYN,RST SYN -j TCPMSS --clamp-mss-to-pmtu
iptables-nft -t mangle -A OUTPUT -j DSCP --set-dscp 10
iptables-nft -t raw -A PREROUTING -p udp --dport 53 -j CT --notrack
iptables-nft -t raw -A OUTPUT -j NOTRACK
iptables-nft -t security -A INPUT -j ACCEPT
iptables-nft-save
nft list ruleset
