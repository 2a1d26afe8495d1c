# iptables-nft -m limit is the native limit expression (iptables 1.8.9)
iptables-nft -A INPUT -p tcp --syn -m limit --limit 10/s --limit-burst 20 -j ACCEPT
iptables-nft -A INPUT -m limit --limit 3/hour -j DROP
iptables-nft -I INPUT -p icmp -m limit --limit 1/sec --limit-burst 1 -j ACCEPT
ip6tables-nft -A OUTPUT -m limit --limit 100/min --limit-burst 1 -j ACCEPT
iptables-nft -C INPUT -m limit --limit 3/hour -j DROP
iptables-nft -C INPUT -m limit --limit 4/hour -j DROP
iptables-nft -S
iptables-nft -L -n -v
ip6tables-nft -S
iptables-nft -D INPUT -m limit --limit 3/hour -j DROP
nft list ruleset
