# xtables extensions the kernel refuses in this table, hook or protocol
iptables-nft -A INPUT -p tcp -j TCPMSS --clamp-mss-to-pmtu
iptables-nft -A INPUT -j MASQUERADE
iptables-nft -A FORWARD -p tcp -j REDIRECT --to-ports 8080
iptables-nft -A INPUT -j DNAT --to-destination 10.0.0.1
iptables-nft -A INPUT -j SNAT --to-source 10.0.0.1
iptables-nft -A OUTPUT -j TPROXY --on-port 1
iptables-nft -A INPUT -m comment --comment "still fine" -j ACCEPT
iptables-nft-save
