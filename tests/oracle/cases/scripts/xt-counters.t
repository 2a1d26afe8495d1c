# xtables counters: -c on append, zeroing, -Z per chain, restore with counters
iptables-nft -A INPUT -c 10 100 -j ACCEPT
iptables-nft -A INPUT -j DROP
iptables-nft -L -n -v -x
iptables-nft -Z INPUT 1
iptables-nft -L -n -v -x
iptables-nft-save -c
iptables-nft-restore -c @FILE.rules
iptables-nft-save -c
nft list ruleset
