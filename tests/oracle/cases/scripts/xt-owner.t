# iptables-nft -m owner (xt owner rev 1): output and postrouting only
iptables-nft -A OUTPUT -m owner --uid-owner 1000 -j DROP
iptables-nft -A OUTPUT -m owner ! --uid-owner 0-999 -j ACCEPT
iptables-nft -A OUTPUT -m owner --gid-owner 100 --uid-owner 5 -j REJECT
iptables-nft -A OUTPUT -m owner --socket-exists -j ACCEPT
iptables-nft -A OUTPUT -m owner ! --socket-exists -j DROP
iptables-nft -t mangle -A POSTROUTING -m owner --uid-owner 33 -j ACCEPT
iptables-nft -A INPUT -m owner --uid-owner 1000 -j DROP
iptables-nft -A OUTPUT -m owner --uid-owner 10-5 -j DROP
ip6tables-nft -A OUTPUT -m owner --gid-owner 1000 -j DROP
iptables-nft-save
ip6tables-nft-save
nft list ruleset
